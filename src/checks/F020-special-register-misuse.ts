// F020: a special register is written, read where ptxas does not take one,
// read at the wrong width or with a wrong component, or a name that reads as
// a special register is none.
import type { FlatInstruction, FunctionModel } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { writesFirstOperand } from '../parser/isa/effects.js';
import { SPECIAL_REGISTERS, type SregSpec } from '../parser/isa/sregs.js';
import { TYPES, typeCompatible, wideRegisterAllowed } from '../parser/isa/type-rules.js';
import { typedInstructions, type TypedInstruction } from './operand-typing.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

/** Instructions that may read a special register (ptxas: "Special register argument not allowed" elsewhere). */
const READERS = new Set(['mov', 'cvt']);
const COMPONENTS = new Set(['x', 'y', 'z', 'w']);
/** WARP_SZ is a constant, usable anywhere an immediate is. */
const CONSTANT = 'WARP_SZ';

const FAMILIES = SPECIAL_REGISTERS.filter((r) => r.count !== undefined);
const LOWER = new Map(SPECIAL_REGISTERS.map((r) => [r.name.toLowerCase(), r.name]));

/** Why an undeclared `%name` reads as a special register; undefined when it does not (then it is F006's). */
export function unknownSregReason(name: A.NameExpr): string | undefined {
  if (!name.name.startsWith('%')) return undefined;
  const m = /^(%[a-z_]+?)(\d+)(_64)?$/.exec(name.name);
  if (m !== null) {
    const family = FAMILIES.find((r) => r.name === m[1]! + (m[3] ?? ''));
    if (family !== undefined) return `${name.name} is past the last ${family.name} register (${family.name}0..${family.count! - 1})`;
  }
  const known = LOWER.get(name.name.toLowerCase());
  if (known !== undefined) return `${name.name} is not a special register (names are case-sensitive: ${known})`;
  if (name.component !== undefined) return `${name.name}.${name.component} is not a special register`;
  return undefined;
}

function componentProblem(spec: SregSpec, e: A.NameExpr): string | undefined {
  if (spec.vector && e.component === undefined) return `${e.name} has components; read ${e.name}.x, .y or .z`;
  if (spec.vector && !COMPONENTS.has(e.component!)) return `${e.name} has no component .${e.component}`;
  if (!spec.vector && e.component !== undefined) return `${e.name} has no components (.${e.component})`;
  return undefined;
}

/** Whether an instruction of this type may read the special register (mov: its width, or a legacy one; cvt: the relaxed rule). */
function widthProblem(t: TypedInstruction, spec: SregSpec, e: A.NameExpr): string | undefined {
  const op = t.match.spec.opcode;
  const type = t.match.groups.get(op === 'cvt' ? 'atype' : 'type');
  if (type === undefined) return undefined;
  const info = TYPES.get(type);
  if (info === undefined) return undefined;
  const ok = op === 'cvt'
    ? wideRegisterAllowed(type, spec.type)
    : typeCompatible(type, spec.type) || ((info.cls !== 'float' && info.cls !== 'pred') && (spec.alsoBits ?? []).includes(info.bits));
  return ok ? undefined : `${e.name}${e.component === undefined ? '' : `.${e.component}`} is ${spec.type}; ${t.ins.node.opcode}${t.ins.node.modifiers.join('')} cannot read it`;
}

function instructionProblems(fn: FunctionModel, ins: FlatInstruction, typed: TypedInstruction | undefined): { at: A.SourceRange; message: string }[] {
  const out: { at: A.SourceRange; message: string }[] = [];
  const node = ins.node;
  const writes = writesFirstOperand(node.opcode, node.modifiers);
  const op = typed?.match.spec.opcode ?? node.opcode;
  const visit = (e: A.Expression, position: number, scalar: boolean): void => {
    switch (e.kind) {
      case 'Name': {
        const sym = fn.resolve(e);
        if (sym === undefined || sym.kind !== 'sreg') return;
        const shown = e.component === undefined ? e.name : `${e.name}.${e.component}`;
        if (position === 0 && writes) {
          out.push({ at: e.range, message: `special register ${shown} is written by ${node.opcode}${node.modifiers.join('')}; special registers are read-only` });
          return;
        }
        if (e.name === CONSTANT) return;
        const comp = componentProblem(sym.spec, e);
        if (comp !== undefined) {
          out.push({ at: e.range, message: comp });
          return;
        }
        if (!READERS.has(op)) {
          out.push({ at: e.range, message: `special register ${shown} is an operand of ${node.opcode}${node.modifiers.join('')}; only mov and cvt read special registers` });
          return;
        }
        if (scalar && typed !== undefined) {
          const w = widthProblem(typed, sym.spec, e);
          if (w !== undefined) out.push({ at: e.range, message: w });
        }
        return;
      }
      case 'Unary': visit(e.arg, position, false); return;
      case 'Binary': visit(e.left, position, false); visit(e.right, position, false); return;
      case 'Vector': case 'Address': case 'List': for (const x of e.elements) visit(x, position, false); return;
      case 'PredPair': visit(e.first, position, false); visit(e.second, position, false); return;
      default: return;
    }
  };
  node.operands.forEach((e, i) => visit(e, i, true));
  return out;
}

