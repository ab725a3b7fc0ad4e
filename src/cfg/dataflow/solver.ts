// The one dataflow solver: a worklist over basic blocks, forward or backward,
// for any lattice. Analyses supply the boundary fact, the join and the block
// transfer; instruction-level facts are recomputed from a block's input.
//
// Two visiting orders, both over the blocks in reverse post-order (rank). By
// default the pending block of least rank goes next, so a loop settles before
// the blocks after it run. `sweep` takes instead the next pending block after
// the last one visited, wrapping around, so each round of a loop runs every
// block after it again (on segmented_sort.ptx, value ranges visited blocks
// outside loops 1.60 times that way, 1.04 by rank). A monotone problem
// without widening (reaching definitions, liveness, uniformity's loads) has
// one fixpoint whatever the order; value ranges widen, and the order can give
// a tighter one (segmented_sort.ptx: every range an instruction reads or
// writes the same; of 42.8 million (block, register) start ranges, 4,452
// narrower and none wider; the findings of every bench module the same).
// Affine forms sweep: their symbols are numbered in visiting order, and their
// facts were made and tested in that order.
import type { BasicBlock, Cfg } from '../builder.js';
import { keepCompiled } from '../keep-compiled.js';

export interface DataflowProblem<S> {
  /** Names the analysis whose closures `solve` keeps compiled (`keepCompiled`) once it is done. */
  readonly site?: string;
  readonly direction: 'forward' | 'backward';
  /** The fact entering the entry block (forward) or leaving to the exit (backward). */
  boundary(): S;
  /** The starting fact of every other block: the lattice's identity for `join`. */
  initial(): S;
  join(a: S, b: S): S;
  equals(a: S, b: S): boolean;
  /** The fact after `block` (in the problem's direction) given the fact before it. */
  transfer(block: BasicBlock, input: S): S;
  /** Optional widening, applied after a block has been visited `visits` times. */
  widen?(previous: S, next: S, visits: number): S;
  /** Visit the next pending block after the last one visited, wrapping around, instead of the pending block
   *  of least rank (the default, which lets a loop settle before the blocks after it run again). */
  readonly sweep?: boolean;
}

export interface DataflowResult<S> {
  /** Fact at each block's start (program order), whatever the direction. */
  readonly atStart: readonly S[];
  /** Fact at each block's end (program order). */
  readonly atEnd: readonly S[];
  /** Block visits until the fixpoint. */
  readonly visits: number;
}

/** Blocks in reverse post-order from the entry; unreachable blocks after, in id order. */
export function reversePostOrder(cfg: Cfg): number[] {
  const order: number[] = [];
  const seen = new Uint8Array(cfg.blocks.length);
  if (cfg.blocks.length > 0) {
    const stack: [number, number][] = [[0, 0]];
    seen[0] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const succs = cfg.blocks[top[0]]!.succs;
      if (top[1] < succs.length) {
        const s = succs[top[1]++]!;
        if (s !== cfg.exit && seen[s] === 0) {
          seen[s] = 1;
          stack.push([s, 0]);
        }
      } else {
        order.push(top[0]);
        stack.pop();
      }
    }
  }
  order.reverse();
  for (const b of cfg.blocks) if (seen[b.id] === 0) order.push(b.id);
  return order;
}

export function solve<S>(cfg: Cfg, problem: DataflowProblem<S>): DataflowResult<S> {
  const n = cfg.blocks.length;
  const forward = problem.direction === 'forward';
  const input: S[] = new Array<S>(n);
  const output: S[] = new Array<S>(n);
  for (let i = 0; i < n; i++) {
    input[i] = problem.initial();
    output[i] = problem.initial();
  }
  const rpo = reversePostOrder(cfg);
  const order = forward ? rpo : rpo.slice().reverse();
  const rank = new Int32Array(n);
  order.forEach((b, i) => { rank[b] = i; });
  const visitsOf = new Int32Array(n);
  // Pending blocks by rank: always process the next pending one at or after
  // the cursor, wrapping around, so each pass over them is linear in the block
  // count. By rank, the cursor moves back to a block made pending before it
  // (no pending block then lies before the cursor, and it never wraps).
  const pendingRank = new Uint8Array(n).fill(1);
  let pendingCount = n;
  let cursor = 0;
  const leastRank = problem.sweep !== true;
  let visits = 0;
  const sources = (b: BasicBlock): readonly number[] => (forward ? b.preds : b.succs);
  const targets = (b: BasicBlock): readonly number[] => (forward ? b.succs : b.preds);
  while (pendingCount > 0) {
    while (pendingRank[cursor] === 0) cursor = cursor + 1 === n ? 0 : cursor + 1;
    pendingRank[cursor] = 0;
    pendingCount--;
    const id = order[cursor]!;
    visits++;
    const block = cfg.blocks[id]!;
    let fact: S | undefined;
    const isBoundary = forward ? id === 0 : block.succs.includes(cfg.exit);
    if (isBoundary) fact = problem.boundary();
    for (const s of sources(block)) {
      if (s === cfg.exit) continue;
      fact = fact === undefined ? output[s]! : problem.join(fact, output[s]!);
    }
    input[id] = fact ?? problem.initial();
    let next = problem.transfer(block, input[id]!);
    visitsOf[id]!++;
    if (problem.widen !== undefined) next = problem.widen(output[id]!, next, visitsOf[id]!);
    if (!problem.equals(next, output[id]!) || visitsOf[id] === 1) {
      output[id] = next;
      for (const t of targets(block)) {
        if (t === cfg.exit) continue;
        const r = rank[t]!;
        if (pendingRank[r] === 0) {
          pendingRank[r] = 1;
          pendingCount++;
          if (leastRank && r < cursor) cursor = r;
        }
      }
    }
  }
  if (problem.site !== undefined) keepCompiled(problem.site, problem);
  return forward ? { atStart: input, atEnd: output, visits } : { atStart: output, atEnd: input, visits };
}
