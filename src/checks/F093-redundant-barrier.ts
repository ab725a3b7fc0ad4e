// F093: a CTA barrier that follows another one with no memory access between
// them on every path (it synchronizes nothing new).
import { solve } from '../cfg/dataflow/solver.js';
import { assumptionsAndSilencing, isCtaBarrier, opText, touchesMemory } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F093: Check = {
  meta: {
    id: 'F093',
    name: 'redundant-barrier',
    category: 'performance',
    severity: 'info',
    points: 0,
    description: 'A CTA barrier is reached, on every path, from another CTA barrier with no memory access between them.',
    rationale: 'A barrier orders the memory accesses before it against those after it; with none between two barriers the second only makes every warp wait again.',
    remedy: 'Remove the second barrier (or the first), keeping one between the shared-memory writes and the reads that depend on them.',
    notes: 'Precise rule: a forward must-analysis per function of "no memory access since the last CTA barrier". CTA barriers: unguarded '
      + '`bar.sync`/`barrier.sync`/`barrier.cta.sync` (`.aligned` or not) with no thread count, or a count equal to the known block size; '
      + '`bar.red` (it returns a value), `bar.arrive`, `bar.warp.sync` and cluster barriers are not. Memory accesses: any instruction with an '
      + 'address operand (loads, stores, atomics, `cp.async`, `mbarrier`, bulk copies ...), `cp.async.wait_*`, calls, texture and surface '
      + 'instructions, and `wgmma`/`tcgen05` (they read shared memory through descriptors). Fences, votes and shuffles are not accesses. The '
      + 'function entry counts as an access (a first barrier is never redundant).'
      + assumptionsAndSilencing('F093', 'a barrier with a thread count is a CTA barrier only when the count equals the known block size (`.reqntid` or `--block`).'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .u32 s[32];\n.entry k()\n{\n\t.reg .b32 %r<3>;\n'
        + '\tmov.u32 %r1, s;\n\tst.shared.u32 [%r1], 1;\n\tbar.sync 0;\n\tmov.u32 %r2, %tid.x;\n\tbar.sync 0;\n\tld.shared.u32 %r2, [%r1];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .u32 s[32];\n.entry k()\n{\n\t.reg .b32 %r<3>;\n'
        + '\tmov.u32 %r1, s;\n\tst.shared.u32 [%r1], 1;\n\tbar.sync 0;\n\tld.shared.u32 %r2, [%r1];\n\tbar.sync 0;\n\tst.shared.u32 [%r1], %r2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let barriers = 0;
    for (const fn of ctx.functions) {
      const isBarrier = fn.instructions.map((i) => i.node.guard === undefined && isCtaBarrier(ctx.analysis, fn, i));
      if (!isBarrier.includes(true)) continue;
      const cfg = ctx.analysis.cfg(fn);
      // 1: a barrier came last; 0: an access (or the entry) came last.
      const step = (s: number, i: number): number => (isBarrier[i] === true ? 1 : touchesMemory(fn.instructions[i]!) ? 0 : s);
      const result = solve(cfg, {
        site: 'F093', direction: 'forward',
        boundary: () => 0,
        initial: () => 1,
        join: (a, b) => a & b,
        equals: (a, b) => a === b,
        transfer: (block, input) => {
          let s = input;
          for (let i = block.start; i < block.end; i++) s = step(s, i);
          return s;
        },
      });
      for (const block of cfg.blocks) {
        if (!block.reachable) continue;
        let s = result.atStart[block.id]!;
        let last: number | undefined;
        for (let i = block.start; i < block.end; i++) {
          if (isBarrier[i] === true) {
            barriers++;
            if (s === 1) {
              const ins = fn.instructions[i]!;
              const prev = last === undefined ? 'another CTA barrier' : `the barrier at line ${fn.instructions[last]!.node.range.line}`;
              out.push({
                message: `${opText(ins)} follows ${prev} with no memory access between them on every path: it synchronizes nothing new`,
                location: ctx.locate(ins.node.range, fn, i),
                function: fn.name,
              });
            }
            last = i;
          } else if (touchesMemory(fn.instructions[i]!)) last = undefined;
          s = step(s, i);
        }
      }
    }
    if (barriers === 0) return na('no CTA barriers');
    return found(out);
  },
};
