import { F019 } from '../../src/checks/F019-atomic-type.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F019, {
  fails: [
    { name: 'atom.add on a bit type', ptx: kernel(['atom.global.add.b32 %r1, [%rd1], %r2;']), lines: [L] },
    { name: 'atom.and on an unsigned type', ptx: kernel(['atom.global.and.u32 %r1, [%rd1], %r2;']), lines: [L] },
    { name: 'atom.exch and atom.cas on unsigned types', ptx: kernel(['atom.global.exch.u32 %r1, [%rd1], %r2;', 'atom.global.cas.u32 %r1, [%rd1], %r2, %r3;']), lines: [L, L + 1] },
    { name: 'atom.inc on a signed type', ptx: kernel(['atom.global.inc.s32 %r1, [%rd1], %r2;']), lines: [L] },
    { name: 'atom.add.s64 does not exist', ptx: kernel(['atom.global.add.s64 %rd2, [%rd1], %rd3;']), lines: [L] },
    { name: 'half add without .noftz', ptx: kernel(['atom.global.add.f16 %h1, [%rd1], %h2;']), lines: [L] },
    { name: '.noftz on .f32', ptx: kernel(['atom.global.add.noftz.f32 %f1, [%rd1], %f2;']), lines: [L] },
    { name: 'scalar half min', ptx: kernel(['atom.global.min.noftz.f16 %h1, [%rd1], %h2;']), lines: [L] },
    { name: 'float min', ptx: kernel(['atom.global.min.f32 %f1, [%rd1], %f2;']), lines: [L] },
    { name: 'red.and on an unsigned type', ptx: kernel(['red.global.and.u32 [%rd1], %r2;']), lines: [L] },
    { name: 'bf16 add before sm_90', ptx: kernel(['atom.global.add.noftz.bf16 %h1, [%rd1], %h2;'], { target: 'sm_80', version: '7.8' }), lines: [L] },
    { name: 'vector atomics before sm_90', ptx: kernel(['atom.global.add.v2.f32 {%f1, %f2}, [%rd1], {%f1, %f2};'], { target: 'sm_80', version: '8.1' }), lines: [L] },
    { name: 'vector atomics in shared memory', ptx: kernel(['atom.shared.add.v2.f32 {%f1, %f2}, [%rd1], {%f1, %f2};'], { version: '8.1' }), lines: [L] },
    { name: '.v8 of .f32', ptx: kernel(['atom.global.add.v8.f32 {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}, [%rd1], {%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7};'], { version: '8.1' }), lines: [L] },
    { name: 'vector of an integer type', ptx: kernel(['atom.global.add.v2.u32 {%r1, %r2}, [%rd1], {%r1, %r2};'], { version: '8.1' }), lines: [L] },
  ],
  passes: [
    { name: 'valid scalar atomics', ptx: kernel(['atom.global.add.noftz.f16 %h1, [%rd1], %h2;', 'atom.global.cas.b16 %h1, [%rd1], %h2, %h3;', 'atom.global.add.f64 %fd1, [%rd1], %fd2;', 'atom.global.add.noftz.bf16 %h1, [%rd1], %h2;', 'atom.shared.min.s64 %rd2, [%rd1], %rd3;', 'red.global.add.u32 [%rd1], %r2;', 'atom.global.exch.b64 %rd2, [%rd1], %rd3;']) },
    { name: 'valid vector atomics', ptx: kernel(['atom.global.min.noftz.v2.f16 {%h1, %h2}, [%rd1], {%h1, %h2};', 'red.global.add.v2.f32 [%rd1], {%f1, %f2};', 'atom.add.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1], {%f1, %f2, %f3, %f4};'], { version: '8.1' }) },
    { name: 'no atomics', ptx: kernel(['add.u32 %r1, %r1, 1;']), na: true },
    { name: 'hand-written atomics (sm_80)', ptx: REAL('fixtures/corpus/handwritten/memory_atomics_sm80.ptx') },
    { name: 'hand-written bf16 atomics (sm_90)', ptx: REAL('fixtures/corpus/handwritten/mma_ldmatrix_sm90.ptx') },
    { name: 'llc output', ptx: REAL('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx') },
  ],
});
