// The dataflow solver's two visiting orders: least rank first, the default (a
// loop settles before the blocks after it run again), and the sweep (the next
// pending block after the last one visited, wrapping around). Both reach the
// same fixpoint of a monotone problem; least rank first visits the blocks
// after a loop once.
import { describe, expect, it } from 'vitest';
import { solve, solveBits, type DataflowProblem } from '../../../src/cfg/dataflow/solver.js';
import { reachingDefinitionsAnalysis } from '../../../src/cfg/dataflow/reaching-definitions.js';
import { analyze } from '../../helpers/analysis.js';

// Two loops one after the other, each a header and a latch block: the entry, the first loop, a block between,
// the second loop, the exit. (A loop of one block is revisited at once in either order.)
const TWO_LOOPS = `.version 8.0
.target sm_90
.address_size 64
.visible .entry two_loops(.param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
$L1:
  add.s32 %r2, %r2, 1;
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra $D1;
  bra.uni $L1;
$D1:
  mov.u32 %r3, 0;
$L2:
  add.s32 %r3, %r3, %r2;
  setp.ge.s32 %p2, %r3, %r1;
  @%p2 bra $D2;
  bra.uni $L2;
$D2:
  mov.u32 %r4, %r3;
  ret;
}
`;

/** Iterations seen, capped at 3: a loop header adds one, a join takes the larger, so a loop's output grows on
 *  each of its first rounds and every block after it sees the change. */
function iterations(headers: ReadonlySet<number>, sweep: boolean, visited: number[]): DataflowProblem<number> {
  return {
    direction: 'forward',
    sweep,
    boundary: () => 0,
    initial: () => 0,
    join: (a, b) => Math.max(a, b),
    equals: (a, b) => a === b,
    transfer: (block, input) => {
      visited.push(block.id);
      return headers.has(block.id) ? Math.min(input + 1, 3) : input;
    },
  };
}

describe('solver visiting order', () => {
  const a = analyze(TWO_LOOPS);
  const cfg = a.ctx.cfg(a.fn);
  const loops = a.ctx.loops(a.fn).loops;
  const headers = new Set(loops.map((l) => l.header));
  const between = cfg.blockOf[a.at(16).index]!;
  const exit = cfg.blockOf[a.at(23).index]!;

  it('the kernel has two loops of two blocks each', () => {
    expect(loops.map((l) => l.blocks.length)).toEqual([2, 2]);
    expect(cfg.blocks.length).toBe(7);
  });

  it('both orders reach the same fixpoint', () => {
    const sweep = solve(cfg, iterations(headers, true, []));
    const least = solve(cfg, iterations(headers, false, []));
    expect(least.atStart).toEqual(sweep.atStart);
    expect(least.atEnd).toEqual(sweep.atEnd);
    expect(least.atEnd[exit]).toBe(3);
  });

  it('least rank first settles each loop before running the blocks after it, once each', () => {
    const sweepOrder: number[] = [];
    const leastOrder: number[] = [];
    const sweep = solve(cfg, iterations(headers, true, sweepOrder));
    const least = solve(cfg, iterations(headers, false, leastOrder));
    const count = (order: number[], b: number): number => order.filter((x) => x === b).length;
    expect(count(leastOrder, between)).toBe(1);
    expect(count(leastOrder, exit)).toBe(1);
    // The sweep runs the blocks after the first loop again on each of its rounds.
    expect(count(sweepOrder, between)).toBeGreaterThan(1);
    expect(count(sweepOrder, exit)).toBeGreaterThan(1);
    expect(sweep.visits).toBeGreaterThan(least.visits);
  });

  it('reaching definitions (by rank, the default) run each block once and each loop header once more, with the same facts', () => {
    const rd = a.ctx.get(a.fn, reachingDefinitionsAnalysis);
    expect(rd.visits).toBe(7 + 2);
    // The same facts as any order: %r2 read by the second loop's add is the first loop's add only (the mov
    // before the first loop no longer reaches), %r3 there is the mov before it or the add itself.
    const line = (l: number): number => a.at(l).index;
    const r2 = a.fn.registers.find((r) => r.name === '%r2')!;
    const r3 = a.fn.registers.find((r) => r.name === '%r3')!;
    expect(rd.reaching(line(18), r2)).toEqual([line(11)]);
    expect(rd.reaching(line(18), r3)).toEqual([line(16), line(18)]);
  });
});

describe('gen/kill bit-set solver', () => {
  const a = analyze(TWO_LOOPS);
  const cfg = a.ctx.cfg(a.fn);
  const B = cfg.blocks.length;
  const words = 2;
  // Block b generates bits b and 31 - b of both words (bit 31 included: a set's top bit), and kills bit b + 1 of
  // the first word (some sets both kill and pass on what others generate).
  const gen = new Uint32Array(B * words);
  const kill = new Uint32Array(B * words);
  for (let b = 0; b < B; b++) {
    for (let w = 0; w < words; w++) gen[b * words + w] = ((1 << b) | (1 << (31 - b))) >>> 0;
    kill[b * words] = 1 << (b + 1);
  }
  const boundary = Uint32Array.of(1 << 20, 1 << 31);

  for (const direction of ['forward', 'backward'] as const) {
    it(`gives the fixpoint and the visits of the generic solver (${direction})`, () => {
      // The same problem on the generic solver, with plain union sets made per join and transfer.
      const generic = solve(cfg, {
        direction,
        boundary: () => boundary.slice(),
        initial: () => new Uint32Array(words),
        join: (x, y) => x.map((v, w) => v | y[w]!),
        equals: (x, y) => x.every((v, w) => v === y[w]),
        transfer: (block, input) => input.map((v, w) => gen[block.id * words + w]! | (v & ~kill[block.id * words + w]!)),
      });
      const bits = solveBits(cfg, { direction, words, boundary, gen, kill });
      const flat = (sets: readonly Uint32Array[]): number[] => sets.flatMap((x) => [...x]);
      expect([...bits.atStart]).toEqual(flat(generic.atStart));
      expect([...bits.atEnd]).toEqual(flat(generic.atEnd));
      expect(bits.visits).toBe(generic.visits);
      expect(bits.atEnd.some((x) => x >= 2 ** 31)).toBe(true);
    });
  }
});
