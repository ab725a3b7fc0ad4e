import { F018 } from '../../src/checks/F018-vector-operand-shape.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;
const V8 = '{%f0, %f1, %f2, %f3, %f4, %f5, %f6, %f7}';

checkCases(F018, {
  fails: [
    { name: 'ld.v4 with three registers', ptx: kernel(['ld.global.v4.f32 {%f1, %f2, %f3}, [%rd1];']), lines: [L] },
    { name: 'ld.v2 with three registers', ptx: kernel(['ld.global.v2.f32 {%f1, %f2, %f3}, [%rd1];']), lines: [L] },
    { name: 'st.v4 with three registers', ptx: kernel(['st.global.v4.f32 [%rd1], {%f1, %f2, %f3};']), lines: [L] },
    { name: 'a braced vector without .vN', ptx: kernel(['ld.global.f32 {%f1, %f2}, [%rd1];']), lines: [L] },
    { name: '.v2 with a scalar', ptx: kernel(['ld.global.v2.f32 %f1, [%rd1];']), lines: [L] },
    { name: 'elements of different sizes', ptx: kernel(['ld.global.v2.u32 {%r1, %rd2}, [%rd1];']), lines: [L] },
    { name: 'elements of different types', ptx: kernel(['ld.global.v2.f32 {%f1, %u2}, [%rd1];']), lines: [L] },
    { name: 'mov unpack into three', ptx: kernel(['mov.b32 {%h1, %h2, %h3}, %r1;']), lines: [L] },
    { name: 'mov unpack into mixed sizes', ptx: kernel(['mov.b64 {%r1, %h2}, %rd1;']), lines: [L] },
    { name: 'mov pack with a typed (non-bit) type', ptx: kernel(['mov.u32 {%h1, %h2}, %r1;']), lines: [L] },
    { name: '256-bit loads before sm_100', ptx: kernel([`ld.global.v8.f32 ${V8}, [%rd1];`, 'ld.global.v4.f64 {%fd0, %fd1, %fd2, %fd3}, [%rd1];'], { version: '8.8' }), lines: [L, L + 1] },
    { name: '256-bit shared load on sm_100', ptx: kernel([`ld.shared.v8.f32 ${V8}, [%rd1];`], { version: '8.8', target: 'sm_100' }), lines: [L] },
    { name: '.v8 of a 16-bit type', ptx: kernel(['ld.global.v8.u16 {%h0, %h1, %h2, %h3, %h0, %h1, %h2, %h3}, [%rd1];'], { version: '8.8', target: 'sm_100' }), lines: [L] },
    { name: 'a vector of .b128', ptx: kernel(['ld.global.v2.b128 {%q0, %q1}, [%rd1];'], { version: '8.8', target: 'sm_100', regs: '.reg .b128 %q<2>; .reg .b64 %rd<2>;' }), lines: [L] },
  ],
  passes: [
    { name: 'vectors ptxas accepts', ptx: kernel(['ld.global.v2.f32 {%f1, %r2}, [%rd1];', 'ld.global.v2.u32 {%r1, %u2}, [%rd1];', 'ld.global.v2.f32 {%f1, _}, [%rd1];', 'st.global.v2.f32 [%rd1], {%f1, 0f00000000};', 'ld.global.v4.u8 {%h1, %h1, %h1, %h1}, [%rd1];', 'ld.global.v2.u64 {%rd2, %rd3}, [%rd1];']) },
    { name: 'mov pack and unpack', ptx: kernel(['mov.b32 {%h1, %h2}, %r1;', 'mov.b64 {%r1, %r2}, %rd1;', 'mov.b64 {%h1, %h2, %h3, %h0}, %rd1;', 'mov.b64 %rd2, {%r1, %r2};']) },
    { name: 'a one-element brace is a scalar (Triton output)', ptx: kernel(['ld.global.b32 { %r1 }, [ %rd1 + 0 ];']) },
    { name: '256-bit global loads on sm_100', ptx: kernel([`ld.global.v8.f32 ${V8}, [%rd1];`, `st.v8.f32 [%rd1], ${V8};`, 'ld.global.v4.u64 {%rd0, %rd1, %rd2, %rd3}, [%rd1];'], { version: '8.8', target: 'sm_100' }) },
    { name: 'vector atomics (widths are F019\'s)', ptx: kernel(['atom.global.add.v2.f32 {%f1, %f2}, [%rd1], {%f1, %f2};'], { version: '8.1' }) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written 256-bit loads and .b128', ptx: REAL('fixtures/corpus/handwritten/wide_loads_sm100.ptx') },
    { name: 'hand-written vector registers', ptx: REAL('fixtures/corpus/handwritten/scopes_names_regs.ptx') },
    { name: 'llc output with vector types', ptx: REAL('fixtures/corpus/llvm/ptx/float_vector_types.sm_80.ptx') },
  ],
});
