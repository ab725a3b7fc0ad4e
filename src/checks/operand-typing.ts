// Operand typing shared by the type checks (F011–F020): which operand form of
// its ISA table entry an instruction uses, what type each operand position
// expects, and what each register operand is declared as. Computed once per
// analysis and cached; the checks judge their own parts of it.
import type { AnalysisContext } from '../cfg/context.js';
import type { FlatInstruction, FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { writesFirstOperand } from '../parser/isa/effects.js';
import { matchInstruction, type InstructionMatch } from '../parser/isa/match.js';
import { TYPES, type TypeInfo } from '../parser/isa/type-rules.js';
import type { OperandSpec } from '../parser/isa/types.js';
import { fitsShape, shapeOf, type Shape } from './operand-shapes.js';

/** One operand position of an instruction, with the table's spec for it. Shared by every instruction of one
 *  match whose operands have the same shapes: the operand itself is `operandAt(t, slot)`. */
export interface Slot {
  readonly spec: OperandSpec;
  /** Index in the instruction's operand list. */
  readonly position: number;
  /** The type the position expects ('.u32'), when the spec names one the instruction chose. */
  readonly expected?: string;
  /** The instruction writes this operand. */
  readonly dest: boolean;
}

/** The operand of `t` in `slot`. */
export function operandAt(t: TypedInstruction, slot: Slot): A.Expression {
  return t.ins.node.operands[slot.position]!;
}

/** An instruction matched to the table, with its operands laid on one form. */
export interface TypedInstruction {
  readonly fn: FunctionModel;
  readonly ins: FlatInstruction;
  readonly match: InstructionMatch;
  /** The operands, laid on the chosen form; empty when no form fits (F007's finding). */
  readonly slots: readonly Slot[];
}

/** The type the chosen group names, or a literal type; undefined when unknown. */
function resolveType(spec: OperandSpec, match: InstructionMatch): string | undefined {
  if (spec.type === undefined) return undefined;
  if (spec.type.startsWith('.')) return spec.type;
  return match.groups.get(spec.type);
}

/** Doubles a type's width, keeping its class: `.s32` → `.s64` (the `.wide` results of mul/mad). */
export function doubled(type: string): string | undefined {
  const info = TYPES.get(type);
  if (info === undefined || (info.cls !== 'signed' && info.cls !== 'unsigned' && info.cls !== 'bit')) return undefined;
  const prefix = type.slice(0, 2);
  const wide = `${prefix}${info.bits * 2}`;
  return TYPES.has(wide) ? wide : undefined;
}

/** Per-opcode adjustments the table's forms do not spell: `.wide` doubles d (and mad's c). */
function adjust(match: InstructionMatch, spec: OperandSpec, expected: string | undefined): string | undefined {
  if (expected === undefined) return undefined;
  const op = match.spec.opcode;
  if ((op === 'mul' || op === 'mad') && match.groups.get('mode') === '.wide') {
    if (spec.name === 'd' || (op === 'mad' && spec.name === 'c')) return doubled(expected);
  }
  return expected;
}

/** Lays operands (of shapes `shapes`) on a form (optional positions may be skipped); undefined when they do not fit. */
function align(ops: readonly A.Expression[], shapes: readonly Shape[], form: readonly OperandSpec[], match: InstructionMatch): OperandSpec[] | undefined {
  const out: OperandSpec[] = [];
  return layFrom(ops, shapes, form, match.groups.has('hint'), out, 0, 0) ? out : undefined;
}

/** `align` from operand `i` and form position `j` (a function, not a closure made per instruction and form). */
function layFrom(ops: readonly A.Expression[], shapes: readonly Shape[], form: readonly OperandSpec[], hint: boolean, out: OperandSpec[], i: number, j: number): boolean {
  if (i === ops.length) {
    for (let k = j; k < form.length; k++) if (form[k]!.optional !== true) return false;
    return true;
  }
  if (j === form.length) return false;
  const s = form[j]!;
  // A cache-policy operand comes only with `.L2::cache_hint`.
  if ((s.name !== 'cache-policy' || hint) && fitsShape(ops[i]!, shapes[i]!, s)) {
    out.push(s);
    if (layFrom(ops, shapes, form, hint, out, i + 1, j + 1)) return true;
    out.pop();
  }
  return s.optional === true && layFrom(ops, shapes, form, hint, out, i, j + 1);
}

/** How many type groups a form refers to, or -1 when one of them is not among `chosen`. */
function chosenGroups(form: readonly OperandSpec[], chosen: ReadonlyMap<string, string>): number {
  let groups = 0;
  for (let i = 0; i < form.length; i++) {
    const t = form[i]!.type;
    if (t === undefined || t.startsWith('.')) continue;
    // (Counted at its first position, without a list: forms have a handful of operands.)
    let first = true;
    for (let j = 0; j < i && first; j++) if (form[j]!.type === t) first = false;
    if (!first) continue;
    if (!chosen.has(t)) return -1;
    groups++;
  }
  return groups;
}

/**
 * Picks the form: the operands must fit it, and every type group it names
 * must have been chosen by the instruction; among those, the one naming the
 * most groups (`add.f32.f16 d, a, c` is the mixed form), then the one filling
 * the fewest optional positions (`atom.cas d, [a], b, c` is not `atom d, [a],
 * b, policy`), first in table order.
 */
function chooseForm(ins: A.Instruction, shapes: readonly Shape[], match: InstructionMatch): OperandSpec[] | undefined {
  let best: { specs: OperandSpec[]; groups: number; optional: number } | undefined;
  for (const form of match.spec.forms) {
    const specs = align(ins.operands, shapes, form, match);
    if (specs === undefined) continue;
    const groups = chosenGroups(specs, match.groups);
    if (groups < 0) continue;
    let optional = 0;
    for (const s of specs) if (s.optional === true) optional++;
    if (best === undefined || groups > best.groups || (groups === best.groups && optional < best.optional)) {
      best = { specs, groups, optional };
    }
  }
  return best?.specs;
}

/** An instruction's operands laid on a form: a slot per position. The same for every instruction of one
 *  match whose operands have the same shapes. */
type Layout = readonly Slot[];

/** Numbers for shapes (a handful of shared sets; `any` is 0), for layout keys. */
const SHAPE_IDS = new WeakMap<ReadonlySet<string>, number>();
let shapeCount = 0;

/** The shapes of an instruction's operands as a key: a form fits operands by their shapes alone, and by
 *  whether each is a predicate pair (`fitsShape`). */
function shapesKey(ops: readonly A.Expression[], shapes: readonly Shape[]): string {
  let key = '';
  for (let i = 0; i < shapes.length; i++) {
    const s = shapes[i]!;
    let id = 0;
    if (s !== 'any') {
      id = SHAPE_IDS.get(s) ?? 0;
      if (id === 0) SHAPE_IDS.set(s, id = ++shapeCount);
    }
    key += ops[i]!.kind === 'PredPair' ? `p${id},` : `${id},`;
  }
  return key;
}

/** Layouts by match (matches are shared by instructions that spell the same opcode and modifiers), then by
 *  operand shapes: the form is chosen once per kind of instruction, not once per instruction. */
const LAYOUTS = new WeakMap<InstructionMatch, Map<string, Layout | null>>();

function layoutOf(ins: A.Instruction, match: InstructionMatch, fn: FunctionModel): Layout | undefined {
  const shapes = ins.operands.map((e) => shapeOf(e, fn));
  let byShapes = LAYOUTS.get(match);
  if (byShapes === undefined) LAYOUTS.set(match, byShapes = new Map());
  const key = shapesKey(ins.operands, shapes);
  let layout = byShapes.get(key);
  if (layout === undefined) {
    const specs = match.unknown.length === 0 && match.missing.length === 0 ? chooseForm(ins, shapes, match) : undefined;
    if (specs === undefined) layout = null;
    else {
      const writes = writesFirstOperand(ins.opcode, ins.modifiers);
      layout = specs.map((spec, position): Slot => {
        const expected = adjust(match, spec, resolveType(spec, match));
        const dest = position === 0 && writes;
        return expected === undefined ? { spec, position, dest } : { spec, position, expected, dest };
      });
    }
    byShapes.set(key, layout);
  }
  return layout ?? undefined;
}

function typeInstruction(fn: FunctionModel, ins: FlatInstruction): TypedInstruction | undefined {
  const match = matchInstruction(ins.node);
  if (match === undefined) return undefined;
  return { fn, ins, match, slots: layoutOf(ins.node, match, fn) ?? NO_SLOTS };
}

const NO_SLOTS: readonly Slot[] = [];

const CACHE = new WeakMap<AnalysisContext, readonly TypedInstruction[]>();

/** Every instruction of every function body that the table knows, typed; cached per analysis. */
export function typedInstructions(analysis: AnalysisContext): readonly TypedInstruction[] {
  const hit = CACHE.get(analysis);
  if (hit !== undefined) return hit;
  const out: TypedInstruction[] = [];
  for (const fn of analysis.functions) {
    for (const ins of fn.instructions) {
      const t = typeInstruction(fn, ins);
      if (t !== undefined) out.push(t);
    }
  }
  CACHE.set(analysis, out);
  return out;
}

/** A register operand: its symbol and the type of the value it holds (a vector register's element with `.x`). */
export interface RegisterUse {
  readonly symbol: RegisterSymbol;
  readonly type: string;
  readonly info: TypeInfo;
}

/** What a name denotes when it is a scalar register (or a component of a vector register) of a known type. */
export function registerUse(fn: FunctionModel, e: A.Expression): RegisterUse | undefined {
  if (e.kind !== 'Name' || e.name === '_') return undefined;
  const sym = fn.resolve(e);
  if (sym === undefined || sym.kind !== 'register') return undefined;
  if ((sym.vector === undefined) !== (e.component === undefined)) return undefined;
  const info = TYPES.get(sym.type);
  return info === undefined ? undefined : { symbol: sym, type: sym.type, info };
}

/** The literal an immediate operand is, when it is a plain literal (optionally negated). */
export function literalKind(e: A.Expression): 'int' | 'f32-bits' | 'f64' | undefined {
  if (e.kind === 'Int') return 'int';
  if (e.kind === 'Float') return e.form === 'f32-bits' ? 'f32-bits' : 'f64';
  if (e.kind === 'Unary' && (e.op === '-' || e.op === '+' || e.op === '~')) return literalKind(e.arg);
  return undefined;
}

/**
 * Whether ptxas takes a literal where `expected` is (measured with ptxas 13):
 * `.f32`/`.f64` take only floating literals; `.f16`/`.bf16` and their pairs
 * take no immediate; signed/unsigned and `.pred` take only integers; a bit
 * type takes integers and a floating literal of its own width (`0f` is 32
 * bits, `0d` and decimal literals 64).
 */
export function literalAllowed(expected: string, kind: 'int' | 'f32-bits' | 'f64'): boolean {
  const t = TYPES.get(expected);
  if (t === undefined) return true;
  switch (t.cls) {
    case 'float': return t.bits >= 32 ? kind !== 'int' : false;
    case 'packed': return false;
    case 'signed': case 'unsigned': case 'pred': return kind === 'int';
    case 'bit': return kind === 'int' || (kind === 'f32-bits' ? t.bits === 32 : t.bits === 64);
  }
}

/** The module's `.address_size`, when declared. */
export function addressSize(module: A.Module): number | undefined {
  for (const s of module.statements) if (s.kind === 'AddressSize') return s.size;
  return undefined;
}

/** Opcodes whose register operands may be wider than the instruction type
 *  (PTX ISA "Operand size exceeding instruction-type size"; ptxas also applies it to ldu, ld.global.nc
 *  and the surface loads/stores: `suld.b.1d.b8` into a `.b16` register). */
export const RELAXED_OPCODES: ReadonlySet<string> = new Set(['ld', 'ldu', 'ld.global.nc', 'st', 'cvt', 'suld', 'sust']);

/** Memory opcodes whose data operand F012 judges for width. */
export const LOAD_STORE_OPCODES: ReadonlySet<string> = new Set(['ld', 'ldu', 'ld.global.nc', 'st']);

/** Matrix sections (warp-level matrix 9.7.14, wgmma 9.7.15, tcgen05 9.7.16): their operand types name the
 *  elements packed into fragment registers (`.f16` pairs in `.b32`), or descriptors, not register types. */
export const MATRIX_SECTIONS: readonly string[] = ['9.7.14.', '9.7.15.', '9.7.16.'];

export const inSections = (t: TypedInstruction, sections: readonly string[]): boolean => sections.some((s) => t.match.spec.section.startsWith(s));

export const isIntOrBit = (t: TypeInfo): boolean => t.cls === 'bit' || t.cls === 'signed' || t.cls === 'unsigned';

/** The type a braced vector of registers has as a whole, as ptxas forms it. */
export type VectorType =
  | { readonly kind: 'type'; readonly type: string; readonly info: TypeInfo }
  | { readonly kind: 'conflict'; readonly message: string }
  | { readonly kind: 'unknown' };

/**
 * ptxas (13.0, measured) types a braced vector from its register elements:
 * all must have one size ("Incompatible elements of vector expression"); the
 * non-bit elements must agree, signed and unsigned integers of a size counting
 * as one ("Vector with elements of different types"); the vector then has the
 * bit type of that size when any element is a bit type, else the common type.
 * Sinks (`_`) and immediates do not take part.
 */
export function vectorType(fn: FunctionModel, v: A.VectorExpr): VectorType {
  const uses: RegisterUse[] = [];
  for (const e of v.elements) {
    if (e.kind === 'Name' && e.name === '_') continue;
    if (literalKind(e) !== undefined) continue;
    const u = registerUse(fn, e);
    if (u === undefined) return { kind: 'unknown' };
    uses.push(u);
  }
  if (uses.length === 0) return { kind: 'unknown' };
  const first = uses[0]!;
  const odd = uses.find((u) => u.info.bits !== first.info.bits);
  if (odd !== undefined) {
    return { kind: 'conflict', message: `vector elements have different sizes (${first.symbol.name} is ${first.type}, ${odd.symbol.name} is ${odd.type})` };
  }
  const typed = uses.filter((u) => u.info.cls !== 'bit');
  const group = (u: RegisterUse): string => (u.info.cls === 'signed' || u.info.cls === 'unsigned' ? 'int' : u.type);
  const clash = typed.find((u) => group(u) !== group(typed[0]!));
  if (clash !== undefined) {
    return { kind: 'conflict', message: `vector elements have different types (${typed[0]!.symbol.name} is ${typed[0]!.type}, ${clash.symbol.name} is ${clash.type})` };
  }
  const bit = uses.find((u) => u.info.cls === 'bit');
  const pick = bit ?? first;
  return { kind: 'type', type: pick.type, info: pick.info };
}
