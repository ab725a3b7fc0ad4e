import { F074 } from '../../src/checks/F074-lost-loop-update.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const LOOP = (body: string[], after: string[]): string[] => [
  'ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.f32 %f1, 0f00000000;', 'mov.u32 %r5, 0;', 'mov.u32 %r2, 0;', 'mov.u64 %rd2, %rd1;',
  'L:', 'ld.global.f32 %f2, [%rd2];', 'ld.global.u32 %r6, [%rd2];', ...body, 'add.u64 %rd2, %rd2, 4;', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;',
  ...after, 'ret;',
];
const P = '.param .u64 a, .param .u32 n';
/** LOOP behind a zero-trip guard (`n == 0` skips it), as nvcc compiles a loop with a run-time count. */
const GUARDED = (body: string[], skipped: string[], after: string[]): string[] => {
  const lines = LOOP(body, ['bra.uni DONE;', 'SKIP:', ...skipped, 'DONE:', ...after]);
  lines.splice(lines.indexOf('L:'), 0, 'setp.eq.u32 %p2, %r1, 0;', '@%p2 bra SKIP;');
  return lines;
};

checkCases(F074, {
  fails: [
    failing('sum + x written to a fresh register', kernel(P, LOOP(['add.f32 %f3, %f1, %f2; //!'], ['st.global.f32 [%rd1], %f1;']))),
    failing('an fma accumulation lost', kernel(P, LOOP(['fma.rn.f32 %f4, %f2, %f2, %f1; //!'], ['st.global.f32 [%rd1], %f1;']))),
    failing('a lost max through a further pure step', kernel(P, LOOP(['max.s32 %r7, %r5, %r6; //!', 'add.s32 %r8, %r7, 1;'], ['st.global.u32 [%rd1], %r5;']))),
    failing('behind a zero-trip guard: the read where the guard and the loop meet', kernel(P, GUARDED(['add.f32 %f3, %f1, %f2; //!'], [], ['st.global.f32 [%rd1], %f1;']))),
  ],
  passes: [
    { name: 'updated in place', ptx: kernel(P, LOOP(['add.f32 %f1, %f1, %f2;'], ['st.global.f32 [%rd1], %f1;'])) },
    { name: 'updated through a copy at the end of the body', ptx: kernel(P, LOOP(['add.f32 %f3, %f1, %f2;', 'mov.f32 %f1, %f3;'], ['st.global.f32 [%rd1], %f1;'])) },
    { name: 'the new value is stored (bias + x[i], not an accumulation)', ptx: kernel(P, LOOP(['add.f32 %f3, %f1, %f2;', 'st.global.f32 [%rd2], %f3;'], ['st.global.f32 [%rd1], %f1;'])) },
    { name: 'base + offset addresses are not updates', ptx: kernel(P, LOOP(['add.s64 %rd5, %rd1, 8;', 'ld.global.f32 %f5, [%rd5];', 'add.f32 %f1, %f1, %f5;'], ['st.global.f32 [%rd1], %f1;'])) },
    { name: 'the old value is not read after the loop', ptx: kernel(P, LOOP(['add.f32 %f3, %f1, %f2;'], [])) },
    { name: 'the old value read only where the guard skips the loop', ptx: kernel(P, GUARDED(['add.f32 %f3, %f1, %f2;'], ['st.global.f32 [%rd1], %f1;', 'ret;'], [])) },
    ...committedReal([EXAMPLE, 'fixtures/corpus/triton/matmul.ptx', 'fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx', 'fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx']),
    ...(await nvccReal(['02-saxpy-grid-stride.cu', '05-tiled-gemm-shared.cu', '23-blelloch-scan.cu'])),
  ],
});

describeCudaFixtures('F074');
