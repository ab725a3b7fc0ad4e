import { F011 } from '../../src/checks/F011-register-type-mismatch.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F011, {
  fails: [
    { name: 'add.f32 on .b64 registers (each operand)', ptx: kernel(['add.f32 %rd1, %rd2, %rd3;']), lines: [L, L, L] },
    { name: 'add.u32 on .f32 registers', ptx: kernel(['add.u32 %f1, %f2, %f3;']), lines: [L, L, L] },
    { name: 'add.f32 on .u32 registers (a typed integer is not a bit type)', ptx: kernel(['add.f32 %u1, %u2, %u3;']), lines: [L, L, L] },
    { name: 'mov.u32 from an .f32 register', ptx: kernel(['mov.u32 %r1, %f1;']), lines: [L] },
    { name: 'mov.u64 from a .b32 register (a width mix outside arithmetic)', ptx: kernel(['mov.u64 %rd1, %r1;']), lines: [L] },
    { name: 'add.f16 on .u16 registers', ptx: kernel(['add.f16 %uh1, %uh2, %uh3;']), lines: [L, L, L] },
    { name: 'a floating literal in an integer add', ptx: kernel(['add.s32 %r1, %r2, 0f3F800000;']), lines: [L] },
    { name: 'an integer literal in a float add', ptx: kernel(['add.f32 %f1, %f2, 1;']), lines: [L] },
    { name: 'any literal in an f16 add', ptx: kernel(['add.f16 %h1, %h2, 0x3C00;']), lines: [L] },
    { name: 'a 64-bit literal in mov.b32', ptx: kernel(['mov.b32 %r1, 0d3FF0000000000000;']), lines: [L] },
    { name: 'ld.f32 into a wider .f64 register', ptx: kernel(['ld.global.f32 %fd1, [%rd1];']), lines: [L] },
    { name: 'ld.u8 into an .f32 register', ptx: kernel(['ld.global.u8 %f1, [%rd1];']), lines: [L] },
    { name: 'st.u32 from an .f64 register', ptx: kernel(['st.global.u32 [%rd1], %fd1;']), lines: [L] },
    { name: 'cvt.rn.f16.f32 into an .f32 register', ptx: kernel(['cvt.rn.f16.f32 %f1, %f2;']), lines: [L] },
    { name: 'atomics take no wider register', ptx: kernel(['atom.global.add.u32 %rd2, [%rd1], %r1;']), lines: [L] },
    { name: 'a vector of .f64 registers for ld.v2.f32', ptx: kernel(['ld.global.v2.f32 {%fd1, %fd2}, [%rd1];']), lines: [L] },
    { name: 'selp.u32 with a 64-bit source', ptx: kernel(['selp.u32 %r1, %rd2, %r3, %p1;']), lines: [L] },
  ],
  passes: [
    { name: 'signed and unsigned interchange, bit types match', ptx: kernel(['add.u32 %r1, %u2, %s3;', 'add.f32 %r1, %r2, %r3;', 'add.f16 %hf1, %hf2, %h3;', 'mov.b32 %f1, %r1;']) },
    { name: 'literals of the right kind', ptx: kernel(['mov.b32 %f1, 1;', 'mov.b64 %rd2, 1.0;', 'mov.f32 %f1, 0d3FF0000000000000;', 'selp.f32 %f1, %f2, 0f00000000, %p1;', 'add.u32 %r1, %r1, -1;', 'and.pred %p1, %p1, 1;']) },
    { name: 'wide registers where ld/st/cvt allow them', ptx: kernel(['ld.global.f32 %rd2, [%rd1];', 'ld.global.b32 %fd1, [%rd1];', 'ld.global.s8 %rd2, [%rd1];', 'st.global.b8 [%rd1], %f1;', 'cvt.rn.f16.f32 %r1, %f2;', 'cvt.u32.u64 %r1, %rd1;']) },
    { name: 'braced vectors typed as ptxas types them', ptx: kernel(['ld.global.v2.f32 {%u1, %u2}, [%rd1];', 'ld.global.v2.f32 {%f1, %r2}, [%rd1];', 'ld.global.v2.u32 {%f1, %r2}, [%rd1];']) },
    { name: 'mul.wide / mad.wide results are twice the type', ptx: kernel(['mul.wide.s32 %rd2, %r1, %r2;', 'mad.wide.u32 %rd2, %r1, %r2, %rd3;']) },
    { name: 'atom.cas with three data operands is not a cache-policy form', ptx: kernel(['atom.global.cas.b32 %r1, [%rd1], %r2, %r3;']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written ALU and conversion forms', ptx: REAL('fixtures/corpus/handwritten/alu_cvt_sm90.ptx') },
    { name: 'hand-written atomics and memory forms', ptx: REAL('fixtures/corpus/handwritten/memory_atomics_sm80.ptx') },
    { name: 'hand-written mma/ldmatrix (fragment registers hold packed elements)', ptx: REAL('fixtures/corpus/handwritten/mma_ldmatrix_sm90.ptx') },
    { name: 'llc output with vector types', ptx: REAL('fixtures/corpus/llvm/ptx/float_vector_types.sm_80.ptx') },
  ],
});
