import { describeCudaFixtures } from './labelled-cuda.js';
import { F030 } from '../../src/checks/F030-mixed-space-access.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const XS = '.shared .align 16 .b8 xs[1024];';

checkCases(F030, {
  fails: [
    { name: 'a window address used by ld.shared and a generic st', ptx: kernel(['mov.u64 %rd3, xs;', 'ld.shared.u32 %r2, [%rd3];', 'st.u32 [%rd3+4], %r2;'], { locals: XS }), lines: [L + 2] },
    { name: 'a generic address used by ld and st.shared', ptx: kernel(['cvta.shared.u64 %rd4, xs;', 'ld.u32 %r2, [%rd4];', 'st.shared.u32 [%rd4], %r2;'], { locals: XS }), lines: [L + 2] },
    {
      name: 'one report per value',
      ptx: kernel(['mov.u64 %rd3, xs;', 'ld.shared.u32 %r2, [%rd3];', 'st.u32 [%rd3+4], %r2;', 'st.u32 [%rd3+8], %r2;', 'ld.shared.u32 %r3, [%rd3+12];'], { locals: XS }),
      lines: [L + 2],
    },
  ],
  passes: [
    { name: 'a global window used by ld.global and a generic atomic', ptx: kernel(['ld.global.u32 %r2, [%rd2];', 'atom.add.u32 %r3, [%rd2], 1;']) },
    { name: 'separate registers for the window and the generic address', ptx: kernel(['mov.u64 %rd3, xs;', 'cvta.shared.u64 %rd4, %rd3;', 'ld.shared.u32 %r2, [%rd3];', 'st.u32 [%rd4+4], %r2;'], { locals: XS }) },
    {
      name: 'different definitions of one register',
      ptx: kernel(['mov.u64 %rd3, xs;', 'ld.shared.u32 %r2, [%rd3];', 'cvta.shared.u64 %rd3, xs;', 'st.u32 [%rd3+4], %r2;'], { locals: XS }),
    },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

await expectQuietOnRealOutput(F030);

describeCudaFixtures('F030');
