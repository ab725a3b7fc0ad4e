import { F032 } from '../../src/checks/F032-extern-shared-alignment.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';
import { lineOf } from '../helpers/analysis.js';
import { compileLlvm, LLC, toolMissing } from '../helpers/toolchain.js';

// Real compiler output that fails: llc's PTX for a 4-byte aligned dynamic shared array read as <4 x float>
// (nvcc declares every extern shared array .align 16, so its output cannot fail this check).
const LLC_FAIL = 'fixtures/checks/F032/fails/underaligned-v4.ll';
const llcMissing = toolMissing(LLC);
const underaligned = llcMissing === undefined ? await compileLlvm(LLC_FAIL, 'sm_80') : undefined;
if (llcMissing !== undefined) console.log(`F032: the llc case is skipped: ${llcMissing}`);

const DYN4 = '.extern .shared .align 4 .b8 dyn[];';

checkCases(F032, {
  fails: [
    { name: 'a .v4.f32 access to a 4-byte aligned dynamic array', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [dyn+16];'], { module: DYN4 }), lines: [L] },
    { name: 'an 8-byte store through a register', ptx: kernel(['mov.u32 %r2, dyn;', 'mad.lo.u32 %r3, %r1, 8, %r2;', 'st.shared.v2.f32 [%r3], {%f1, %f2};'], { module: DYN4 }), lines: [L + 2] },
    {
      name: 'one finding per array, at its widest access',
      ptx: kernel(['ld.shared.u64 %rd3, [dyn];', 'ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [dyn+16];', 'ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [dyn+32];'], { module: DYN4 }),
      lines: [L + 1],
    },
    { name: 'no .align: the element size', ptx: kernel(['ld.shared.u64 %rd3, [dyn2];'], { module: '.extern .shared .b32 dyn2[];' }), lines: [L] },
    ...(underaligned !== undefined
      ? [{ name: `llc output: ${LLC_FAIL}`, ptx: underaligned, lines: [lineOf(underaligned, 'ld.shared.v4.f32')] }]
      : []),
  ],
  passes: [
    { name: '16-byte aligned', ptx: kernel(['ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [dyn+16];'], { module: '.extern .shared .align 16 .b8 dyn[];' }) },
    { name: 'accesses no wider than the alignment', ptx: kernel(['ld.shared.u32 %r2, [dyn+4];', 'st.shared.u32 [dyn], %r2;'], { module: DYN4 }) },
    { name: 'no .extern .shared array is n/a', ptx: kernel(['ld.global.u32 %r2, [%rd2];']), na: true },
    { name: 'Triton output (.extern .shared global_smem)', ptx: REAL('fixtures/corpus/triton/matmul.ptx') },
    { name: 'llc output with a dynamic shared array', ptx: REAL('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx') },
  ],
});

await expectQuietOnRealOutput(F032);
