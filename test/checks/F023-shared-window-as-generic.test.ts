import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F023 } from '../../src/checks/F023-shared-window-as-generic.js';
import { BODY as L, chainAt, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const XS = '.shared .align 16 .b8 xs[1024];';
const missingShared = kernel(['mov.u64 %rd3, xs;', 'add.u64 %rd4, %rd3, 8;', 'ld.u32 %r2, [%rd4];'], { locals: XS });

checkCases(F023, {
  fails: [
    { name: 'MissingDirectShared: a window address in a generic ld', ptx: missingShared, lines: [L + 2] },
    { name: 'a window address in ld.global', ptx: kernel(['mov.u64 %rd3, xs;', 'ld.global.u32 %r2, [%rd3+4];'], { locals: XS }), lines: [L + 1] },
    { name: 'a widened 32-bit window in a generic st', ptx: kernel(['mov.u32 %r2, xs;', 'cvt.u64.u32 %rd3, %r2;', 'st.u32 [%rd3], %r1;'], { locals: XS }), lines: [L + 2] },
    {
      name: 'a window on one path of a selp',
      ptx: kernel(['setp.eq.u32 %p1, %r1, 0;', 'mov.u64 %rd3, xs;', 'selp.b64 %rd4, %rd3, %rd2, %p1;', 'atom.add.u32 %r2, [%rd4], 1;'], { locals: XS }),
      lines: [L + 3],
    },
    { name: 'a .shared variable named in a .global access (ptxas: state space mismatch)', ptx: kernel(['ld.global.u32 %r2, [xs+8];'], { locals: XS }), lines: [L] },
  ],
  passes: [
    { name: 'the same address with ld.shared', ptx: kernel(['mov.u64 %rd3, xs;', 'add.u64 %rd4, %rd3, 8;', 'ld.shared.u32 %r2, [%rd4];'], { locals: XS }) },
    { name: 'a generic address made by cvta.shared', ptx: kernel(['cvta.shared.u64 %rd3, xs;', 'ld.u32 %r2, [%rd3+8];'], { locals: XS }) },
    { name: 'a .shared variable named in a generic access (ptxas takes its generic address)', ptx: kernel(['ld.u32 %r2, [xs+8];'], { locals: XS }) },
    { name: 'a window address stored as data is not an access through it', ptx: kernel(['mov.u64 %rd3, xs;', 'st.global.u64 [%rd2], %rd3;'], { locals: XS }) },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

describe('F023 chains', () => {
  it('runs from the mov of the symbol to the access', () => {
    expect(chainAt(F023, missingShared, L + 2)).toEqual([`mov.u64@${L}`, `add.u64@${L + 1}`, `ld.u32@${L + 2}`]);
  });
});

await expectQuietOnRealOutput(F023);

describeCudaFixtures('F023');