/** Whether an operand names a special register anywhere (where `instructionProblems` looks). */
function namesSpecial(fn: FunctionModel, e: A.Expression): boolean {
  switch (e.kind) {
    case 'Name': return fn.resolve(e)?.kind === 'sreg';
    case 'Unary': return namesSpecial(fn, e.arg);
    case 'Binary': return namesSpecial(fn, e.left) || namesSpecial(fn, e.right);
    case 'Vector': case 'Address': case 'List':
      for (const x of e.elements) if (namesSpecial(fn, x)) return true;
      return false;
    case 'PredPair': return namesSpecial(fn, e.first) || namesSpecial(fn, e.second);
    default: return false;
  }
}

const anySpecial = (fn: FunctionModel, node: A.Instruction): boolean => {
  for (const e of node.operands) if (namesSpecial(fn, e)) return true;
  return false;
};

export const F020: Check = {
  meta: {
    id: 'F020',
    name: 'special-register-misuse',
    category: 'types',
    severity: 'high',
    points: 1,
    description: 'A special register is written, or an unknown special register is read.',
    rationale: 'Special registers (`%tid`, `%laneid`, `%clock64` ...) are read-only hardware state: ptxas rejects writing one ("Read-only special register cannot be destination argument"), reading one outside `mov`/`cvt`, at a width it does not have, or with a component it lacks; a misspelt one (`%envreg32`, `%laneid.x`) is rejected too.',
    remedy: 'Copy the special register into an ordinary register with `mov` (at its width: `.u32` for `%tid.x`, `.u64` for `%clock64`) and compute with or write that register instead.',
    notes: 'Judged: a special register as the destination of any instruction that writes its first operand (effects.ts); a special register read '
      + 'by an instruction other than `mov` or `cvt` (ptxas: "Special register argument not allowed"; the constant `WARP_SZ` is allowed anywhere); '
      + 'a vector special register without a component or with one other than `.x/.y/.z/.w`, a scalar one with a component; a `mov` whose type '
      + 'does not fit the register (ptxas 13 also takes the legacy 16-bit `mov.u16` of `%tid/%ntid/%ctaid/%nctaid` and any width of `%gridid`), '
      + 'or a `cvt` whose source type the register cannot widen or narrow to. An undeclared `%name` is an unknown special register here (and '
      + 'not F006\'s) when it carries a component (`%foo.x`), is past the end of a numbered family (`%envreg32`, `%pm8`), or matches a special '
      + 'register but for letter case; other undeclared names are F006\'s.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 0;\n\tmov.u32 %tid.x, %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const typed = new Map<FlatInstruction, TypedInstruction>();
    for (const t of typedInstructions(ctx.analysis)) typed.set(t.ins, t);
    const out: Draft[] = [];
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        // (Most instructions name no special register: judged without making anything for them.)
        if (!anySpecial(fn, ins.node)) continue;
        for (const p of instructionProblems(fn, ins, typed.get(ins))) {
          out.push({ message: p.message, location: ctx.locate(p.at, fn, ins.index), function: fn.name });
        }
      }
      for (const u of fn.unresolved) {
        const why = unknownSregReason(u.name);
        if (why !== undefined) out.push({ message: `unknown special register: ${why}`, location: ctx.locate(u.name.range, fn, u.instruction.index), function: fn.name });
      }
    }
    return found(out);
  },
};
