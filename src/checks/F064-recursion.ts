// F064: the call graph has a cycle (a function calls itself, directly or
// through others).
import { at } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

/** One part's: how many functions with bodies it has, its findings. */
interface Summary {
  readonly functions: number;
  readonly findings: Omit<Finding, 'id' | 'severity'>[];
}

export const F064: Check = {
  meta: {
    id: 'F064',
    name: 'recursion',
    category: 'control-flow',
    severity: 'medium',
    points: 1,
    description: 'A function calls itself, directly or through other functions (a cycle in the call graph).',
    rationale: 'Recursion needs a call stack whose size ptxas cannot bound ("Stack size for entry function cannot be statically '
      + 'determined"): the driver reserves a default per-thread stack, and a deeper recursion overflows it and faults. Each frame '
      + 'also lives in local memory, which is slow.',
    remedy: 'Turn the recursion into a loop with an explicit bounded stack, or bound its depth and raise the stack size with '
      + '`cudaDeviceSetLimit(cudaLimitStackSize, ...)` accordingly.',
    notes: 'Judged on the call graph (direct calls, and indirect calls through their `.calltargets` list): every call site whose callee '
      + 'can reach its caller again is reported, at the `call`, naming the cycle. Indirect calls without a target list take no part '
      + '(their targets are unknown).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.func f(.param .b32 n)\n{\n\t.reg .b32 %r<2>;\n\tld.param.b32 %r1, [n];\n'
        + '\t{\n\t.param .b32 a;\n\tst.param.b32 [a], %r1;\n\tcall.uni f, (a);\n\t}\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.func g()\n{\n\tret;\n}\n.func f()\n{\n\tcall.uni g, ();\n\tret;\n}\n',
    },
  },
  split: {
    // Per part, the call sites of its functions: a cycle through one of them is among its callees, which a
    // part's tree holds.
    part(ctx): Summary {
      return { functions: ctx.functions.length, findings: recursiveCalls(ctx) };
    },
    join(_ctx, parts: readonly Summary[]) {
      if (parts.every((p) => p.functions === 0)) return na('the module has no function bodies');
      return found(parts.flatMap((p) => p.findings));
    },
  },
  run: (ctx) => runWhole(F064.split!, ctx),
};

/** The calls from `ctx.functions` that close a cycle of calls. */
function recursiveCalls(ctx: CheckContext): Omit<Finding, 'id' | 'severity'>[] {
  const graph = ctx.analysis.callGraph();
  if (graph.recursive.size === 0) return [];
  const mine = new Set(ctx.functions.map((f) => f.name));
  // Which functions reach which (only among recursive ones matters).
  const reach = (from: string, to: string): string[] | undefined => {
    const prev = new Map<string, string>();
    const queue = [from];
    const seen = new Set([from]);
    while (queue.length > 0) {
      const f = queue.shift()!;
      if (f === to) {
        const path = [to];
        for (let x = to; x !== from;) { x = prev.get(x)!; path.unshift(x); }
        return path;
      }
      for (const c of graph.callees.get(f) ?? []) {
        if (!seen.has(c)) { seen.add(c); prev.set(c, f); queue.push(c); }
      }
    }
    return undefined;
  };
  const out: Omit<Finding, 'id' | 'severity'>[] = [];
  for (const site of graph.sites) {
    if (!graph.recursive.has(site.caller) || !mine.has(site.caller)) continue;
    const fn = ctx.analysis.function(site.caller);
    if (fn === undefined) continue;
    for (const callee of site.callees) {
      if (!graph.recursive.has(callee)) continue;
      const back = reach(callee, site.caller);
      if (back === undefined) continue;
      const cycle = [site.caller, ...back].join(' → ');
      out.push({ message: `${site.caller} calls ${callee}, which ${callee === site.caller ? 'is itself' : `calls back into ${site.caller}`}: recursion (${cycle})`, ...at(ctx, fn, site.instruction) });
      break;
    }
  }
  return out;
}
