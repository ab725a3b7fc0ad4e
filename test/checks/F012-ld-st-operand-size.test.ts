import { F012 } from '../../src/checks/F012-ld-st-operand-size.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F012, {
  fails: [
    { name: 'ld.u32 into a .b16 register', ptx: kernel(['ld.global.u32 %h1, [%rd1];']), lines: [L] },
    { name: 'st.u32 from a .b16 register', ptx: kernel(['st.global.u32 [%rd1], %h1;']), lines: [L] },
    { name: 'ld.f64 into an .f32 register', ptx: kernel(['ld.global.f64 %f1, [%rd1];']), lines: [L] },
    { name: 'st.f64 from an .f32 register', ptx: kernel(['st.global.f64 [%rd1], %f1;']), lines: [L] },
    { name: 'ld.b64 into a .b32 register', ptx: kernel(['ld.global.b64 %r1, [%rd1];']), lines: [L] },
    { name: 'ld.u32 into a .b8 register', ptx: kernel(['ld.shared.u32 %b1, [%rd1];']), lines: [L] },
    { name: 'a vector of .b16 registers for ld.v2.u32', ptx: kernel(['ld.global.v2.u32 {%h1, %h2}, [%rd1];']), lines: [L] },
    { name: 'ld.global.nc and ldu too', ptx: kernel(['ld.global.nc.u32 %h1, [%rd1];', 'ldu.global.u64 %r1, [%rd1];']), lines: [L, L + 1] },
  ],
  passes: [
    { name: 'wider registers are allowed', ptx: kernel(['ld.global.u8 %r1, [%rd1];', 'ld.global.s8 %rd2, [%rd1];', 'ld.global.u32 %rd2, [%rd1];', 'st.global.u8 [%rd1], %r1;', 'st.global.u32 [%rd1], %rd1;', 'ld.global.v2.u8 {%r1, %r2}, [%rd1];', 'ld.global.b8 %b1, [%rd1];']) },
    { name: 'a wider register of the wrong kind is F011\'s', ptx: kernel(['ld.global.f32 %fd1, [%rd1];']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written 256-bit and .b128 loads', ptx: REAL('fixtures/corpus/handwritten/wide_loads_sm100.ptx') },
    { name: 'llc output', ptx: REAL('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx') },
  ],
});
