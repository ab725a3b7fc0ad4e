// F007: an instruction's operands do not fit any operand form the ISA table
// gives for it (count, or the kind of an operand: register, immediate,
// address, vector, label ...).
import type { FunctionModel } from '../cfg/symbols.js';
import type { Expression } from '../parser/ast.js';
import { matchInstruction } from '../parser/isa/match.js';
import type { OperandKind, OperandSpec } from '../parser/isa/types.js';
import type { Check, Finding } from './types.js';
import { found, na, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

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

const describeForm = (form: readonly OperandSpec[]): string =>
  form.length === 0 ? '(no operands)' : form.map((s) => `${s.optional === true ? '[' : ''}${s.name}:${s.kinds.join('|')}${s.optional === true ? ']' : ''}`).join(', ');

const describeOperand = (e: Expression, fn: FunctionModel): string => {
  const s = shapeOf(e, fn);
  if (s === 'any') return 'an unknown name';
  if (e.kind === 'Address') return 'an address';
  if (e.kind === 'Vector') return `a vector of ${e.elements.length}`;
  if (e.kind === 'List') return 'a list';
  if (s.has('vec') && s.has('reg')) return 'a vector register';
  if (s.has('reg')) return 'a register';
  if (s.has('label')) return 'a label';
  if (s.has('sym')) return 'a symbol';
  return 'an immediate';
};

export const F007: Check = {
  meta: {
    id: 'F007',
    name: 'operand-shape',
    category: 'module',
    severity: 'high',
    points: 1,
    description: 'An instruction\'s operand count or operand kinds disagree with the ISA table (e.g. a store whose destination is not an address).',
    rationale: 'ptxas rejects an instruction with the wrong number or kind of operands ("Arguments mismatch for instruction"); a missing operand or a bracket left off an address is a common hand-editing slip.',
    remedy: 'Give the instruction the operands its PTX ISA syntax lists: a bracketed address where memory is accessed, braces for vector operands, registers where results go.',
    notes: 'The operands must fit one of the table\'s forms for the matched opcode, in order, optional trailing operands (cache policies, '
      + 'member masks, `|p` predicates) left out or given. Kinds are judged coarsely, because the table is a summary: any register '
      + '(data, predicate, special) fits a register or predicate position (types are F011/F014/F017/F020\'s); an immediate or constant '
      + 'expression an immediate position; a variable or function name (and `var+off`) a symbol or immediate position; `[..]` only an address '
      + 'position; `{..}` only a vector position; a label only a label or symbol position. An unresolved name fits anything (F005/F006 report it). '
      + 'Unknown opcodes are F009\'s. The finding is at the instruction and lists the forms the table accepts.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, 0;\n\tst.global.u32 %r2, %r1;\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 0;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Draft[] = [];
    let n = 0;
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const m = matchInstruction(ins.node);
        if (m === undefined) continue;
        n++;
        const ops = ins.node.operands;
        const shapes = ops.map((e) => shapeOf(e, fn));
        if (m.spec.forms.some((f) => fitsForm(ops, f, fn, shapes))) continue;
        const text = [ins.node.opcode, ...ins.node.modifiers].join('');
        const counts = [...new Set(m.spec.forms.map((f) => {
          const min = f.filter((s) => s.optional !== true).length;
          return min === f.length ? `${min}` : `${min}-${f.length}`;
        }))].join(' or ');
        const countOk = m.spec.forms.some((f) => ops.length <= f.length && ops.length >= f.filter((s) => s.optional !== true).length);
        const got = ops.map((e) => describeOperand(e, fn)).join(', ');
        out.push({
          message: countOk
            ? `${text}: operands (${got}) fit no form of ${m.spec.opcode}: ${m.spec.forms.map(describeForm).join(' | ')}`
            : `${text}: ${ops.length} operand${ops.length === 1 ? '' : 's'}, ${m.spec.opcode} takes ${counts}`,
          location: ctx.locate(ins.node.range, fn, ins.index),
          function: fn.name,
        });
      }
    }
    if (n === 0) return na('the module has no instructions the ISA table knows');
    return out.length === 0 ? pass() : found(out);
  },
};
