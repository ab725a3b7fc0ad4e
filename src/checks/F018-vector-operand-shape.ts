// F018: a .v2/.v4/.v8 access has the wrong number of braced registers,
// elements of mismatched types, or is wider than the target allows.
import type * as A from '../parser/ast.js';
import { TYPES } from '../parser/isa/type-rules.js';
import { moduleTarget } from './header.js';
import { operandAt, typedInstructions, vectorType, type TypedInstruction } from './operand-typing.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

/** Accesses that may be 256 bits wide (sm_100+, global or generic). */
const WIDE_OK = new Set(['ld', 'st', 'ld.global.nc']);
/** Accesses whose width is judged here; atom/red vector widths are F019's. */
const WIDTH_JUDGED = new Set(['ld', 'st', 'ld.global.nc', 'ldu']);

function movProblems(t: TypedInstruction, v: A.VectorExpr): string[] {
  const type = t.match.groups.get('type');
  const info = type === undefined ? undefined : TYPES.get(type);
  if (type === undefined || info === undefined) return [];
  const problems: string[] = [];
  if (info.cls !== 'bit') problems.push(`packing or unpacking with mov needs a bit type (.b${info.bits}), not ${type}`);
  const n = v.elements.length;
  if (n !== 2 && n !== 4) problems.push(`a mov vector has 2 or 4 elements, not ${n}`);
  const vt = vectorType(t.fn, v);
  if (vt.kind === 'conflict') problems.push(vt.message);
  else if (vt.kind === 'type' && (n === 2 || n === 4) && vt.info.bits * n !== info.bits) {
    problems.push(`${n} elements of ${vt.info.bits} bits do not make the ${info.bits} bits of ${type}`);
  }
  return problems;
}

function accessProblems(t: TypedInstruction, sm: number | undefined): { at: A.SourceRange; message: string }[] {
  const out: { at: A.SourceRange; message: string }[] = [];
  const op = t.match.spec.opcode;
  const vec = t.match.groups.get('vec');
  const lanes = vec === undefined ? undefined : Number(vec.slice(2));
  const type = t.match.groups.get('type');
  const what = `${t.ins.node.opcode}${t.ins.node.modifiers.join('')}`;
  for (const slot of t.slots) {
    if (slot.spec.type !== 'type' || !slot.spec.kinds.includes('vec')) continue;
    const e = operandAt(t, slot);
    const reg = e.kind === 'Name' ? t.fn.resolve(e) : undefined;
    const vreg = reg?.kind === 'register' && reg.vector !== undefined && e.kind === 'Name' && e.component === undefined ? reg.vector : undefined;
    if (vreg !== undefined) {
      // A `.reg .v4 .f32 %v` register moved as a whole.
      if (vec !== vreg) out.push({ at: e.range, message: `${what} ${vec === undefined ? 'has no vector modifier' : `is ${vec}`} but ${(e as A.NameExpr).name} is a ${vreg} register` });
      continue;
    }
    if (lanes !== undefined) {
      if (e.kind !== 'Vector') out.push({ at: e.range, message: `${what} needs a braced vector of ${lanes} registers for operand ${slot.spec.name}` });
      else if (e.elements.length !== lanes) out.push({ at: e.range, message: `${what} needs ${lanes} vector elements, not ${e.elements.length}` });
    } else if (e.kind === 'Vector' && e.elements.length !== 1) {
      // A one-element brace (`{ %r1 }`, Triton's output) is a scalar to ptxas.
      out.push({ at: e.range, message: `${what} has a braced vector of ${e.elements.length} without a .v${e.elements.length} modifier` });
    }
    if (e.kind === 'Vector') {
      const vt = vectorType(t.fn, e);
      if (vt.kind === 'conflict') out.push({ at: e.range, message: `${what}: ${vt.message}` });
    }
  }
  const bits = type === undefined ? undefined : TYPES.get(type)?.bits;
  if (lanes !== undefined && bits !== undefined && WIDTH_JUDGED.has(op)) {
    const total = lanes * bits;
    const at = t.ins.node.range;
    const space = t.match.groups.get('space');
    if (lanes === 8 && bits !== 32) out.push({ at, message: `${what}: .v8 takes only 32-bit element types` });
    else if (total > 256 || (total > 128 && bits > 64)) out.push({ at, message: `${what} is ${total} bits wide; vectors of ${type} may not exceed 128 bits` });
    else if (total > 128) {
      if (!WIDE_OK.has(op)) out.push({ at, message: `${what} is ${total} bits wide; ${op} accesses at most 128 bits` });
      else if (space !== undefined && space !== '.global') out.push({ at, message: `${what} is ${total} bits wide; 256-bit accesses must be .global (or generic), not ${space}` });
      else if (sm !== undefined && sm < 100) out.push({ at, message: `${what} is ${total} bits wide; 256-bit accesses need sm_100 or later (the module targets sm_${sm})` });
    }
  }
  return out;
}

