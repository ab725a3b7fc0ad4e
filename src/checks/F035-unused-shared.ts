// F035: a `.shared` variable is never referenced.
import type { VariableSymbol } from '../cfg/symbols.js';
import { functionVariablesAnalysis, isSharedVariable } from './address-facts.js';
import { initializerNames } from './operands.js';
import type { Check, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

/** One part's: the names of module variables its functions name or initialize with, how many shared
 *  variables its functions declare, and those never referenced. */
interface Summary {
  readonly named: readonly string[];
  readonly local: number;
  readonly unused: Omit<Finding, 'id' | 'severity'>[];
}

export const F035: Check = {
  meta: {
    id: 'F035',
    name: 'unused-shared',
    category: 'address-spaces',
    severity: 'info',
    points: 0,
    description: 'A `.shared` variable is never referenced.',
    rationale: 'An unreferenced static shared array still reserves its bytes in every block that can see it (module-scope ones in every '
      + 'kernel that uses shared memory, with some ptxas versions), lowering occupancy for nothing; it is usually a leftover of a '
      + 'refactoring or a tile that was meant to be used.',
    remedy: 'Delete the declaration, or use it where it was meant to be used.',
    notes: 'A `.shared` variable (module scope, or declared in a function body) fails when no instruction operand of the module names it '
      + '(a function-scope one: no instruction of its function) and no initializer mentions it (`generic(smem)`). `.extern .shared` arrays '
      + 'count too. n/a without `.shared` variables.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 spare[256];\n.visible .entry k()\n{\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 used[256];\n.visible .entry k()\n{\n'
        + '\t.reg .b32 %r<2>;\n\tld.shared.u32 %r1, [used];\n\tret;\n}\n',
    },
  },
  split: {
    // Per part: the module variables its functions name, its functions' shared variables never referenced.
    part(ctx): Summary {
      const referenced = new Set<VariableSymbol>();
      const named = new Set<string>();
      const local: { v: VariableSymbol; fn: string }[] = [];
      for (const fn of ctx.functions) {
        const vars = ctx.analysis.get(fn, functionVariablesAnalysis);
        for (const v of vars.named) {
          referenced.add(v);
          if (v.global) named.add(v.name);
        }
        for (const v of vars.declared) {
          if (isSharedVariable(v) && !v.isParam) local.push({ v, fn: fn.name });
          if (v.declarator.init !== undefined) initializerNames(v.declarator.init, named);
        }
      }
      const unused = local.filter(({ v }) => !referenced.has(v))
        .map(({ v, fn }) => ({ message: `.shared ${v.name} in ${fn} is never referenced`, location: ctx.locate(v.declarator.range), function: fn }));
      return { named: [...named], local: local.length, unused };
    },
    join(ctx, parts: readonly Summary[]) {
      const named = new Set<string>(parts.flatMap((p) => p.named));
      for (const s of ctx.module.statements) {
        if (s.kind === 'Variable') for (const d of s.declarators) if (d.init !== undefined) initializerNames(d.init, named);
      }
      const globals = [...ctx.analysis.model.variables.values()].filter(isSharedVariable);
      if (globals.length === 0 && parts.every((p) => p.local === 0)) return na('the module declares no .shared variable');
      const out: Omit<Finding, 'id' | 'severity'>[] = [];
      for (const v of globals) {
        if (!named.has(v.name)) out.push({ message: `.shared ${v.name} is never referenced`, location: ctx.locate(v.declarator.range) });
      }
      return found([...out, ...parts.flatMap((p) => p.unused)]);
    },
  },
  run: (ctx) => runWhole(F035.split!, ctx),
};
