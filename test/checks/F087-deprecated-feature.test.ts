import { F087 } from '../../src/checks/F087-deprecated-feature.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, kernel, LLC, marked, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const SP = 'mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4}, %r9, 0x0;';
const SP_NEW = SP.replace('mma.sp.', 'mma.sp::ordered_metadata.');
const MAP = ['.version 8.0', '.target sm_90, map_f64_to_f32 //!', '.address_size 64', '.visible .entry k()', '{', '\tret;', '}', ''].join('\n');

checkCases(F087, {
  fails: [
    { name: '.maxnctapersm', ptx: kernel('', ['ret;'], { directives: '.maxnctapersm 2' }), lines: [5] },
    { name: 'mma.sp in PTX 8.5+', ptx: kernel('', [SP, 'ret;'], { version: '8.7' }), lines: [7] },
    { name: 'the map_f64_to_f32 target option', ptx: MAP, lines: marked(MAP) },
  ],
  passes: [
    { name: '.minnctapersm with .maxntid', ptx: kernel('', ['ret;'], { directives: '.maxntid 128, 1, 1\n.minnctapersm 2' }) },
    { name: 'mma.sp::ordered_metadata', ptx: kernel('', [SP_NEW, 'ret;'], { version: '8.7' }) },
    { name: 'mma.sp before PTX 8.5 (no replacement existed)', ptx: kernel('', [SP, 'ret;'], { version: '8.0' }) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
    ...(await nvccReal(['07-mma-sync-inline-asm.cu', '30-launch-bounds.cu', '03-warp-shfl-reduce.cu'])),
  ],
});

describeCudaFixtures('F087');
