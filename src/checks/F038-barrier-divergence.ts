// F038: (a) a barrier that live threads bypass under a thread-varying branch,
// or (b) threads that exit under a thread-varying condition before a
// barrier-protected exchange whose stores they skip (the tile is read with
// elements missing).
import { barrierDivergenceAnalysis, guardRegister } from './barrier-divergence.js';
import type * as A from '../parser/ast.js';
import { barrierOperands, describeBox, syncFactsAnalysis } from './sync-facts.js';
import { CTA } from '../cfg/dataflow/uniformity.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F038: Check = {
  meta: {
    id: 'F038',
    name: 'barrier-divergence',
    category: 'synchronization',
    severity: 'critical',
    points: 3,
    description: 'A CTA-wide barrier is skipped by live threads under a thread-varying branch, or threads exit under a thread-varying condition before a barrier-protected exchange whose shared stores they skip.',
    rationale: 'A barrier must be reached by every live thread of the CTA (every thread of the warp for `bar.sync`, which is `.aligned`). '
      + 'On an H200 the barrier-divergence fixture completes without a hang but synccheck reports "Barrier error detected. Divergent thread(s) in warp." '
      + 'Threads that exit are not waited for, which is why an early `return` does not hang; but their stores to a shared tile are then missing and '
      + 'the threads that stay read garbage (PARITY-114: no hang, wrong results).',
    remedy: 'Keep every thread on the path to the barrier: move the bounds check inside (guard the loads and stores, not the barrier), or '
      + 'make the exiting threads still take part in the exchange (store a neutral value to their slot, then skip only the output).',
    notes: '(a) A barrier with no thread count, or one equal to the known block size, is judged at the CTA level; one with another count '
      + 'at the warp level (the catalog: such a barrier only needs the branch to be warp-uniform). It fails when its own guard varies at '
      + 'that level, or when a branch it is transitively control-dependent on varies at that level, is not the exit decision of a loop '
      + 'that contains the barrier nor the zero-trip test in front of a loop that exits on a varying condition (F041 judges loops), has a '
      + 'path from one of its successors to its immediate post-dominator that passes no barrier or arrive on the same id (if/else arms that '
      + 'both synchronize are fine), and the post-dominator is a block with work in it: the bypassing threads rejoin and run on. When the '
      + 'post-dominator is the virtual exit or a block that only returns, the bypass is exit-only and (a) does not apply (the H200 runs '
      + '`if (tid >= 16) return; __syncthreads();` with no synccheck error). (b) A CTA-varying branch whose two sides never rejoin (the '
      + 'post-dominator only returns), one side reaching a CTA-wide barrier and the other none, fails when on the staying side a '
      + '`st.shared` that can precede that barrier and a `ld.shared` that can follow it may touch the same bytes from different threads '
      + '(the thread-overlap test of F036), the writer being one of the exiting threads (their `%tid` bounds from the branch condition '
      + 'when it compares `%tid`, else any thread): the exiting threads never write what the others read. Varying: the uniformity '
      + 'analysis says so, except that (departure) a value loaded with a plain load from an address equal across the CTA counts as '
      + 'equal across the CTA (every thread that reads one address in one barrier phase sees one value when the kernel is race-free, '
      + 'which F036/F037 check; volatile, relaxed and acquire loads and atomics stay varying): CUB\'s block-wide aggregates read back '
      + 'from shared memory decide loops and branches that way; a one-warp CTA counts warp-uniform values as CTA-uniform. (b) is '
      + 'located at the exit branch, (a) at the barrier. F038 reports before F041 and F049 for the same barrier.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tsetp.ge.u32 %p1, %r1, 16;\n\t@%p1 bra $SKIP;\n\tbar.sync 0;\n$SKIP:\n\tadd.u32 %r2, %r1, 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tsetp.ge.u32 %p1, %r1, 16;\n\t@%p1 bra $DONE;\n\tbar.sync 0;\n\tadd.u32 %r2, %r1, 1;\n$DONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => ctx.analysis.get(fn, syncFactsAnalysis).barriers.some((b) => b.op === 'barrier'));
    if (fns.length === 0) return na('no barrier (bar.sync, barrier.sync, bar.red) in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const u = facts.uniformity();
      const cfg = facts.cfg;
      const d = ctx.analysis.get(fn, barrierDivergenceAnalysis);
      const at = (i: number) => ctx.locate(fn.instructions[i]!.node.range, fn, i);
      const line = (i: number): number => fn.instructions[i]!.node.range.line;
      const operandText = (e: A.Expression | undefined): string => (e === undefined ? '' : e.kind === 'Name' ? e.name : e.kind === 'Int' ? e.text : '?');
      const text = (i: number): string => {
        const n = fn.instructions[i]!.node;
        const { id, count } = barrierOperands(n);
        return `${n.opcode}${n.modifiers.join('')} ${[operandText(id), operandText(count)].filter((x) => x !== '').join(', ')}`.trim();
      };
      for (const x of d.divergent) {
        const i = x.barrier.index;
        const levelWord = x.level === CTA ? 'thread-varying' : 'lane-varying';
        if (x.branch < 0) {
          const g = guardRegister(fn, i)!;
          out.push({
            message: `${text(i)} at line ${line(i)} is guarded by ${g.name}, which is ${levelWord} (${u.explainUse(i, g) ?? g.name}): threads with the guard false skip the barrier and run on`,
            location: at(i), function: fn.name,
          });
          continue;
        }
        const br = cfg.blocks[x.branch]!.end - 1;
        const rejoin = cfg.blocks[x.rejoin]!.start;
        out.push({
          message: `${text(i)} at line ${line(i)} is skipped by threads that take the other side of the ${levelWord} branch at line ${line(br)} `
            + `(${u.explainBranch(x.branch, x.level === CTA ? 'cta' : 'warp') ?? 'varying condition'}); they do not exit but rejoin at line ${line(rejoin)}, `
            + `so live threads never arrive at the barrier`,
          location: at(i), function: fn.name,
          related: [
            { location: at(br), message: 'the branch that decides who reaches the barrier' },
            { location: at(rejoin), message: 'where the bypassing threads continue' },
          ],
        });
      }
      for (const e of d.earlyExits) {
        const br = cfg.blocks[e.branch]!.end - 1;
        const who = e.exitBox === undefined ? 'threads for which the condition holds' : `threads with ${describeBox(e.exitBox, facts.fullBox)}`;
        out.push({
          message: `${who} exit at the thread-varying branch at line ${line(br)} (${u.explainBranch(e.branch, 'cta') ?? 'varying condition'}) `
            + `before the barrier at line ${line(e.barrier)}; they skip ${e.store.mnemonic} at line ${line(e.store.index)}, yet ${e.load.mnemonic} at line ${line(e.load.index)} `
            + `after the barrier reads elements other threads were to store there: the exchange is read with elements missing`,
          location: at(br), function: fn.name,
          related: [
            { location: at(e.barrier), message: 'the barrier the exiting threads never reach' },
            { location: at(e.store.index), message: 'the store the exiting threads skip' },
            { location: at(e.load.index), message: 'the read of the missing elements' },
          ],
        });
      }
    }
    return found(out);
  },
};
