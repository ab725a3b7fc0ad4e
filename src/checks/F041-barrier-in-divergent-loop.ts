// F041: a CTA-wide barrier sits in a loop that threads leave at different
// iterations (a thread-varying exit) and then run on: the threads still in
// the loop wait at a barrier the others no longer reach.
import { barrierDivergenceAnalysis } from './barrier-divergence.js';
import { syncFactsAnalysis } from './sync-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F041: Check = {
  meta: {
    id: 'F041',
    name: 'barrier-in-divergent-loop',
    category: 'synchronization',
    severity: 'medium',
    points: 1,
    description: 'A CTA-wide barrier sits in a loop whose exit condition is thread-varying, so live threads iterate different counts.',
    rationale: 'A thread that leaves the loop early stops arriving at the barrier while the others still wait at it each iteration: '
      + 'the barrier completes with a different set of threads than the code assumes (and synccheck reports divergent threads).',
    remedy: 'Make the trip count uniform (loop to the CTA-wide maximum and guard the body\'s loads and stores), or move the barrier out of the loop.',
    notes: 'A barrier with no thread count, or one equal to the known block size, in a loop (innermost first) with an exit edge that '
      + 'leaves on a CTA-varying decision (the exiting block\'s branch varies across the CTA, or the block is control-dependent within '
      + 'the loop on such a branch; varying as F038 defines it, loads at CTA-uniform addresses counting as uniform) to a block with '
      + 'work in it. Departure: an exit edge that only leads to the kernel\'s exit (`ret`/`exit` blocks) is not counted: the leaving '
      + 'threads exit, and barriers do not wait for exited threads (a grid-stride loop that returns when done is judged by the exchange '
      + 'it breaks, F038 (b), not here). The zero-trip test nvcc puts in front of a rotated loop (`n < 1` before `i < n`) belongs to the '
      + 'loop: F038 leaves it to F041. A barrier F038 reports (it is also under a divergent branch) or F049 reports is left to them.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u32 n)\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n'
        + '\tld.param.u32 %r3, [n];\n\tmov.u32 %r1, %tid.x;\n$LOOP:\n\tbar.sync 0;\n\tadd.u32 %r1, %r1, 64;\n\tsetp.lt.u32 %p1, %r1, %r3;\n\t@%p1 bra $LOOP;\n\tadd.u32 %r2, %r1, 1;\n\tbar.sync 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u32 n)\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n'
        + '\tld.param.u32 %r3, [n];\n\tmov.u32 %r1, 0;\n$LOOP:\n\tbar.sync 0;\n\tadd.u32 %r1, %r1, 64;\n\tsetp.lt.u32 %p1, %r1, %r3;\n\t@%p1 bra $LOOP;\n\tadd.u32 %r2, %r1, 1;\n\tbar.sync 0;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => ctx.analysis.get(fn, syncFactsAnalysis).barriers.some((b) => b.op === 'barrier' && b.ctaWide));
    if (fns.length === 0) return na('no CTA-wide barrier in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const u = facts.uniformity();
      const cfg = facts.cfg;
      const loops = ctx.analysis.loops(fn).loops;
      const line = (i: number): number => fn.instructions[i]!.node.range.line;
      const at = (i: number) => ctx.locate(fn.instructions[i]!.node.range, fn, i);
      for (const x of ctx.analysis.get(fn, barrierDivergenceAnalysis).loops) {
        const i = x.barrier.index;
        const head = cfg.blocks[loops[x.loop]!.header]!;
        const [from, to] = x.exit;
        const br = cfg.blocks[from]!.end - 1;
        const why = u.explainBranch(from, 'cta') ?? facts.controlDeps(from).map((b) => u.explainBranch(b, 'cta')).find((s) => s !== undefined) ?? 'a thread-varying condition';
        out.push({
          message: `barrier at line ${line(i)} is inside the loop at line ${line(head.start)}, which threads leave at different iterations `
            + `(the exit at line ${line(br)} depends on ${why}) and then continue at line ${line(cfg.blocks[to]!.start)}: the threads still looping wait at a barrier the others no longer reach`,
          location: at(i), function: fn.name,
          related: [{ location: at(br), message: 'the thread-varying loop exit' }],
        });
      }
    }
    return found(out);
  },
};
