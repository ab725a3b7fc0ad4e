// F003: the module does not declare 64-bit addressing.
import type { AddressSizeDirective } from '../parser/ast.js';
import { FILE_START, targetDirective, versionDirective } from './header.js';
import type { Check } from './types.js';
import { declarationsOnly, found, pass } from './types.js';

export const F003: Check = {
  meta: {
    id: 'F003',
    name: 'address-size',
    category: 'module',
    severity: 'low',
    points: 1,
    description: '`.address_size` is missing (the ISA default is 32) or is not 64.',
    rationale: 'The ISA default address size is 32 bits. `.address_size 32` is rejected by CUDA 13 ("32-Bit ABI ... is not supported"); '
      + 'a missing directive is assembled as 64-bit by ptxas 13, but the module then means different things to different tools (older ptxas and JITs take 32-bit).',
    remedy: 'Add `.address_size 64` right after `.target`.',
    notes: 'A missing directive is reported at the `.target` line (where it belongs: after it), or at the `.version` line, or at line 1; '
      + 'ptxas 13 accepts a module without it (it assumes 64-bit), so that case is a portability finding, not a rejection. '
      + 'A repeated `.address_size` is reported at the repetition.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 32\n.entry k()\n{\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\tret;\n}\n',
    },
  },
  split: declarationsOnly((ctx) => F003.run(ctx)),
  run(ctx) {
    const sizes = ctx.module.statements.filter((s): s is AddressSizeDirective => s.kind === 'AddressSize');
    if (sizes.length === 0) {
      const at = targetDirective(ctx.module)?.range ?? versionDirective(ctx.module)?.range ?? FILE_START;
      return found([{ message: '.address_size is missing: the module defaults to 32-bit addressing (use .address_size 64)', location: ctx.locate(at) }]);
    }
    const out = sizes.flatMap((s, i) => {
      if (i > 0) return [{ message: `.address_size is repeated (first at line ${sizes[0]!.range.line})`, location: ctx.locate(s.range) }];
      if (s.size !== 64) return [{ message: `.address_size ${s.size}: only 64-bit addressing is supported (use .address_size 64)`, location: ctx.locate(s.range) }];
      return [];
    });
    return out.length === 0 ? pass() : found(out);
  },
};
