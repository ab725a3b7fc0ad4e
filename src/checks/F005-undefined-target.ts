// F005: a branch or call target names no label or function in scope.
import type { FunctionModel } from '../cfg/symbols.js';
import type { Block, Statement } from '../parser/ast.js';
import { firstDeclarationOffset, targetOperands } from './operands.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

function checkInstructionTargets(ctx: CheckContext, fn: FunctionModel, out: Draft[]): number {
  let n = 0;
  for (const ins of fn.instructions) {
    for (const t of targetOperands(ins.node)) {
      n++;
      const sym = fn.resolve(t.name);
      // Located and named only when reported.
      const loc = () => ctx.locate(t.name.range, fn, ins.index);
      const what = () => `${ins.node.opcode}${ins.node.modifiers.join('')}`;
      if (sym === undefined) {
        const kind = t.want === 'function' ? 'function' : t.want === 'prototype' ? 'label (.callprototype/.calltargets)' : 'label';
        out.push({ message: `${what()} target ${t.name.name} is not a ${kind} defined in an enclosing block or the module`, location: loc(), function: fn.name });
        continue;
      }
      if (sym.kind === 'function' && t.want === 'function') {
        const declared = firstDeclarationOffset(ctx.module, sym.name);
        if (declared !== undefined && declared > t.name.range.offset) {
          out.push({ message: `${what()} target ${t.name.name} is declared only after the call (ptxas needs a prototype first)`, location: loc(), function: fn.name });
          continue;
        }
      }
      const ok = t.want === 'label' ? sym.kind === 'label'
        // An indirect call goes through a register (or a variable holding the address).
        : t.want === 'function' ? sym.kind === 'function' || sym.kind === 'register' || sym.kind === 'variable'
          : sym.kind === 'label';
      if (!ok) {
        out.push({ message: `${what()} target ${t.name.name} names a ${sym.kind}, not a ${t.want === 'function' ? 'function' : 'label'}`, location: loc(), function: fn.name });
      }
    }
  }
  return n;
}

/** `.branchtargets` entries must be labels of enclosing blocks; `.calltargets` entries functions of the module. */
function checkTargetLists(ctx: CheckContext, fn: FunctionModel, out: Draft[]): number {
  let n = 0;
  const functions = ctx.analysis.model.functionsByName;
  const visit = (block: Block, outer: readonly ReadonlySet<string>[]): void => {
    const here = new Set(block.statements.filter((s): s is Extract<Statement, { kind: 'Label' }> => s.kind === 'Label').map((s) => s.name));
    const scopes = [...outer, here];
    for (const s of block.statements) {
      if (s.kind === 'Block') visit(s, scopes);
      else if (s.kind === 'BranchTargets' || s.kind === 'CallTargets') {
        for (const name of s.names) {
          n++;
          const declared = s.kind === 'CallTargets' ? firstDeclarationOffset(ctx.module, name) : undefined;
          const ok = s.kind === 'BranchTargets' ? scopes.some((sc) => sc.has(name)) : functions.has(name) && declared !== undefined && declared < s.range.offset;
          if (!ok) {
            out.push({
              message: s.kind === 'BranchTargets'
                ? `.branchtargets entry ${name} is not a label defined in an enclosing block`
                : `.calltargets entry ${name} is not a function declared before it in the module`,
              location: ctx.locate(s.range), function: fn.name,
            });
          }
        }
      }
    }
  };
  if (fn.decl.body !== null) visit(fn.decl.body, []);
  return n;
}

export const F005: Check = {
  meta: {
    id: 'F005',
    name: 'undefined-target',
    category: 'module',
    severity: 'high',
    points: 1,
    description: 'A `bra`/`brx.idx`/`call` target, or a `.branchtargets`/`.calltargets` entry, resolves to no label or function in the enclosing block scopes or the module.',
    rationale: 'ptxas rejects a branch to an unknown label or a call to an undeclared function; a label in a sibling `{ }` block is out of scope even though it exists in the function.',
    remedy: 'Define the label in the branch\'s block or an enclosing one, or declare the function (a prototype `.extern .func f(...)` is enough for a call).',
    notes: 'A `bra`/`brx.idx` target must resolve to a label; a `call` callee to a function, or to a register or variable (an indirect call); '
      + 'a name after a call\'s argument list to a label (its `.callprototype` or `.calltargets`). Labels are visible in their whole block '
      + 'and nested blocks, not in sibling or enclosing blocks. A callee or `.calltargets` entry must be declared earlier in the file '
      + '(a prototype suffices): ptxas resolves functions in file order ("Unknown symbol", "Call target not recognized"). '
      + 'Undeclared registers and variables elsewhere are F006\'s.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\tbra.uni DONE;\nDONE2:\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\tbra.uni DONE;\nDONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Draft[] = [];
    let n = 0;
    for (const fn of ctx.functions) n += checkInstructionTargets(ctx, fn, out) + checkTargetLists(ctx, fn, out);
    if (n === 0) return na('no branches, calls or target lists');
    return out.length === 0 ? pass() : found(out);
  },
};
