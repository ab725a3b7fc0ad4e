import { F079 } from '../../src/checks/F079-zero-extended-signed-offset.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 a';
const LOAD = ['add.s64 %rd3, %rd1, %rd2;', 'ld.global.u32 %r9, [%rd3];', 'ret;'];

checkCases(F079, {
  fails: [
    failing('tid.x - 1 through mul.wide.u32', kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'add.s32 %r2, %r1, -1;', 'mul.wide.u32 %rd2, %r2, 4; //!', ...LOAD])),
    failing('tid.x - 2 through cvt.u64.u32', kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'sub.s32 %r2, %r1, 2;', 'cvt.u64.u32 %rd4, %r2; //!', 'shl.b64 %rd2, %rd4, 2;', ...LOAD])),
    failing('a range known to reach below zero', kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'and.b32 %r3, %r1, 7;', 'add.s32 %r2, %r3, -4;', 'mul.wide.u32 %rd2, %r2, 4; //!', ...LOAD], { directives: '.reqntid 64' })),
  ],
  passes: [
    { name: 'sign extension of the same value', ptx: kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'add.s32 %r2, %r1, -1;', 'mul.wide.s32 %rd2, %r2, 4;', ...LOAD]), na: true },
    { name: 'a guard tid > 0 before the access', ptx: kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra D;', 'add.s32 %r2, %r1, -1;', 'mul.wide.u32 %rd2, %r2, 4;', 'add.s64 %rd3, %rd1, %rd2;', 'ld.global.u32 %r9, [%rd3];', 'D:', 'ret;']) },
    { name: 'a non-negative index zero-extended', ptx: kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'add.s32 %r2, %r1, 1;', 'mul.wide.u32 %rd2, %r2, 4;', ...LOAD]) },
    { name: 'a negative value zero-extended but not into an address', ptx: kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'add.s32 %r2, %r1, -1;', 'cvt.u64.u32 %rd2, %r2;', 'st.global.u64 [%rd1], %rd2;', 'ret;']) },
    ...committedReal([EXAMPLE, 'fixtures/corpus/triton/softmax_rows.ptx', 'fixtures/corpus/triton/layer_norm.ptx', 'fixtures/corpus/triton/matmul.ptx', 'fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx']),
    ...(await nvccReal(['23-blelloch-scan.cu', '05-tiled-gemm-shared.cu', '22-histogram-shared-atomics.cu'])),
  ],
});

describeCudaFixtures('F079');
