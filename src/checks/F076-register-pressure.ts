// F076: the estimated peak of simultaneously live registers per thread
// exceeds 255 or `.maxnreg`.
import { livenessAnalysis } from '../cfg/dataflow/liveness.js';
import { at } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** The most registers a thread can have (sm_50 and later). */
export const MAX_REGISTERS = 255;

export const F076: Check = {
  meta: {
    id: 'F076',
    name: 'register-pressure',
    category: 'data-flow',
    severity: 'info',
    points: 0,
    description: 'At some point of a function more 32-bit register slots are live at once than a thread can have: 255, or the '
      + 'function\'s `.maxnreg`.',
    rationale: 'ptxas must then spill registers to local memory (slow) or, under `.maxnreg`, spill even more; occupancy also drops as '
      + 'register use rises. The estimate is from the PTX, before ptxas\'s own scheduling and rematerialization, so it is a hint '
      + '(F091 reports ptxas\'s actual spills).',
    remedy: 'Shorten live ranges (compute values closer to their use, reuse registers, split the kernel), reduce unrolling, or raise '
      + '`.maxnreg` / `__launch_bounds__` limits where occupancy allows.',
    notes: 'The liveness analysis counts, before and just after each instruction, the 32-bit slots of the live data registers (a `.b64` '
      + 'counts 2, a `.v4.b32` 4, 8/16-bit registers 1; predicates apart). The limit is `.maxnreg N` when the function declares it, '
      + 'else 255. Reported at the instruction where the peak is first reached.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n.maxnreg 2\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tld.global.u32 %r1, [%rd1];\n\tld.global.u32 %r2, [%rd1+4];\n\tadd.u32 %r3, %r1, %r2;\n'
        + '\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tld.global.u32 %r1, [%rd1];\n\tld.global.u32 %r2, [%rd1+4];\n\tadd.u32 %r3, %r1, %r2;\n'
        + '\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      if (fn.instructions.length === 0) continue;
      const maxnreg = fn.decl.directives.find((d) => d.name === '.maxnreg')?.args[0];
      const limit = maxnreg ?? MAX_REGISTERS;
      const peak = ctx.analysis.get(fn, livenessAnalysis).peak.slots32;
      if (peak.count <= limit || peak.at < 0) continue;
      out.push({
        message: `about ${peak.count} 32-bit register slots are live ${peak.point} this instruction in ${fn.name}, more than ${maxnreg === undefined ? 'the 255 a thread can have' : `.maxnreg ${maxnreg}`}`,
        ...at(ctx, fn, peak.at),
      });
    }
    return found(out);
  },
};
