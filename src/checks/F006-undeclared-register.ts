// F006: a register (or other operand name) is used but declared in no
// enclosing scope, or only after the use.
import type { FunctionModel, Scope, SymbolRef } from '../cfg/symbols.js';
import type { Module, NameExpr } from '../parser/ast.js';
import { firstDeclarationOffset, namesIn, targetOperands } from './operands.js';
import type { Check, Finding } from './types.js';
import { found, na, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

/** Where the declaration a use resolved to starts, when it must precede the use (ptxas: "Unknown symbol"). */
function declarationOffset(sym: SymbolRef, module: Module): number | undefined {
  switch (sym.kind) {
    case 'register': return sym.isParam ? undefined : sym.decl.range.offset;
    case 'variable': return sym.isParam ? undefined : sym.decl.range.offset;
    case 'function': return firstDeclarationOffset(module, sym.name);
    default: return undefined; // labels may be referenced before they are defined
  }
}

/**
 * ptxas reads the index of a `%r<N>` register by value, so `%r01` is declared
 * by `%r<2>` (the symbol model only knows the canonical spelling `%r1`).
 */
function declaredWithLeadingZeros(name: string, scope: Scope | undefined): boolean {
  const m = /^(.*?\D)(0\d+)$/.exec(name);
  if (m === null) return false;
  const index = Number(m[2]);
  for (let s = scope; s !== undefined; s = s.parent) {
    const range = s.ranges.get(m[1]!);
    if (range !== undefined && index < range.count) return true;
  }
  return false;
}

function checkFunction(fn: FunctionModel, module: Module, locate: (n: NameExpr, index: number) => Draft['location'], out: Draft[]): void {
  const targets = new Set<NameExpr>();
  for (const ins of fn.instructions) for (const t of targetOperands(ins.node)) targets.add(t.name);
  for (const u of fn.unresolved) {
    if (targets.has(u.name) || declaredWithLeadingZeros(u.name.name, u.instruction.scope)) continue;
    const isGuard = u.instruction.node.guard !== undefined && u.instruction.node.guard.range === u.name.range;
    out.push({
      message: isGuard
        ? `guard predicate ${u.name.name} is not declared in an enclosing scope`
        : `${u.name.name} is not declared in an enclosing scope`,
      location: locate(u.name, u.instruction.index),
      function: fn.name,
    });
  }
  const names: NameExpr[] = [];
  for (const ins of fn.instructions) {
    // (One list for every instruction: this runs over every operand of the module.)
    names.length = 0;
    for (const e of ins.node.operands) namesIn(e, names);
    for (const n of names) {
      if (targets.has(n)) continue;
      const sym = fn.resolve(n);
      const at = sym === undefined ? undefined : declarationOffset(sym, module);
      if (at !== undefined && at > n.range.offset) {
        out.push({ message: `${n.name} is used before its declaration (ptxas needs the declaration first)`, location: locate(n, ins.index), function: fn.name });
      }
    }
    const g = ins.node.guard;
    const gsym = g === undefined ? undefined : fn.resolveGuard(g);
    const gat = gsym === undefined ? undefined : declarationOffset(gsym, module);
    if (g !== undefined && gat !== undefined && gat > g.range.offset) {
      out.push({ message: `guard predicate ${g.predicate} is used before its declaration`, location: locate({ kind: 'Name', name: g.predicate, range: g.range }, ins.index), function: fn.name });
    }
  }
}

export const F006: Check = {
  meta: {
    id: 'F006',
    name: 'undeclared-register',
    category: 'module',
    severity: 'high',
    points: 1,
    description: 'A register is used but not declared in an enclosing scope (`%r<N>` declares `%r0`..`%r(N-1)`; `{ }` blocks open scopes), or is declared only after its use.',
    rationale: 'ptxas rejects an undeclared name ("Unknown symbol"); a register declared only inside a sibling `{ }` block, numbered past its `%r<N>` range, or declared below its first use is a common slip when editing generated PTX by hand.',
    remedy: 'Declare the register (`.reg .b32 %r<N>;` with N larger than the highest index used) in the function or an enclosing block, before its first use.',
    notes: 'Every name in an instruction operand or guard that resolves to no declaration (register, variable, parameter, function, '
      + 'label, special register) fails this check, except branch and call targets, which are F005\'s. A declaration is visible in its '
      + 'block and nested blocks, and must come before the use in the file (ptxas: "Unknown symbol"), for registers, variables and '
      + 'functions alike; only labels may be referenced ahead. `%r<N>` covers `%r0`..`%r(N-1)`, read by value as ptxas does (`%r01` is covered by `%r<2>`, `%r02` is not). The finding is at the name.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r2, 0;\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r2, 0;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Draft[] = [];
    for (const fn of ctx.functions) checkFunction(fn, ctx.module, (n, index) => ctx.locate(n.range, fn, index), out);
    out.sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column);
    return out.length === 0 ? pass() : found(out);
  },
};
