// F062: a basic block is unreachable from the function entry.
import { at, TERMINATORS } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F062: Check = {
  meta: {
    id: 'F062',
    name: 'unreachable-code',
    category: 'control-flow',
    severity: 'info',
    points: 0,
    description: 'Instructions that no path from the function entry reaches.',
    rationale: 'Dead code is harmless to run but often marks a mistake: a branch whose target was meant to be elsewhere, code after an '
      + 'unconditional `ret`, or a loop whose back edge cannot be taken (F084 names that case).',
    remedy: 'Remove the dead instructions, or fix the branch that was meant to reach them.',
    notes: 'Judged on the CFG (edges of `bra`, `brx.idx` through its `.branchtargets`, fall-through, and no fall-through after `ret`, '
      + '`exit`, `trap`, unguarded `bra` or a call of a `.noreturn` function). Consecutive unreachable blocks are reported once, at '
      + 'their first instruction, with their extent. A run made only of `ret`/`exit`/`trap` (the epilogue a compiler leaves after a '
      + '`trap` or a `.noreturn` call) is not reported, nor the run right after an unguarded `trap` (nvcc compiles CUDA\'s `__trap()` '
      + 'to inline-asm `trap;` and, not knowing it ends the thread, emits the source\'s continuation after it), and empty blocks (a '
      + 'label at the end of the body) are not code.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tret;\n\tmov.u32 %r1, 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const cfg = ctx.analysis.cfg(fn);
      let run: { start: number; end: number; code: boolean } | undefined;
      const flush = (): void => {
        if (run === undefined) return;
        // The continuation nvcc emits after CUDA's __trap() (inline-asm `trap;`, which the compiler does not know ends the
        // thread): code the source never wrote, unreachable only through the trap right before it.
        const before = run.start > 0 ? fn.instructions[run.start - 1]!.node : undefined;
        const afterTrap = before !== undefined && before.opcode === 'trap' && before.guard === undefined;
        if (run.code && !afterTrap) {
          const count = run.end - run.start;
          const last = fn.instructions[run.end - 1]!.node.range.line;
          const first = fn.instructions[run.start]!.node.range.line;
          const extent = last === first ? `line ${first}` : `lines ${first}–${last}`;
          out.push({ message: `${count} instruction${count === 1 ? '' : 's'} (${extent}) cannot be reached from the entry of ${fn.name}`, ...at(ctx, fn, run.start) });
        }
        run = undefined;
      };
      for (const b of cfg.blocks) {
        if (b.start === b.end) continue;
        if (b.reachable) {
          flush();
          continue;
        }
        let code = false;
        for (let i = b.start; i < b.end; i++) if (!TERMINATORS.has(fn.instructions[i]!.node.opcode)) code = true;
        if (run === undefined) run = { start: b.start, end: b.end, code };
        else {
          run.end = b.end;
          run.code ||= code;
        }
      }
      flush();
    }
    return found(out);
  },
};
