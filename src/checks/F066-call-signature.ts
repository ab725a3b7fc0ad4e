// F066: a `call` disagrees with the callee's declaration in argument/return
// count or types.
import type * as A from '../parser/ast.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { typeBytes } from '../cfg/symbols.js';
import { at } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

/** What one formal parameter or argument is: bytes, array or scalar, alignment; undefined when unknown. */
interface Shape {
  readonly bytes: number | undefined;
  readonly array: boolean;
  readonly align: number | undefined;
  /** An unsized array (`[]`): takes any size. */
  readonly open: boolean;
  readonly text: string;
}

function declShape(decl: A.VariableDecl, d: A.Declarator): Shape {
  let type = '';
  let align: number | undefined;
  let lanes = 1;
  for (const q of decl.qualifiers) {
    if (q.name === '.align') align = Number(q.args[0]);
    else if (q.name === '.v2' || q.name === '.v4' || q.name === '.v8') lanes = Number(q.name.slice(2));
    else if (typeBytes(q.name) !== undefined) type = q.name;
  }
  const elem = typeBytes(type);
  const open = d.dims.some((x) => x === null);
  let bytes = elem === undefined ? undefined : elem * lanes;
  for (const dim of d.dims) bytes = bytes === undefined || dim === null || dim.kind !== 'Int' ? undefined : bytes * Number(dim.value);
  const text = `${decl.qualifiers.map((q) => (q.args.length > 0 ? `${q.name} ${q.args.join(',')}` : q.name)).join(' ')} ${d.name}${d.dims.map((x) => (x === null ? '[]' : x.kind === 'Int' ? `[${x.value}]` : '[?]')).join('')}`;
  return { bytes, array: d.dims.length > 0, align: align ?? (d.dims.length > 0 ? elem : undefined), open, text: text.trim() };
}

function formals(decls: readonly A.VariableDecl[] | null): Shape[] {
  return (decls ?? []).flatMap((decl) => decl.declarators.map((d) => declShape(decl, d)));
}

/** The shape of one argument: a `.param` variable, a register, or an immediate (undefined: anything goes). */
function argShape(fn: FunctionModel, e: A.Expression): Shape | undefined {
  if (e.kind !== 'Name') return undefined;
  const s = fn.resolve(e);
  if (s?.kind === 'variable') return declShape(s.decl, s.declarator);
  if (s?.kind === 'register') {
    const lanes = s.vector === undefined ? 1 : Number(s.vector.slice(2));
    const b = typeBytes(s.type);
    return { bytes: b === undefined ? undefined : b * lanes, array: false, align: undefined, open: false, text: `${s.type} register ${s.name}` };
  }
  return undefined;
}

/** Why an argument does not fit its formal parameter, or undefined. */
function mismatch(arg: Shape, formal: Shape): string | undefined {
  if (formal.open) return undefined;
  if (arg.array !== formal.array && arg.bytes !== undefined && formal.bytes !== undefined) return `${arg.array ? 'an array' : 'a scalar'} is passed for ${formal.array ? 'an array' : 'a scalar'}`;
  if (arg.bytes !== undefined && formal.bytes !== undefined && arg.bytes !== formal.bytes) return `${arg.bytes} bytes are passed for ${formal.bytes}`;
  if (arg.array && formal.array && arg.align !== undefined && formal.align !== undefined && arg.align !== formal.align) return `alignment ${arg.align} is passed for ${formal.align}`;
  return undefined;
}

/** One part's: how many functions with bodies it has, how many calls it judged, its findings. */
interface Summary {
  readonly functions: number;
  readonly calls: number;
  readonly findings: Omit<Finding, 'id' | 'severity'>[];
}

