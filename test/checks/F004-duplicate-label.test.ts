import { readFileSync } from 'node:fs';
import { F004 } from '../../src/checks/F004-duplicate-label.js';
import { checkCases } from './harness.js';

const H = '.version 7.8\n.target sm_90\n.address_size 64\n';

checkCases(F004, {
  fails: [
    { name: 'the same label twice in a body', ptx: `${H}.entry k()\n{\nL1:\n\tbra.uni L1;\nL1:\n\tret;\n}\n`, lines: [8] },
    { name: 'twice in one nested block', ptx: `${H}.entry k()\n{\n\t{\n\tA:\n\tA:\n\t}\n\tret;\n}\n`, lines: [8] },
    {
      name: 'each repetition is a finding, in each function',
      ptx: `${H}.entry k()\n{\nL:\nL:\nL:\n\tret;\n}\n.func f()\n{\nM:\nM:\n\tret;\n}\n`,
      lines: [7, 8, 14],
    },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'sibling blocks reuse a label (inlined asm)', ptx: `${H}.entry k()\n{\n\t{\n\tL1:\n\t}\n\t{\n\tL1:\n\t}\n\tret;\n}\n` },
    { name: 'a nested block shadows an outer label', ptx: `${H}.entry k()\n{\nL1:\n\t{\n\tL1:\n\t}\n\tret;\n}\n` },
    { name: 'two functions with the same label', ptx: `${H}.entry k()\n{\nL1:\n\tret;\n}\n.entry k2()\n{\nL1:\n\tret;\n}\n` },
    { name: 'hand-written scopes fixture', ptx: readFileSync('fixtures/corpus/handwritten/scopes_names_regs.ptx', 'utf8') },
    { name: 'no labels at all', ptx: `${H}.entry k()\n{\n\tret;\n}\n`, na: true },
  ],
});
