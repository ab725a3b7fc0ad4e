// F077: a 32-bit `mul.lo`/`mad.lo` product of a kernel parameter or of two
// thread-indexed values is widened only afterwards to form an address.
import type * as A from '../parser/ast.js';
import { affineAnalysis, isConstant } from '../cfg/dataflow/affine.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { at, backwardSlice, mnemonic, readsSreg, registersIn, stepAt } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** 32-bit integer operations an index passes through before it is widened. */
const NARROW_THROUGH = new Set(['add', 'sub', 'mul', 'mad', 'shl', 'mov', 'and', 'or', 'xor', 'selp', 'min', 'max', 'cvt', 'neg']);
/** 64-bit operations between the widening and the address. */
const WIDE_THROUGH = new Set(['add', 'sub', 'mul', 'mad', 'shl', 'mov', 'and', 'or', 'selp', 'min', 'max', 'cvta', 'cvt']);

/** Whether an instruction zero- or sign-extends a 32-bit value to 64 bits. */
function widens(node: A.Instruction): boolean {
  if ((node.opcode === 'mul' || node.opcode === 'mad') && node.modifiers.includes('.wide')) return true;
  if (node.opcode === 'cvt') {
    const types = node.modifiers.filter((m) => /^\.[usb]\d+$/.test(m));
    return types.length === 2 && types[0]!.endsWith('64') && !types[1]!.endsWith('64');
  }
  return false;
}

const is32 = (node: A.Instruction): boolean => node.modifiers.some((m) => m === '.u32' || m === '.s32' || m === '.b32');

interface FactorKind {
  readonly param?: string;
  readonly thread?: string;
}

/** What a factor derives from: a kernel parameter, a thread/block index (through arithmetic, not loads). */
function factorKind(ctx: CheckContext, fn: FunctionModel, ins: number, e: A.Expression): FactorKind {
  const regs = registersIn(fn, e);
  if (regs.length === 0) {
    const sreg = e.kind === 'Name' ? fn.resolve(e) : undefined;
    return sreg?.kind === 'sreg' && /^%(tid|ctaid|laneid|warpid)/.test(sreg.name) ? { thread: sreg.name } : {};
  }
  const af = ctx.analysis.get(fn, affineAnalysis);
  const form = af.operand(ins, e);
  if (form !== undefined && isConstant(form)) return {};
  const slice = backwardSlice(ctx, fn, ins, regs, { limit: 256 });
  if (slice === undefined) return {};
  let param: string | undefined;
  let thread: string | undefined;
  for (const d of slice) {
    const node = fn.instructions[d]!.node;
    if (node.opcode === 'ld' && fn.isEntry && node.modifiers.some((m) => m === '.param' || m.startsWith('.param::'))) {
      const a = node.operands.find((o): o is A.AddressExpr => o.kind === 'Address');
      const base = a?.elements[0];
      const name = base?.kind === 'Name' ? base : base?.kind === 'Binary' && base.left.kind === 'Name' ? base.left : undefined;
      const sym = name === undefined ? undefined : fn.resolve(name);
      if (sym?.kind === 'variable' && sym.isParam) param ??= sym.name;
    }
    if (readsSreg(fn, node, ['%tid', '%ctaid', '%laneid', '%warpid'])) thread ??= `line ${node.range.line}`;
  }
  return { ...(param !== undefined ? { param } : {}), ...(thread !== undefined ? { thread } : {}) };
}

/** From the value `reg` written at `ins`: a path through narrow arithmetic to a widening, then to an address. */
function widenedIntoAddress(ctx: CheckContext, fn: FunctionModel, ins: number, reg: RegisterSymbol): number[] | undefined {
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const t = rd.table;
  interface Node { readonly ins: number; readonly reg: RegisterSymbol; readonly wide: boolean; readonly path: readonly number[] }
  const queue: Node[] = [{ ins, reg, wide: false, path: [ins] }];
  const seen = new Set<string>();
  let budget = 400;
  while (queue.length > 0 && budget-- > 0) {
    const cur = queue.shift()!;
    for (const u of rd.usesOf(cur.ins, cur.reg)) {
      const node = fn.instructions[u]!.node;
      const inAddress = node.operands.some((o) => o.kind === 'Address' && registersIn(fn, o).includes(cur.reg));
      if (inAddress) {
        if (cur.wide) return [...cur.path, u];
        continue;
      }
      let wide = cur.wide;
      if (!wide) {
        if (widens(node)) wide = true;
        else if (!NARROW_THROUGH.has(node.opcode) || !is32(node)) continue;
      } else if (!WIDE_THROUGH.has(node.opcode)) continue;
      for (let s = t.defStart[u]!; s < t.defStart[u + 1]!; s++) {
        const q = fn.registers[t.defReg[s]!]!;
        const key = `${u}:${q.id}:${wide ? 1 : 0}`;
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push({ ins: u, reg: q, wide, path: [...cur.path, u] });
      }
    }
  }
  return undefined;
}

