import { describeCudaFixtures } from './labelled-cuda.js';
import { F033 } from '../../src/checks/F033-variable-alignment.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

checkCases(F033, {
  fails: [
    { name: 'a .v4.f32 load of a 4-byte aligned tile', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile];'], { locals: '.shared .align 4 .b8 tile[256];' }), lines: [L] },
    {
      name: 'a .v2 load of a global array through a register',
      ptx: kernel(['mov.u64 %rd3, gbuf;', 'ld.global.v2.u32 {%r2, %r3}, [%rd3+8];'], { module: '.global .align 4 .b8 gbuf[64];' }),
      lines: [L + 1],
    },
    { name: 'no .align: the element size of a .local array', ptx: kernel(['st.local.v2.u32 [lv], {%r1, %r1};'], { locals: '.local .b32 lv[4];' }), lines: [L] },
    { name: 'a 16-byte cp.async into an 8-byte aligned tile', ptx: kernel(['cp.async.cg.shared.global [t2], [%rd2], 16;'], { locals: '.shared .align 8 .b8 t2[64];' }), lines: [L] },
  ],
  passes: [
    { name: 'accesses within the alignment', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+16];', 'ld.shared.u32 %r2, [tile];'], { locals: '.shared .align 16 .b8 tile[256];' }) },
    { name: 'a .v4 variable is aligned to its vector', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [vt];'], { locals: '.shared .v4 .f32 vt[4];' }) },
    { name: 'parameters are F075\'s, and .ptr .align is the pointee\'s', ptx: kernel(['ld.param.v2.u32 {%r2, %r3}, [p];', 'ld.param.u64 %rd3, [q];']) },
    { name: '.extern arrays are F032\'s', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [dyn];'], { module: '.extern .shared .align 4 .b8 dyn[];' }) },
    { name: 'Triton output (.ptr .global .align 1 parameters)', ptx: REAL('fixtures/corpus/triton/histogram.ptx') },
  ],
});

await expectQuietOnRealOutput(F033);

describeCudaFixtures('F033');
