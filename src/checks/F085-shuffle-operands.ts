// F085: a `shfl.sync` constant lane/offset is ≥ 32, or its `c` operand is
// wrong for the mode and width.
import type * as A from '../parser/ast.js';
import { affineAnalysis, isConstant } from '../cfg/dataflow/affine.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { at, intValue, mnemonic } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** The constant value of an operand: an immediate, or a register whose affine form is constant there. */
function constantOf(ctx: CheckContext, fn: FunctionModel, ins: number, e: A.Expression | undefined): number | undefined {
  const v = intValue(e);
  if (v !== undefined) return Number(BigInt.asUintN(32, v));
  if (e === undefined || e.kind !== 'Name') return undefined;
  const form = ctx.analysis.get(fn, affineAnalysis).operand(ins, e);
  return form !== undefined && isConstant(form) ? form.c >>> 0 : undefined;
}

/** Legal `c[12:8]` values: 32 − width for a power-of-two width. */
const SEGMENT_MASKS = new Set([0, 16, 24, 28, 30, 31]);

export const F085: Check = {
  meta: {
    id: 'F085',
    name: 'shuffle-operands',
    category: 'known-patterns',
    severity: 'medium',
    points: 1,
    description: 'A `shfl` whose constant lane/offset is 32 or more, or whose constant `c` operand does not fit its mode: the clamp '
      + '`c[4:0]` must be 0 for `.up` and non-zero for `.down`/`.bfly`/`.idx`, and the segment mask `c[12:8]` must be 32 − width for a '
      + 'power-of-two width.',
    rationale: 'Only the low 5 bits of the lane/offset are used, so an offset of 32 silently shuffles by 0. A wrong `c` changes which '
      + 'lanes count as in range: `.up` with a clamp of 31 makes every lane read its own value, `.down` with a clamp of 0 likewise, so '
      + 'a reduction or scan returns its input. CUDA C always encodes `c` correctly; hand-written and generated inline PTX does not.',
    remedy: 'Use offsets below 32, and `c = ((32 - width) << 8) | 0x1f` for `.down`/`.bfly`/`.idx`, `c = (32 - width) << 8` for `.up`.',
    notes: 'Judged on `shfl.sync` (and the deprecated `shfl` without `.sync`, whose operands are the same). Operand b (lane or offset) and '
      + 'c are judged when they are constants: immediates, or registers whose value the affine analysis proves constant. b ≥ 32 '
      + 'fails; for c, `c[4:0]` must be 0 with `.up` and non-zero otherwise, and `c[12:8]` must be one of 0, 16, 24, 28, 30, 31 '
      + '(widths 32, 16, 8, 4, 2, 1). Non-constant operands are not judged.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %laneid;\n'
        + '\tshfl.sync.up.b32 %r2, %r1, 1, 0x1f, 0xffffffff;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %laneid;\n'
        + '\tshfl.sync.up.b32 %r2, %r1, 1, 0, 0xffffffff;\n\tshfl.sync.down.b32 %r2, %r1, 16, 0x1f, 0xffffffff;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const node = ins.node;
        if (node.opcode !== 'shfl') continue;
        const mode = node.modifiers.find((m) => m === '.up' || m === '.down' || m === '.bfly' || m === '.idx');
        if (mode === undefined) continue;
        judged++;
        const problems: string[] = [];
        const b = constantOf(ctx, fn, ins.index, node.operands[2]);
        if (b !== undefined && b >= 32) problems.push(`the ${mode === '.idx' ? 'lane' : 'offset'} ${b} is not below 32 (only its low 5 bits count: ${b & 31})`);
        const c = constantOf(ctx, fn, ins.index, node.operands[3]);
        if (c !== undefined) {
          const clamp = c & 0x1f;
          const seg = (c >>> 8) & 0x1f;
          if (mode === '.up' && clamp !== 0) problems.push(`c = 0x${c.toString(16)}: its clamp c[4:0] = ${clamp} must be 0 for .up (every lane would read its own value)`);
          if (mode !== '.up' && clamp === 0) problems.push(`c = 0x${c.toString(16)}: its clamp c[4:0] must be non-zero for ${mode} (0x1f for a full warp)`);
          if (!SEGMENT_MASKS.has(seg)) problems.push(`c = 0x${c.toString(16)}: its segment mask c[12:8] = ${seg} is not 32 − width for a power-of-two width`);
        }
        if (problems.length > 0) out.push({ message: `${mnemonic(node)}: ${problems.join('; ')}`, ...at(ctx, fn, ins.index) });
      }
    }
    if (judged === 0) return na('no shfl');
    return found(out);
  },
};
