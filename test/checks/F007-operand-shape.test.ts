import { readFileSync } from 'node:fs';
import { F007 } from '../../src/checks/F007-operand-shape.js';
import { checkCases } from './harness.js';

const H = '.version 8.0\n.target sm_90\n.address_size 64\n';
/** A kernel with registers and a shared array; `body` starts at line 10. */
const k = (body: string): string =>
  `${H}.entry k(.param .u64 p)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<5>;\n\t.shared .align 4 .b8 smem[64];\n${body}\tret;\n}\n`;

checkCases(F007, {
  fails: [
    { name: 'a store whose destination is a register', ptx: k('\tst.global.u32 %rd1, %r1;\n'), lines: [10] },
    { name: 'a load whose source is not bracketed', ptx: k('\tld.global.u32 %r1, %rd1;\n'), lines: [10] },
    { name: 'add with a missing operand', ptx: k('\tadd.s32 %r1, %r2;\n'), lines: [10] },
    { name: 'add with an extra operand', ptx: k('\tadd.s32 %r1, %r2, %r3, %r4;\n'), lines: [10] },
    { name: 'bra with two targets', ptx: k('L:\n\tbra.uni L, L;\n'), lines: [11] },
    { name: 'ret with an operand', ptx: k('\tret %r1;\n'), lines: [10] },
    { name: 'a vector where a scalar goes', ptx: k('\tadd.s32 {%r1, %r2}, %r3, %r4;\n'), lines: [10] },
    { name: 'an address as an arithmetic operand', ptx: k('\tadd.s32 %r1, [%r2], %r4;\n'), lines: [10] },
    { name: 'an immediate as a destination', ptx: k('\tmov.u32 5, %r1;\n'), lines: [10] },
    { name: 'a |p pair on an instruction without one', ptx: k('\tadd.s32 %r1|%p1, %r2, %r3;\n'), lines: [10] },
    { name: 'bar.sync with no barrier id', ptx: k('\tbar.sync;\n'), lines: [10] },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'llc output', ptx: readFileSync('fixtures/corpus/llvm/ptx/float_vector_types.sm_80.ptx', 'utf8') },
    { name: 'calls with parameter lists and prototypes', ptx: readFileSync('fixtures/corpus/handwritten/calls_branches_linkage.ptx', 'utf8') },
    { name: 'mma and ldmatrix', ptx: readFileSync('fixtures/corpus/handwritten/mma_ldmatrix_sm90.ptx', 'utf8') },
    { name: 'vector registers, sink, dual predicates', ptx: readFileSync('fixtures/corpus/handwritten/scopes_names_regs.ptx', 'utf8') },
    {
      name: 'optional operands given or left out',
      ptx: k('\tshfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n\tshfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;\n\tbar.sync 0;\n\tbar.sync 1, 64;\n'),
    },
    { name: 'a symbol and a symbol plus offset', ptx: k('\tmov.u32 %r1, smem;\n\tmov.u64 %rd1, smem;\n\tcvta.shared.u64 %rd2, %rd1;\n') },
    { name: 'unresolved names are not judged here (F006)', ptx: k('\tadd.s32 %r1, %nosuch, 1;\n') },
  ],
});
