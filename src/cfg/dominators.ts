// Dominators and post-dominators (Cooper, Harvey and Kennedy's iterative
// algorithm over reverse post-order), and control dependence from the
// post-dominator tree, for the uniformity analysis.
import type { Cfg } from './builder.js';

export interface DomTree {
  /** Immediate dominator of each node; -1 for the root and for nodes it cannot reach. */
  readonly idom: Int32Array;
  /** The root: the entry block (dominators) or the virtual exit (post-dominators). */
  readonly root: number;
  /** a dominates b (reflexive). */
  dominates(a: number, b: number): boolean;
}

/** Dominator tree of a graph with nodes 0..count-1, from `root`, following `next`. */
function computeDomTree(count: number, root: number, next: (n: number) => readonly number[], prev: (n: number) => readonly number[]): DomTree {
  // Reverse post-order from the root.
  const order: number[] = [];
  const seen = new Uint8Array(count);
  const stack: [number, number][] = [[root, 0]];
  seen[root] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const succ = next(top[0]);
    if (top[1] < succ.length) {
      const s = succ[top[1]++]!;
      if (seen[s] === 0) {
        seen[s] = 1;
        stack.push([s, 0]);
      }
    } else {
      order.push(top[0]);
      stack.pop();
    }
  }
  order.reverse();
  const rpo = new Int32Array(count).fill(-1);
  order.forEach((n, i) => { rpo[n] = i; });
  const idom = new Int32Array(count).fill(-1);
  idom[root] = root;
  const intersect = (a: number, b: number): number => {
    while (a !== b) {
      while (rpo[a]! > rpo[b]!) a = idom[a]!;
      while (rpo[b]! > rpo[a]!) b = idom[b]!;
    }
    return a;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const b of order) {
      if (b === root) continue;
      let newIdom = -1;
      for (const p of prev(b)) {
        if (rpo[p] === -1 || idom[p] === -1) continue;
        newIdom = newIdom === -1 ? p : intersect(p, newIdom);
      }
      if (newIdom !== -1 && idom[b] !== newIdom) {
        idom[b] = newIdom;
        changed = true;
      }
    }
  }
  idom[root] = -1;
  // Depth for O(depth) dominance queries.
  const depth = new Int32Array(count).fill(-1);
  depth[root] = 0;
  for (const b of order) if (b !== root && idom[b] !== -1) depth[b] = depth[idom[b]!]! + 1;
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

/** Dominators of the CFG's blocks, rooted at the entry block 0. */
export function dominators(cfg: Cfg): DomTree {
  const count = cfg.blocks.length + 1;
  return computeDomTree(
    count,
    0,
    (n) => (n === cfg.exit ? [] : cfg.blocks[n]!.succs),
    (n) => (n === cfg.exit ? [] : cfg.blocks[n]!.preds),
  );
}

/** Post-dominators, rooted at the virtual exit. Blocks that cannot reach the
 *  exit (infinite loops) are given an edge to it, so every reachable block
 *  has an immediate post-dominator. */
export function postDominators(cfg: Cfg): DomTree {
  const count = cfg.blocks.length + 1;
  const exit = cfg.exit;
  const preds: number[][] = Array.from({ length: count }, () => []);
  for (const b of cfg.blocks) for (const s of b.succs) preds[s]!.push(b.id);
  // Which blocks reach the exit?
  const reaches = new Uint8Array(count);
  const work = [exit];
  reaches[exit] = 1;
  while (work.length > 0) {
    const n = work.pop()!;
    for (const p of preds[n]!) if (reaches[p] === 0) { reaches[p] = 1; work.push(p); }
  }
  const succs: number[][] = cfg.blocks.map((b) => [...b.succs]);
  succs.push([]);
  for (const b of cfg.blocks) {
    if (reaches[b.id] === 0) {
      succs[b.id]!.push(exit);
      preds[exit]!.push(b.id);
    }
  }
  return computeDomTree(count, exit, (n) => preds[n]!, (n) => succs[n]!);
}

/** For each block, the blocks whose branch decides whether it runs
 *  (Ferrante–Ottenstein–Warren control dependence). */
export function controlDependence(cfg: Cfg, pdom: DomTree): number[][] {
  const deps: number[][] = cfg.blocks.map(() => []);
  for (const a of cfg.blocks) {
    if (a.succs.length < 2) continue;
    const stop = pdom.idom[a.id]!;
    for (const s of a.succs) {
      let runner = s;
      while (runner !== stop && runner !== -1 && runner !== cfg.exit) {
        if (!deps[runner]!.includes(a.id)) deps[runner]!.push(a.id);
        runner = pdom.idom[runner]!;
      }
    }
  }
  return deps;
}
