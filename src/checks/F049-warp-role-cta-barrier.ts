// F049: a full-CTA barrier inside a branch that only some warps take
// (warp-specialized roles) while the other warps stay busy in their own role:
// it waits for warps that never come (a deadlock), or completes only when
// they exit.
import { barrierDivergenceAnalysis } from './barrier-divergence.js';
import { syncFactsAnalysis } from './sync-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F049: Check = {
  meta: {
    id: 'F049',
    name: 'warp-role-cta-barrier',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'A full-CTA barrier (`bar.sync 0` with no count, or the block size) is inside a branch that only some warps take (warp-specialized roles).',
    rationale: 'In a warp-specialized kernel (producer and consumer warps), a `__syncthreads()` in one role waits for the warps of the other role, '
      + 'which are busy in their own loop or waiting on a named barrier or mbarrier: the CTA deadlocks.',
    remedy: 'Synchronize a role with a named barrier and its own thread count (`bar.sync 1, 128`; CUDA: `asm("bar.sync 1, 128;")` or cuda::barrier), not with `__syncthreads()`.',
    notes: 'The barrier (no count, or a count equal to the known block size) is control-dependent on a branch that is warp-uniform but '
      + 'CTA-varying (it splits the CTA as F038 defines it, but not the warp as F042 defines it: `%warpid`, `%tid.x / 32`, `%tid.x < 64`), which is not a loop exit '
      + 'deciding the barrier\'s loop, and the other side of that branch (the region reachable from it without passing the barrier) '
      + 'keeps its warps live: it contains a synchronizing instruction (a barrier of another id, an mbarrier or async-copy wait) or a loop, '
      + 'and no barrier or arrive on the barrier\'s own id (then the other warps take part: a producer\'s `bar.arrive 1, 128` for the '
      + 'consumers\' `bar.sync 1, 128`). A branch whose other side only does straight-line work and exits is left alone (exited warps are not '
      + 'waited for). F038 reports before F049 for the same barrier (when the bypassing warps rejoin the barrier\'s path).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 128, 1, 1\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tshr.u32 %r2, %r1, 5;\n\tsetp.eq.u32 %p1, %r2, 0;\n\t@%p1 bra $PRODUCER;\n\tbar.sync 1, 96;\n\tbra $DONE;\n$PRODUCER:\n\tbar.sync 0;\n$DONE:\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 128, 1, 1\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tshr.u32 %r2, %r1, 5;\n\tsetp.eq.u32 %p1, %r2, 0;\n\t@%p1 bra $PRODUCER;\n\tbar.sync 1, 128;\n\tbra $DONE;\n$PRODUCER:\n\tbar.arrive 1, 128;\n$DONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => ctx.analysis.get(fn, syncFactsAnalysis).barriers.some((b) => b.op === 'barrier' && b.ctaWide));
    if (fns.length === 0) return na('no full-CTA barrier in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const u = facts.uniformity();
      const cfg = facts.cfg;
      const line = (i: number): number => fn.instructions[i]!.node.range.line;
      const at = (i: number) => ctx.locate(fn.instructions[i]!.node.range, fn, i);
      for (const r of ctx.analysis.get(fn, barrierDivergenceAnalysis).roles) {
        const i = r.barrier.index;
        const br = cfg.blocks[r.branch]!.end - 1;
        out.push({
          message: `full-CTA barrier at line ${line(i)} is reached only by the warps that take one side of the warp-uniform branch at line ${line(br)} `
            + `(${u.explainBranch(r.branch, 'cta') ?? 'a per-warp condition'}); the other warps stay busy in another role (line ${line(r.busy)}) and never arrive: use a named barrier with the role's thread count`,
          location: at(i), function: fn.name,
          related: [
            { location: at(br), message: 'the branch that splits the warps into roles' },
            { location: at(r.busy), message: 'the other role keeps its warps live here' },
          ],
        });
      }
    }
    return found(out);
  },
};
