import { readFileSync } from 'node:fs';
import { F003 } from '../../src/checks/F003-address-size.js';
import { checkCases } from './harness.js';

const K = '.entry k()\n{\n\tret;\n}\n';

checkCases(F003, {
  fails: [
    { name: '.address_size 32', ptx: `.version 7.8\n.target sm_90\n.address_size 32\n${K}`, lines: [3] },
    { name: 'missing: reported at .target', ptx: `.version 7.8\n.target sm_90\n${K}`, lines: [2] },
    { name: 'missing, and no .target: reported at .version', ptx: `.version 7.8\n${K}`, lines: [1] },
    { name: 'repeated', ptx: `.version 7.8\n.target sm_90\n.address_size 64\n.address_size 64\n${K}`, lines: [4] },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'llc output', ptx: readFileSync('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx', 'utf8') },
  ],
});
