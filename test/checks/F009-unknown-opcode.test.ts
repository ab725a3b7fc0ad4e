import { readFileSync } from 'node:fs';
import { F009 } from '../../src/checks/F009-unknown-opcode.js';
import { checkCases } from './harness.js';

const mod = (version: string, body: string): string =>
  `.version ${version}\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<5>;\n`
  + `\t.shared .align 8 .b8 smem[64];\n${body}\tret;\n}\n`;
const k = (body: string): string => mod('8.0', body);
// body starts at line 10

checkCases(F009, {
  fails: [
    { name: 'ld.shraed (modifier typo)', ptx: k('\tld.shraed.u32 %r1, [smem];\n'), lines: [10] },
    { name: 'an unknown opcode', ptx: k('\tfadd.f32 %r1, %r2, %r3;\n'), lines: [10] },
    { name: 'a state space given twice', ptx: k('\tst.global.global.u32 [%rd1], %r1;\n'), lines: [10] },
    { name: 'setp without its comparison', ptx: k('\tsetp.u32 %p1, %r1, %r2;\n'), lines: [10] },
    { name: 'ld without its type', ptx: k('\tld.global %r1, [%rd1];\n'), lines: [10] },
    { name: 'a type the opcode does not take', ptx: k('\tadd.b32 %r1, %r2, %r3;\n'), lines: [10] },
    { name: 'one finding per bad instruction', ptx: k('\tld.shraed.u32 %r1, [smem];\n\tst.shraed.u32 [smem], %r1;\n'), lines: [10, 11] },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'llc output', ptx: readFileSync('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx', 'utf8') },
    { name: 'multi-part opcodes (TMA)', ptx: readFileSync('fixtures/corpus/handwritten/tma_bulk_tensor_sm90.ptx', 'utf8') },
    { name: 'cvt with two type slots, mma with four', ptx: readFileSync('fixtures/corpus/handwritten/alu_cvt_sm90.ptx', 'utf8') },
    { name: 'beyond the table: n/a in a module newer than the table', ptx: mod('9.1', '\tfuture_op.b32 %r1, %r2;\n'), na: true },
    { name: 'no instructions: n/a', ptx: '.version 8.0\n.target sm_90\n.address_size 64\n.global .u32 x;\n', na: true },
  ],
});
