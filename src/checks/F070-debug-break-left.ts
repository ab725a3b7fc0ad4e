// F070: `brkpt` is reachable.
import { at } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F070: Check = {
  meta: {
    id: 'F070',
    name: 'debug-break-left',
    category: 'control-flow',
    severity: 'info',
    points: 0,
    description: 'A `brkpt` instruction that some path from the function entry reaches.',
    rationale: '`brkpt` suspends the thread for a debugger; left in production code it stops the kernel (or traps) when no debugger '
      + 'is attached.',
    remedy: 'Remove the `brkpt`, or keep it behind a debug build flag.',
    notes: 'Reported at each `brkpt` in a reachable block (a guarded one too: it is reachable when its predicate holds); `brkpt` in dead '
      + 'code is F062\'s.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tbrkpt;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n\tbrkpt;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      if (!fn.instructions.some((i) => i.node.opcode === 'brkpt')) continue;
      const cfg = ctx.analysis.cfg(fn);
      for (const ins of fn.instructions) {
        if (ins.node.opcode !== 'brkpt' || !cfg.blocks[cfg.blockOf[ins.index]!]!.reachable) continue;
        out.push({ message: `brkpt is reachable in ${fn.name}: it stops the thread when no debugger is attached`, ...at(ctx, fn, ins.index) });
      }
    }
    return found(out);
  },
};
