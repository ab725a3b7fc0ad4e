// F034: a kernel's static `.shared` memory exceeds 48 KB.
import type { VariableSymbol } from '../cfg/symbols.js';
import { functionVariablesAnalysis, isExtern, isSharedVariable, variableAlignment } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

/** Static shared memory per block that ptxas accepts without a dynamic opt-in (0xc000), on every target. */
export const STATIC_SHARED_LIMIT = 0xc000;

const staticShared = (v: VariableSymbol): boolean => isSharedVariable(v) && !isExtern(v);

/** One part's: whether a function of it uses static shared memory; its kernels over the limit. */
interface Summary {
  readonly uses: boolean;
  readonly findings: Omit<Finding, 'id' | 'severity'>[];
}

export const F034: Check = {
  meta: {
    id: 'F034',
    name: 'shared-capacity',
    category: 'address-spaces',
    severity: 'high',
    points: 1,
    description: 'Static `.shared` total exceeds 48 KB (needs dynamic opt-in) or the target\'s per-block maximum.',
    rationale: 'ptxas rejects a kernel whose static shared memory exceeds 0xc000 bytes ("uses too much shared data"); more than 48 KB per '
      + 'block is only available as dynamic shared memory after `cudaFuncSetAttribute(..., MaxDynamicSharedMemorySize, ...)`.',
    remedy: 'Move the large buffers to one `.extern .shared` array (dynamic shared memory) and opt in to the size at launch, or shrink the '
      + 'tiles.',
    notes: 'Per kernel: the non-extern `.shared` variables it declares, the module-scope ones its instructions name, and the same for every '
      + 'function it calls (transitively, through the call graph). Sizes are summed, each rounded up to its alignment. It fails when the '
      + 'total exceeds 0xc000 (48 KB), the static limit ptxas 13 enforces on every target from sm_75 on; every such target allows at '
      + 'least that much per block, so the per-block maximum never binds first for static memory. Variables of unknown size are not '
      + 'counted. n/a when no kernel uses static shared memory.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 16 .b8 a[32768];\n'
        + '\t.shared .align 16 .b8 b[32768];\n\t.reg .b32 %r<3>;\n\tld.shared.u32 %r1, [a];\n\tld.shared.u32 %r2, [b];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 16 .b8 a[16384];\n'
        + '\t.shared .align 16 .b8 b[16384];\n\t.reg .b32 %r<3>;\n\tld.shared.u32 %r1, [a];\n\tld.shared.u32 %r2, [b];\n\tret;\n}\n',
    },
  },
  split: {
    // Each kernel with its callees, in its part (a part's tree holds its callees' bodies).
    part(ctx): Summary {
      const perFn = new Map<string, VariableSymbol[]>();
      const sharedOf = (name: string): VariableSymbol[] => {
        let vars = perFn.get(name);
        if (vars === undefined) {
          const fn = ctx.analysis.function(name);
          const facts = fn === undefined ? undefined : ctx.analysis.get(fn, functionVariablesAnalysis);
          vars = facts === undefined ? [] : [...facts.declared.filter(staticShared), ...[...facts.named].filter((v) => v.global && staticShared(v))];
          perFn.set(name, vars);
        }
        return vars;
      };
      const uses = ctx.functions.some((fn) => sharedOf(fn.name).length > 0);
      const calls = ctx.analysis.callGraph().callees;
      const out: Omit<Finding, 'id' | 'severity'>[] = [];
      for (const fn of uses ? ctx.functions : []) {
        if (!fn.isEntry) continue;
        const vars = new Set<VariableSymbol>();
        const seen = new Set<string>([fn.name]);
        const stack = [fn.name];
        while (stack.length > 0) {
          const name = stack.pop()!;
          for (const v of sharedOf(name)) vars.add(v);
          for (const c of calls.get(name) ?? []) if (!seen.has(c)) { seen.add(c); stack.push(c); }
        }
        let total = 0;
        for (const v of vars) {
          if (v.size === undefined) continue;
          const align = variableAlignment(v) ?? 1;
          total = Math.ceil(total / align) * align + v.size;
        }
        if (total <= STATIC_SHARED_LIMIT) continue;
        const largest = [...vars].filter((v) => v.size !== undefined).sort((a, b) => b.size! - a.size!).slice(0, 3);
        out.push({
          message: `kernel ${fn.name} uses ${total} bytes of static shared memory, more than the ${STATIC_SHARED_LIMIT} (48 KB) static limit`,
          location: ctx.locate(fn.decl.nameRange),
          function: fn.name,
          related: largest.map((v) => ({ location: ctx.locate(v.declarator.range), message: `${v.name}: ${v.size!} bytes` })),
        });
      }
      return { uses, findings: out };
    },
    join(_ctx, parts: readonly Summary[]) {
      if (!parts.some((p) => p.uses)) return na('no kernel uses static shared memory');
      return found(parts.flatMap((p) => p.findings));
    },
  },
  run: (ctx) => runWhole(F034.split!, ctx),
};
