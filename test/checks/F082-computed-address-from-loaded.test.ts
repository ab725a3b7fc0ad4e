import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F082 } from '../../src/checks/F082-computed-address-from-loaded.js';
import { BODY as L, chainAt, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases, outcomeOf } from './harness.js';

const DECLS = '.shared .align 16 .b8 htab[4096]; .shared .align 16 .b8 xs[1024];';
// A hash-table lookup: a position loaded from the shared-memory table becomes a store address.
const hashLookup = kernel([
  'mov.u32 %r2, htab;',
  'and.b32 %r3, %r1, 1023;',
  'mad.lo.u32 %r4, %r3, 4, %r2;',
  'ld.shared.u32 %r5, [%r4];',
  'mul.wide.u32 %rd3, %r5, 4;',
  'add.u64 %rd4, %rd2, %rd3;',
  'st.global.u32 [%rd4], %r1;',
], { locals: DECLS });

checkCases(F082, {
  fails: [
    { name: 'hash-table lookup → store address', ptx: hashLookup, lines: [L + 6] },
    {
      name: 'a shared → shared scatter by rank (radix-sort style)',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'shl.b32 %r3, %r2, 2;', 'mov.u32 %r4, xs;', 'add.u32 %r5, %r4, %r3;', 'st.shared.u32 [%r5], %r1;'], { locals: DECLS }),
      lines: [L + 4],
    },
    {
      name: 'the address of an atomic and of a reduction',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'cvt.u64.u32 %rd3, %r2;', 'add.u64 %rd4, %rd2, %rd3;', 'atom.global.add.u32 %r3, [%rd4], 1;', 'red.global.add.u32 [%rd4+4], 1;'], { locals: DECLS }),
      lines: [L + 3, L + 4],
    },
    {
      name: 'a masked shared value indexes a shared array too small for it',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'and.b32 %r3, %r2, 1023;', 'shl.b32 %r4, %r3, 2;', 'mov.u32 %r5, xs;', 'add.u32 %r6, %r5, %r4;', 'st.shared.u32 [%r6], %r1;'], { locals: DECLS }),
      lines: [L + 5],
    },
    {
      name: 'the shared value is a selp data operand (a flag count still carries it)',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'setp.ne.u32 %p1, %r1, 0;', 'selp.u32 %r3, %r2, 0, %p1;', 'mul.wide.u32 %rd3, %r3, 4;', 'add.u64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4], %r1;'], { locals: DECLS }),
      lines: [L + 5],
    },
    {
      name: 'an LZ4 output cursor kept in shared memory',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'add.u32 %r3, %r2, %r1;', 'cvt.u64.u32 %rd3, %r3;', 'add.u64 %rd4, %rd2, %rd3;', 'st.global.u8 [%rd4], %r1;'], { locals: DECLS }),
      lines: [L + 4],
    },
  ],
  passes: [
    { name: 'a shared value stored at a thread-indexed address (F081\'s shape)', ptx: kernel(['ld.shared.u32 %r2, [xs];', 'mul.wide.u32 %rd3, %r1, 4;', 'add.u64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4], %r2;'], { locals: DECLS }) },
    { name: 'a pointer handed over whole through shared memory (Triton layout conversion)', ptx: kernel(['st.shared.u64 [xs], %rd2;', 'bar.sync 0;', 'ld.shared.u64 %rd3, [xs+8];', 'atom.global.add.u32 %r2, [%rd3], 1;'], { locals: DECLS }) },
    {
      name: 'an address loaded from global memory at a shared-derived index (a load is a barrier)',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'mul.wide.u32 %rd3, %r2, 8;', 'add.u64 %rd4, %rd2, %rd3;', 'ld.global.u64 %rd5, [%rd4];', 'st.global.u32 [%rd5], %r1;'], { locals: DECLS }),
    },
    { name: 'a shared-memory value that only guards the store', ptx: kernel(['ld.shared.u32 %r2, [xs];', 'setp.ne.u32 %p1, %r2, 0;', '@%p1 st.global.u32 [%rd2], %r1;'], { locals: DECLS }) },
    {
      name: 'a comparison of the shared value selects the slot (a decision, as a branch on it would be)',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'setp.ne.u32 %p1, %r2, 0;', 'selp.u32 %r3, 1, 0, %p1;', 'add.u32 %r4, %r3, %r1;', 'mul.wide.u32 %rd3, %r4, 4;', 'add.u64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4], %r1;'], { locals: DECLS }),
    },
    {
      name: 'a shared histogram bin from a masked shared value: the store stays inside the variable',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'and.b32 %r3, %r2, 255;', 'shl.b32 %r4, %r3, 2;', 'mov.u32 %r5, htab;', 'add.u32 %r6, %r5, %r4;', 'st.shared.u32 [%r6], %r1;'], { locals: DECLS }),
    },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'Triton output (histogram: pointers exchanged through shared memory)', ptx: REAL('fixtures/corpus/triton/histogram.ptx') },
  ],
});

describe('F082 chains and severities', () => {
  it('carries the chain from the ld.shared to the store', () => {
    expect(chainAt(F082, hashLookup, L + 6)).toEqual([`ld.shared.u32@${L + 3}`, `mul.wide.u32@${L + 4}`, `add.u64@${L + 5}`, `st.global.u32@${L + 6}`]);
  });

  it('is medium by default and critical under the seeds profile', () => {
    expect(outcomeOf(F082, hashLookup).findings.map((f) => f.severity)).toEqual(['medium']);
    expect(outcomeOf(F082, hashLookup, { profile: 'seeds' }).findings.map((f) => f.severity)).toEqual(['critical']);
  });
});

await expectQuietOnRealOutput(F082);

describeCudaFixtures('F082');
