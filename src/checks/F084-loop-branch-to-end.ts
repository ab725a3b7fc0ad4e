// F084: a loop's back edge is unreachable because an unconditional branch to
// the loop exit precedes it: the body runs once (LoopBranchToEnd).
import type { FunctionModel } from '../cfg/symbols.js';
import { at } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** The instruction index a direct `bra` goes to, or undefined. */
function branchTarget(fn: FunctionModel, index: number): number | undefined {
  const t = fn.instructions[index]!.node.operands[0];
  const sym = t?.kind === 'Name' ? fn.resolve(t) : undefined;
  return sym?.kind === 'label' && sym.directive === undefined ? sym.target : undefined;
}

export const F084: Check = {
  meta: {
    id: 'F084',
    name: 'loop-branch-to-end',
    category: 'known-patterns',
    severity: 'high',
    points: 1,
    description: 'An unconditional branch inside a loop body jumps past the loop\'s back edge, so the back edge can never be taken and '
      + 'the body runs once.',
    rationale: 'This is the LoopBranchToEnd bug: a `bra END` left in the body (a misplaced `break`, an exit test whose guard was '
      + 'dropped) makes the loop a straight line: every iteration after the first is skipped, silently.',
    remedy: 'Guard the branch (`@p bra END`) with the exit condition it was meant to test, or move it after the back edge.',
    notes: 'Judged in PTX order, since the back edge is unreachable and so no natural loop exists in the CFG: a backward branch (`bra` or '
      + '`@p bra` to a label at or before it) in an unreachable block, whose target H is reachable, and a reachable unguarded `bra` '
      + 'between H and the backward branch whose target lies after the backward branch. Reported at that unconditional branch, '
      + 'naming the dead back edge. (The unreachable code itself is also F062\'s, at info level.)',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n'
        + '\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\nLOOP:\n\tadd.u32 %r2, %r2, 1;\n\tbra.uni END;\n\tsetp.lt.u32 %p1, %r2, %r1;\n'
        + '\t@%p1 bra LOOP;\nEND:\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n'
        + '\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\nLOOP:\n\tadd.u32 %r2, %r2, 1;\n\tsetp.ge.u32 %p1, %r2, %r1;\n\t@%p1 bra END;\n'
        + '\tbra.uni LOOP;\nEND:\n\tret;\n}\n',
    },
  },
  run(ctx: CheckContext) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const cfg = ctx.analysis.cfg(fn);
      const reported = new Set<number>();
      for (const u of cfg.blocks) {
        if (u.reachable || u.end === u.start) continue;
        const back = u.end - 1;
        if (fn.instructions[back]!.node.opcode !== 'bra') continue;
        const h = branchTarget(fn, back);
        if (h === undefined || h > back || h >= fn.instructions.length) continue;
        if (!cfg.blocks[cfg.blockOf[h]!]!.reachable) continue;
        // A reachable unconditional branch in [h, back) jumping past the back edge.
        for (let i = h; i < back; i++) {
          const node = fn.instructions[i]!.node;
          if (node.opcode !== 'bra' || node.guard !== undefined || reported.has(i)) continue;
          if (!cfg.blocks[cfg.blockOf[i]!]!.reachable) continue;
          const to = branchTarget(fn, i);
          if (to === undefined || to <= back) continue;
          reported.add(i);
          out.push({
            message: `this unconditional branch leaves the loop starting at line ${fn.instructions[h]!.node.range.line} before its back edge (line ${fn.instructions[back]!.node.range.line}) can run: the body runs once`,
            ...at(ctx, fn, i),
            related: [{ location: ctx.locate(fn.instructions[back]!.node.range, fn, back), message: 'the unreachable back edge' }],
          });
          break;
        }
      }
    }
    return found(out);
  },
};
