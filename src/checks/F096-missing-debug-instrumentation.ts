// F096: a complex kernel (a loop and either shared memory or ≥ 200
// instructions) has no debug buffer (parameter or module variable) and no marker writes.
import type { FunctionModel, VariableSymbol } from '../cfg/symbols.js';
import { isDebugKernel } from './debug-protocol.js';
import { namesVariable } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Kernels at least this long count as complex (with a loop). */
export const COMPLEX_INSTRUCTIONS = 200;

const isShared = (v: VariableSymbol): boolean => v.space === '.shared';

function usesShared(fn: FunctionModel): boolean {
  return fn.instructions.some((i) => i.node.modifiers.some((m) => m === '.shared' || m.startsWith('.shared::'))
    || i.node.operands.some((o) => namesVariable(fn, o, isShared)));
}

export const F096: Check = {
  meta: {
    id: 'F096',
    name: 'missing-debug-instrumentation',
    category: 'instrumentation',
    severity: 'info',
    points: 0,
    description: 'A complex kernel (one with a loop, and shared memory or at least 200 instructions) without the debug buffer of the '
      + 'catalog\'s protocol, so a crash in it cannot be located from a captured buffer.',
    rationale: 'When such a kernel faults, the context is lost with its state; marker writes into a mapped debug buffer survive and '
      + 'name the last point each thread reached (`ptx-debug crash-analyze`). The seeds asked for this on every complex kernel '
      + '(MissingDebugInstrumentation).',
    remedy: 'Instrument the kernel for debugging runs: `ptx-debug instrument k.ptx -o k.debug.ptx` adds the `debug_buf`/`debug_cap` '
      + 'parameters and a marker write per basic block (or per loop or barrier), with a marker map for `crash-analyze`.',
    notes: 'A kernel (`.entry` with a body) is complex when it has a natural loop and either names shared memory (a `.shared` state '
      + 'space or variable) or has at least 200 instructions. It is instrumented when it declares a parameter named `debug_buf` '
      + '(marker writes need that buffer), or refers to a module variable of that name (a kernel instrumented by hand in CUDA: nvcc '
      + 'keeps a `__device__` variable\'s name). n/a when no kernel is complex.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n'
        + '\t.shared .align 4 .b32 s[32];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\nL:\n\tst.shared.u32 [s], %r2;\n\tadd.u32 %r2, %r2, 1;\n'
        + '\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra L;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n, .param .u64 debug_buf, .param .u32 debug_cap)\n'
        + '{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.shared .align 4 .b32 s[32];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\nL:\n'
        + '\tst.shared.u32 [s], %r2;\n\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra L;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let complex = 0;
    for (const fn of ctx.functions) {
      if (!fn.isEntry || ctx.analysis.loops(fn).loops.length === 0) continue;
      const big = fn.instructions.length >= COMPLEX_INSTRUCTIONS;
      if (!big && !usesShared(fn)) continue;
      complex++;
      if (isDebugKernel(fn)) continue;
      out.push({
        message: `${fn.name} is complex (a loop and ${big ? `${fn.instructions.length} instructions` : 'shared memory'}) and has no debug buffer: a crash in it cannot be located (ptx-debug instrument adds one)`,
        location: ctx.locate(fn.decl.nameRange), function: fn.name,
      });
    }
    if (complex === 0) return na('no complex kernel (a loop and shared memory or 200 instructions)');
    return found(out);
  },
};
