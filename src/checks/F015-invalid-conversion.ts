// F015: a cvt rounding/saturation modifier is missing where required or
// present where forbidden, or a cvta's size is not the module's address size.
import { conversionRule } from '../parser/isa/conversions.js';
import { addressSize, typedInstructions } from './operand-typing.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** What is wrong with a cvt's modifiers, given its types; empty when nothing is. */
export function conversionProblems(dtype: string, atype: string, groups: ReadonlyMap<string, string>): string[] {
  const rule = conversionRule(dtype, atype);
  if (rule === undefined) return [];
  const problems: string[] = [];
  const rnd = groups.get('rnd');
  const list = (xs: readonly string[]): string => xs.join('/');
  if (rnd === undefined) {
    if (rule.roundingRequired) problems.push(`a ${rule.kind} conversion needs a rounding modifier (${list(rule.rounding)})`);
  } else if (!rule.rounding.includes(rnd)) {
    problems.push(rule.rounding.length === 0
      ? `a ${rule.kind} conversion takes no rounding modifier, but ${rnd} is given`
      : `a ${rule.kind} conversion takes ${list(rule.rounding)}, not ${rnd}`);
  }
  if (groups.has('sat') && rule.sat === false) problems.push(`.sat does not apply to a ${rule.kind} conversion ${dtype}${atype === dtype ? '' : ` from ${atype}`}`);
  if (groups.has('ftz') && rule.ftz === false) problems.push(`.ftz applies only when .f32 is the source or destination type`);
  if (rule.satfiniteRequired === true && !groups.has('satfinite')) problems.push(`a conversion to ${dtype} needs .satfinite`);
  return problems;
}

export const F015: Check = {
  meta: {
    id: 'F015',
    name: 'invalid-conversion',
    category: 'types',
    severity: 'high',
    points: 1,
    description: 'A `cvt` rounding/saturation modifier is missing where required or present where forbidden (e.g. `cvt.rn.f32.f16` widening takes none; float→int needs `.rni/.rzi/.rmi/.rpi`), or `cvta` size disagrees with the address size.',
    rationale: 'ptxas rejects it ("Rounding modifier required", "Illegal rounding modifier", "Illegal modifier \'.sat\'"); the rounding of a conversion decides its result, so a missing or misplaced mode means the author\'s intent is unclear, and a 32-bit `cvta` in a 64-bit module truncates addresses.',
    remedy: 'Float→integer: `.rzi` for C truncation (or `.rni/.rmi/.rpi`); integer→float and narrowing float: `.rn` (or `.rz/.rm/.rp`); widening float and integer→integer conversions: no rounding; `.sat` on integer conversions only where the destination cannot hold the source range. Use `cvta.u64` in a 64-bit module.',
    notes: 'The rules per type pair are in `src/parser/isa/conversions.ts`, measured with ptxas 13: integer→integer takes no rounding and `.sat` only '
      + 'when the destination range does not contain the source range (`cvt.sat.s32.u32` yes, `cvt.sat.s64.s32` no); float→integer needs an '
      + 'integer rounding; integer→float and narrowing float need a float rounding (`.rna` only for `.tf32`); a float to the same type may take an '
      + 'integer rounding but no float rounding; widening float takes none, except that ptxas also accepts an optional float rounding when `.bf16` '
      + 'is either side (`cvt.rn.f32.bf16`, `cvt.bf16.f16`); `.sat` is illegal with `.bf16`; `.ftz` needs `.f32` on one side; FP8 destinations '
      + 'need `.rn.satfinite`. FP4/FP6/UE8M0 and `.x4` conversions are not judged. `cvta` must be `.u64` in a 64-bit module; a module without '
      + '`.address_size` is judged as 64-bit, as ptxas 13 assembles it. In a module declaring `.address_size 32` the cvta size is not judged: '
      + 'CUDA 13 has no 32-bit addressing, and F003 reports the directive itself. All problems of one instruction make one finding.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<2>;\n\tmov.f32 %f1, 0f3F800000;\n\tcvt.s32.f32 %r1, %f1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .f32 %f<2>;\n\tmov.f32 %f1, 0f3F800000;\n\tcvt.rzi.s32.f32 %r1, %f1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const size = addressSize(ctx.module) ?? 64;
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const t of typedInstructions(ctx.analysis)) {
      const op = t.match.spec.opcode;
      const node = t.ins.node;
      // Located only when reported: most instructions are not.
      const where = () => ({ location: ctx.locate(node.range, t.fn, t.ins.index), function: t.fn.name });
      if (op === 'cvt') {
        const dtype = t.match.groups.get('dtype');
        const atype = t.match.groups.get('atype');
        if (dtype === undefined || atype === undefined) continue;
        const problems = conversionProblems(dtype, atype, t.match.groups);
        if (problems.length > 0) out.push({ message: `cvt${node.modifiers.join('')}: ${problems.join('; ')}`, ...where() });
      } else if (op === 'cvta' && size === 64) {
        if (t.match.groups.get('type') === '.u32') {
          out.push({ message: `cvta${node.modifiers.join('')} converts 32-bit addresses in a 64-bit module (use .u64)`, ...where() });
        }
      }
    }
    return found(out);
  },
};
