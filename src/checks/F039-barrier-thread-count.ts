// F039: a barrier's thread count is not a multiple of 32 or exceeds the known
// block size, or its id or count is not warp-uniform.
import { WARP } from '../cfg/dataflow/uniformity.js';
import { syncFactsAnalysis } from './sync-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F039: Check = {
  meta: {
    id: 'F039',
    name: 'barrier-thread-count',
    category: 'synchronization',
    severity: 'medium',
    points: 1,
    description: 'A barrier\'s thread count is not a multiple of 32 or exceeds the known block size, or its id or count is not warp-uniform.',
    rationale: 'Barriers count arrivals per warp: the PTX ISA requires the thread count to be a multiple of the warp size, and a count larger '
      + 'than the block can never be reached (a hang). An id or count that differs between the lanes of a warp is undefined behaviour.',
    remedy: 'Use a thread count that is a multiple of 32 and at most the block size (the number of threads of the role that synchronizes), '
      + 'computed from warp-uniform values (`%warpid`-free constants or kernel parameters).',
    notes: 'Judged on `bar.sync`/`bar.arrive`/`bar.red` and `barrier.sync`/`barrier.arrive`/`barrier.red` (not `bar.warp.sync`, not '
      + '`barrier.cluster`). An immediate count must be a positive multiple of 32 and, when the block size is known (`.reqntid`/'
      + '`.maxntid`, `--block`), at most the number of threads in the block. A register id or count must be warp-uniform by the '
      + 'uniformity analysis (an immediate always is). An immediate id outside 0..15 is F007\'s (operand ranges), not judged here.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 128, 1, 1\n{\n\tbar.sync 1, 48;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 128, 1, 1\n{\n\tbar.sync 1, 64;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => ctx.analysis.get(fn, syncFactsAnalysis).barriers.length > 0);
    if (fns.length === 0) return na('no bar/barrier instruction in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      for (const b of facts.barriers) {
        const node = fn.instructions[b.index]!.node;
        const where = { location: ctx.locate(node.range, fn, b.index), function: fn.name };
        const what = `${node.opcode}${node.modifiers.join('')}`;
        if (b.countValue !== undefined) {
          if (b.countValue <= 0 || b.countValue % 32 !== 0) {
            out.push({ message: `${what} at line ${node.range.line} has thread count ${b.countValue}, which is not a positive multiple of the warp size (32)`, ...where });
            continue;
          }
          if (facts.blockThreads !== undefined && b.countValue > facts.blockThreads) {
            out.push({ message: `${what} at line ${node.range.line} waits for ${b.countValue} threads but the block has ${facts.blockThreads}: it can never complete`, ...where });
            continue;
          }
        }
        for (const [name, e] of [['id', b.id], ['thread count', b.count]] as const) {
          if (e === undefined || e.kind !== 'Name') continue;
          const u = facts.uniformity();
          if ((u.operandVariance(b.index, e) & WARP) !== 0) {
            const reg = fn.resolve(e);
            const why = reg?.kind === 'register' ? u.explainUse(b.index, reg, 'warp') : undefined;
            out.push({ message: `the ${name} of ${what} at line ${node.range.line} (${e.name}) may differ between the lanes of a warp${why === undefined ? '' : ` (${why})`}`, ...where });
            break;
          }
        }
      }
    }
    return found(out);
  },
};
