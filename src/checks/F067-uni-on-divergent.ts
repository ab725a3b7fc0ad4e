// F067: `bra.uni`/`call.uni` (which assert that the condition is uniform
// within the warp) depends on a predicate that is not warp-uniform.
import { uniformityAnalysis, WARP } from '../cfg/dataflow/uniformity.js';
import { at, definitionsReaching, guardRegister, registersIn, stepAt } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F067: Check = {
  meta: {
    id: 'F067',
    name: 'uni-on-divergent',
    category: 'control-flow',
    severity: 'medium',
    points: 1,
    description: 'A `.uni` branch or call (`@p bra.uni`, `@p call.uni`, `brx.idx.uni`) whose predicate or index may differ between the '
      + 'threads of a warp.',
    rationale: '`.uni` promises ptxas that every active thread of the warp takes the same path, so it may skip the code that handles '
      + 'divergence. On sm_90 ptxas 13 happens to emit the same SASS as for a plain `bra` (hardware confirmed correct results), but '
      + 'the promise is false and nothing guarantees that on other targets or compilers.',
    remedy: 'Drop `.uni` from branches on thread-varying conditions, or make the condition warp-uniform (e.g. from `vote.sync.any`).',
    notes: 'Judged on every `.uni` control instruction with a guard (`@p bra.uni`, `@p call.uni`, `@p ret.uni`) and on `brx.idx.uni`\'s '
      + 'index: it fails when the uniformity analysis cannot prove the value warp-uniform ("Facts every check shares": seeds %tid, '
      + '%laneid, atomics, loads from varying addresses or per-thread memory, `.func` parameters, and control dependence). An '
      + 'unguarded `bra.uni` is always uniform. The message carries the analysis\' reason chain.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@%p1 bra.uni DONE;\n\tmov.u32 %r1, 0;\nDONE:\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n'
        + '\tmov.u32 %r1, %ctaid.x;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@%p1 bra.uni DONE;\n\tmov.u32 %r1, 0;\nDONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      const sites = fn.instructions.filter((i) => i.node.modifiers.includes('.uni')
        && (((i.node.opcode === 'bra' || i.node.opcode === 'call' || i.node.opcode === 'ret') && i.node.guard !== undefined) || i.node.opcode === 'brx'));
      if (sites.length === 0) continue;
      const u = ctx.analysis.get(fn, uniformityAnalysis);
      for (const ins of sites) {
        judged++;
        const node = ins.node;
        const regs = node.opcode === 'brx' ? registersIn(fn, node.operands[0]!) : [guardRegister(fn, node)].filter((r) => r !== undefined);
        for (const r of regs) {
          if ((u.useVariance(ins.index, r) & WARP) === 0) continue;
          const why = u.explainUse(ins.index, r, 'warp');
          const defs = definitionsReaching(ctx, fn, ins.index, r);
          const what = node.opcode === 'brx' ? `the index ${r.name} of brx.idx.uni` : `the predicate ${r.name} of ${node.opcode}.uni`;
          out.push({
            message: `${what} is not warp-uniform${why === undefined ? '' : `: ${why}`}`,
            ...at(ctx, fn, ins.index),
            chain: [...defs.map((d) => stepAt(ctx, fn, d)), stepAt(ctx, fn, ins.index)],
          });
          break;
        }
      }
    }
    if (judged === 0) return na('no guarded .uni branch or call');
    return found(out);
  },
};
