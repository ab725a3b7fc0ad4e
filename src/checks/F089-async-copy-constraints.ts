// F089: `cp.async` size not 4/8/16, `.cg` with size ≠ 16, misaligned source
// or destination, `cp.async.bulk` size not a multiple of 16.
import type * as A from '../parser/ast.js';
import { affineAnalysis, isConstant, type Form } from '../cfg/dataflow/affine.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { at, intValue, mnemonic } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** Kernel pointer parameters are assumed aligned to this (cudaMalloc returns 256-byte aligned memory). */
const POINTER_ALIGNMENT = 256;

const pow2 = (x: number): number => {
  if (x === 0) return Infinity;
  let p = 1;
  let v = Math.abs(x);
  while (v % 2 === 0 && p < 1 << 30) { v /= 2; p *= 2; }
  return p;
};

function constantOf(ctx: CheckContext, fn: FunctionModel, ins: number, e: A.Expression | undefined): number | undefined {
  const v = intValue(e);
  if (v !== undefined) return Number(v);
  if (e?.kind !== 'Name') return undefined;
  const form = ctx.analysis.get(fn, affineAnalysis).operand(ins, e);
  return form !== undefined && isConstant(form) ? form.c : undefined;
}

/**
 * Why the address `form` can be misaligned for `size` bytes, or undefined when
 * it is aligned or unknown. Each term's contribution: a variable's declared
 * alignment (or its element size), kernel pointer parameters 256, %tid/%laneid
 * (consecutive values: their coefficient decides), other values unknown
 * unless their coefficient is a multiple of `size`.
 */
function misalignment(ctx: CheckContext, fn: FunctionModel, form: Form, size: number): string | undefined {
  const af = ctx.analysis.get(fn, affineAnalysis);
  let step = Infinity;
  for (const t of form.terms) {
    const s = af.symbols[t.sym]!;
    if (pow2(t.coef) >= size) continue;
    if (s.kind === 'var') {
      const align = s.variable.align ?? 1;
      if (t.coef === 1 && align >= size) continue;
      if (t.coef === 1) return `${s.variable.name} is only declared .align ${align}`;
      return undefined;
    }
    if (s.kind === 'param') {
      if (t.coef === 1 && POINTER_ALIGNMENT >= size) continue;
      return undefined;
    }
    if (s.kind === 'sreg' && /^%(tid|laneid)/.test(s.sreg)) {
      step = Math.min(step, pow2(t.coef));
      continue;
    }
    return undefined;
  }
  const c = ((form.c % size) + size) % size;
  if (step < size) return `${af.format(form)} is a multiple of ${step} only: misaligned for some threads`;
  if (c !== 0) return `${af.format(form)} is ${c} bytes past a ${size}-byte boundary`;
  return undefined;
}

export const F089: Check = {
  meta: {
    id: 'F089',
    name: 'async-copy-constraints',
    category: 'known-patterns',
    severity: 'medium',
    points: 1,
    description: '`cp.async` with a copy size other than 4, 8 or 16, `.cg` with a size other than 16, a source or destination not aligned '
      + 'to the copy size, or `cp.async.bulk` with a size that is not a multiple of 16.',
    rationale: 'The async-copy units move fixed, aligned chunks: ptxas rejects bad immediate sizes, and a misaligned address or a '
      + 'register-held size that breaks the rule is undefined behaviour (a misaligned-address fault, or silently wrong data).',
    remedy: 'Copy 4, 8 or 16 bytes (`.cg` only 16), align both addresses to the copy size (`.align 16` on the shared buffer, 16-byte '
      + 'aligned global offsets), and make bulk copies multiples of 16 bytes.',
    notes: 'Sizes are judged when constant (immediates, or registers the affine analysis proves constant). Alignment is judged on the '
      + 'affine form of each address: a `.shared` variable contributes its declared `.align`, a kernel pointer parameter is assumed '
      + '256-byte aligned (cudaMalloc), %tid/%laneid terms take consecutive values so their coefficient decides, and any other term '
      + 'must have a coefficient that is a multiple of the size (else the address is unknown and not judged). It fails when some '
      + 'thread\'s address is provably off the boundary, or when a variable it is based on is declared with a smaller alignment than '
      + 'the copy. `cp.async.bulk` (and `.prefetch`) addresses must be 16-byte aligned. Tensor copies (`cp.async.bulk.tensor`) take '
      + 'their sizes from the tensor map and are not judged.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 g)\n{\n\t.reg .b64 %rd<2>;\n\t.shared .align 16 .b8 s[256];\n'
        + '\tld.param.u64 %rd1, [g];\n\tcp.async.cg.shared.global [s], [%rd1], 8;\n\tcp.async.wait_all;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 g)\n{\n\t.reg .b64 %rd<2>;\n\t.shared .align 16 .b8 s[256];\n'
        + '\tld.param.u64 %rd1, [g];\n\tcp.async.cg.shared.global [s], [%rd1], 16;\n\tcp.async.wait_all;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      const af = ctx.analysis.get(fn, affineAnalysis);
      for (const ins of fn.instructions) {
        const node = ins.node;
        if (node.opcode !== 'cp' || node.modifiers[0] !== '.async') continue;
        const mods = node.modifiers;
        const bulk = mods.includes('.bulk');
        if (mods.includes('.tensor') || mods.includes('.commit_group') || mods.includes('.wait_group') || mods.includes('.wait_all')
          || mods.includes('.mbarrier') || (bulk && (mods.includes('.commit_group') || mods.includes('.wait_group')))) continue;
        const addrs = node.operands.map((o, i) => [o, i] as const).filter(([o]) => o.kind === 'Address');
        if (addrs.length === 0) continue;
        judged++;
        const problems: string[] = [];
        const prefetch = bulk && mods.includes('.prefetch');
        const sizeAfter = addrs[prefetch ? 0 : Math.min(1, addrs.length - 1)]![1];
        const sizeOperand = node.operands[sizeAfter + 1];
        const size = constantOf(ctx, fn, ins.index, sizeOperand);
        let align: number | undefined;
        if (bulk) {
          if (size !== undefined && size % 16 !== 0) problems.push(`the size ${size} is not a multiple of 16 bytes`);
          align = 16;
        } else {
          if (size !== undefined && size !== 4 && size !== 8 && size !== 16) problems.push(`the copy size ${size} is not 4, 8 or 16`);
          else if (size !== undefined && mods.includes('.cg') && size !== 16) problems.push(`.cg copies 16 bytes only, not ${size}`);
          align = size !== undefined && [4, 8, 16].includes(size) ? size : undefined;
        }
        if (align !== undefined) {
          const copies = prefetch ? 1 : Math.min(2, addrs.length);
          for (let k = 0; k < copies; k++) {
            const form = af.addressOf(ins.index, k);
            if (form === undefined) continue;
            const why = misalignment(ctx, fn, form, align);
            if (why !== undefined) problems.push(`the ${k === 0 && copies === 2 ? 'destination' : 'source'} is not ${align}-byte aligned: ${why}`);
          }
        }
        if (problems.length > 0) out.push({ message: `${mnemonic(node)}: ${problems.join('; ')}`, ...at(ctx, fn, ins.index) });
      }
    }
    if (judged === 0) return na('no cp.async');
    return found(out);
  },
};
