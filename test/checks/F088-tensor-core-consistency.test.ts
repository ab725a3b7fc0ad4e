import { F088 } from '../../src/checks/F088-tensor-core-consistency.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const A8 = '{%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}';
const B8 = '{%r9,%r10,%r11,%r12,%r13,%r14,%r15,%r16}';
const C8 = '{%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}';
const load = (frag: string, layout: string, regs: string, type: string, stride = 16, shape = 'm16n16k16'): string =>
  `wmma.load.${frag}.sync.aligned.${layout}.${shape}.shared.${type} ${regs}, [%r20], ${stride};`;
const mma = (a: string, b: string, shape = 'm16n16k16'): string => `wmma.mma.sync.aligned.${a}.${b}.${shape}.f32.f32 ${C8}, ${A8}, ${B8}, ${C8};`;
const GEMM = (lines: string[]): string => kernel('', ['mov.u32 %r20, 0;', ...lines, 'ret;']);

checkCases(F088, {
  fails: [
    failing('a B fragment loaded row_major but multiplied as col', GEMM([load('a', 'row', A8, 'f16'), load('b', 'row', B8, 'f16'), load('c', 'row', C8, 'f32'), `${mma('row', 'col')} //!`])),
    failing('a shape mismatch between the load and the mma', GEMM([load('a', 'row', A8, 'f16', 16, 'm32n8k16'), load('b', 'col', B8, 'f16'), load('c', 'row', C8, 'f32'), `${mma('row', 'col')} //!`])),
    failing('a wrong fragment register count', GEMM([`wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1,%r2,%r3,%r4}, [%r20], 16; //!`])),
    failing('a stride that is not a multiple of 16 bytes', GEMM([`${load('a', 'row', A8, 'f16', 12)} //!`])),
    failing('mma.sync with too few A registers', kernel('', ['mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2}, {%r5,%r6}, {%f1,%f2,%f3,%f4}; //!', 'ret;'])),
    failing('ldmatrix .x4 into two registers', kernel('', ['mov.u32 %r20, 0;', 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2}, [%r20]; //!', 'ret;'])),
  ],
  passes: [
    { name: 'row A, col B, col-major mma', ptx: GEMM([load('a', 'row', A8, 'f16'), load('b', 'col', B8, 'f16'), load('c', 'row', C8, 'f32'), mma('row', 'col')]) },
    { name: 'the c layout is free', ptx: GEMM([load('a', 'col', A8, 'f16'), load('b', 'row', B8, 'f16'), load('c', 'col', C8, 'f32'), mma('col', 'row')]) },
    { name: 'mma.sync m16n8k16 and ldmatrix .x4', ptx: kernel('', ['mov.u32 %r20, 0;', 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2,%r3,%r4}, [%r20];', 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f1,%f2,%f3,%f4};', 'ret;']) },
    { name: 'a stride of 8 halves (16 bytes)', ptx: GEMM([load('a', 'row', A8, 'f16', 8)]) },
    ...committedReal(['fixtures/corpus/handwritten/mma_ldmatrix_sm90.ptx']),
    ...(await nvccReal(['06-wmma-half-float.cu', '07-mma-sync-inline-asm.cu'])),
    ...(await nvccReal(['06-wmma-half-float.cu', '07-mma-sync-inline-asm.cu'], 'sm_80')),
  ],
});

describeCudaFixtures('F088');
