// F082: a store's address is computed from data loaded from shared memory
// (the seeds' ComputedAddrFromLoaded).
import { TAINT, taintAnalysis } from '../cfg/dataflow/taint.js';
import { mnemonic, taintSteps, WRITE_OPCODES } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F082: Check = {
  meta: {
    id: 'F082',
    name: 'computed-address-from-loaded',
    category: 'known-patterns',
    severity: 'medium',
    points: 1,
    description: 'A store\'s address is computed from data loaded by `ld.shared`.',
    rationale: 'The seeds saw `ld.shared → compute address → st [addr]` crash (ComputedAddrFromLoaded) and worked around it by splitting the '
      + 'kernel. A minimal kernel of this shape ran correctly on an H200, and scatter-by-rank code (radix sort, compaction, hash tables) '
      + 'does it on purpose, so by default it is a medium finding: a data-dependent store address is where out-of-bounds writes come '
      + 'from when the shared value is stale (a missing barrier) or out of range. The `seeds` profile makes it critical.',
    remedy: 'Make sure the shared value is published before it is read (a barrier between the `st.shared` that writes it and the `ld.shared`) '
      + 'and bound-check the computed index before the store; suppress the finding where the scatter is the algorithm.',
    notes: 'Judged: the address registers of `st`, `red`, `atom` and `stmatrix`. It fails when one of them depends, through any data '
      + 'dependence (arithmetic, conversions, selection), on a shared-memory load: `ld.shared`, a generic `ld` of shared provenance, '
      + '`ldmatrix`, or the old value an `atom.shared` returns. A load\'s result depends only on the memory, not on its address, so an '
      + 'address loaded from global memory at an index read from shared memory does not count. Departure: an address that is itself a value moved out of shared memory (`ld.shared.b64 %rd3, [..]` then '
      + '`atom [%rd3]`, data movement only) passes: that is a pointer handed over whole, which is how Triton\'s layout conversions move '
      + 'pointer tensors between threads, not an address computed from loaded data. The finding carries the chain from the '
      + 'load to the store (taint analysis, shortest chain).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n'
        + '\t.shared .align 4 .b8 pos[128];\n\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r2, %tid.x;\n'
        + '\tld.shared.u32 %r1, [pos];\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.u64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r2;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n'
        + '\t.shared .align 4 .b8 pos[128];\n\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r2, %tid.x;\n'
        + '\tld.shared.u32 %r1, [pos];\n\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.u64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const taint = ctx.analysis.get(fn, taintAnalysis);
      let any = false;
      for (let i = 0; i < taint.sourceOf.length && !any; i++) any = (taint.sourceOf[i]! & TAINT.shared) !== 0;
      if (!any) continue;
      for (const ins of fn.instructions) {
        if (!WRITE_OPCODES.has(ins.node.opcode)) continue;
        const fact = taint.address(ins.index);
        // A pointer handed over whole through shared memory (moved, not computed) is not a computed address.
        if (fact === undefined || (fact.any & TAINT.shared) === 0 || (fact.moved & TAINT.shared) !== 0) continue;
        const chain = taint.explain(ins.index, fact, 'shared', 'any');
        const steps = chain === undefined ? [] : taintSteps(ctx, fn, chain);
        const from = chain === undefined ? '' : ` (loaded by ${chain.steps[0]!.mnemonic} at line ${chain.steps[0]!.line})`;
        out.push({
          message: `${mnemonic(ins.node)} stores to an address computed from shared-memory data${from}`,
          location: ctx.locate(ins.node.range, fn, ins.index),
          function: fn.name,
          ...(steps.length > 0 ? { chain: steps } : {}),
        });
      }
    }
    return found(out);
  },
};
