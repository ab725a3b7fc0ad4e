// F014: a comparison's operands disagree with its types: a setp destination or
// selp selector that is not .pred, a set destination that is, or compared
// registers that do not fit the comparison type.
import { typeIssues } from './type-issues.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F014: Check = {
  meta: {
    id: 'F014',
    name: 'predicate-typing',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'A `setp` destination (or its `|q`) or a `selp` selector is not `.pred`, a `set` destination is `.pred`, or the comparison type disagrees with its operands.',
    rationale: 'ptxas rejects it ("Arguments mismatch", "Predicate output expected"); `setp` writes predicates and `set` writes data, and mixing them up, or comparing a float register with an integer comparison, is a typical hand-editing slip.',
    remedy: 'Give `setp` `.pred` destinations (and `selp` a `.pred` selector), give `set` a data destination of its destination type, and compare registers of the comparison type (`setp.lt.f32` for `.f32` values).',
    notes: 'Every register operand of `setp` and `set` and the selector of `selp` is judged here (never by F011/F017): predicate positions need a '
      + '`.pred` register, the destination of `set` its destination type, compared operands must fit the comparison type under the ISA\'s '
      + 'compatibility rules (a bit type of the same size fits; `setp.eq.f32 %p, %r1, %f1` with a `.b32` `%r1` passes, as ptxas agrees). '
      + 'Literals are judged as F011 does (`setp.lt.f32 %p, %f1, 0` is rejected by ptxas: a `.f32` comparison needs a floating literal). '
      + 'The combining predicate `c` of `setp.and`/`set.or` may be negated (`!%p`).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r2, 1;\n\tsetp.eq.u32 %r1, %r2, 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\tmov.u32 %r2, 1;\n\tsetp.eq.u32 %p1, %r2, 0;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    return found(typeIssues(ctx.analysis).filter((i) => i.check === 'F014').map((i) => ({
      message: i.message, location: ctx.locate(i.at, i.fn, i.ins.index), function: i.fn.name,
    })));
  },
};
