// F082: a store's address is computed from data loaded from shared memory
// (the seeds' ComputedAddrFromLoaded).
import { TAINT, taintAnalysis } from '../cfg/dataflow/taint.js';
import { accessBytes, isExtern, isSharedVariable, mnemonic, WRITE_OPCODES } from './address-facts.js';
import { affineAnalysis } from '../cfg/dataflow/affine.js';
import { rangeAnalysis } from '../cfg/dataflow/ranges.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import type { FunctionModel, VariableSymbol } from '../cfg/symbols.js';
import type { CheckContext } from './types.js';
import { sharedDataAddressesAnalysis, sharedDataChain } from './shared-data-addresses.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** The byte range, relative to the variable it is based on, of the address operand of instruction `index`:
 *  from its affine form, or, when the index is not affine (a mask, a shift of loaded data), from the range of
 *  the register that an `add` puts on top of `&var + c`. */
function offsetRange(ctx: CheckContext, fn: FunctionModel, index: number): { v: VariableSymbol; lo: number; hi: number } | undefined {
  const af = ctx.analysis.get(fn, affineAnalysis);
  const rf = ctx.analysis.get(fn, rangeAnalysis);
  const form = af.addressOf(index);
  if (form === undefined) return undefined;
  const { base, offset } = af.baseOf(form);
  if (base === undefined) return undefined;
  const whole = rf.formRange(offset);
  if (Number.isFinite(whole.lo) && Number.isFinite(whole.hi)) return { v: base.variable, lo: whole.lo, hi: whole.hi };
  // [%r+imm] with %r = add(&var + c, idx): c + imm + range(idx).
  const addr = fn.instructions[index]!.node.operands.find((o) => o.kind === 'Address');
  const first = addr?.kind === 'Address' ? addr.elements[0] : undefined;
  const regExpr = first?.kind === 'Binary' ? first.left : first;
  const imm = first?.kind === 'Binary' && first.right.kind === 'Int' ? Number(first.right.value) * (first.op === '-' ? -1 : 1) : 0;
  const reg = regExpr?.kind === 'Name' ? fn.resolve(regExpr) : undefined;
  if (reg?.kind !== 'register') return undefined;
  const defs = ctx.analysis.get(fn, reachingDefinitionsAnalysis).reaching(index, reg);
  if (defs.length !== 1 || defs[0]! < 0) return undefined;
  const add = fn.instructions[defs[0]!]!.node;
  if (add.opcode !== 'add' || add.operands.length !== 3) return undefined;
  for (const [p, q] of [[1, 2], [2, 1]] as const) {
    const f = af.operand(defs[0]!, add.operands[p]!);
    const b = f === undefined ? undefined : af.baseOf(f);
    const other = add.operands[q]!;
    if (b?.base === undefined || b.offset.terms.length > 0 || other.kind !== 'Name') continue;
    const r = rf.viewAt(defs[0]!, other.name, false);
    if (r === undefined || !Number.isFinite(r.lo) || !Number.isFinite(r.hi)) return undefined;
    return { v: b.base.variable, lo: b.offset.c + imm + r.lo, hi: b.offset.c + imm + r.hi };
  }
  return undefined;
}

/** Whether the address of store `index` provably lies inside the sized, non-extern `.shared` variable it is
 *  based on: such a store cannot write out of bounds, whatever the loaded value. */
function insideSharedVariable(ctx: CheckContext, fn: FunctionModel, index: number): boolean {
  const r = offsetRange(ctx, fn, index);
  if (r === undefined || !isSharedVariable(r.v) || isExtern(r.v) || r.v.size === undefined) return false;
  return r.lo >= 0 && r.hi + (accessBytes(fn.instructions[index]!.node) ?? 1) <= r.v.size;
}

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
    notes: 'Judged: the address registers of `st`, `red`, `atom` and `stmatrix`. It fails when one of them depends, through data '
      + 'operands (arithmetic, conversions, the data operands of `selp`), on a shared-memory load: `ld.shared`, a generic `ld` of shared provenance, '
      + '`ldmatrix`, or the old value an `atom.shared` returns. A load\'s result depends only on the memory, not on its address, so an '
      + 'address loaded from global memory at an index read from shared memory does not count. Departure: an address that is itself a value moved out of shared memory (`ld.shared.b64 %rd3, [..]` then '
      + '`atom [%rd3]`, data movement only) passes: that is a pointer handed over whole, which is how Triton\'s layout conversions move '
      + 'pointer tensors between threads, not an address computed from loaded data. '
      + 'Precision: predicates are not followed (a guard, a `selp` selector, `vote`, and the compared operands of `set`): a comparison of '
      + 'the loaded value is a decision about it, as a branch on it would be, and following it would make the finding depend on whether the '
      + 'compiler if-converted the branch. Departure: a store whose address provably lies inside the sized, non-extern `.shared` variable '
      + 'it is based on (affine address, offset range from the range analysis, e.g. a histogram bin `(v & 255) * 4`) passes: whatever the '
      + 'loaded value, it cannot write out of bounds, which is the harm this check exists for. Each store is reported once. '
      + 'What remains on CUB is scatter by rank on purpose (BlockExchange, radix digit counters, reduce-by-key output positions from a '
      + 'block prefix broadcast through shared memory): suppress it there. The finding carries the chain from the '
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
      const data = ctx.analysis.get(fn, sharedDataAddressesAnalysis);
      for (const ins of fn.instructions) {
        if (!WRITE_OPCODES.has(ins.node.opcode) || !data.addressTainted(ins.index)) continue;
        // A pointer handed over whole through shared memory (moved, not computed) is not a computed address.
        const fact = taint.address(ins.index);
        if (fact !== undefined && (fact.moved & TAINT.shared) !== 0) continue;
        if (insideSharedVariable(ctx, fn, ins.index)) continue;
        const chain = sharedDataChain(ctx, fn, ins.index);
        const from = chain.length > 1 ? ` (loaded by ${chain[0]!.what} at line ${chain[0]!.location.line})` : '';
        out.push({
          message: `${mnemonic(ins.node)} stores to an address computed from shared-memory data${from}`,
          location: ctx.locate(ins.node.range, fn, ins.index),
          function: fn.name,
          ...(chain.length > 1 ? { chain } : {}),
        });
      }
    }
    return found(out);
  },
};
