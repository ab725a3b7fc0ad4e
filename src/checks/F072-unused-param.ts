// F072: a kernel parameter is never read.
import type * as A from '../parser/ast.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F072: Check = {
  meta: {
    id: 'F072',
    name: 'unused-param',
    category: 'data-flow',
    severity: 'info',
    points: 0,
    description: 'A kernel parameter that no instruction of the kernel names.',
    rationale: 'An unused parameter is often a leftover, or a sign that the kernel ignores an input it was meant to read (F086 judges '
      + 'the case where the whole output ignores the input).',
    remedy: 'Remove the parameter (and the argument at the launch), or use it where it was meant to be used.',
    notes: 'Judged for `.entry` kernels with a body: a parameter is used when some instruction names it (`ld.param [p]`, '
      + '`mov.u64 %rd, p`, `cvta.param`, any address or operand). Parameters of `.func` device functions are not judged (ABI '
      + 'signatures often carry unused arguments).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tst.global.u32 [%rd1], 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tst.global.u32 [%rd1], 0;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const kernels = ctx.functions.filter((f) => f.isEntry);
    if (kernels.length === 0) return na('no kernel with a body');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of kernels) {
      const used = new Set<string>();
      const visit = (e: A.Expression): void => {
        switch (e.kind) {
          case 'Name': {
            const s = fn.resolve(e);
            if (s?.kind === 'variable' && s.isParam) used.add(s.name);
            return;
          }
          case 'Unary': case 'Cast': visit(e.arg); return;
          case 'Binary': visit(e.left); visit(e.right); return;
          case 'Vector': case 'Address': case 'List': e.elements.forEach(visit); return;
          case 'PredPair': visit(e.first); visit(e.second); return;
          default: return;
        }
      };
      for (const ins of fn.instructions) ins.node.operands.forEach(visit);
      for (const p of fn.decl.params) {
        for (const d of p.declarators) {
          if (used.has(d.name)) continue;
          out.push({ message: `kernel parameter ${d.name} of ${fn.name} is never read`, location: ctx.locate(d.range), function: fn.name });
        }
      }
    }
    return found(out);
  },
};
