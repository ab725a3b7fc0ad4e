// F068: a thread-varying branch inside a loop body.
import { uniformityAnalysis, WARP } from '../cfg/dataflow/uniformity.js';
import { at } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F068: Check = {
  meta: {
    id: 'F068',
    name: 'divergent-branch-in-loop',
    category: 'control-flow',
    severity: 'info',
    points: 0,
    description: 'A conditional branch inside a loop whose condition may differ between the threads of a warp.',
    rationale: 'Inside a loop, divergence costs on every iteration: the warp runs both sides one after the other, and a thread-varying '
      + 'exit keeps the whole warp looping until its last thread is done. It is often unavoidable (bounds checks, data-dependent work) '
      + 'and only worth a look in hot loops.',
    remedy: 'Where it matters, make the condition warp-uniform (split the work per warp, hoist the test out of the loop, or use '
      + 'predication / `selp` for short bodies).',
    notes: 'Judged on every reachable block of a natural loop that ends in a conditional branch (`@p bra`, `brx.idx`, guarded '
      + '`ret`/`exit`): it is reported when the uniformity analysis finds its condition thread-varying (not provably equal across a '
      + 'warp). Each branch is reported once, for its innermost loop, at the branch.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n'
        + '\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, 0;\nLOOP:\n\tsetp.lt.u32 %p1, %r3, %r2;\n\t@%p1 bra SKIP;\n'
        + '\tadd.u32 %r2, %r2, 1;\nSKIP:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, %r1;\n\t@%p2 bra LOOP;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n'
        + '\tld.param.u32 %r1, [n];\n\tmov.u32 %r3, 0;\nLOOP:\n\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, %r1;\n\t@%p2 bra LOOP;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let loops = 0;
    for (const fn of ctx.functions) {
      const forest = ctx.analysis.loops(fn);
      if (forest.loops.length === 0) continue;
      loops += forest.loops.length;
      const cfg = ctx.analysis.cfg(fn);
      const u = ctx.analysis.get(fn, uniformityAnalysis);
      for (const b of cfg.blocks) {
        if (!b.reachable || forest.loopOf[b.id] === -1) continue;
        const br = u.branchOf(b.id);
        if (br === undefined || (br.variance & WARP) === 0) continue;
        const header = forest.loops[forest.loopOf[b.id]!]!.header;
        const hb = cfg.blocks[header]!;
        const hline = hb.end > hb.start ? fn.instructions[hb.start]!.node.range.line : undefined;
        const why = u.explainBranch(b.id, 'warp');
        out.push({
          message: `thread-varying branch inside the loop${hline === undefined ? '' : ` at line ${hline}`}${why === undefined ? '' : `: ${why}`}`,
          ...at(ctx, fn, br.instruction),
        });
      }
    }
    if (loops === 0) return na('no loops');
    return found(out);
  },
};
