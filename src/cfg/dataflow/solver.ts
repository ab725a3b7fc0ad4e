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
//
// `solveBits` is the same solver (the same worklist, by rank) for a gen/kill
// problem over bit sets (reaching definitions, liveness): every block's sets
// in two flat arrays updated in place, instead of a set made per visit and a
// lattice's closures called per block.
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
  const n = cfg.blocks.length;
  const order: number[] = [];
  const seen = new Uint8Array(n);
  if (n > 0) {
    // The depth-first stack as two columns (a block, its next successor to try): no pair made per block.
    const stackBlock = new Int32Array(n);
    const stackNext = new Int32Array(n);
    let depth = 1;
    seen[0] = 1;
    while (depth > 0) {
      const top = depth - 1;
      const succs = cfg.blocks[stackBlock[top]!]!.succs;
      if (stackNext[top]! < succs.length) {
        const s = succs[stackNext[top]!++]!;
        if (s !== cfg.exit && seen[s] === 0) {
          seen[s] = 1;
          stackBlock[depth] = s;
          stackNext[depth] = 0;
          depth++;
        }
      } else {
        order.push(stackBlock[top]!);
        depth--;
      }
    }
  }
  order.reverse();
  for (const b of cfg.blocks) if (seen[b.id] === 0) order.push(b.id);
  return order;
}

/** A visiting order and each block's rank in it. */
interface Order {
  readonly order: readonly number[];
  readonly rank: Int32Array;
}

/** Per CFG, its forward and backward visiting orders, made at the first solve that needs each: a function's
 *  analyses solve over one CFG six times or more, and each made the same depth-first walk anew. Kept as long as
 *  the CFG (read-only; the solves' mutable state is their own). */
const ORDERS = new WeakMap<Cfg, { forward?: Order; backward?: Order }>();

function orderOf(cfg: Cfg, forward: boolean): Order {
  let both = ORDERS.get(cfg);
  if (both === undefined) {
    both = {};
    ORDERS.set(cfg, both);
  }
  const hit = forward ? both.forward : both.backward;
  if (hit !== undefined) return hit;
  const rpo = reversePostOrder(cfg);
  const order = forward ? rpo : rpo.reverse();
  const rank = new Int32Array(order.length);
  for (let i = 0; i < order.length; i++) rank[order[i]!] = i;
  const made: Order = { order, rank };
  if (forward) both.forward = made;
  else both.backward = made;
  return made;
}

/** The pending blocks of one solve, and the order they are taken in. Every block starts pending; `next`
 *  takes one, `changed` makes the blocks after it (in the problem's direction) pending again. A class, not
 *  closures made per solve: its code is compiled once for every solve (see keep-compiled.ts). */
class Worklist {
  readonly order: readonly number[];
  readonly rank: Int32Array;
  /** Visits of each block so far (by id), the one `next` took included. */
  readonly visitsOf: Int32Array;
  // Pending blocks by rank: always process the next pending one at or after
  // the cursor, wrapping around, so each pass over them is linear in the block
  // count. By rank, the cursor moves back to a block made pending before it
  // (no pending block then lies before the cursor, and it never wraps).
  private readonly pendingRank: Uint8Array;
  private pendingCount: number;
  private cursor = 0;
  visits = 0;

  constructor(private readonly cfg: Cfg, private readonly forward: boolean, private readonly leastRank: boolean) {
    const n = cfg.blocks.length;
    ({ order: this.order, rank: this.rank } = orderOf(cfg, forward));
    this.visitsOf = new Int32Array(n);
    this.pendingRank = new Uint8Array(n).fill(1);
    this.pendingCount = n;
  }

  /** The next block to visit, or -1 when none is pending. */
  next(): number {
    if (this.pendingCount === 0) return -1;
    const pending = this.pendingRank;
    const n = pending.length;
    let cursor = this.cursor;
    while (pending[cursor] === 0) cursor = cursor + 1 === n ? 0 : cursor + 1;
    pending[cursor] = 0;
    this.cursor = cursor;
    this.pendingCount--;
    this.visits++;
    const id = this.order[cursor]!;
    this.visitsOf[id]!++;
    return id;
  }

