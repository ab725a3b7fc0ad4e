import { F015 } from '../../src/checks/F015-invalid-conversion.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F015, {
  fails: [
    { name: 'float→int without rounding', ptx: kernel(['cvt.s32.f32 %r1, %f1;']), lines: [L] },
    { name: 'float→int with a float rounding', ptx: kernel(['cvt.rn.s32.f32 %r1, %f1;']), lines: [L] },
    { name: 'widening float with .rn', ptx: kernel(['cvt.rn.f32.f16 %f1, %h1;']), lines: [L] },
    { name: 'widening float with an integer rounding', ptx: kernel(['cvt.rni.f64.f32 %fd1, %f1;']), lines: [L] },
    { name: 'int→float without rounding', ptx: kernel(['cvt.f32.s32 %f1, %r1;']), lines: [L] },
    { name: 'int→float with an integer rounding', ptx: kernel(['cvt.rzi.f32.s32 %f1, %r1;']), lines: [L] },
    { name: 'narrowing float without rounding', ptx: kernel(['cvt.f16.f32 %h1, %f1;']), lines: [L] },
    { name: 'narrowing float with .rna', ptx: kernel(['cvt.rna.f16.f32 %h1, %f1;']), lines: [L] },
    { name: 'same float type with a float rounding', ptx: kernel(['cvt.rn.f32.f32 %f1, %f1;']), lines: [L] },
    { name: 'int→int with a rounding', ptx: kernel(['cvt.rn.u32.s32 %r1, %r1;']), lines: [L] },
    { name: '.sat on a widening int conversion', ptx: kernel(['cvt.sat.s32.s8 %r1, %h2;']), lines: [L] },
    { name: '.sat on a same-sign widening', ptx: kernel(['cvt.sat.u64.u32 %rd2, %r1;']), lines: [L] },
    { name: '.sat with .bf16', ptx: kernel(['cvt.rn.sat.bf16.f32 %h1, %f1;']), lines: [L] },
    { name: '.ftz without .f32', ptx: kernel(['cvt.ftz.f64.f64 %fd1, %fd1;']), lines: [L] },
    { name: 'FP8 without .satfinite', ptx: kernel(['cvt.rn.e4m3x2.f32 %h1, %f1, %f2;'], { version: '8.1' }), lines: [L] },
    { name: 'cvta.u32 in a 64-bit module', ptx: kernel(['cvta.to.global.u32 %r1, %rd1;']), lines: [L] },
    { name: 'cvta.u32 in a module without .address_size', ptx: kernel(['cvta.to.global.u32 %r1, %rd1;'], { addressSize: null }), lines: [L] },
    { name: 'several problems make one finding', ptx: kernel(['cvt.rn.sat.ftz.s64.s32 %rd2, %r1;']), lines: [L] },
  ],
  passes: [
    { name: 'valid roundings', ptx: kernel(['cvt.rzi.s32.f32 %r1, %f1;', 'cvt.f32.f16 %f1, %h1;', 'cvt.rn.f32.s32 %f1, %r1;', 'cvt.rn.f16.f32 %h1, %f1;', 'cvt.rni.f32.f32 %f1, %f1;', 'cvt.f64.f32 %fd1, %f1;', 'cvt.s64.s32 %rd2, %r1;']) },
    { name: '.sat where it can clamp', ptx: kernel(['cvt.sat.s32.u32 %r1, %r1;', 'cvt.sat.u8.s32 %r1, %r1;', 'cvt.rn.sat.f16.f32 %h1, %f1;', 'cvt.rzi.sat.s32.f32 %r1, %f1;', 'cvt.sat.f32.f32 %f1, %f1;']) },
    { name: '.ftz with .f32 on either side', ptx: kernel(['cvt.rn.ftz.f32.s32 %f1, %r1;', 'cvt.ftz.f64.f32 %fd1, %f1;', 'cvt.rzi.ftz.s32.f32 %r1, %f1;']) },
    { name: 'ptxas takes an optional rounding with .bf16', ptx: kernel(['cvt.rn.f32.bf16 %f1, %h1;', 'cvt.f32.bf16 %f1, %h1;', 'cvt.bf16.f16 %h1, %h2;', 'cvt.rn.bf16.f32 %h1, %f1;']) },
    { name: 'packed and FP8 forms', ptx: kernel(['cvt.rn.f16x2.f32 %r1, %f1, %f2;', 'cvt.rna.tf32.f32 %r1, %f1;', 'cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;', 'cvt.rn.f16x2.e4m3x2 %r1, %h1;'], { version: '8.1' }) },
    { name: 'cvta.u64 in a 64-bit module', ptx: kernel(['cvta.to.global.u64 %rd2, %rd1;', 'cvta.global.u64 %rd3, %rd2;']) },
    { name: 'a 32-bit module is F003\'s, not a cvta size problem', ptx: kernel(['cvta.to.global.u64 %rd2, %rd1;'], { addressSize: 32 }) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written conversions', ptx: REAL('fixtures/corpus/handwritten/alu_cvt_sm90.ptx') },
    { name: 'hand-written FP8 conversions', ptx: REAL('fixtures/corpus/handwritten/fp8_sm89.ptx') },
    { name: 'llc output', ptx: REAL('fixtures/corpus/llvm/ptx/float_vector_types.sm_80.ptx') },
  ],
});
