// F081: a store's value is data loaded from shared memory, moved only (the
// seeds' LoadedValueBug; refuted on sm_89 and sm_90, advisory by default).
import { TAINT, taintAnalysis } from '../cfg/dataflow/taint.js';
import { mnemonic, taintSteps } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F081: Check = {
  meta: {
    id: 'F081',
    name: 'loaded-value-store',
    category: 'known-patterns',
    severity: 'info',
    points: 0,
    description: 'A store\'s value operand carries data loaded by `ld.shared` through data movement only.',
    rationale: 'The seeds reported that storing a value loaded by `ld.shared` crashed their LZ4 kernel (LoadedValueBug) and called the loaded '
      + 'value "toxic". Their own isolation test on sm_89 and ours on an H200 (sm_90) ran this shape correctly, and every block reduction, '
      + 'transpose and shared-memory staging kernel has it, so by default this is informational: it marks where shared-memory data leaves '
      + 'for other memory, which is where to look if the seeds\' crash ever reproduces. The `seeds` profile makes it critical.',
    remedy: 'Nothing, normally: the pattern is correct PTX. If a kernel with it misbehaves, first rule out a missing barrier before the '
      + '`ld.shared` (F036/F037) and barrier divergence (F038); the seeds\' workaround was to store only constants or registers computed '
      + 'before the loop.',
    notes: 'Judged: the value operands of `st`, `st.async`, `stmatrix`, `red`, `red.async` and `atom` (the registers after the address). It fails '
      + 'when one of them carries, through data movement only (`mov`, `cvt`, `cvta`, the data operands of `selp`/`slct`/`prmt`, `shfl`), '
      + 'data from a shared-memory load: `ld.shared`, a generic `ld` whose address is shared by provenance, `ldmatrix`, or the old value '
      + 'an `atom.shared` returns. Arithmetic on the value (an `add` of two loaded values, an `fma`) is not data movement and passes: that '
      + 'is the seeds\' "Load, compute ... PASS". The finding carries the chain from the load to the store (taint analysis, shortest chain).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n'
        + '\tld.shared.u32 %r1, [smem];\n\tmov.b32 %r2, %r1;\n\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n'
        + '\tld.shared.u32 %r1, [smem];\n\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const taint = ctx.analysis.get(fn, taintAnalysis);
      // Nothing to find in a function with no shared-memory load.
      let any = false;
      for (let i = 0; i < taint.sourceOf.length && !any; i++) any = (taint.sourceOf[i]! & TAINT.shared) !== 0;
      if (!any) continue;
      for (const ins of fn.instructions) {
        const fact = taint.storedValue(ins.index);
        if (fact === undefined || (fact.moved & TAINT.shared) === 0) continue;
        const chain = taint.explain(ins.index, fact, 'shared', 'moved');
        const steps = chain === undefined ? [] : taintSteps(ctx, fn, chain);
        const from = chain === undefined ? '' : ` (loaded by ${chain.steps[0]!.mnemonic} at line ${chain.steps[0]!.line})`;
        out.push({
          message: `${mnemonic(ins.node)} stores a value moved unchanged from shared memory${from}`,
          location: ctx.locate(ins.node.range, fn, ins.index),
          function: fn.name,
          ...(steps.length > 0 ? { chain: steps } : {}),
        });
      }
    }
    return found(out);
  },
};
