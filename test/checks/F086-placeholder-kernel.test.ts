import { F086 } from '../../src/checks/F086-placeholder-kernel.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, GLOBAL_INDEX, kernel, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const OUT = ['ld.param.u64 %rd1, [out];', ...GLOBAL_INDEX, 'mul.wide.u32 %rd2, %r1, 4;', 'add.s64 %rd3, %rd1, %rd2;'];

checkCases(F086, {
  fails: [
    { name: 'a kernel that writes constants only', ptx: kernel('.param .u64 in, .param .u64 out', [...OUT, 'mov.f32 %f1, 0f3F800000;', 'st.global.f32 [%rd3], %f1;', 'ret;']), lines: [4] },
    { name: 'an ignored input loaded but unused, iota output', ptx: kernel('.param .u64 in, .param .u64 out, .param .u32 n', ['ld.param.u64 %rd5, [in];', 'ld.param.u32 %r2, [n];', ...OUT, 'setp.ge.u32 %p1, %r1, %r2;', '@%p1 bra D;', 'st.global.u32 [%rd3], %r1;', 'D:', 'ret;']), lines: [4] },
    { name: 'a stub that stores nothing', ptx: kernel('.param .u64 in', ['ret;']), lines: [4] },
  ],
  passes: [
    { name: 'a zero-fill kernel with only its output pointer', ptx: kernel('.param .u64 out', [...OUT, 'st.global.u32 [%rd3], 0;', 'ret;']) },
    { name: 'an iota kernel with only its output pointer', ptx: kernel('.param .u64 out, .param .u32 n', ['ld.param.u32 %r2, [n];', ...OUT, 'st.global.u32 [%rd3], %r1;', 'ret;']) },
    { name: 'a copy that reads its input', ptx: kernel('.param .u64 in, .param .u64 out', [...OUT, 'ld.param.u64 %rd5, [in];', 'add.s64 %rd6, %rd5, %rd2;', 'ld.global.u32 %r3, [%rd6];', 'st.global.u32 [%rd3], %r3;', 'ret;']) },
    { name: 'a fill with a parameter value', ptx: kernel('.param .u64 in, .param .u64 out, .param .f32 v', [...OUT, 'ld.param.f32 %f1, [v];', 'st.global.f32 [%rd3], %f1;', 'ret;']) },
    ...committedReal([EXAMPLE, ...TRITON]),
    ...(await nvccReal(['01-elementwise-add.cu', '02-saxpy-grid-stride.cu', '08-atomics.cu', '16-textures.cu'])),
  ],
});

describeCudaFixtures('F086');
