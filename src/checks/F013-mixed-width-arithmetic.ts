// F013: integer arithmetic mixes operand widths the ISA does not allow
// (`add.u64 %rd1, %r2, 4`).
import { typeIssues } from './type-issues.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F013: Check = {
  meta: {
    id: 'F013',
    name: 'mixed-width-arithmetic',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'Arithmetic mixes 32- and 64-bit operands the ISA does not allow (e.g. `add.u64 %rd1, %r2, 4`).',
    rationale: 'ptxas rejects it ("Arguments mismatch"); the usual cause is pointer arithmetic that forgot to widen a 32-bit index (`cvt.u64.u32` or `mul.wide`) before adding it to a 64-bit address.',
    remedy: 'Widen the narrow operand first (`cvt.u64.u32`, `cvt.s64.s32`) or use the widening forms (`mul.wide.s32`, `mad.wide.u32`) whose result is twice the operand width.',
    notes: 'Judged on the integer arithmetic (PTX ISA 9.7.1, 9.7.2) and logic/shift (9.7.8) instructions: an integer or bit register whose width '
      + 'differs from its position\'s type (any of 16/32/64 bits, not only 32 against 64). The positions\' types come from the ISA table: '
      + '`mul.wide`/`mad.wide` results (and `mad.wide`\'s addend) are twice the type, shift amounts and `bfe`/`bfi` positions are `.u32`, '
      + '`popc`/`clz`/`bfind` results are `.u32`. A floating or predicate register in these positions is F011\'s or F017\'s; width mixes '
      + 'elsewhere (`mov`, `selp`, floating-point arithmetic) are F011\'s.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\tmov.u32 %r2, 1;\n\tadd.u64 %rd1, %r2, 4;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\tmov.u32 %r2, 1;\n\tmul.wide.u32 %rd1, %r2, 4;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    return found(typeIssues(ctx.analysis).filter((i) => i.check === 'F013').map((i) => ({
      message: i.message, location: ctx.locate(i.at, i.fn, i.ins.index), function: i.fn.name,
    })));
  },
};