export const F077: Check = {
  meta: {
    id: 'F077',
    name: 'index-overflow',
    category: 'data-flow',
    severity: 'low',
    points: 1,
    description: 'A 32-bit `mul.lo`/`mad.lo` product of a kernel parameter (`row * n`, `i * stride`) or of two thread-indexed values is '
      + 'widened to 64 bits only afterwards, to form an address: for large sizes the product wraps first.',
    rationale: 'With 32-bit arithmetic, `row * n + col` wraps once it passes 2^31 (signed) or 2^32: a 50 000 × 50 000 matrix already '
      + 'does. The wrapped index is then widened and addresses the wrong element, silently or with a fault.',
    remedy: 'Widen before multiplying: `mul.wide.s32 %rd, %r_row, %r_n` (CUDA: `(size_t)row * n`), or compute the index in 64 bits.',
    notes: 'Judged on every 32-bit `mul.lo`/`mad.lo`. A factor is parameter-derived when its value (followed back through arithmetic, not '
      + 'through loads) comes from `ld.param` of a kernel parameter, and thread-indexed when it comes from %tid, %ctaid, %laneid or '
      + '%warpid; a factor whose value is a known constant is neither. The product is judged when a factor is parameter-derived or both '
      + 'are thread-indexed, so `ctaid * ntid` (%ntid is neither) and `row * 16` are exempt, while `ctaid * ntid * stride` is not. It '
      + 'fails when the result, followed forward through 32-bit integer arithmetic, is widened (`cvt.u64.u32`/`cvt.s64.s32`, '
      + '`mul.wide`, `mad.wide`) and then reaches an address operand through 64-bit arithmetic. A 32-bit index of a shared-memory '
      + 'address (never widened) is not judged. The chain shows the product, the widening and the access.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .b32 %r<4>;\n'
        + '\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, %ctaid.x;\n\tmul.lo.s32 %r3, %r2, %r1;\n'
        + '\tmul.wide.s32 %rd2, %r3, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .b32 %r<5>;\n'
        + '\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, %ctaid.x;\n\tmul.lo.s32 %r4, %r2, 16;\n'
        + '\tmul.wide.s32 %rd2, %r2, %r1;\n\tshl.b64 %rd2, %rd2, 2;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r4;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      const cfg = ctx.analysis.cfg(fn);
      for (const ins of fn.instructions) {
        const node = ins.node;
        if ((node.opcode !== 'mul' && node.opcode !== 'mad') || !node.modifiers.includes('.lo') || !is32(node)) continue;
        if (!cfg.blocks[cfg.blockOf[ins.index]!]!.reachable) continue;
        const a = node.operands[1];
        const b = node.operands[2];
        const dest = registersIn(fn, node.operands[0]!)[0];
        if (a === undefined || b === undefined || dest === undefined) continue;
        judged++;
        const ka = factorKind(ctx, fn, ins.index, a);
        const kb = factorKind(ctx, fn, ins.index, b);
        const param = ka.param ?? kb.param;
        if (param === undefined && !(ka.thread !== undefined && kb.thread !== undefined)) continue;
        const path = widenedIntoAddress(ctx, fn, ins.index, dest);
        if (path === undefined) continue;
        const widen = path.find((p) => widens(fn.instructions[p]!.node));
        const access = path[path.length - 1]!;
        const why = param !== undefined ? `a factor comes from the kernel parameter ${param}` : 'both factors are thread-indexed';
        out.push({
          message: `32-bit ${mnemonic(node)} product (${why}) is widened only afterwards${widen === undefined ? '' : ` (${mnemonic(fn.instructions[widen]!.node)} at line ${fn.instructions[widen]!.node.range.line})`} to form the address of ${mnemonic(fn.instructions[access]!.node)} at line ${fn.instructions[access]!.node.range.line}: it wraps for large sizes`,
          ...at(ctx, fn, ins.index),
          chain: path.map((p) => stepAt(ctx, fn, p)),
        });
      }
    }
    if (judged === 0) return na('no 32-bit mul.lo/mad.lo');
    return found(out);
  },
};