export const F018: Check = {
  meta: {
    id: 'F018',
    name: 'vector-operand-shape',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'A `.v2/.v4/.v8` access has the wrong number of braced registers, mismatched element types, or exceeds the width the target allows.',
    rationale: 'ptxas rejects it ("Illegal vector size", "Argument vector size mismatch", "Incompatible elements of vector expression", "Vector type too large"); the usual cause is a vectorized access edited by hand with an element dropped or a register of another type swapped in.',
    remedy: 'Give exactly N registers of one type for `.vN`; keep vectors to 128 bits (256 bits only as `.v8` of 32-bit or `.v4` of 64-bit elements in `.global` memory on sm_100+); pack/unpack with `mov.bN` only into elements that add up to N bits.',
    notes: 'Judged for instructions with a `.vN` modifier in the ISA table (`ld`, `st`, `ldu`, `ld.global.nc`, `atom`, `red`, `multimem`, `st.async`) '
      + 'and for `mov` packing/unpacking. A `.vN` data operand must be a braced vector of exactly N elements, and a braced vector needs a `.vN`. '
      + 'Elements (sinks and literals aside) must share one size, and their non-bit types must agree, signed and unsigned integers of a size '
      + 'counting as one; this is how ptxas 13 types a vector, so `{%f1, %r2}` (`.f32`, `.b32`) is accepted and `{%f1, %u2}` is not. Width '
      + '(ld/st family only; vector atomics are F019\'s): at most 128 bits, or 256 bits as `.v8` of a 32-bit type or `.v4` of a 64-bit one, '
      + '`.global` or generic, on sm_100+ (ptxas rejects them elsewhere; `.v8` of 16-bit types even crashes ptxas 13.0). `mov.bN {..}, %r` '
      + 'needs a bit type, 2 or 4 elements, and element sizes adding up to N.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.v4.f32 {%f0, %f1, %f2}, [%rd1];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.v4.f32 {%f0, %f1, %f2, %f3}, [%rd1];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const sm = moduleTarget(ctx.module)?.sm;
    const out: Draft[] = [];
    for (const t of typedInstructions(ctx.analysis)) {
      if (t.slots.length === 0) continue;
      const op = t.match.spec.opcode;
      const at = (range: A.SourceRange): Draft['location'] => ctx.locate(range, t.fn, t.ins.index);
      if (op === 'mov' && !t.match.groups.has('vec')) {
        for (const slot of t.slots) {
          const e = operandAt(t, slot);
          if (e.kind !== 'Vector') continue;
          const problems = movProblems(t, e);
          if (problems.length > 0) out.push({ message: `mov${t.ins.node.modifiers.join('')}: ${problems.join('; ')}`, location: at(e.range), function: t.fn.name });
        }
        continue;
      }
      if (!t.match.spec.modifiers.some((g) => g.name === 'vec')) continue;
      for (const p of accessProblems(t, sm)) out.push({ message: p.message, location: at(p.at), function: t.fn.name });
    }
    return found(out);
  },
};
