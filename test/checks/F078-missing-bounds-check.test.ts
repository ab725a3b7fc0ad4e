import { F078 } from '../../src/checks/F078-missing-bounds-check.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, GLOBAL_INDEX, kernel, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 a, .param .u32 n';
const PROLOGUE = ['ld.param.u64 %rd9, [a];', 'ld.param.u32 %r2, [n];', 'cvta.to.global.u64 %rd1, %rd9;', ...GLOBAL_INDEX];
const ADDR = ['mul.wide.s32 %rd2, %r1, 4;', 'add.s64 %rd3, %rd1, %rd2;'];

checkCases(F078, {
  fails: [
    failing('a store with no if (i < n)', kernel(P, [...PROLOGUE, ...ADDR, 'st.global.u32 [%rd3], %r1; //!', 'ret;'])),
    failing('a test on something else (a uniform value)', kernel(P, [...PROLOGUE, 'setp.eq.u32 %p1, %r2, 0;', '@%p1 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1; //!', 'D:', 'ret;'])),
    failing('a test against another thread-varying value', kernel(P, [...PROLOGUE, 'mov.u32 %r5, %laneid;', 'setp.ge.s32 %p1, %r1, %r5;', '@%p1 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1; //!', 'D:', 'ret;'])),
    failing('a tile test on another block dimension (%ctaid.y) than the index', kernel(P, [...PROLOGUE, 'mov.u32 %r13, %ctaid.y;', 'shl.b32 %r14, %r13, 8;', 'sub.s32 %r15, %r2, %r14;', 'setp.lt.u32 %p1, %r15, 256;', '@%p1 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1; //!', 'D:', 'ret;'])),
    failing('a generic store through the raw pointer parameter', kernel(P, ['ld.param.u64 %rd1, [a];', ...GLOBAL_INDEX, ...ADDR, 'st.u32 [%rd3], %r1; //!', 'ret;'])),
  ],
  passes: [
    { name: 'an early exit if (i >= n) return', ptx: kernel(P, [...PROLOGUE, 'setp.ge.s32 %p1, %r1, %r2;', '@%p1 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1;', 'D:', 'ret;']) },
    { name: 'a guarded store', ptx: kernel(P, [...PROLOGUE, 'setp.lt.s32 %p1, %r1, %r2;', ...ADDR, '@%p1 st.global.u32 [%rd3], %r1;', 'ret;']) },
    { name: 'a 2-D test joined with and.pred', ptx: kernel(P, [...PROLOGUE, 'mov.u32 %r6, %tid.y;', 'setp.lt.s32 %p1, %r1, %r2;', 'setp.lt.s32 %p2, %r6, 64;', 'and.pred %p3, %p1, %p2;', '@!%p3 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1;', 'D:', 'ret;']) },
    { name: 'a grid-stride loop (the loop test bounds the index)', ptx: kernel(P, [...PROLOGUE, 'mov.u32 %r7, %nctaid.x;', 'mul.lo.s32 %r8, %r7, %r11;', 'setp.ge.s32 %p1, %r1, %r2;', '@%p1 bra D;', 'L:', ...ADDR, 'st.global.u32 [%rd3], %r1;', 'add.s32 %r1, %r1, %r8;', 'setp.lt.s32 %p2, %r1, %r2;', '@%p2 bra L;', 'D:', 'ret;']) },
    { name: 'a full-tile test (CUB: n - tile_offset > TILE_ITEMS, the block index re-read at the store)', ptx: kernel(P, [...PROLOGUE, 'mov.u32 %r13, %ctaid.x;', 'shl.b32 %r14, %r13, 8;', 'sub.s32 %r15, %r2, %r14;', 'setp.lt.u32 %p1, %r15, 256;', '@%p1 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1;', 'D:', 'ret;']) },
    { name: 'a per-block store (out[blockIdx.x]) under if (tid == 0)', ptx: kernel(P, ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %ctaid.x;', 'mov.u32 %r3, %tid.x;', 'setp.ne.u32 %p1, %r3, 0;', '@%p1 bra D;', ...ADDR, 'st.global.u32 [%rd3], %r1;', 'D:', 'ret;']), na: true },
    ...committedReal([EXAMPLE, 'fixtures/corpus/triton/histogram.ptx']).map((c) => ({ ...c, na: true })),
    ...committedReal(TRITON.slice(0, 4)),
    ...(await nvccReal(['01-elementwise-add.cu', '02-saxpy-grid-stride.cu', '05-tiled-gemm-shared.cu', '33-stencil-2d.cu'])),
  ],
});

describeCudaFixtures('F078');
