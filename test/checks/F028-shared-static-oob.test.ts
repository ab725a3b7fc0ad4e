import { describeCudaFixtures } from './labelled-cuda.js';
import { F028 } from '../../src/checks/F028-shared-static-oob.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const TILE = '.shared .align 16 .b8 tile[64];';

checkCases(F028, {
  fails: [
    { name: 'a vector load that runs past the end', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+56];'], { locals: TILE }), lines: [L] },
    { name: 'a 32-bit window plus an offset at the end', ptx: kernel(['mov.u32 %r2, tile;', 'ld.shared.u32 %r3, [%r2+64];'], { locals: TILE }), lines: [L + 1] },
    { name: 'a generic access before the start', ptx: kernel(['cvta.shared.u64 %rd3, tile;', 'st.u32 [%rd3+-4], %r1;'], { locals: TILE }), lines: [L + 1] },
    { name: 'constant arithmetic in registers', ptx: kernel(['mov.u32 %r2, tile;', 'add.u32 %r4, %r2, 60;', 'st.shared.u64 [%r4], %rd1;'], { locals: TILE }), lines: [L + 2] },
    { name: 'cp.async of 16 bytes at the last 8', ptx: kernel(['cp.async.cg.shared.global [tile+56], [%rd2], 16;'], { locals: TILE }), lines: [L] },
  ],
  passes: [
    { name: 'in bounds', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+48];', 'mov.u32 %r2, tile;', 'st.shared.u32 [%r2+60], %r1;'], { locals: TILE }) },
    { name: 'dynamic (.extern) shared memory has no static size', ptx: kernel(['ld.shared.u32 %r2, [dyn+4096];'], { module: '.extern .shared .align 16 .b8 dyn[];' }) },
    { name: 'a thread-indexed access is F054\'s', ptx: kernel(['mov.u32 %r2, tile;', 'mad.lo.u32 %r3, %r1, 4, %r2;', 'ld.shared.u32 %r4, [%r3+60];'], { locals: TILE }) },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

await expectQuietOnRealOutput(F028);

describeCudaFixtures('F028');
