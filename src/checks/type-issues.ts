// Operand type mismatches, each assigned to exactly one check so that the
// more specific one reports (CATALOG.md): F014 owns every operand of setp/set
// and selp's selector; F017 a predicate where data goes, or data where a
// predicate goes, anywhere else; F012 an ld/st data register narrower than the
// type; F013 integer arithmetic whose integer or bit operand has the wrong
// width; F011 everything else (a register or literal the type-compatibility
// rules reject). Special registers are F020's, vector shapes F018's.
import type { AnalysisContext } from '../cfg/context.js';
import type { FlatInstruction, FunctionModel } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { TYPES, typeCompatible, wideRegisterAllowed, type TypeInfo } from '../parser/isa/type-rules.js';
import {
  inSections, isIntOrBit, LOAD_STORE_OPCODES, MATRIX_SECTIONS, literalAllowed, literalKind, operandAt, registerUse, RELAXED_OPCODES, typedInstructions, vectorType,
  type Slot, type TypedInstruction,
} from './operand-typing.js';

export type TypeCheckId = 'F011' | 'F012' | 'F013' | 'F014' | 'F017';

export interface TypeIssue {
  readonly check: TypeCheckId;
  readonly fn: FunctionModel;
  readonly ins: FlatInstruction;
  /** Where the offending operand is. */
  readonly at: A.SourceRange;
  readonly message: string;
}

/** Sections of the integer-arithmetic (9.7.1, 9.7.2) and logic/shift (9.7.8) instructions. */
const INTEGER_SECTIONS = ['9.7.1.', '9.7.2.', '9.7.8.'];

const isCompare = (op: string): boolean => op === 'setp' || op === 'set';

/** ld/st of `.f16` memory types are F090's (ptxas has no such ld/st types). */
function f090Owns(t: TypedInstruction): boolean {
  const type = t.match.groups.get('type');
  return LOAD_STORE_OPCODES.has(t.match.spec.opcode) && (type === '.f16' || type === '.f16x2');
}

interface Operand {
  readonly name: string;
  readonly type: string;
  readonly info: TypeInfo;
  readonly at: A.SourceRange;
  /** A braced vector judged as a whole (ptxas's vector typing). */
  readonly vector: boolean;
}

function judge(t: TypedInstruction, slot: Slot, expected: string, o: Operand, out: TypeIssue[]): void {
  const e = TYPES.get(expected);
  if (e === undefined) return;
  const op = t.match.spec.opcode;
  const r = o.info;
  const push = (check: TypeCheckId, message: string): void => {
    out.push({ check, fn: t.fn, ins: t.ins, at: o.at, message });
  };
  const what = `${t.ins.node.opcode}${t.ins.node.modifiers.join('')}`;
  if (e.cls === 'pred' || r.cls === 'pred') {
    if (e.cls === r.cls) return;
    const owner: TypeCheckId = isCompare(op) || (op === 'selp' && slot.spec.type === '.pred') ? 'F014' : 'F017';
    push(owner, r.cls === 'pred'
      ? `predicate ${o.name} is used as the ${expected} operand ${slot.spec.name} of ${what}`
      : `${o.name} (${o.type}) is operand ${slot.spec.name} of ${what}, which must be a .pred register`);
    return;
  }
  if (isCompare(op)) {
    if (!typeCompatible(expected, o.type)) push('F014', `${o.name} (${o.type}) does not fit the comparison type ${expected} of ${what}`);
    return;
  }
  const relaxed = RELAXED_OPCODES.has(op) && slot.spec.type !== undefined && !slot.spec.type.startsWith('.');
  if (relaxed) {
    if (wideRegisterAllowed(expected, o.type)) return;
    // ptxas takes a braced vector of integer registers for a floating type of their size.
    if (o.vector && e.cls === 'float' && (r.cls === 'signed' || r.cls === 'unsigned') && r.bits === e.bits) return;
    if (r.bits < e.bits && LOAD_STORE_OPCODES.has(op)) {
      push('F012', `${o.name} (${o.type}, ${r.bits} bits) is narrower than the ${expected} ${slot.dest ? 'loaded' : 'stored'} by ${what}`);
      return;
    }
    push('F011', `${o.name} (${o.type}) does not fit the ${expected} operand ${slot.spec.name} of ${what}`);
    return;
  }
  if (typeCompatible(expected, o.type)) return;
  if (INTEGER_SECTIONS.some((s) => t.match.spec.section.startsWith(s)) && isIntOrBit(e) && isIntOrBit(r) && e.bits !== r.bits) {
    push('F013', `${o.name} is ${r.bits}-bit (${o.type}) but operand ${slot.spec.name} of ${what} is ${e.bits}-bit (${expected})`);
    return;
  }
  push('F011', `${o.name} (${o.type}) does not fit the ${expected} operand ${slot.spec.name} of ${what}`);
}

