import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F081 } from '../../src/checks/F081-loaded-value-store.js';
import { BODY as L, chainAt, kernel, REAL } from './address-kernel.js';
import { checkCases, outcomeOf } from './harness.js';

const DECLS = '.shared .align 16 .b8 xs[1024]; .shared .align 16 .b8 page[4096];';
// A warp-cooperative LZ4-style literal copy: page bytes staged in shared memory go out to global memory.
const lz4Literals = kernel([
  'mov.u32 %r2, page;',
  'add.u32 %r3, %r2, %r1;',
  'ld.shared.u8 %r4, [%r3];',
  'cvt.u16.u32 %h1, %r4;',
  'cvt.u64.u32 %rd3, %r1;',
  'add.u64 %rd4, %rd2, %rd3;',
  'st.global.u8 [%rd4], %h1;',
], { locals: DECLS });

checkCases(F081, {
  fails: [
    { name: 'LZ4 literal copy: ld.shared.u8 → cvt → st.global.u8', ptx: lz4Literals, lines: [L + 6] },
    { name: 'a block reduction\'s final store', ptx: kernel(['setp.eq.u32 %p1, %r1, 0;', 'ld.shared.f32 %f1, [xs];', '@%p1 st.global.f32 [%rd2], %f1;'], { locals: DECLS }), lines: [L + 2] },
    {
      name: 'through mov, selp data and a shuffle broadcast',
      ptx: kernel(['ld.shared.u32 %r2, [xs];', 'mov.b32 %r3, %r2;', 'setp.eq.u32 %p1, %r1, 0;', 'selp.b32 %r4, %r3, 0, %p1;', 'shfl.sync.idx.b32 %r5, %r4, 0, 31, -1;', 'st.global.u32 [%rd2], %r5;'], { locals: DECLS }),
      lines: [L + 5],
    },
    { name: 'a generic load of shared memory, stored to shared memory', ptx: kernel(['cvta.shared.u64 %rd3, xs;', 'ld.u32 %r2, [%rd3];', 'st.shared.u32 [xs+4], %r2;'], { locals: DECLS }), lines: [L + 2] },
    { name: 'a vector store and an atomic operand', ptx: kernel(['ld.shared.v2.u32 {%r2, %r3}, [xs];', 'st.global.v2.u32 [%rd2], {%r2, %r3};', 'atom.global.add.u32 %r4, [%rd2+8], %r3;'], { locals: DECLS }), lines: [L + 1, L + 2] },
  ],
  passes: [
    { name: 'a value computed from the loaded one', ptx: kernel(['ld.shared.u32 %r2, [xs];', 'add.u32 %r3, %r2, 1;', 'st.global.u32 [%rd2], %r3;'], { locals: DECLS }) },
    {
      name: 'a tiled GEMM accumulator (fma of loaded values)',
      ptx: kernel(['mov.f32 %f1, 0f00000000;', 'ld.shared.f32 %f2, [xs];', 'ld.shared.f32 %f3, [xs+512];', 'fma.rn.f32 %f4, %f2, %f3, %f1;', 'st.global.f32 [%rd2], %f4;'], { locals: DECLS }),
    },
    { name: 'a value loaded from global memory', ptx: kernel(['ld.global.u32 %r2, [%rd2];', 'st.shared.u32 [xs], %r2;', 'st.global.u32 [%rd2+4], %r2;'], { locals: DECLS }) },
    { name: 'a shared-memory value used only as an address', ptx: kernel(['ld.shared.u32 %r2, [xs];', 'mul.wide.u32 %rd3, %r2, 4;', 'add.u64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4], %r1;'], { locals: DECLS }) },
    { name: 'llc output (a shared reduction that stores computed sums)', ptx: REAL('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx') },
    { name: 'Triton output (softmax)', ptx: REAL('fixtures/corpus/triton/softmax_rows.ptx') },
  ],
});

describe('F081 chains and severities', () => {
  it('carries the chain from the ld.shared to the store', () => {
    expect(chainAt(F081, lz4Literals, L + 6)).toEqual([`ld.shared.u8@${L + 2}`, `cvt.u16.u32@${L + 3}`, `st.global.u8@${L + 6}`]);
  });

  it('is info by default (hardware refuted it) and critical under the seeds profile', () => {
    expect(outcomeOf(F081, lz4Literals).findings.map((f) => f.severity)).toEqual(['info']);
    expect(outcomeOf(F081, lz4Literals, { profile: 'seeds' }).findings.map((f) => f.severity)).toEqual(['critical']);
  });

  it('reports block reductions only at info (examples/block-reduce.ptx)', () => {
    const o = outcomeOf(F081, REAL('examples/block-reduce.ptx'));
    expect(o.findings.length).toBeGreaterThan(0);
    expect(new Set(o.findings.map((f) => f.severity))).toEqual(new Set(['info']));
  });
});

describeCudaFixtures('F081');
