import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F024 } from '../../src/checks/F024-provenance-mismatch.js';
import { BODY as L, chainAt, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const DECLS = '.shared .align 16 .b8 xs[1024]; .local .align 4 .b8 lbuf[16];';
const CONST = '.const .align 4 .b8 ctab[64];';

checkCases(F024, {
  fails: [
    { name: 'a global pointer with ld.shared', ptx: kernel(['ld.shared.u32 %r2, [%rd2];'], { locals: DECLS }), lines: [L] },
    { name: 'a global pointer with st.local and ld.const', ptx: kernel(['st.local.u32 [%rd2+4], %r1;', 'ld.const.u32 %r2, [%rd2];'], { locals: DECLS }), lines: [L, L + 1] },
    { name: 'a .local window with ld.global', ptx: kernel(['mov.u64 %rd3, lbuf;', 'ld.global.u32 %r2, [%rd3];'], { locals: DECLS }), lines: [L + 1] },
    { name: 'a .const window with ld.global', ptx: kernel(['mov.u64 %rd3, ctab;', 'ld.global.u32 %r2, [%rd3+4];'], { module: CONST }), lines: [L + 1] },
    { name: 'a generic (cvta.shared) address with ld.shared', ptx: kernel(['cvta.shared.u64 %rd3, xs;', 'ld.shared.u32 %r2, [%rd3];'], { locals: DECLS }), lines: [L + 1] },
    {
      name: 'a global pointer on one path (partial)',
      ptx: kernel(['setp.eq.u32 %p1, %r1, 0;', 'mov.u64 %rd3, xs;', 'selp.b64 %rd4, %rd3, %rd2, %p1;', 'st.shared.u32 [%rd4], %r1;'], { locals: DECLS }),
      lines: [L + 3],
    },
    { name: 'a global variable named in ld.shared', ptx: kernel(['ld.shared.u32 %r2, [gv];'], { module: '.global .align 4 .u32 gv;' }), lines: [L] },
  ],
  passes: [
    { name: 'matching spaces', ptx: kernel(['ld.global.u32 %r2, [%rd2];', 'mov.u32 %r3, xs;', 'st.shared.u32 [%r3], %r2;', 'st.local.u32 [lbuf], %r2;'], { locals: DECLS }) },
    { name: 'a shared window with ld.global is F023\'s', ptx: kernel(['mov.u64 %rd3, xs;', 'ld.global.u32 %r2, [%rd3];'], { locals: DECLS }) },
    { name: 'a write through a .const window is F026\'s', ptx: kernel(['mov.u64 %rd3, ctab;', 'st.global.u32 [%rd3], %r1;'], { module: CONST }) },
    { name: 'a pointer of unknown origin (loaded from memory)', ptx: kernel(['ld.global.u64 %rd3, [%rd2];', 'ld.shared.u32 %r2, [%rd3];'], { locals: DECLS }) },
    { name: 'a raw kernel pointer with ld.global (F029\'s)', ptx: kernel(['ld.global.u32 %r2, [%rd1];']) },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

describe('F024 chains', () => {
  it('runs from where the wrong origin appears to the access', () => {
    expect(chainAt(F024, kernel(['ld.shared.u32 %r2, [%rd2];'], { locals: DECLS }), L)).toEqual([`cvta.to.global.u64@${L - 2}`, `ld.shared.u32@${L}`]);
    expect(chainAt(F024, kernel(['mov.u64 %rd3, lbuf;', 'add.u64 %rd4, %rd3, 4;', 'ld.global.u32 %r2, [%rd4];'], { locals: DECLS }), L + 2))
      .toEqual([`mov.u64@${L}`, `add.u64@${L + 1}`, `ld.global.u32@${L + 2}`]);
  });
});

await expectQuietOnRealOutput(F024);

describeCudaFixtures('F024');
