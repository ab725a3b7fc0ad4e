// Dominators and post-dominators (Cooper, Harvey and Kennedy's iterative
// algorithm over reverse post-order), and control dependence from the
// post-dominator tree, for the uniformity analysis.
import type { Cfg } from './builder.js';
import { int32Scratch, uint8Scratch } from './scratch.js';

export interface DomTree {
  /** Immediate dominator of each node; -1 for the root and for nodes it cannot reach. */
  readonly idom: Int32Array;
  /** The root: the entry block (dominators) or the virtual exit (post-dominators). */
  readonly root: number;
  /** a dominates b (reflexive). */
  dominates(a: number, b: number): boolean;
}

/** Scratch kept from function to function (src/cfg/scratch.ts; no tree keeps any of it): the DFS stack as two
 *  columns (node, next edge), the post-order, each node's reverse post-order number, and flags. (A pair array
 *  per stacked node and a list grown by `push` per node were most of what a tree allocated.) */
const STACK_NODE = int32Scratch();
const STACK_EDGE = int32Scratch();
const POST = int32Scratch();
const RPO = int32Scratch();
const FLAGS = uint8Scratch();

/** Adjacency lists by node. */
type Lists = readonly (readonly number[])[];

const NO_NODES: readonly number[] = [];

/** Post-order of the nodes reachable from `root` along `next` into `post`; returns their count. */
function postOrder(count: number, root: number, next: Lists, post: Int32Array): number {
  const seen = FLAGS.get(count).fill(0, 0, count);
  const node = STACK_NODE.get(count);
  const edge = STACK_EDGE.get(count);
  let length = 0;
  let top = 0;
  node[0] = root;
  edge[0] = 0;
  seen[root] = 1;
  while (top >= 0) {
    const succ = next[node[top]!]!;
    if (edge[top]! < succ.length) {
      const s = succ[edge[top]!++]!;
      if (seen[s] === 0) {
        seen[s] = 1;
        top++;
        node[top] = s;
        edge[top] = 0;
      }
    } else {
      post[length++] = node[top--]!;
    }
  }
  return length;
}

/** The nearest common dominator of `a` and `b` (both with one), walking up by reverse post-order number. */
function intersect(rpo: Int32Array, idom: Int32Array, a: number, b: number): number {
  while (a !== b) {
    while (rpo[a]! > rpo[b]!) a = idom[a]!;
    while (rpo[b]! > rpo[a]!) b = idom[b]!;
  }
  return a;
}

/** Dominator tree of a graph with nodes 0..count-1, from `root`, following `next` (predecessors `prev`). */
function computeDomTree(count: number, root: number, next: Lists, prev: Lists): DomTree {
  // Reverse post-order from the root: the post-order read backward.
  const post = POST.get(count);
  const reached = postOrder(count, root, next, post);
  const rpo = RPO.get(count).fill(-1, 0, count);
  for (let i = 0; i < reached; i++) rpo[post[i]!] = reached - 1 - i;
  // The tree's two columns in one buffer.
  const columns = new Int32Array(2 * count).fill(-1);
  const idom = columns.subarray(0, count);
  const depth = columns.subarray(count);
  idom[root] = root;
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = reached - 1; i >= 0; i--) {
      const b = post[i]!;
      if (b === root) continue;
      let newIdom = -1;
      const ps = prev[b]!;
      for (let k = 0; k < ps.length; k++) {
        const p = ps[k]!;
        if (rpo[p] === -1 || idom[p] === -1) continue;
        newIdom = newIdom === -1 ? p : intersect(rpo, idom, p, newIdom);
      }
      if (newIdom !== -1 && idom[b] !== newIdom) {
        idom[b] = newIdom;
        changed = true;
      }
    }
  }
  idom[root] = -1;
  // Depth for O(depth) dominance queries.
  depth[root] = 0;
  for (let i = reached - 1; i >= 0; i--) {
    const b = post[i]!;
    if (b !== root && idom[b] !== -1) depth[b] = depth[idom[b]!]! + 1;
  }
  return {
    idom,
    root,
    dominates(a: number, b: number): boolean {
      if (depth[a] === -1 || depth[b] === -1) return false;
      let x = b;
      while (depth[x]! > depth[a]!) x = idom[x]!;
      return x === a;
    },
  };
}