  /** The fact after `block` changed (or was set for the first time): the blocks it flows into are pending. */
  changed(block: BasicBlock): void {
    const exit = this.cfg.exit;
    for (const t of this.forward ? block.succs : block.preds) {
      if (t === exit) continue;
      const r = this.rank[t]!;
      if (this.pendingRank[r] === 0) {
        this.pendingRank[r] = 1;
        this.pendingCount++;
        if (this.leastRank && r < this.cursor) this.cursor = r;
      }
    }
  }
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
  const work = new Worklist(cfg, forward, problem.sweep !== true);
  for (let id = work.next(); id >= 0; id = work.next()) {
    const block = cfg.blocks[id]!;
    let fact: S | undefined;
    const isBoundary = forward ? id === 0 : block.succs.includes(cfg.exit);
    if (isBoundary) fact = problem.boundary();
    for (const s of forward ? block.preds : block.succs) {
      if (s === cfg.exit) continue;
      fact = fact === undefined ? output[s]! : problem.join(fact, output[s]!);
    }
    input[id] = fact ?? problem.initial();
    let next = problem.transfer(block, input[id]!);
    const visits = work.visitsOf[id]!;
    if (problem.widen !== undefined) next = problem.widen(output[id]!, next, visits);
    if (!problem.equals(next, output[id]!) || visits === 1) {
      output[id] = next;
      work.changed(block);
    }
  }
  if (problem.site !== undefined) keepCompiled(problem.site, problem);
  const visits = work.visits;
  return forward ? { atStart: input, atEnd: output, visits } : { atStart: output, atEnd: input, visits };
}

/** A gen/kill problem over bit sets (reaching definitions, liveness): the union of the facts flowing in, and
 *  a block's transfer out = gen | (in & ~kill). Block b's sets are words [b * words, (b + 1) * words) of one
 *  flat array each. */
export interface BitProblem {
  readonly direction: 'forward' | 'backward';
  readonly words: number;
  /** The set entering the entry block (forward) or leaving to the exit (backward). */
  readonly boundary: Uint32Array;
  readonly gen: Uint32Array;
  readonly kill: Uint32Array;
}

export interface BitResult {
  /** Sets at each block's start and end (program order), flat; block b's at [b * words, (b + 1) * words). */
  readonly atStart: Uint32Array;
  readonly atEnd: Uint32Array;
  readonly visits: number;
}

/** `solve` for a gen/kill problem (the same visits in the same order, so the same fixpoint and count), on two
 *  flat arrays updated in place: no set is made per visit, nor copied into a flat table afterwards. */
export function solveBits(cfg: Cfg, problem: BitProblem): BitResult {
  const forward = problem.direction === 'forward';
  const { words, boundary, gen, kill } = problem;
  const size = cfg.blocks.length * words;
  const input = new Uint32Array(size);
  const output = new Uint32Array(size);
  const work = new Worklist(cfg, forward, true);
  for (let id = work.next(); id >= 0; id = work.next()) {
    const block = cfg.blocks[id]!;
    const base = id * words;
    const isBoundary = forward ? id === 0 : block.succs.includes(cfg.exit);
    for (let w = 0; w < words; w++) input[base + w] = isBoundary ? boundary[w]! : 0;
    for (const s of forward ? block.preds : block.succs) {
      if (s === cfg.exit) continue;
      const from = s * words;
      for (let w = 0; w < words; w++) input[base + w]! |= output[from + w]!;
    }
    let changed = work.visitsOf[id] === 1;
    for (let w = 0; w < words; w++) {
      // (Unsigned, as the array holds it: a set bit 31 makes the expression negative.)
      const x = (gen[base + w]! | (input[base + w]! & ~kill[base + w]!)) >>> 0;
      if (x !== output[base + w]) {
        output[base + w] = x;
        changed = true;
      }
    }
    if (changed) work.changed(block);
  }
  // (A worklist's map is a transition from the class's initial map, held only by live instances: when a
  // full collection finds none, the map goes and with it this function's and the worklist's optimized
  // code, compiled again at the next function's solve (every pass of a bench, every part of a check).)
  keepCompiled('solveBits', work);
  const visits = work.visits;
  return forward ? { atStart: input, atEnd: output, visits } : { atStart: output, atEnd: input, visits };
}
