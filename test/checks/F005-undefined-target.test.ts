import { readFileSync } from 'node:fs';
import { F005 } from '../../src/checks/F005-undefined-target.js';
import { checkCases } from './harness.js';

const H = '.version 7.8\n.target sm_90\n.address_size 64\n';

checkCases(F005, {
  fails: [
    { name: 'bra to a missing label', ptx: `${H}.entry k()\n{\n\tbra.uni NOWHERE;\n\tret;\n}\n`, lines: [6] },
    {
      name: 'bra to a label of a sibling block',
      ptx: `${H}.entry k()\n{\n\t{\n\tIN:\n\t\tret;\n\t}\n\t{\n\t\tbra.uni IN;\n\t}\n\tret;\n}\n`,
      lines: [11],
    },
    {
      name: 'bra out of a block to a label nested in another one',
      ptx: `${H}.entry k()\n{\n\tbra.uni DEEP;\n\t{\n\tDEEP:\n\t\tret;\n\t}\n}\n`,
      lines: [6],
    },
    { name: 'call to an undeclared function', ptx: `${H}.entry k()\n{\n\tcall.uni missing_fn;\n\tret;\n}\n`, lines: [6] },
    { name: 'bra to a function name', ptx: `${H}.func f()\n{\n\tret;\n}\n.entry k()\n{\n\tbra.uni f;\n\tret;\n}\n`, lines: [10] },
    {
      name: '.branchtargets names a missing label',
      ptx: `${H}.entry k(.param .u32 i)\n{\n\t.reg .b32 %r<2>;\n\tld.param.u32 %r1, [i];\nT: .branchtargets A, B;\n\tbrx.idx %r1, T;\nA:\n\tret;\n}\n`,
      lines: [8],
    },
    {
      name: 'brx.idx to a missing target list',
      ptx: `${H}.entry k(.param .u32 i)\n{\n\t.reg .b32 %r<2>;\n\tld.param.u32 %r1, [i];\n\tbrx.idx %r1, T;\nA:\n\tret;\n}\n`,
      lines: [8],
    },
    {
      name: '.calltargets names a missing function',
      ptx: `${H}.func (.param .b32 r) g(.param .b32 x)\n{\n\tret;\n}\n.entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\t{\n\t.param .b32 a;\n\t.param .b32 r;\n`
        + 'T: .calltargets g, h;\n\tcall (r), %rd1, (a), T;\n\t}\n\tret;\n}\n',
      lines: [15],
    },
    {
      name: 'a call to a function defined only later (ptxas: needs a prototype)',
      ptx: `${H}.entry k()\n{\n\tcall.uni later;\n\tret;\n}\n.func later()\n{\n\tret;\n}\n`,
      lines: [6],
    },
    {
      name: '.calltargets naming a function defined only later',
      ptx: `${H}.entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\t{\n\t.param .b32 a;\n\t.param .b32 r;\n`
        + 'T: .calltargets g;\n\tcall (r), %rd1, (a), T;\n\t}\n\tret;\n}\n.func (.param .b32 r) g(.param .b32 x)\n{\n\tret;\n}\n',
      lines: [11],
    },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'calls, brx.idx, .calltargets and .callprototype', ptx: readFileSync('fixtures/corpus/handwritten/calls_branches_linkage.ptx', 'utf8') },
    { name: 'jump table fixture', ptx: readFileSync('fixtures/cfg/jump-table.ptx', 'utf8') },
    { name: 'scopes and calls fixture', ptx: readFileSync('fixtures/cfg/scopes-and-calls.ptx', 'utf8') },
    { name: 'a branch to a label of an enclosing block', ptx: `${H}.entry k()\n{\nTOP:\n\t{\n\t\tbra.uni TOP;\n\t}\n}\n` },
    { name: 'a call to a prototype-only function', ptx: `${H}.extern .func ext();\n.entry k()\n{\n\tcall.uni ext;\n\tret;\n}\n` },
    { name: 'a call to a function defined later, after a prototype', ptx: `${H}.func later();\n.entry k()\n{\n\tcall.uni later;\n\tret;\n}\n.func later()\n{\n\tret;\n}\n` },
    { name: 'no branches or calls', ptx: `${H}.entry k()\n{\n\tret;\n}\n`, na: true },
  ],
});
