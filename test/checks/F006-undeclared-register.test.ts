import { readFileSync } from 'node:fs';
import { F006 } from '../../src/checks/F006-undeclared-register.js';
import { checkCases } from './harness.js';

const H = '.version 7.8\n.target sm_90\n.address_size 64\n';

checkCases(F006, {
  fails: [
    { name: 'past the %r<N> range', ptx: `${H}.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r2, 0;\n\tret;\n}\n`, lines: [7] },
    { name: 'a leading zero is read by value: %r02 is past %r<2>', ptx: `${H}.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r02, 0;\n\tret;\n}\n`, lines: [7] },
    {
      name: 'declared only in a sibling block',
      ptx: `${H}.entry k()\n{\n\t{\n\t\t.reg .b32 t;\n\t\tmov.u32 t, 1;\n\t}\n\t{\n\t\tmov.u32 t, 2;\n\t}\n\tret;\n}\n`,
      lines: [11],
    },
    {
      name: 'declared in a nested block, used after it',
      ptx: `${H}.entry k()\n{\n\t{\n\t\t.reg .b32 t;\n\t}\n\tmov.u32 t, 2;\n\tret;\n}\n`,
      lines: [9],
    },
    { name: 'an undeclared guard predicate', ptx: `${H}.entry k()\n{\n\t@%p1 ret;\n\tret;\n}\n`, lines: [6] },
    {
      name: 'every use is a finding',
      ptx: `${H}.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %x;\n\tadd.u32 %r1, %r1, %x;\n\tret;\n}\n`,
      lines: [7, 8],
    },
    { name: 'an undeclared variable in an address', ptx: `${H}.entry k()\n{\n\t.reg .b32 %r<2>;\n\tld.shared.u32 %r1, [nosuch];\n\tret;\n}\n`, lines: [7] },
    { name: 'declared after its use in the same block', ptx: `${H}.entry k()\n{\n\tmov.u32 %r1, 0;\n\t.reg .b32 %r<2>;\n\tret;\n}\n`, lines: [6] },
    {
      name: 'a module variable declared after the kernel',
      ptx: `${H}.entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, gv;\n\tret;\n}\n.global .u32 gv;\n`,
      lines: [7],
    },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'shadowing, vector registers, sink, odd names', ptx: readFileSync('fixtures/corpus/handwritten/scopes_names_regs.ptx', 'utf8') },
    { name: 'llc output with calls', ptx: readFileSync('fixtures/corpus/llvm/ptx/recursion_local.sm_80.ptx', 'utf8') },
    { name: 'a function address taken after its prototype', ptx: `${H}.extern .func f();\n.entry k()\n{\n\t.reg .b64 %rd<2>;\n\tmov.u64 %rd1, f;\n\tret;\n}\n` },
    { name: 'a leading zero within the range (ptxas accepts %r01)', ptx: `${H}.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r01, 0;\n\tret;\n}\n` },
    { name: 'special registers and WARP_SZ', ptx: `${H}.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, WARP_SZ;\n\tret;\n}\n` },
  ],
});
