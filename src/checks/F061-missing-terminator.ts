// F061: some path falls off the end of a function without `ret`, `exit` or
// `trap`.
import { directCallee } from '../cfg/builder.js';
import { at, TERMINATORS } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F061: Check = {
  meta: {
    id: 'F061',
    name: 'missing-terminator',
    category: 'control-flow',
    severity: 'high',
    points: 2,
    description: 'Some path reaches the end of a function body without executing `ret`, `exit` or `trap`.',
    rationale: 'ptxas 13 accepts a body that simply ends, and what the thread then does is not specified by the PTX ISA: a `.func` that '
      + 'falls off its end does not return to its caller in any defined way. It usually means a truncated file, a `bra` that was '
      + 'deleted, or a guarded `@p ret` that was meant to be unconditional.',
    remedy: 'End every path with `ret` (or `exit` in a kernel, `trap` on an error path); make a guarded last `@p ret` unconditional.',
    notes: 'Judged on the CFG of every function with a body: a reachable block fails when it is the last block of the body and can '
      + 'fall through its end: its last instruction is not an unguarded `bra`, `brx.idx`, `ret`, `exit`, `trap` or call of a '
      + '`.noreturn` function (a guarded `@p ret` as the last instruction falls through when `p` is false), or it is an empty block '
      + 'made by a label at the very end that something branches to. An empty body falls off at once (reported at the function '
      + 'name). Unreachable tails are F062\'s, and branches to labels that do not exist are F005\'s (the CFG does not guess them).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n'
        + '\tld.param.u32 %r1, [p];\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 ret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n'
        + '\tld.param.u32 %r1, [p];\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra DONE;\n\tadd.u32 %r1, %r1, 1;\nDONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const n = fn.instructions.length;
      if (n === 0) {
        out.push({ message: `${fn.name} has an empty body: it falls off its end without ret or exit`, location: ctx.locate(fn.decl.nameRange), function: fn.name });
        continue;
      }
      const cfg = ctx.analysis.cfg(fn);
      if (cfg.unresolvedTargets.length > 0 && cfg.unresolvedTargets.some((t) => t.index === n - 1)) continue;
      for (const b of cfg.blocks) {
        if (!b.reachable || !b.succs.includes(cfg.exit)) continue;
        if (b.start === b.end) {
          // A label at the end of the body that something branches to.
          const label = fn.labels.find((l) => l.target === n && l.directive === undefined);
          if (b.start === n && label !== undefined) {
            out.push({ message: `the path through ${label.name} falls off the end of ${fn.name} without ret or exit`, location: ctx.locate(label.node.range), function: fn.name });
          }
          continue;
        }
        if (b.end !== n) continue;
        const last = fn.instructions[n - 1]!.node;
        const op = last.opcode;
        const unguarded = last.guard === undefined;
        if (unguarded && (op === 'bra' || op === 'brx' || TERMINATORS.has(op))) continue;
        // A call of a .noreturn function ends its block with no fall-through edge.
        if (unguarded && op === 'call') {
          const callee = directCallee(fn, last);
          const decl = callee === undefined ? undefined : ctx.analysis.model.functionsByName.get(callee)?.decl;
          if (decl?.directives.some((d) => d.name === '.noreturn') === true) continue;
        }
        const what = last.guard !== undefined && (TERMINATORS.has(op) || op === 'bra')
          ? `the guarded ${op} at the end of ${fn.name} falls through when @${last.guard.negated ? '!' : ''}${last.guard.predicate} is false`
          : `${fn.name} falls off its end after ${op}: no ret, exit or trap`;
        out.push({ message: what, ...at(ctx, fn, n - 1) });
      }
    }
    return found(out);
  },
};

