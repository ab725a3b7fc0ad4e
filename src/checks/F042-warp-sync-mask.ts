// F042: a lane named in a `*.sync` collective's full mask can skip the
// collective (leave the branch, the loop, or the kernel) without executing a
// matching one: the collective waits for, or reads from, a lane that is not
// there.
import { guardRegister } from './barrier-divergence.js';
import { syncFactsAnalysis } from './sync-facts.js';
import { warpDivergenceAnalysis } from './warp-divergence.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F042: Check = {
  meta: {
    id: 'F042',
    name: 'warp-sync-mask',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'A lane named in a `*.sync` collective\'s mask (`shfl`, `vote`, `match`, `redux`, `bar.warp.sync`) can reach an exit or loop back without executing a matching collective with the same mask.',
    rationale: 'A `.sync` collective with mask 0xffffffff requires all 32 lanes to execute it: a lane-dependent branch around it (or a lane '
      + 'that already left) makes the behaviour undefined: a hang on Volta and later, or values read from lanes that are not there.',
    remedy: 'Execute the collective with every lane named in the mask (hoist it out of the lane-dependent branch and select the result), '
      + 'or pass the mask of the lanes that really take part (`__activemask()`, `__ballot_sync` of the branch condition).',
    notes: 'Judged for the full mask 0xffffffff, as an immediate or a register holding that constant (nvcc: `mov.b32 %r, -1`); other '
      + 'masks name lanes the analysis cannot relate to branch conditions, and are left alone. Fails when the collective\'s guard '
      + 'splits the warp, or when it is control-dependent on a branch that splits the warp, with a path from that branch to its immediate '
      + 'post-dominator, or to code that only exits, that executes no collective of the same opcode and the same mask (both arms of an '
      + 'if/else with the same collective pass). A lane-varying loop exit around a collective is such a branch. A branch splits the warp '
      + 'when the uniformity analysis says it varies within a warp and none of these shows it equal across the lanes: its `setp` '
      + 'operands have lane stride 0 (`%tid.x >> 5`, `%tid.y` with blockDim.x a multiple of 32, assumed when unknown), a comparison of '
      + '`base + s·lane` against a multiple of 32·s (`%tid.x < 32`), bits 5 and up of the linear thread index (cooperative groups\' '
      + '`meta_group_rank()`), or (departure) a plain load at an address equal across the warp (one instruction, one value for the '
      + 'warp). Departure: for `vote`, `match`, `redux` and `bar.warp.sync`, lanes that exit before the collective are not counted (the '
      + 'hardware excludes exited lanes: an H200 ballots 0xffff after lanes 16–31 returned); for `shfl` they are (the value read from an '
      + 'exited lane is undefined). F050 leaves full-mask shuffles to F042.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n'
        + '\tmov.u32 %r1, %laneid;\n\tmov.u32 %r2, 0;\n\tsetp.lt.u32 %p1, %r1, 16;\n\t@!%p1 bra $J;\n\tshfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n$J:\n\tadd.u32 %r3, %r2, 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n'
        + '\tmov.u32 %r1, %laneid;\n\tshfl.sync.down.b32 %r2, %r1, 1, 31, -1;\n\tsetp.lt.u32 %p1, %r1, 16;\n\tselp.b32 %r3, %r2, 0, %p1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => ctx.analysis.get(fn, syncFactsAnalysis).collectives.length > 0);
    if (fns.length === 0) return na('no .sync warp collective in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const u = facts.uniformity();
      const cfg = facts.cfg;
      const line = (i: number): number => fn.instructions[i]!.node.range.line;
      const at = (i: number) => ctx.locate(fn.instructions[i]!.node.range, fn, i);
      for (const s of ctx.analysis.get(fn, warpDivergenceAnalysis).skipped) {
        const i = s.collective.index;
        const node = fn.instructions[i]!.node;
        const what = `${node.opcode}${node.modifiers.join('')}`;
        if (s.branch < 0) {
          const g = guardRegister(fn, i)!;
          out.push({ message: `${what} at line ${line(i)} names all 32 lanes in its mask but is guarded by ${g.name}, which differs between lanes (${u.explainUse(i, g, 'warp') ?? g.name})`, location: at(i), function: fn.name });
          continue;
        }
        const br = cfg.blocks[s.branch]!.end - 1;
        out.push({
          message: `${what} at line ${line(i)} names all 32 lanes in its mask, but lanes that take the other side of the lane-varying branch at line ${line(br)} `
            + `(${u.explainBranch(s.branch, 'warp') ?? 'lane-dependent condition'}) ${s.exits ? 'exit' : 'go on'} without executing it${s.exits ? ': the shuffle reads lanes that have exited (undefined values)' : ''}`,
          location: at(i), function: fn.name,
          related: [{ location: at(br), message: 'the lane-dependent branch' }],
        });
      }
    }
    return found(out);
  },
};
