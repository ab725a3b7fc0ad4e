// F050: a shuffle after some lanes of the warp may have exited: it may read
// its source from an exited lane, whose value is undefined.
import { syncFactsAnalysis } from './sync-facts.js';
import { warpDivergenceAnalysis } from './warp-divergence.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F050: Check = {
  meta: {
    id: 'F050',
    name: 'exit-before-shuffle',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'A `shfl.sync` may read its source from a lane that has already exited.',
    rationale: 'A shuffle whose source lane has exited returns an undefined value (an H200 returned 0 for `__shfl_down_sync` reading an exited lane), '
      + 'even when the mask names only the lanes left (`__activemask()`): the reduction silently mixes in garbage. Votes, `match`, `redux` and '
      + '`bar.warp.sync` exclude exited lanes and are fine.',
    remedy: 'Keep every lane alive through the shuffles (replace the early `return` by a guard on the loads and stores, with a neutral '
      + 'value for the lanes out of range), or compute the source lane so that it stays among the live lanes.',
    notes: 'A `shfl.sync` whose mask is not the constant 0xffffffff (F042 reports those) fails when it is control-dependent on a '
      + 'branch that splits the warp (as F042 defines it: `@p ret`, `@p exit`, or `@p bra` to code that only returns) whose two sides '
      + 'never rejoin (its immediate post-dominator is the exit or a block that only returns): some lanes of the warp may have '
      + 'exited, and the shuffle reads another lane: `up`/`down`/`bfly` always, `idx` when its lane operand differs between '
      + 'lanes. Departure: a `shfl.idx` from a warp-uniform lane (a broadcast from a leader the code chose, e.g. from a ballot of the '
      + 'live lanes, as in warp-aggregated atomics) is taken to read a live lane.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n'
        + '\tmov.u32 %r1, %laneid;\n\tsetp.ge.u32 %p1, %r1, 20;\n\t@%p1 ret;\n\tactivemask.b32 %r3;\n\tshfl.sync.down.b32 %r2, %r1, 1, 31, %r3;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n'
        + '\tmov.u32 %r1, %laneid;\n\tactivemask.b32 %r3;\n\tshfl.sync.down.b32 %r2, %r1, 1, 31, %r3;\n\tsetp.ge.u32 %p1, %r1, 20;\n\t@%p1 ret;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => ctx.analysis.get(fn, syncFactsAnalysis).collectives.some((c) => c.family === 'shfl'));
    if (fns.length === 0) return na('no shfl.sync in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const u = facts.uniformity();
      const cfg = facts.cfg;
      const line = (i: number): number => fn.instructions[i]!.node.range.line;
      const at = (i: number) => ctx.locate(fn.instructions[i]!.node.range, fn, i);
      for (const s of ctx.analysis.get(fn, warpDivergenceAnalysis).afterExit) {
        const i = s.collective.index;
        const node = fn.instructions[i]!.node;
        const br = cfg.blocks[s.branch]!.end - 1;
        out.push({
          message: `${node.opcode}${node.modifiers.join('')} at line ${line(i)} runs after lanes may have exited at the lane-varying branch at line ${line(br)} `
            + `(${u.explainBranch(s.branch, 'warp') ?? 'lane-dependent condition'}): its source lane may be an exited one, whose value is undefined`,
          location: at(i), function: fn.name,
          related: [{ location: at(br), message: 'where some lanes exit' }],
        });
      }
    }
    return found(out);
  },
};
