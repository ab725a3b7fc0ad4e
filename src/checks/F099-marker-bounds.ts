// F099: debug writes are not bounds-checked against the buffer's capacity.
import type * as A from '../parser/ast.js';
import { uniformityAnalysis } from '../cfg/dataflow/uniformity.js';
import { at, backwardSlice, mnemonic, operandFrom, protections, registersIn } from './flow.js';
import { debugFacts, isDebugKernel, NVCC_DEBUG_BUFFER_NOTE } from './debug-protocol.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F099: Check = {
  meta: {
    id: 'F099',
    name: 'marker-bounds',
    category: 'instrumentation',
    severity: 'medium',
    points: 1,
    description: 'A write into the debug buffer that runs whatever slot it got, without comparing the slot with the buffer\'s capacity '
      + '(`debug_cap`).',
    rationale: 'The counter keeps growing after the buffer is full (every marker of every thread claims a slot): unchecked writes then '
      + 'land past the end of the debug buffer, in other allocations, which turns a debugging aid into a memory corruptor.',
    remedy: 'Store the record only when the slot fits: `setp.lt.u32 %p, %k, %cap; @%p st.global.u32 [...]`.',
    notes: 'Debug writes as in F098. A write passes when a comparison decides whether it runs (its guard, a dominating branch, or a loop '
      + 'exit test: the same rule as F078) and that comparison has one side computed from an instruction its address is computed '
      + 'from (the slot) and the other side uniform (the `debug_cap` parameter, an immediate). n/a when no kernel has a `debug_buf` '
      + 'or no debug write exists. '
      + `${NVCC_DEBUG_BUFFER_NOTE}F099).`,
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 debug_buf, .param .u32 debug_cap)\n{\n'
        + '\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [debug_buf];\n\tatom.global.add.u32 %r1, [%rd1], 1;\n'
        + '\tmul.wide.u32 %rd2, %r1, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3+4], 1;\n\tret;\n}\n',
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
      const u = ctx.analysis.get(fn, uniformityAnalysis);
      const uniform = (i: number, e: A.Expression): boolean => e.kind === 'Int' || u.operandVariance(i, e) === 0;
      for (const w of debugFacts(ctx, fn).writes) {
        writes++;
        const fromSlot = (i: number, e: A.Expression): boolean => {
          if (operandFrom(ctx, fn, i, e, w.slice)) return true;
          const side = backwardSlice(ctx, fn, i, registersIn(fn, e), { limit: 256 });
          return side !== undefined && [...side].some((d) => w.slice.has(d) && fn.instructions[d]!.node.opcode === 'atom');
        };
        const checked = protections(ctx, fn, w.index).some(({ comparison: c }) =>
          (fromSlot(c.index, c.a) && uniform(c.index, c.b)) || (fromSlot(c.index, c.b) && uniform(c.index, c.a)));
        if (checked) continue;
        out.push({ message: `${mnemonic(fn.instructions[w.index]!.node)} writes into debug_buf without comparing its slot with debug_cap: it runs past the buffer once it is full`, ...at(ctx, fn, w.index) });
      }
    }
    if (writes === 0) return na('no debug writes');
    return found(out);
  },
};
