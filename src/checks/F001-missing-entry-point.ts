// F001: the module defines no kernel (`.entry`), so nothing in it can be launched.
import type { Check } from './types.js';
import { declarationsOnly, found, na, pass } from './types.js';

export const F001: Check = {
  meta: {
    id: 'F001',
    name: 'missing-entry-point',
    category: 'module',
    severity: 'medium',
    points: 1,
    description: 'The module defines no `.entry` (kernel), so nothing in it can be launched.',
    rationale: 'A module meant to be launched with no kernel is usually a build mistake (a kernel compiled as a device function, or a stripped file).',
    remedy: 'Declare the kernel with `.entry` (nvcc: `__global__`); if the module is a device-function library, it is judged n/a.',
    notes: 'A module whose functions are all `.func` and at least one is `.visible`, `.extern` or `.weak` is a device-function library: n/a. '
      + 'ptxas accepts a module without `.entry`, so this is a usefulness check, not a validity one.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.func f()\n{\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n',
    },
  },
  split: declarationsOnly((ctx) => F001.run(ctx)),
  run(ctx) {
    const functions = ctx.module.statements.filter((s) => s.kind === 'Function');
    if (functions.some((f) => f.isEntry)) return pass();
    if (functions.length > 0 && functions.some((f) => f.linkage.length > 0)) return na('a device-function library (only .func, some with linkage)');
    const at = ctx.module.statements.find((s) => s.kind === 'Version') ?? ctx.module.statements[0];
    const range = at?.range ?? ctx.module.range;
    return found([{ message: 'the module defines no .entry kernel', location: ctx.locate(range) }]);
  },
};
