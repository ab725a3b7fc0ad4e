import { readFileSync } from 'node:fs';
import { F002 } from '../../src/checks/F002-header-directives.js';
import { checkCases } from './harness.js';

const K = '.entry k()\n{\n\tret;\n}\n';

checkCases(F002, {
  fails: [
    { name: '.version below the sm_90 minimum (7.8)', ptx: `.version 7.0\n.target sm_90\n.address_size 64\n${K}`, lines: [1] },
    { name: '.version below the sm_90a minimum (8.0)', ptx: `.version 7.8\n.target sm_90a\n.address_size 64\n${K}`, lines: [1] },
    { name: '.version below the sm_75 minimum (6.3)', ptx: `.version 6.0\n.target sm_75\n.address_size 64\n${K}`, lines: [1] },
    { name: 'sm_100f needs 8.8 (sm_100 only 8.6)', ptx: `.version 8.6\n.target sm_100f\n.address_size 64\n${K}`, lines: [1] },
    { name: 'no .version', ptx: `.target sm_90\n.address_size 64\n${K}`, lines: [1] },
    { name: 'no .target', ptx: `.version 7.8\n.address_size 64\n${K}`, lines: [1] },
    { name: '.target repeated', ptx: `.version 7.8\n.target sm_90\n.address_size 64\n.target sm_90\n${K}`, lines: [4] },
    { name: '.version repeated', ptx: `.version 7.8\n.target sm_90\n.version 7.8\n.address_size 64\n${K}`, lines: [3] },
    { name: '.target before .version', ptx: `.target sm_90\n.version 7.8\n.address_size 64\n${K}`, lines: [1, 2] },
    { name: '.address_size between .version and .target', ptx: `.version 7.8\n.address_size 64\n.target sm_90\n${K}`, lines: [3] },
  ],
  passes: [
    { name: 'nvcc output (sm_90, 9.0)', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'llc output', ptx: readFileSync('fixtures/corpus/llvm/ptx/vector_add.sm_80.ptx', 'utf8') },
    { name: 'comments before .version', ptx: `// header\n/* block */\n.version 7.8\n.target sm_90\n.address_size 64\n${K}` },
    { name: 'exactly the minimum for sm_90a', ptx: `.version 8.0\n.target sm_90a\n.address_size 64\n${K}` },
    { name: 'target options after the architecture', ptx: `.version 7.8\n.target sm_80, debug\n.address_size 64\n${K}` },
    { name: 'a target the table does not know is not judged for its version', ptx: `.version 7.0\n.target sm_99\n.address_size 64\n${K}` },
  ],
});
