// Natural loops: back edges (tail → header where the header dominates the
// tail), bodies, exits and nesting; and the retreating edges that are not back
// edges, which mark irreducible regions.
import type { Cfg } from './builder.js';
import type { DomTree } from './dominators.js';
import { int32Scratch, uint8Scratch } from './scratch.js';

export interface Loop {
  readonly header: number;
  /** Blocks of the loop, the header included, sorted. */
  readonly blocks: readonly number[];
  /** Back edges [tail, header]. */
  readonly backEdges: readonly (readonly [number, number])[];
  /** Edges [inside, outside] leaving the loop. */
  readonly exits: readonly (readonly [number, number])[];
  /** Index of the innermost enclosing loop in `LoopForest.loops`, or -1. */
  parent: number;
  /** 1 for an outermost loop. */
  depth: number;
}

export interface LoopForest {
  readonly loops: readonly Loop[];
  /** Innermost loop of each block, or -1. */
  readonly loopOf: Int32Array;
  /** Retreating edges whose target does not dominate their source. */
  readonly irreducibleEdges: readonly (readonly [number, number])[];
}

/** Scratch kept from function to function (src/cfg/scratch.ts; no forest keeps any of it): the DFS stack as two
 *  columns (block, next edge), each block's DFS state, and the loop bodies' marks, members and work list. */
const STACK_NODE = int32Scratch();
const STACK_EDGE = int32Scratch();
const STATE = uint8Scratch();
const MARK = int32Scratch();
const MEMBERS = int32Scratch();
const WORK = int32Scratch();

export function findLoops(cfg: Cfg, dom: DomTree): LoopForest {
  const blocks = cfg.blocks;
  const B = blocks.length;
  // Back edges [tail, header] and retreating edges that are not, from one DFS: u → v with v on the DFS
  // stack. (Every back edge is one: a header that dominates the tail is on every path to it, the DFS's
  // own path included, so it is on the stack while the tail's edges are looked at.)
  const backEdges: [number, number][] = [];
  const irreducibleEdges: [number, number][] = [];
  if (B > 0) {
    const state = STATE.get(B).fill(0, 0, B); // 0 new, 1 on stack, 2 done
    const node = STACK_NODE.get(B);
    const edge = STACK_EDGE.get(B);
    let top = 0;
    node[0] = 0;
    edge[0] = 0;
    state[0] = 1;
    while (top >= 0) {
      const u = node[top]!;
      const succs = blocks[u]!.succs;
      if (edge[top]! < succs.length) {
        const s = succs[edge[top]!++]!;
        if (s === cfg.exit) continue;
        if (state[s] === 0) {
          state[s] = 1;
          top++;
          node[top] = s;
          edge[top] = 0;
        } else if (state[s] === 1) {
          if (dom.dominates(s, u)) backEdges.push([u, s]);
          else irreducibleEdges.push([u, s]);
        }
      } else {
        state[u] = 2;
        top--;
      }
    }
  }
  const loops = loopBodies(cfg, backEdges);
  // Nesting: the parent is the smallest strictly larger loop containing the header.
  const bySize = loops.map((_l, i) => i).sort((a, b) => loops[a]!.blocks.length - loops[b]!.blocks.length);
  for (const i of bySize) {
    const inner = loops[i]!;
    for (const j of bySize) {
      const outer = loops[j]!;
      if (j !== i && outer.blocks.length > inner.blocks.length && holdsSorted(outer.blocks, inner.header)) {
        inner.parent = j;
        break;
      }
    }
  }
  for (const l of loops) {
    let d = 1;
    for (let p = l.parent; p !== -1; p = loops[p]!.parent) d++;
    l.depth = d;
  }
  const loopOf = new Int32Array(B).fill(-1);
  // Smallest loop wins: assign outer loops first, inner ones overwrite.
  for (let k = bySize.length - 1; k >= 0; k--) {
    const i = bySize[k]!;
    const body = loops[i]!.blocks;
    for (let m = 0; m < body.length; m++) loopOf[body[m]!] = i;
  }
  return { loops, loopOf, irreducibleEdges };
}

/** The natural loops of the back edges, one per header in the order of the headers: the header, and the
 *  reachable blocks that reach a tail without passing it (found backward from the tails), each body marked
 *  in MARK by its loop's number plus one. */
function loopBodies(cfg: Cfg, backEdges: [number, number][]): Loop[] {
  const loops: Loop[] = [];
  if (backEdges.length === 0) return loops;
  const blocks = cfg.blocks;
  // By header, then tail (a block has one edge to a header).
  backEdges.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  const count = blocks.length + 1;
  const mark = MARK.get(count).fill(0, 0, count);
  const members = MEMBERS.get(count);
  const work = WORK.get(count);
  for (let first = 0; first < backEdges.length;) {
    const header = backEdges[first]![1];
    let end = first + 1;
    while (end < backEdges.length && backEdges[end]![1] === header) end++;
    const stamp = loops.length + 1;
    mark[header] = stamp;
    members[0] = header;
    let count = 1;
    let top = 0;
    for (let k = first; k < end; k++) {
      const t = backEdges[k]![0];
      if (t === header) continue;
      mark[t] = stamp;
      members[count++] = t;
      work[top++] = t;
    }
    while (top > 0) {
      const preds = blocks[work[--top]!]!.preds;
      for (let k = 0; k < preds.length; k++) {
        const p = preds[k]!;
        if (mark[p] !== stamp && blocks[p]!.reachable) {
          mark[p] = stamp;
          members[count++] = p;
          work[top++] = p;
        }
      }
    }
    members.subarray(0, count).sort();
    const body = new Array<number>(count);
    for (let k = 0; k < count; k++) body[k] = members[k]!;
    const exits: [number, number][] = [];
    for (let k = 0; k < count; k++) {
      const succs = blocks[body[k]!]!.succs;
      for (let m = 0; m < succs.length; m++) if (mark[succs[m]!] !== stamp) exits.push([body[k]!, succs[m]!]);
    }
    loops.push({ header, blocks: body, backEdges: backEdges.slice(first, end), exits, parent: -1, depth: 1 });
    first = end;
  }
  return loops;
}

/** Whether ascending `list` holds `x` (binary search). */
function holdsSorted(list: readonly number[], x: number): boolean {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = list[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
