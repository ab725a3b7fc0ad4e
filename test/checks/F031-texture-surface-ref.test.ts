import { F031 } from '../../src/checks/F031-texture-surface-ref.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const REFS = '.global .texref tex; .global .surfref surf; .global .samplerref smp;';
const V4 = '{%f1, %f2, %f3, %f4}';

checkCases(F031, {
  fails: [
    { name: 'tex on a surface reference', ptx: kernel([`tex.1d.v4.f32.s32 ${V4}, [surf, {%r1}];`], { module: REFS }), lines: [L] },
    { name: 'suld on a texture reference', ptx: kernel(['suld.b.1d.b32.trap {%r2}, [tex, {%r1}];'], { module: REFS }), lines: [L] },
    { name: 'a texture where the sampler goes', ptx: kernel([`tex.1d.v4.f32.s32 ${V4}, [tex, tex, {%r1}];`], { module: REFS }), lines: [L] },
    { name: 'a sampler query on a texture', ptx: kernel(['txq.filter_mode.b32 %r2, [tex];'], { module: REFS }), lines: [L] },
    { name: 'a 32-bit register as a texture object', ptx: kernel([`tex.1d.v4.f32.s32 ${V4}, [%r1, {%r1}];`], { module: REFS }), lines: [L] },
    { name: 'a global array as a surface', ptx: kernel(['sust.b.1d.b32.trap [gbuf, {%r1}], {%r1};'], { module: '.global .align 4 .b8 gbuf[64];' }), lines: [L] },
  ],
  passes: [
    {
      name: 'references of the right types',
      ptx: kernel([`tex.1d.v4.f32.s32 ${V4}, [tex, {%r1}];`, 'suld.b.1d.b32.trap {%r2}, [surf, {%r1}];', 'txq.width.b32 %r3, [tex];', 'txq.filter_mode.b32 %r4, [smp];', 'suq.width.b32 %r5, [surf];'], { module: REFS }),
    },
    { name: 'bindless objects in 64-bit registers', ptx: kernel([`tex.1d.v4.f32.s32 ${V4}, [%rd1, {%r1}];`, 'sust.b.1d.b32.trap [%rd2, {%r1}], {%r1};']) },
    { name: 'a module without textures or surfaces is n/a', ptx: kernel(['ld.global.u32 %r2, [%rd2];']), na: true },
    { name: 'hand-written unified-mode references', ptx: REAL('fixtures/corpus/handwritten/texture_unified.ptx') },
    { name: 'hand-written independent-mode references and samplers', ptx: REAL('fixtures/corpus/handwritten/texture_independent.ptx') },
  ],
});

await expectQuietOnRealOutput(F031);
