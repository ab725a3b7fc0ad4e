import { F017 } from '../../src/checks/F017-predicate-misuse.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F017, {
  fails: [
    { name: 'a guard on a .b32 register', ptx: kernel(['@%r1 add.u32 %r1, %r1, 1;']), lines: [L] },
    { name: 'a negated guard on a .b64 register', ptx: kernel(['@!%rd1 add.u32 %r1, %r1, 1;']), lines: [L] },
    { name: 'a data register in and.pred', ptx: kernel(['and.pred %p1, %p2, %r1;']), lines: [L] },
    { name: 'a predicate in and.b32', ptx: kernel(['and.b32 %r1, %p2, %r1;']), lines: [L] },
    { name: 'mov.u32 from a predicate', ptx: kernel(['mov.u32 %r1, %p1;']), lines: [L] },
    { name: 'storing a predicate', ptx: kernel(['st.global.u8 [%rd1], %p1;']), lines: [L] },
    { name: 'loading into a predicate', ptx: kernel(['ld.global.u8 %p1, [%rd1];']), lines: [L] },
    { name: 'not.pred of a data register', ptx: kernel(['not.pred %p1, %r1;']), lines: [L] },
    { name: 'a predicate as an add operand', ptx: kernel(['add.u32 %r1, %p1, %r2;']), lines: [L] },
    { name: 'a floating literal as a predicate', ptx: kernel(['mov.pred %p1, 0f3F800000;']), lines: [L] },
  ],
  passes: [
    { name: 'guards and predicate logic', ptx: kernel(['@%p1 add.u32 %r1, %r1, 1;', '@!%p1 add.u32 %r1, %r1, 1;', 'and.pred %p1, %p2, 1;', 'mov.pred %p1, 1;', 'selp.u32 %r1, 1, 0, %p1;']) },
    { name: 'comparison operands are F014\'s', ptx: kernel(['selp.u32 %r1, %r2, %r3, %r4;', 'setp.eq.u32 %r1, %r2, 0;']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written scopes, vector registers and predicates', ptx: REAL('fixtures/corpus/handwritten/scopes_names_regs.ptx') },
    { name: 'hand-written warp and cluster forms (|p outputs)', ptx: REAL('fixtures/corpus/handwritten/warp_cluster_sm90.ptx') },
  ],
});
