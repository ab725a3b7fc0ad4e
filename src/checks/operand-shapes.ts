// Operand shapes: which operand kinds (register, immediate, address, vector,
// label ...) an operand expression can fill, and whether operands fit an
// operand form of the ISA table. F007 judges them; the operand typing lays
// operands on the form they fit.
import type { FunctionModel } from '../cfg/symbols.js';
import type { Expression } from '../parser/ast.js';
import type { OperandKind, OperandSpec } from '../parser/isa/types.js';

/** What an operand expression can stand for; `any` when it cannot be told (an unresolved name: F006's). */
export type Shape = ReadonlySet<OperandKind> | 'any';

const set = (...k: OperandKind[]): ReadonlySet<OperandKind> => new Set(k);
// Registers: ptxas's operand classes do not distinguish a predicate from a data
// register, nor a special register, by position (F011/F014/F017/F020 judge types).
const REGISTER = set('reg', 'pred', 'sreg', 'func', 'sink');
const IMMEDIATE = set('imm');
const SYMBOL = set('sym', 'imm', 'func');
// (Made once: shapes are asked for every operand of every instruction, several times.)
const SINK = set('sink', 'reg', 'pred');
const VECTOR_REGISTER = set('reg', 'vec');
const SPECIAL = set('sreg', 'reg', 'imm');
const LABEL = set('label', 'sym');
const FUNCTION = set('func', 'sym', 'imm');
const NEGATED = set('pred', 'reg');
const VECTOR = set('vec');
const ADDRESS = set('addr');
const LIST = set('list');

/** The operand kinds an expression can fill. */
export function shapeOf(e: Expression, fn: FunctionModel): Shape {
  switch (e.kind) {
    case 'Name': {
      if (e.name === '_') return SINK;
      const sym = fn.resolve(e);
      if (sym === undefined) return 'any';
      switch (sym.kind) {
        case 'register': return sym.vector !== undefined ? VECTOR_REGISTER : REGISTER;
        // WARP_SZ is a constant; special registers read like registers.
        case 'sreg': return SPECIAL;
        case 'variable': return SYMBOL;
        case 'label': return LABEL;
        case 'function': return FUNCTION;
      }
      return 'any';
    }
    case 'Int': case 'Float': return IMMEDIATE;
    case 'Unary': {
      const inner = shapeOf(e.arg, fn);
      if (e.op === '!') return inner === 'any' ? 'any' : inner.has('imm') && !inner.has('reg') ? IMMEDIATE : NEGATED;
      return inner;
    }
    case 'Binary': case 'Conditional': case 'Cast': case 'Generic': {
      // Constant expressions; one naming a variable is an address constant (`smem+16`).
      const leaves: Shape[] = [];
      const visit = (x: Expression): void => {
        if (x.kind === 'Binary') { visit(x.left); visit(x.right); }
        else if (x.kind === 'Conditional') { visit(x.test); visit(x.then); visit(x.otherwise); }
        else if (x.kind === 'Cast') visit(x.arg);
        else leaves.push(shapeOf(x, fn));
      };
      if (e.kind === 'Generic') return SYMBOL;
      visit(e);
      if (leaves.some((l) => l === 'any')) return 'any';
      if (leaves.every((l) => l !== 'any' && l.has('imm') && !l.has('sym'))) return IMMEDIATE;
      if (leaves.every((l) => l !== 'any' && l.has('imm'))) return SYMBOL;
      return 'any';
    }
    case 'Vector': return VECTOR;
    case 'Address': return ADDRESS;
    case 'List': return e.elements.length === 1 ? union(LIST, shapeOf(e.elements[0]!, fn)) : LIST;
    case 'PredPair': return shapeOf(e.first, fn);
    case 'SectionRef': return 'any';
  }
}

function union(a: ReadonlySet<OperandKind>, b: Shape): Shape {
  return b === 'any' ? 'any' : new Set([...a, ...b]);
}

/** Whether an operand of shape `shape` fits a position. */
export function fitsShape(e: Expression, shape: Shape, spec: OperandSpec): boolean {
  if (e.kind === 'PredPair' && spec.pairedWith === undefined) return false;
  if (shape === 'any') return true;
  for (const k of spec.kinds) if (shape.has(k)) return true;
  return false;
}

/** Whether operands (of shapes `shapes`) fit a form from its position `j`: in order, skipping optional positions. */
function fitsFrom(ops: readonly Expression[], shapes: readonly Shape[], form: readonly OperandSpec[], i: number, j: number): boolean {
  if (i === ops.length) {
    for (let k = j; k < form.length; k++) if (form[k]!.optional !== true) return false;
    return true;
  }
  if (j === form.length) return false;
  const s = form[j]!;
  if (fitsShape(ops[i]!, shapes[i]!, s) && fitsFrom(ops, shapes, form, i + 1, j + 1)) return true;
  return s.optional === true && fitsFrom(ops, shapes, form, i, j + 1);
}

/** Whether operands fit a form: in order, skipping optional positions. `shapes`: theirs, when known. */
export function fitsForm(ops: readonly Expression[], form: readonly OperandSpec[], fn: FunctionModel, shapes: readonly Shape[] = ops.map((e) => shapeOf(e, fn))): boolean {
  return fitsFrom(ops, shapes, form, 0, 0);
}
