// Natural loops: back edges (tail → header where the header dominates the
// tail), bodies, exits and nesting; and the retreating edges that are not back
// edges, which mark irreducible regions.
import type { Cfg } from './builder.js';
import type { DomTree } from './dominators.js';

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

export function findLoops(cfg: Cfg, dom: DomTree): LoopForest {
  const bodies = new Map<number, { blocks: Set<number>; backEdges: [number, number][] }>();
  const irreducibleEdges: [number, number][] = [];
  // Retreating edges from a DFS: u → v with v on the DFS stack.
  const state = new Uint8Array(cfg.blocks.length); // 0 new, 1 on stack, 2 done
  const stack: [number, number][] = cfg.blocks.length > 0 ? [[0, 0]] : [];
  if (stack.length > 0) state[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const succs = cfg.blocks[top[0]]!.succs;
    if (top[1] < succs.length) {
      const s = succs[top[1]++]!;
      if (s === cfg.exit) continue;
      if (state[s] === 0) {
        state[s] = 1;
        stack.push([s, 0]);
      } else if (state[s] === 1) {
        if (dom.dominates(s, top[0])) {
          const body = bodies.get(s) ?? { blocks: new Set([s]), backEdges: [] };
          body.backEdges.push([top[0], s]);
          bodies.set(s, body);
        } else {
          irreducibleEdges.push([top[0], s]);
        }
      }
    } else {
      state[top[0]] = 2;
      stack.pop();
    }
  }
  // Back edges to a block already finished in the DFS are also back edges
  // when the target dominates the source (a loop entered twice in the DFS).
  for (const b of cfg.blocks) {
    for (const s of b.succs) {
      if (s === cfg.exit || !b.reachable) continue;
      if (dom.dominates(s, b.id)) {
        const body = bodies.get(s) ?? { blocks: new Set([s]), backEdges: [] };
        if (!body.backEdges.some(([t]) => t === b.id)) body.backEdges.push([b.id, s]);
        bodies.set(s, body);
      }
    }
  }
  const loops: Loop[] = [];
  for (const [header, body] of [...bodies].sort((a, b) => a[0] - b[0])) {
    const work = body.backEdges.map(([t]) => t).filter((t) => t !== header);
    for (const t of work) body.blocks.add(t);
    while (work.length > 0) {
      const n = work.pop()!;
      for (const p of cfg.blocks[n]!.preds) {
        if (!body.blocks.has(p) && cfg.blocks[p]!.reachable) {
          body.blocks.add(p);
          work.push(p);
        }
      }
    }
    const blocks = [...body.blocks].sort((a, b) => a - b);
    const exits: [number, number][] = [];
    for (const b of blocks) for (const s of cfg.blocks[b]!.succs) if (!body.blocks.has(s)) exits.push([b, s]);
    loops.push({ header, blocks, backEdges: body.backEdges.sort((a, b) => a[0] - b[0]), exits, parent: -1, depth: 1 });
  }
  // Nesting: the parent is the smallest strictly larger loop containing the header.
  const bySize = loops.map((_l, i) => i).sort((a, b) => loops[a]!.blocks.length - loops[b]!.blocks.length);
  for (const i of bySize) {
    const inner = loops[i]!;
    for (const j of bySize) {
      const outer = loops[j]!;
      if (j !== i && outer.blocks.length > inner.blocks.length && outer.blocks.includes(inner.header)) {
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
  const loopOf = new Int32Array(cfg.blocks.length).fill(-1);
  for (const i of bySize.slice().reverse()) for (const b of loops[i]!.blocks) loopOf[b] = i;
  // Smallest loop wins: assign outer loops first, inner ones overwrite.
  return { loops, loopOf, irreducibleEdges };
}
