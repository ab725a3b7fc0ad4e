// F098: debug writes do not take their slot from an atomic add on debug_buf[0].
import { at, mnemonic } from './flow.js';
import { debugFacts, isDebugKernel, NVCC_DEBUG_BUFFER_NOTE } from './debug-protocol.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F098: Check = {
  meta: {
    id: 'F098',
    name: 'marker-protocol',
    category: 'instrumentation',
    severity: 'low',
    points: 1,
    description: 'A write into the debug buffer whose address is not computed from the slot an `atom.add` on `debug_buf[0]` returned.',
    rationale: 'The protocol\'s records are claimed one at a time by the atomic counter in word 0; a write at a fixed or thread-derived '
      + 'offset overwrites other threads\' records (and the counter), so the decoded buffer lies about who reached what.',
    remedy: 'Claim a slot with `atom.global.add.u32 %k, [debug_buf], 1;` and write the record at words 1 + 2k and 2 + 2k '
      + '(`ptx-debug instrument` emits exactly this).',
    notes: 'Debug writes are stores whose address derives (through arithmetic) from the kernel\'s `debug_buf`, except the '
      + 'counter itself: an `atom.add`/`red.add` at `debug_buf + 0` exactly (its affine address). A debug write passes when the '
      + 'instructions its address is computed from include such a counter `atom.add` (whose result is the slot). n/a when no kernel '
      + 'has a `debug_buf` or no debug write exists. '
      + `${NVCC_DEBUG_BUFFER_NOTE}F098).`,
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 debug_buf, .param .u32 debug_cap)\n{\n'
        + '\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [debug_buf];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 8;\n'
        + '\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3+4], 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 debug_buf, .param .u32 debug_cap)\n{\n'
        + '\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [debug_buf];\n\tld.param.u32 %r2, [debug_cap];\n'
        + '\tatom.global.add.u32 %r1, [%rd1], 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n'
        + '\t@%p1 st.global.u32 [%rd3+4], 1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const kernels = ctx.functions.filter(isDebugKernel);
    if (kernels.length === 0) return na('no kernel is instrumented (no debug_buf parameter or variable)');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let writes = 0;
    for (const fn of kernels) {
      const facts = debugFacts(ctx, fn);
      const counters = new Set(facts.counters);
      for (const w of facts.writes) {
        writes++;
        if ([...w.slice].some((d) => counters.has(d))) continue;
        out.push({ message: `${mnemonic(fn.instructions[w.index]!.node)} writes into debug_buf at an address not taken from atom.add on debug_buf[0]: records can overwrite each other`, ...at(ctx, fn, w.index) });
      }
    }
    if (writes === 0) return na('no debug writes');
    return found(out);
  },
};
