// F051: a load or store whose address is provably not a multiple of its size.
import { affineAnalysis, immediate } from '../cfg/dataflow/affine.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { assumptionsAndSilencing, LANE_ASSUMPTION, memoryAccesses, misalignment, opText } from './memory.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** `cp.async` (not bulk): its two addresses and its copy size. */
function cpAsync(ctx: CheckContext, fn: FunctionModel, out: Omit<Finding, 'id' | 'severity'>[]): number {
  let seen = 0;
  for (const ins of fn.instructions) {
    const n = ins.node;
    if (n.opcode !== 'cp' || !n.modifiers.includes('.async') || n.modifiers.includes('.bulk')) continue;
    const sizeOp = n.operands[2];
    const size = sizeOp === undefined ? undefined : immediate(sizeOp, 32);
    if (size === undefined) continue;
    seen++;
    const af = ctx.analysis.get(fn, affineAnalysis);
    for (const [which, role] of [[0, 'shared destination'], [1, 'global source']] as const) {
      const form = af.addressOf(ins.index, which);
      if (form === undefined) continue;
      const why = misalignment(ctx.analysis, fn, af, ins.index, form, size);
      if (why !== undefined) {
        out.push({ message: `misaligned ${opText(ins)} ${role} (${size}-byte copy): ${why}`, location: ctx.locate(n.range, fn, ins.index), function: fn.name });
      }
    }
  }
  return seen;
}

export const F051: Check = {
  meta: {
    id: 'F051',
    name: 'unaligned-access',
    category: 'memory',
    severity: 'high',
    points: 3,
    description: 'A load, store or `cp.async` whose address is provably not a multiple of its access size (from the base\'s alignment, constant offsets and per-lane strides).',
    rationale: 'The hardware requires naturally aligned accesses: a misaligned `ld.global.v4.f32` (a `float4` read through `(float4*)(p + 1)`) faults with "misaligned address" and kills the context.',
    remedy: 'Keep vector accesses on multiples of their size: offset pointers by whole vectors, align shared and local arrays with `.align` (`__align__(16)`), or fall back to scalar accesses when the offset is not a multiple.',
    notes: 'Precise rule: for every `ld`, `ldu`, `st` (any state space) and `cp.async` (both addresses, with its copy size), the affine address '
      + 'c + Σ coef·x is reduced modulo a power of two from what is known of each symbol: a variable\'s address is a multiple of its `.align` (else '
      + 'its type\'s size); a kernel (`.entry`) pointer parameter (a 64-bit scalar `.param` read whole) is taken to point to the start of an '
      + 'allocation, 256-byte aligned as `cudaMalloc` returns it (the finding says so); an induction variable is known from its start and step; '
      + 'anything else (loaded values, `.func` parameters) is unknown. The access fails (1) when the address is ≢ 0 modulo min(size, known '
      + 'alignment) for every thread, or (2) when whole warps reach it (no lane-varying branch or guard decides it) and adjacent lanes are a '
      + 'non-multiple of the size apart, so that one of each pair is misaligned whatever the base (lanes mapped to %tid as in F052). Atomics are '
      + 'judged by F059. Departure: the kernel-pointer assumption is what makes a `float4` access through `p + 1` provable; a kernel whose callers '
      + 'pass offset pointers on purpose should suppress the finding.'
      + assumptionsAndSilencing('F051', LANE_ASSUMPTION),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<5>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+4];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<5>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    for (const fn of ctx.functions) {
      const accesses = memoryAccesses(ctx.analysis, fn);
      const af = accesses.length > 0 ? ctx.analysis.get(fn, affineAnalysis) : undefined;
      for (const a of accesses) {
        if (a.kind === 'atomic' || a.bytes === undefined || af === undefined) continue;
        seen++;
        if (a.form === undefined) continue;
        const why = misalignment(ctx.analysis, fn, af, a.index, a.form, a.bytes);
        if (why !== undefined) {
          out.push({ message: `misaligned ${opText(a.ins)}: ${why}`, location: ctx.locate(a.ins.node.range, fn, a.index), function: fn.name });
        }
      }
      seen += cpAsync(ctx, fn, out);
    }
    if (seen === 0) return na('no loads, stores or cp.async');
    return found(out);
  },
};
