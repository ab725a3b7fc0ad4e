// F017: a guard is not a .pred register, or a predicate is used where data
// goes (or data where a predicate goes).
import type { Finding } from './types.js';
import { typeIssues } from './type-issues.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F017: Check = {
  meta: {
    id: 'F017',
    name: 'predicate-misuse',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'A guard (`@p`, `@!p`) is not a `.pred` register, or a `.pred` register is used as a data operand where not allowed.',
    rationale: 'ptxas rejects it ("Predicate expression expected", "Arguments mismatch"); a guard on a data register usually means a `setp` was forgotten, and predicates cannot be moved, stored or computed with as data.',
    remedy: 'Compare into a predicate first (`setp.ne.u32 %p1, %r1, 0;` then `@%p1 ...`); turn a predicate into data with `selp.u32 %r1, 1, 0, %p1;`.',
    notes: 'Judged: every guard (it must resolve to a `.pred` register; an undeclared one is F006\'s), every `.pred` register in a position whose '
      + 'type is not `.pred` (`mov.u32 %r1, %p1`, `st.global.u8 [a], %p1`, `and.b32 %r1, %p1, %r2`), and every data register in a position '
      + 'whose type is `.pred` (`and.pred %p1, %p2, %r1`, the `|p` of `shfl`/`lop3`), outside `setp`, `set` and `selp`\'s selector, '
      + 'which are F014\'s. A floating literal where a predicate goes is judged here too; an integer literal is a valid predicate constant.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, 1;\n\t@%r1 add.u32 %r2, %r1, 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, 1;\n\tsetp.ne.u32 %p1, %r1, 0;\n\t@%p1 add.u32 %r2, %r1, 1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const g = ins.node.guard;
        if (g === undefined) continue;
        const sym = fn.resolveGuard(g);
        if (sym === undefined) continue;
        const what = sym.kind === 'register' ? (sym.type === '.pred' ? undefined : `a ${sym.type} register`) : `a ${sym.kind}`;
        if (what === undefined) continue;
        out.push({
          message: `the guard ${g.negated ? '@!' : '@'}${g.predicate} is ${what}, not a .pred register`,
          location: ctx.locate(g.range, fn, ins.index), function: fn.name,
        });
      }
    }
    for (const i of typeIssues(ctx.analysis)) {
      if (i.check === 'F017') out.push({ message: i.message, location: ctx.locate(i.at, i.fn, i.ins.index), function: i.fn.name });
    }
    return found(out);
  },
};
