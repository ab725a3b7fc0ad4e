// F055: a `.local` array indexed by a value that is not a constant (the array
// lives in stack memory instead of registers).
import { affineAnalysis } from '../cfg/dataflow/affine.js';
import { assumptionsAndSilencing, memoryAccesses, opText } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F055: Check = {
  meta: {
    id: 'F055',
    name: 'local-dynamic-index',
    category: 'memory',
    severity: 'info',
    points: 0,
    description: 'A `.local` array (a per-thread array, or the compiler\'s stack frame `__local_depot`) is indexed by a value that is not a constant.',
    rationale: 'ptxas keeps a per-thread array in registers only when every index is a compile-time constant; a run-time index forces it into local memory, whose traffic goes through L1/L2 like global memory and is often the slowest part of the kernel.',
    remedy: 'Unroll the loops that index the array (`#pragma unroll` with constant trip counts) so that every index becomes a constant, replace the array by a few scalars, or stage the data in shared memory.',
    notes: 'Precise rule: every `ld`/`st`/`atom`/`red` whose state space is `.local` (named, or a generic address whose provenance is local only: '
      + '`cvta.local` of the depot) and whose affine address is &V + offset for a `.local` variable V, where the offset is not a constant. '
      + 'Accesses whose address is not affine (a pointer reloaded from the stack at -O0) are not judged. One finding per access.'
      + assumptionsAndSilencing('F055', 'none about the block; one finding per access.'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.local .align 4 .b8 arr[64];\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd1, %r1, 4;\n\tmov.u64 %rd2, arr;\n\tadd.s64 %rd3, %rd2, %rd1;\n\tld.local.u32 %r2, [%rd3];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.local .align 4 .b8 arr[64];\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n'
        + '\tmov.u64 %rd2, arr;\n\tld.local.u32 %r2, [%rd2+12];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    for (const fn of ctx.functions) {
      for (const a of memoryAccesses(ctx.analysis, fn)) {
        if (a.space !== 'local') continue;
        seen++;
        if (a.form === undefined) continue;
        const af = ctx.analysis.get(fn, affineAnalysis);
        const { base, offset } = af.baseOf(a.form);
        if (base === undefined || base.variable.space !== '.local' || offset.terms.length === 0) continue;
        out.push({
          message: `${opText(a.ins)} indexes the local array ${base.variable.name} at a run-time offset (${af.format(offset)}): the array lives in local (stack) memory`,
          location: ctx.locate(a.ins.node.range, fn, a.index),
          function: fn.name,
        });
      }
    }
    if (seen === 0) return na('no local-memory accesses');
    return found(out);
  },
};
