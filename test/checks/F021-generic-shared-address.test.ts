import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F021 } from '../../src/checks/F021-generic-shared-address.js';
import { BODY as L, chainAt, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases, outcomeOf } from './harness.js';

const XS = '.shared .align 16 .b8 xs[1024];';
// A GEMV whose shared copy of x is addressed through a generic pointer (the seeds' GenericAddressCorruption).
const gemv = kernel([
  'cvta.shared.u64 %rd3, xs;',
  'mul.wide.u32 %rd4, %r1, 4;',
  'add.u64 %rd5, %rd3, %rd4;',
  'ld.global.f32 %f1, [%rd2];',
  'st.f32 [%rd5], %f1;',
  'bar.sync 0;',
  'ld.v4.f32 {%f2, %f3, %f4, %f5}, [%rd3+16];',
], { locals: XS });

checkCases(F021, {
  fails: [
    { name: 'GEMV: x staged and read through a cvta.shared pointer', ptx: gemv, lines: [L + 4, L + 6] },
    {
      name: 'a widened 32-bit window converted by hand, then a generic atomic',
      ptx: kernel(['mov.u32 %r2, xs;', 'cvt.u64.u32 %rd3, %r2;', 'cvta.shared.u64 %rd4, %rd3;', 'atom.add.u32 %r3, [%rd4], 1;'], { locals: XS }),
      lines: [L + 3],
    },
    {
      name: 'a loop-carried generic pointer into shared memory, with red',
      ptx: kernel([
        'cvta.shared.u64 %rd3, xs;', 'mov.u32 %r2, 0;', 'LOOP:', 'ld.u32 %r3, [%rd3];', 'red.add.u32 [%rd3+4], %r3;',
        'add.u64 %rd3, %rd3, 8;', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, 8;', '@%p1 bra LOOP;',
      ], { locals: XS }),
      lines: [L + 3, L + 4],
    },
    {
      name: 'both arms of a branch convert shared addresses',
      ptx: kernel([
        'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra A;', 'cvta.shared.u64 %rd3, xs;', 'bra.uni J;', 'A:', 'cvta.shared.u64 %rd3, xs+512;', 'J:',
        'st.u32 [%rd3], %r1;',
      ], { locals: XS }),
      lines: [L + 7],
    },
  ],
  passes: [
    { name: 'ld/st.shared with a 32-bit offset', ptx: kernel(['mov.u32 %r2, xs;', 'mad.lo.u32 %r3, %r1, 4, %r2;', 'st.shared.u32 [%r3], %r1;', 'ld.shared.u32 %r4, [%r3+4];'], { locals: XS }) },
    {
      name: 'a pointer that may be shared or global (selp)',
      ptx: kernel(['setp.eq.u32 %p1, %r1, 0;', 'cvta.shared.u64 %rd3, xs;', 'selp.b64 %rd4, %rd3, %rd2, %p1;', 'ld.u32 %r2, [%rd4];'], { locals: XS }),
    },
    {
      name: 'distributed shared memory (generic mapa) is accessed generically',
      ptx: kernel(['cvta.shared.u64 %rd3, xs;', 'mapa.u64 %rd4, %rd3, 1;', 'ld.u32 %r2, [%rd4];'], { locals: XS }),
    },
    { name: 'a generic pointer passed to a .shared access is F024\'s, not F021\'s', ptx: kernel(['cvta.shared.u64 %rd3, xs;', 'st.u64 [%rd2], %rd3;'], { locals: XS }) },
    { name: 'a debug build (nvcc -G) is n/a', ptx: kernel(['cvta.shared.u64 %rd3, xs;', 'st.u32 [%rd3], %r1;'], { locals: XS, targetSuffix: ', debug' }), na: true },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'llc output with 64-bit shared addresses', ptx: REAL('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx') },
  ],
});

describe('F021 chains', () => {
  it('runs from the cvta.shared through the address arithmetic to the access', () => {
    expect(chainAt(F021, gemv, L + 4)).toEqual([`cvta.shared.u64@${L}`, `add.u64@${L + 2}`, `st.f32@${L + 4}`]);
    expect(chainAt(F021, gemv, L + 6)).toEqual([`cvta.shared.u64@${L}`, `ld.v4.f32@${L + 6}`]);
  });

  it('is medium by default and critical under the seeds profile', () => {
    expect(outcomeOf(F021, gemv).findings.map((f) => f.severity)).toEqual(['medium', 'medium']);
    expect(outcomeOf(F021, gemv, { profile: 'seeds' }).findings.map((f) => f.severity)).toEqual(['critical', 'critical']);
  });
});

// llc output of an IR that casts a shared pointer to generic and calls the generic
// `llvm.nvvm.atomic.add.gen.i.cta` intrinsic on it: it really has the pattern.
await expectQuietOnRealOutput(F021, ['llvm/atomics_memory.ll@sm_80']);

describeCudaFixtures('F021');
