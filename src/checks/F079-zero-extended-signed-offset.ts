// F079: a value from signed arithmetic that can be negative is zero-extended
// (`cvt.u64.u32`, `mul.wide.u32`) into an address.
import type * as A from '../parser/ast.js';
import { affineAnalysis, type Form } from '../cfg/dataflow/affine.js';
import { rangeAnalysis } from '../cfg/dataflow/ranges.js';
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { at, backwardSlice, flowsIntoAddress, mnemonic, protections, registersIn, stepAt } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** The 32-bit source operand a zero-extension widens: `cvt.u64.u32 d, a` / `cvt.s64.u32`, `mul.wide.u32 d, a, b`, `mad.wide.u32`. */
function zeroExtended(node: A.Instruction): readonly A.Expression[] {
  if ((node.opcode === 'mul' || node.opcode === 'mad') && node.modifiers.includes('.wide') && node.modifiers.includes('.u32')) {
    return node.operands.slice(1, 3);
  }
  if (node.opcode === 'cvt') {
    const types = node.modifiers.filter((m) => /^\.[usb]\d+$/.test(m));
    if (types.length === 2 && types[0]!.endsWith('64') && (types[1] === '.u32' || types[1] === '.u16' || types[1] === '.u8')) return node.operands.slice(1, 2);
  }
  return [];
}

/** Special registers whose smallest value, 0 (1 for %ntid/%nctaid), some thread of some launch has. */
const ATTAINED_MIN: Readonly<Record<string, number>> = { '%tid': 0, '%ctaid': 0, '%laneid': 0, '%warpid': 0, '%ntid': 1, '%nctaid': 1 };

/** The smallest value of a form whose symbols are all hardware indices with non-negative coefficients (attained by thread 0 of block 0), else undefined. */
function attainedMinimum(ctx: CheckContext, fn: FunctionModel, form: Form): number | undefined {
  if (form.mayWrap) return undefined;
  const symbols = ctx.analysis.get(fn, affineAnalysis).symbols;
  let min = form.c;
  for (const t of form.terms) {
    const s = symbols[t.sym];
    if (s?.kind !== 'sreg' || t.coef < 0) return undefined;
    const m = ATTAINED_MIN[s.sreg];
    if (m === undefined) return undefined;
    min += t.coef * m;
  }
  return form.terms.length === 0 ? undefined : min;
}

/** A reason the 32-bit value `reg` read at `ins` can be negative, or undefined. */
function canBeNegative(ctx: CheckContext, fn: FunctionModel, ins: number, reg: RegisterSymbol): string | undefined {
  const r = ctx.analysis.get(fn, rangeAnalysis).viewAt(ins, reg, true);
  if (r !== undefined && r.lo >= 0) return undefined;
  const whole = r === undefined || (r.lo <= -(2 ** 31) && r.hi >= 2 ** 31 - 1) || r.lo === -Infinity;
  if (!whole && r !== undefined && r.lo < 0) return `its signed range is [${r.lo}, ${r.hi}]`;
  const form = ctx.analysis.get(fn, affineAnalysis).formAt(ins, reg);
  if (form === undefined) return undefined;
  const min = attainedMinimum(ctx, fn, form);
  if (min === undefined || min >= 0) return undefined;
  // Thread 0 of block 0 reaches this only when no test on the value decides whether it runs.
  const slice = backwardSlice(ctx, fn, ins, [reg], { limit: 256 });
  if (slice === undefined) return undefined;
  for (const p of protections(ctx, fn, ins)) {
    for (const side of [p.comparison.a, p.comparison.b]) {
      const s = backwardSlice(ctx, fn, p.comparison.index, registersIn(fn, side), { limit: 256 });
      if (s === undefined || [...s].some((d) => slice.has(d))) return undefined;
    }
  }
  return `it is ${ctx.analysis.get(fn, affineAnalysis).format(form)}, which is ${min} for thread 0 of block 0`;
}

const WIDE_THROUGH = new Set(['add', 'sub', 'mul', 'mad', 'shl', 'mov', 'and', 'or', 'selp', 'cvta', 'cvt']);

export const F079: Check = {
  meta: {
    id: 'F079',
    name: 'zero-extended-signed-offset',
    category: 'data-flow',
    severity: 'medium',
    points: 1,
    description: 'A 32-bit value that can be negative (`tid.x - 1`, `i - radius`) is zero-extended to 64 bits (`cvt.u64.u32`, '
      + '`mul.wide.u32`) and then used in an address.',
    rationale: 'Zero-extension turns -1 into 4 294 967 295: the address lands 16 GiB past the base instead of one element before it, '
      + 'and the access faults or corrupts unrelated memory. Sign extension (`cvt.s64.s32`, `mul.wide.s32`) keeps the offset negative.',
    remedy: 'Widen signed offsets with `cvt.s64.s32` / `mul.wide.s32` (in CUDA, keep the index `int`, not `unsigned`), or guard the '
      + 'negative case before the access.',
    notes: 'Judged on every zero-extension of a 32-bit value: `cvt.u64.u32`/`cvt.s64.u32` (and from .u16/.u8), `mul.wide.u32`, '
      + '`mad.wide.u32`, whose 64-bit result reaches an address operand through 64-bit arithmetic. The value can be negative when the '
      + 'range analysis bounds its signed view within a proper interval whose low end is negative (guards such as `@p bra` on '
      + '`setp.gt i, 0` are taken into account), or, when the range is unknown, when its affine form is built only from %tid, '
      + '%ctaid, %laneid, %warpid, %ntid, %nctaid with non-negative coefficients and its value for thread 0 of block 0 is negative '
      + '(`%tid.x - 1`) and no comparison on the values it is computed from decides whether the widening runs (a guard, a dominating '
      + 'branch, a loop exit: thread 0 may never get there). A range that excludes negatives (a guard `i > 0` before the access) passes. Values that are merely unknown '
      + '(loaded, parameters) are not reported.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, -1;\n\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n'
        + '\tld.global.u32 %r1, [%rd3];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, -1;\n\tmul.wide.s32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n'
        + '\tld.global.u32 %r1, [%rd3];\n\tadd.s32 %r2, %r1, 1;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tld.global.u32 %r1, [%rd3];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      const cfg = ctx.analysis.cfg(fn);
      for (const ins of fn.instructions) {
        const sources = zeroExtended(ins.node);
        if (sources.length === 0 || !cfg.blocks[cfg.blockOf[ins.index]!]!.reachable) continue;
        const dest = registersIn(fn, ins.node.operands[0]!)[0];
        if (dest === undefined) continue;
        judged++;
        for (const src of sources) {
          const reg = registersIn(fn, src)[0];
          if (reg === undefined) continue;
          const why = canBeNegative(ctx, fn, ins.index, reg);
          if (why === undefined) continue;
          const path = flowsIntoAddress(ctx, fn, ins.index, dest, (n) => WIDE_THROUGH.has(n.opcode));
          if (path === undefined) continue;
          const access = path[path.length - 1]!;
          out.push({
            message: `${mnemonic(ins.node)} zero-extends ${reg.name}, which can be negative (${why}), into the address of ${mnemonic(fn.instructions[access]!.node)} at line ${fn.instructions[access]!.node.range.line}`,
            ...at(ctx, fn, ins.index),
            chain: path.map((p) => stepAt(ctx, fn, p)),
          });
          break;
        }
      }
    }
    if (judged === 0) return na('no zero-extension of a 32-bit value');
    return found(out);
  },
};