function judgeLiteral(t: TypedInstruction, slot: Slot, expected: string, e: A.Expression, out: TypeIssue[]): void {
  const kind = literalKind(e);
  if (kind === undefined || literalAllowed(expected, kind)) return;
  const op = t.match.spec.opcode;
  const check: TypeCheckId = isCompare(op) || (op === 'selp' && slot.spec.type === '.pred') ? 'F014'
    : expected === '.pred' ? 'F017' : 'F011';
  const what = kind === 'int' ? 'an integer literal' : 'a floating-point literal';
  out.push({
    check, fn: t.fn, ins: t.ins, at: e.range,
    message: `${what} is operand ${slot.spec.name} of ${t.ins.node.opcode}${t.ins.node.modifiers.join('')}, whose type is ${expected}`,
  });
}

function judgeExpr(t: TypedInstruction, slot: Slot, expected: string, e: A.Expression, out: TypeIssue[]): void {
  if (e.kind === 'Unary' && e.op === '!' && e.arg.kind === 'Name') {
    judgeExpr(t, slot, expected, e.arg, out);
    return;
  }
  if (e.kind === 'Name') {
    const u = registerUse(t.fn, e);
    if (u !== undefined) judge(t, slot, expected, { name: e.name, type: u.type, info: u.info, at: e.range, vector: false }, out);
    return;
  }
  judgeLiteral(t, slot, expected, e, out);
}

function instructionIssues(t: TypedInstruction, out: TypeIssue[]): void {
  if (t.slots.length === 0 || f090Owns(t) || inSections(t, MATRIX_SECTIONS)) return;
  const op = t.match.spec.opcode;
  const hasVec = t.match.spec.modifiers.some((g) => g.name === 'vec');
  for (const slot of t.slots) {
    const expected = slot.expected;
    if (expected === undefined) continue;
    const e = operandAt(t, slot);
    if (e.kind === 'PredPair') {
      judgeExpr(t, slot, expected, e.first, out);
      judgeExpr(t, slot, '.pred', e.second, out);
    } else if (e.kind === 'Vector') {
      if (op === 'mov') continue; // pack/unpack: F018 judges the element sizes
      if (RELAXED_OPCODES.has(op)) {
        const v = vectorType(t.fn, e);
        if (v.kind === 'type') judge(t, slot, expected, { name: 'the vector', type: v.type, info: v.info, at: e.range, vector: true }, out);
      } else if (hasVec) {
        // Vector atomics, multimem, st.async: each element is of the type. Other braced operands
        // (texture coordinates, surface data) follow rules of their own and are not judged.
        for (const x of e.elements) judgeExpr(t, slot, expected, x, out);
      }
    } else {
      judgeExpr(t, slot, expected, e, out);
    }
  }
}

const CACHE = new WeakMap<AnalysisContext, readonly TypeIssue[]>();

/** Every operand type mismatch in the module, each with the check that reports it. */
export function typeIssues(analysis: AnalysisContext): readonly TypeIssue[] {
  const hit = CACHE.get(analysis);
  if (hit !== undefined) return hit;
  const out: TypeIssue[] = [];
  for (const t of typedInstructions(analysis)) instructionIssues(t, out);
  CACHE.set(analysis, out);
  return out;
}
