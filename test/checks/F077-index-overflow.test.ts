import { F077 } from '../../src/checks/F077-index-overflow.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, GLOBAL_INDEX, kernel, LLC, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 a, .param .u32 n, .param .u32 stride';
const PROLOGUE = ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r2, [n];', 'ld.param.u32 %r3, [stride];'];
const STORE = ['add.s64 %rd3, %rd1, %rd2;', 'st.global.u32 [%rd3], 0;', 'ret;'];

checkCases(F077, {
  fails: [
    failing('blockIdx.x * blockDim.x * stride in 32 bits', kernel(P, [...PROLOGUE, 'mov.u32 %r10, %ctaid.x;', 'mov.u32 %r11, %ntid.x;', 'mul.lo.s32 %r4, %r10, %r11;', 'mul.lo.s32 %r5, %r4, %r3; //!', 'mul.wide.s32 %rd2, %r5, 4;', ...STORE])),
    failing('row * n + col, widened by mul.wide', kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mov.u32 %r6, %tid.y;', 'mad.lo.s32 %r5, %r1, %r2, %r6; //!', 'mul.wide.s32 %rd2, %r5, 4;', ...STORE])),
    failing('i * stride widened by cvt then shifted', kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mul.lo.s32 %r5, %r1, %r3; //!', 'cvt.u64.u32 %rd4, %r5;', 'shl.b64 %rd2, %rd4, 2;', ...STORE])),
    failing('two thread-indexed factors', kernel(P, [...PROLOGUE, 'mov.u32 %r6, %tid.x;', 'mov.u32 %r7, %ctaid.y;', 'mul.lo.s32 %r5, %r6, %r7; //!', 'mul.wide.u32 %rd2, %r5, 4;', ...STORE])),
  ],
  passes: [
    { name: 'the plain ctaid * ntid + tid index', ptx: kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mul.wide.s32 %rd2, %r1, 4;', ...STORE]) },
    { name: 'widened before multiplying (mul.wide)', ptx: kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mul.wide.s32 %rd4, %r1, %r3;', 'shl.b64 %rd2, %rd4, 2;', ...STORE]) },
    { name: 'a constant factor', ptx: kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mul.lo.s32 %r5, %r1, 16;', 'mul.wide.s32 %rd2, %r5, 4;', ...STORE]) },
    { name: 'a 32-bit product used as a shared address (never widened)', ptx: kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mul.lo.s32 %r5, %r1, %r3;', 'st.shared.u32 [%r5], 0;', 'ret;']) },
    { name: 'a product that is stored, not an address', ptx: kernel(P, [...PROLOGUE, ...GLOBAL_INDEX, 'mul.lo.s32 %r5, %r1, %r3;', 'st.global.u32 [%rd1], %r5;', 'ret;']) },
    ...committedReal([EXAMPLE, ...LLC]),
    ...(await nvccReal(['01-elementwise-add.cu', '04-block-reduce-shared.cu', '25-softmax-warp.cu'])),
  ],
});

describeCudaFixtures('F077');
