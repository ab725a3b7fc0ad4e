// F097: two marker sites write the same constant.
import type * as A from '../parser/ast.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { at, definitionsReaching, intValue, registersIn } from './flow.js';
import { debugFacts, isDebugKernel, NVCC_DEBUG_BUFFER_NOTE } from './debug-protocol.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** The constant a debug write stores: an immediate, or a register set by one `mov` of an immediate. */
function markerValue(ctx: CheckContext, fn: FunctionModel, index: number, value: A.Expression | undefined): bigint | undefined {
  const v = intValue(value);
  if (v !== undefined || value === undefined) return v;
  const [reg, ...more] = registersIn(fn, value);
  if (reg === undefined || more.length > 0 || value.kind !== 'Name') return undefined;
  const defs = definitionsReaching(ctx, fn, index, reg);
  const def = defs.length === 1 ? fn.instructions[defs[0]!]!.node : undefined;
  return def?.opcode === 'mov' ? intValue(def.operands[1]) : undefined;
}

export const F097: Check = {
  meta: {
    id: 'F097',
    name: 'marker-uniqueness',
    category: 'instrumentation',
    severity: 'info',
    points: 0,
    description: 'Two marker sites of the debug-buffer protocol write the same marker constant.',
    rationale: 'A marker names one place in the code: when two sites share it, a captured buffer cannot tell which one a thread reached, '
      + 'and `crash-analyze` names the wrong line for half of them.',
    remedy: 'Give every marker site its own constant (`ptx-debug instrument` numbers them 1, 2, 3 ... across the module).',
    notes: 'Marker sites are the debug writes (stores whose address derives from `debug_buf`, the slot counter excluded) '
      + 'that store a constant: an immediate, or a register whose one reaching definition is a `mov` of one (as nvcc compiles '
      + '`debug_buf[k] = 2`): the marker word of the record. Duplicates are judged across the module (one marker map serves the '
      + 'file): each later site is reported, naming the first. n/a when no kernel has a `debug_buf`. '
      + `${NVCC_DEBUG_BUFFER_NOTE}F097).`,
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 debug_buf, .param .u32 debug_cap)\n{\n'
        + '\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [debug_buf];\n\tst.global.u32 [%rd1+4], 7;\n\tst.global.u32 [%rd1+12], 7;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 debug_buf, .param .u32 debug_cap)\n{\n'
        + '\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [debug_buf];\n\tst.global.u32 [%rd1+4], 7;\n\tst.global.u32 [%rd1+12], 8;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const kernels = ctx.functions.filter(isDebugKernel);
    if (kernels.length === 0) return na('no kernel is instrumented (no debug_buf parameter or variable)');
    const first = new Map<bigint, { line: number; fn: string }>();
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of kernels) {
      for (const w of debugFacts(ctx, fn).writes) {
        const v = markerValue(ctx, fn, w.index, w.value);
        if (v === undefined) continue;
        const line = fn.instructions[w.index]!.node.range.line;
        const seen = first.get(v);
        if (seen === undefined) {
          first.set(v, { line, fn: fn.name });
          continue;
        }
        out.push({ message: `marker ${v} is also written at line ${seen.line}${seen.fn === fn.name ? '' : ` (in ${seen.fn})`}: the two sites cannot be told apart`, ...at(ctx, fn, w.index) });
      }
    }
    return found(out);
  },
};
