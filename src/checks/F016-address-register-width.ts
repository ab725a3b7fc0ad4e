// F016: a 32-bit (or narrower) register is the address of a .global or
// generic access in a 64-bit module, or an address register is not an
// integer at all.
import type * as A from '../parser/ast.js';
import type { InstructionMatch } from '../parser/isa/match.js';
import { addressSize, operandAt, registerUse, typedInstructions, type TypedInstruction } from './operand-typing.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** The register an address is based on: `[%rd1]`, `[%rd1+16]`, `[%rd1+-4]`. */
function baseName(a: A.AddressExpr): A.NameExpr | undefined {
  if (a.elements.length !== 1) return undefined;
  const e = a.elements[0]!;
  if (e.kind === 'Name') return e;
  if (e.kind === 'Binary' && (e.op === '+' || e.op === '-') && e.left.kind === 'Name') return e.left;
  return undefined;
}

/** Table groups that name the state space of an address operand: its own (cp.async's `dst`/`src`) or the instruction's. */
const SPACE_GROUPS = ['space', 'dst', 'src'];

/**
 * The state space of an address operand: its own group's value (cp.async's
 * `dst`/`src`), else the instruction's `.space`; undefined (generic) when the
 * opcode takes an optional space and none is given, or takes none at all;
 * 'unknown' for an operand no group speaks for (cp.async.bulk's mbarrier).
 */
function spaceOf(match: InstructionMatch, operand: string): string | undefined | 'unknown' {
  const names = new Set(match.spec.modifiers.map((g) => g.name));
  if (SPACE_GROUPS.includes(operand) && names.has(operand)) return match.groups.get(operand) ?? 'unknown';
  if (names.has('space')) return match.groups.get('space');
  return SPACE_GROUPS.some((g) => names.has(g)) ? 'unknown' : undefined;
}

/** Texture and surface operands are handles, not addresses; tcgen05 addresses are tensor-memory ones (32-bit). */
const HANDLE_SECTIONS = ['9.7.10.', '9.7.11.', '9.7.16.'];

const isHandleSection = (section: string): boolean => {
  for (const s of HANDLE_SECTIONS) if (section.startsWith(s)) return true;
  return false;
};
const spelled = (t: TypedInstruction): string => `${t.ins.node.opcode}${t.ins.node.modifiers.join('')}`;
const where = (ctx: CheckContext, t: TypedInstruction, base: A.NameExpr): Pick<Finding, 'location' | 'function'> =>
  ({ location: ctx.locate(base.range, t.fn, t.ins.index), function: t.fn.name });

export const F016: Check = {
  meta: {
    id: 'F016',
    name: 'address-register-width',
    category: 'types',
    severity: 'high',
    points: 1,
    description: 'A 32-bit register is the address of a `.global` or generic access in a 64-bit module.',
    rationale: 'Global and generic addresses are 64-bit in a 64-bit module: ptxas 13 rejects a 32-bit one ("32-Bit ABI ... is not supported") and merely warns about a 16-bit one, which would then be zero-extended into a wrong address. A truncated pointer usually comes from a `cvt.u32.u64` or a 32-bit parameter load.',
    remedy: 'Keep addresses in 64-bit registers (`.b64`/`.u64`): load pointer parameters with `ld.param.u64`, widen offsets with `mul.wide`/`cvt.u64.u32` before adding them to a base.',
    notes: 'Judged: every bracketed address `[reg]`, `[reg+imm]` of an instruction whose state space for that operand (the `.space` modifier, or '
      + 'cp.async\'s `dst`/`src` ones) is `.global` or absent (generic), in a module whose `.address_size` is 64 or absent (ptxas 13 assembles '
      + 'only 64-bit code); the base register must be 64 bits wide. ptxas 13 accepts a 16-bit base with a warning, and a 32-bit '
      + '`.global` source of `cp.async` silently (both zero-extended); they are flagged too, as truncated pointers. '
      + '`.shared`, `.local`, `.const` and `.param` addresses may be 32-bit. In any state space, a floating-point or predicate register as an '
      + 'address is flagged (ptxas: "Illegal to use symbol of type .f32 as address operand"). Texture/surface handles and tensor-map operands '
      + '(`[tmap, {..}]`) are not addresses and are skipped.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u32 p)\n{\n\t.reg .b32 %r<3>;\n\tld.param.u32 %r1, [p];\n\tld.global.u32 %r2, [%r1];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.u32 %r2, [%rd1];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const size = addressSize(ctx.module) ?? 64;
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const t of typedInstructions(ctx.analysis)) {
      if (isHandleSection(t.match.spec.section)) continue;
      for (const slot of t.slots) {
        const e = operandAt(t, slot);
        if (e.kind !== 'Address') continue;
        const base = baseName(e);
        if (base === undefined) continue;
        const use = registerUse(t.fn, base);
        if (use === undefined) continue;
        // (Located and named only when reported: this runs for every address operand.)
        if (use.info.cls === 'float' || use.info.cls === 'pred' || use.info.cls === 'packed') {
          out.push({ message: `${base.name} (${use.type}) is the address of ${spelled(t)}; addresses must be integer or bit registers`, ...where(ctx, t, base) });
          continue;
        }
        const space = spaceOf(t.match, slot.spec.name);
        if (space === 'unknown' || (space !== undefined && space !== '.global')) continue;
        if (size === 64 && use.info.bits < 64) {
          out.push({
            message: `${base.name} is a ${use.info.bits}-bit register (${use.type}) used as the ${space === undefined ? 'generic' : '.global'} address of ${spelled(t)} in a 64-bit module`,
            ...where(ctx, t, base),
          });
        }
      }
    }
    return found(out);
  },
};
