// F007: an instruction's operands do not fit any operand form the ISA table
// gives for it (count, or the kind of an operand: register, immediate,
// address, vector, label ...).
import type { FunctionModel } from '../cfg/symbols.js';
import type { Expression } from '../parser/ast.js';
import type { OperandSpec } from '../parser/isa/types.js';
import { typedInstructions } from './operand-typing.js';
import { fitsForm, shapeOf } from './operand-shapes.js';
import type { Check, Finding } from './types.js';
import { found, na, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

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
    // The instructions the table knows, as the operand typing laid them on a form: one it laid on a form fits
    // it (the typing's rule is F007's and stricter), so only the others are tried against every form.
    for (const { fn, ins, match: m, slots } of typedInstructions(ctx.analysis)) {
      n++;
      if (slots.length > 0) continue;
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
    if (n === 0) return na('the module has no instructions the ISA table knows');
    return out.length === 0 ? pass() : found(out);
  },
};