/** Dominators of the CFG's blocks, rooted at the entry block 0. (The exit has no edges of its own here.) */
export function dominators(cfg: Cfg): DomTree {
  const blocks = cfg.blocks;
  const B = blocks.length;
  const next = new Array<readonly number[]>(B + 1);
  const prev = new Array<readonly number[]>(B + 1);
  for (let b = 0; b < B; b++) {
    next[b] = blocks[b]!.succs;
    prev[b] = blocks[b]!.preds;
  }
  next[B] = NO_NODES;
  prev[B] = NO_NODES;
  return computeDomTree(B + 1, 0, next, prev);
}

/** Post-dominators, rooted at the virtual exit. Blocks that cannot reach the
 *  exit (infinite loops) are given an edge to it, so every reachable block
 *  has an immediate post-dominator. The reversed graph's edges are the CFG's
 *  own lists (a block's predecessors are its successors there), but for the
 *  exit's and those added edges. */
export function postDominators(cfg: Cfg): DomTree {
  const blocks = cfg.blocks;
  const B = blocks.length;
  const exit = cfg.exit;
  const count = B + 1;
  // The exit's predecessors, in order of the blocks.
  const exitPreds: number[] = [];
  for (let b = 0; b < B; b++) if (blocks[b]!.succs.includes(exit)) exitPreds.push(b);
  const next = new Array<readonly number[]>(count);
  for (let b = 0; b < B; b++) next[b] = blocks[b]!.preds;
  next[exit] = exitPreds;
  // Which blocks reach the exit? (A search backward from it, its stack in STACK_NODE's storage.)
  const reaches = FLAGS.get(count).fill(0, 0, count);
  const work = STACK_NODE.get(count);
  let top = 0;
  work[top++] = exit;
  reaches[exit] = 1;
  while (top > 0) {
    const ps = next[work[--top]!]!;
    for (let k = 0; k < ps.length; k++) {
      const p = ps[k]!;
      if (reaches[p] === 0) {
        reaches[p] = 1;
        work[top++] = p;
      }
    }
  }
  const prev = new Array<readonly number[]>(count);
  for (let b = 0; b < B; b++) {
    const succs = blocks[b]!.succs;
    if (reaches[b] === 1) prev[b] = succs;
    else {
      prev[b] = [...succs, exit];
      exitPreds.push(b);
    }
  }
  prev[exit] = NO_NODES;
  return computeDomTree(count, exit, next, prev);
}

/** Scratch for control dependence: per block, its dependences counted (then the next free slot), and the
 *  last branch block that added one (a block reached twice from one branch is added once). */
const DEP_COUNT = int32Scratch();
const DEP_LAST = int32Scratch();

/** For each block, the blocks whose branch decides whether it runs
 *  (Ferrante–Ottenstein–Warren control dependence). Each list is made at its size: counted in a first walk,
 *  filled in a second (lists grown by `push` from empty each held room for 17). */
export function controlDependence(cfg: Cfg, pdom: DomTree): number[][] {
  const blocks = cfg.blocks;
  const B = blocks.length;
  const counts = DEP_COUNT.get(B).fill(0, 0, B);
  const last = DEP_LAST.get(B);
  dependenceWalk(cfg, pdom.idom, undefined, counts, last);
  const deps: number[][] = new Array<number[]>(B);
  for (let b = 0; b < B; b++) deps[b] = counts[b] === 0 ? [] : new Array<number>(counts[b]!);
  counts.fill(0, 0, B);
  dependenceWalk(cfg, pdom.idom, deps, counts, last);
  return deps;
}

/** Each (dependent block, branch block) pair in order of the branch blocks, then of their successors, then
 *  up the post-dominator tree: counted in `counts`, and when `deps` is given written at its count's slot
 *  (`last`: scratch, the last branch block that added a dependence to each block). */
function dependenceWalk(cfg: Cfg, idom: Int32Array, deps: number[][] | undefined, counts: Int32Array, last: Int32Array): void {
  const blocks = cfg.blocks;
  const exit = cfg.exit;
  last.fill(-1, 0, blocks.length);
  for (let a = 0; a < blocks.length; a++) {
    const succs = blocks[a]!.succs;
    if (succs.length < 2) continue;
    const stop = idom[a]!;
    for (let k = 0; k < succs.length; k++) {
      let runner = succs[k]!;
      while (runner !== stop && runner !== -1 && runner !== exit) {
        if (last[runner] !== a) {
          last[runner] = a;
          if (deps !== undefined) deps[runner]![counts[runner]!] = a;
          counts[runner]!++;
        }
        runner = idom[runner]!;
      }
    }
  }
}
