import { readFileSync } from 'node:fs';
import { F001 } from '../../src/checks/F001-missing-entry-point.js';
import { checkCases } from './harness.js';

const H = '.version 8.0\n.target sm_90\n.address_size 64\n';

checkCases(F001, {
  fails: [
    { name: 'only a non-visible .func', ptx: `${H}.func f()\n{\n\tret;\n}\n`, lines: [1] },
    { name: 'no functions at all', ptx: `${H}.global .u32 x;\n`, lines: [1] },
  ],
  passes: [
    { name: 'a plain .entry', ptx: `${H}.entry k()\n{\n\tret;\n}\n` },
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'a device-function library (.visible .func)', ptx: `${H}.visible .func f()\n{\n\tret;\n}\n`, na: true },
    { name: 'an .extern declaration only', ptx: `${H}.extern .func g();\n`, na: true },
  ],
});
