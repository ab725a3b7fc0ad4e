import { F080 } from '../../src/checks/F080-low-precision-accumulator.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const LOOP = (body: string[], after: string[]): string[] => [
  'ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.b16 %h1, 0x0000;', 'mov.f32 %f1, 0f00000000;', 'mov.u32 %r2, 0;', 'mov.u64 %rd2, %rd1;',
  'L:', 'ld.global.b16 %h2, [%rd2];', ...body, 'add.u64 %rd2, %rd2, 2;', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;',
  ...after, 'ret;',
];
const P = '.param .u64 a, .param .u32 n';
const MMA = (acc: string, c: string): string[] => [
  'ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'mov.b32 %r10, 0;', 'mov.b32 %r11, 0;', 'mov.f32 %f1, 0f00000000;', 'mov.f32 %f2, 0f00000000;', 'mov.f32 %f3, 0f00000000;', 'mov.f32 %f4, 0f00000000;',
  'L:', 'ld.global.v4.b32 {%r3, %r4, %r5, %r6}, [%rd1];', 'ld.global.v2.b32 {%r7, %r8}, [%rd1+16];',
  `mma.sync.aligned.m16n8k16.row.col.${acc}.f16.f16.${acc} ${c}, {%r3, %r4, %r5, %r6}, {%r7, %r8}, ${c}; //!`,
  'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;',
  acc === 'f16' ? 'st.global.v2.b32 [%rd1], {%r10, %r11};' : 'st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};', 'ret;',
];

checkCases(F080, {
  fails: [
    failing('an f16 running sum stored after the loop', kernel(P, LOOP(['add.f16 %h1, %h1, %h2; //!'], ['st.global.b16 [%rd1], %h1;']))),
    failing('an f16 fma accumulation through a copy', kernel(P, LOOP(['fma.rn.f16 %h3, %h2, %h2, %h1; //!', 'mov.b16 %h1, %h3;'], ['st.global.b16 [%rd1], %h1;']))),
    failing('a bf16 sum widened only to store', kernel(P, LOOP(['add.rn.bf16 %h1, %h1, %h2; //!'], ['cvt.f32.bf16 %f2, %h1;', 'st.global.f32 [%rd1], %f2;']))),
    failing('an mma accumulating in f16 around the k loop', kernel(P, MMA('f16', '{%r10, %r11}'))),
  ],
  passes: [
    { name: 'inputs converted and summed in f32', ptx: kernel(P, LOOP(['cvt.f32.f16 %f2, %h2;', 'add.f32 %f1, %f1, %f2;'], ['st.global.f32 [%rd1], %f1;'])) },
    { name: 'a half product per iteration, not carried', ptx: kernel(P, LOOP(['mul.f16 %h3, %h2, %h2;', 'st.global.b16 [%rd2], %h3;'], [])) },
    { name: 'an f16 sum that is never stored', ptx: kernel(P, LOOP(['add.f16 %h1, %h1, %h2;'], [])) },
    { name: 'an f16 counter of constants (no data input)', ptx: kernel(P, LOOP(['add.f16 %h1, %h1, 0x3C00;'], ['st.global.b16 [%rd1], %h1;'])) },
    { name: 'an mma accumulating in f32', ptx: kernel(P, MMA('f32', '{%f1, %f2, %f3, %f4}').map((l) => l.replace(' //!', ''))) },
    ...committedReal([EXAMPLE, 'fixtures/corpus/triton/matmul.ptx']),
    ...(await nvccReal(['06-wmma-half-float.cu', '05-tiled-gemm-shared.cu', '18-half-bf16.cu', '26-layernorm.cu'])),
  ],
});

describeCudaFixtures('F080');