export const F066: Check = {
  meta: {
    id: 'F066',
    name: 'call-signature',
    category: 'control-flow',
    severity: 'high',
    points: 1,
    description: 'A `call` passes a different number of arguments or return values than the callee (or the `.callprototype`) declares, '
      + 'or one of a different size, array shape or alignment.',
    rationale: 'ptxas rejects such calls ("Call has wrong number of parameters", "Type of argument does not match formal parameter", '
      + '"Alignment of argument does not match"); a hand-edited call or a prototype that drifted from its definition is the usual cause.',
    remedy: 'Make the call\'s argument and return lists match the callee\'s declaration: same count, and for each `.param` the same size, '
      + 'the same scalar-or-array shape and, for arrays, the same `.align`.',
    notes: 'ptxas 13 decides by size, not by type name: `.b32`, `.u32`, `.s32` and `.f32` arguments are interchangeable, so only sizes '
      + 'are compared. A `.param` argument and its formal must agree in byte size and in being an array or a scalar, and two arrays '
      + 'also in alignment (declared `.align`, else the element size); a register argument must have the formal\'s size; an immediate '
      + 'fits anything; an unsized last formal (`[]`, variadic) takes any size. A direct call is judged against the callee\'s '
      + 'declaration, an indirect one against its `.callprototype`. A callee that resolves to no function is F005\'s (undefined '
      + 'target), not reported again here. Compilers do emit it: llc 14 passes two arguments to a one-parameter `.func` for a call '
      + 'through a bitcast of the callee (fixtures/checks/F066/fails/arg-count-bitcast.ll), which ptxas then rejects.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.func f(.param .b32 a, .param .b32 b)\n{\n\tret;\n}\n.visible .entry k()\n{\n'
        + '\t{\n\t.param .b32 p0;\n\tst.param.b32 [p0], 1;\n\tcall.uni f, (p0);\n\t}\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.func f(.param .b32 a, .param .b32 b)\n{\n\tret;\n}\n.visible .entry k()\n{\n'
        + '\t{\n\t.param .b32 p0;\n\t.param .f32 p1;\n\tst.param.b32 [p0], 1;\n\tst.param.f32 [p1], 0f3F800000;\n\tcall.uni f, (p0, p1);\n\t}\n\tret;\n}\n',
    },
  },
  split: {
    part(ctx): Summary {
      const { calls, findings } = callProblems(ctx);
      return { functions: ctx.functions.length, calls, findings };
    },
    join(_ctx, parts: readonly Summary[]) {
      if (parts.every((p) => p.functions === 0)) return na('the module has no function bodies');
      if (parts.every((p) => p.calls === 0)) return na('no call to a declared function or prototype');
      return found(parts.flatMap((p) => p.findings));
    },
  },
  run: (ctx) => runWhole(F066.split!, ctx),
};

/** The calls of `ctx.functions` to a declared function or prototype (a part's tree declares every function),
 *  and those that disagree with the declaration. */
function callProblems(ctx: CheckContext): { calls: number; findings: Omit<Finding, 'id' | 'severity'>[] } {
  const out: Omit<Finding, 'id' | 'severity'>[] = [];
  let calls = 0;
  for (const fn of ctx.functions) {
    for (const ins of fn.instructions) {
      const node = ins.node;
      if (node.opcode !== 'call') continue;
      const ops = node.operands;
      let k = 0;
      let rets: readonly A.Expression[] = [];
      if (ops[0]?.kind === 'List' && ops.length > 1) { rets = ops[0].elements; k = 1; }
      const callee = ops[k];
      if (callee?.kind !== 'Name') continue;
      const args: readonly A.Expression[] = ops[k + 1]?.kind === 'List' ? (ops[k + 1] as A.ListExpr).elements : [];
      const sym = fn.resolve(callee);
      let decl: { readonly returns: readonly A.VariableDecl[] | null; readonly params: readonly A.VariableDecl[] } | undefined;
      let name = callee.name;
      if (sym?.kind === 'function') decl = ctx.analysis.model.functionsByName.get(sym.name)?.decl;
      else if (sym?.kind === 'register' || sym?.kind === 'variable') {
        const last = ops[ops.length - 1];
        const proto = last?.kind === 'Name' ? fn.resolve(last) : undefined;
        if (proto?.kind === 'label' && proto.directive?.kind === 'CallPrototype') {
          decl = proto.directive;
          name = `the .callprototype ${proto.name}`;
        }
      }
      if (decl === undefined) continue;
      calls++;
      const problems: string[] = [];
      const check = (what: string, actual: readonly A.Expression[], declared: Shape[]): void => {
        const open = declared.length > 0 && declared[declared.length - 1]!.open;
        if (actual.length !== declared.length && !(open && actual.length >= declared.length - 1)) {
          problems.push(`${actual.length} ${what}${actual.length === 1 ? '' : 's'} for ${declared.length} declared`);
          return;
        }
        actual.forEach((a, i) => {
          const formal = declared[i];
          const shape = argShape(fn, a);
          if (formal === undefined || shape === undefined) return;
          const why = mismatch(shape, formal);
          if (why !== undefined) problems.push(`${what} ${i + 1} (${a.kind === 'Name' ? a.name : '?'}): ${why} (${formal.text})`);
        });
      };
      check('return value', rets, formals(decl.returns));
      check('argument', args, formals(decl.params));
      if (problems.length > 0) out.push({ message: `call to ${name} disagrees with its declaration: ${problems.join('; ')}`, ...at(ctx, fn, ins.index) });
    }
  }
  return { calls, findings: out };
}
