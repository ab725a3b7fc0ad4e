// Operand facts several checks share: which operands of a branch or call
// name its target, every name in an operand, and where a function is first
// declared (ptxas resolves names in file order).
import type { Expression, Initializer, Instruction, Module, NameExpr } from '../parser/ast.js';

type Target = { name: NameExpr; want: 'label' | 'function' | 'prototype' };
/** (Shared: asked of every instruction, most have none.) */
const NO_TARGETS: readonly Target[] = [];
const isName = (e: Expression | undefined): e is NameExpr => e !== undefined && e.kind === 'Name';

/** The operands of a branch or call that name a target, and what each must be. */
export function targetOperands(ins: Instruction): readonly Target[] {
  const ops = ins.operands;
  if (ins.opcode === 'bra') return isName(ops[0]) ? [{ name: ops[0], want: 'label' }] : NO_TARGETS;
  if (ins.opcode === 'brx' && ins.modifiers[0] === '.idx') return isName(ops[1]) ? [{ name: ops[1], want: 'label' }] : NO_TARGETS;
  if (ins.opcode !== 'call') return NO_TARGETS;
  // call [(ret),] func [, (args)] [, proto]: the first plain name is the callee;
  // a plain name after the argument list is the prototype (or target list) label.
  const out: Target[] = [];
  const calleeAt = ops.findIndex((e) => e.kind === 'Name');
  if (calleeAt < 0) return out;
  out.push({ name: ops[calleeAt] as NameExpr, want: 'function' });
  for (let i = calleeAt + 1; i < ops.length; i++) {
    const e = ops[i];
    if (isName(e)) out.push({ name: e, want: 'prototype' });
  }
  return out;
}

/** Every name in an operand expression, in order. */
export function namesIn(e: Expression, out: NameExpr[] = []): NameExpr[] {
  switch (e.kind) {
    case 'Name': out.push(e); break;
    case 'Unary': case 'Cast': namesIn(e.arg, out); break;
    case 'Binary': namesIn(e.left, out); namesIn(e.right, out); break;
    case 'Conditional': namesIn(e.test, out); namesIn(e.then, out); namesIn(e.otherwise, out); break;
    case 'Vector': case 'Address': case 'List': for (const x of e.elements) namesIn(x, out); break;
    case 'PredPair': namesIn(e.first, out); namesIn(e.second, out); break;
    default: break;
  }
  return out;
}

/** Every name a variable's initializer mentions (`{ f, g }`, `generic(smem)`, `smem+4`), into `out`. */
export function initializerNames(init: Initializer, out: Set<string>): void {
  switch (init.kind) {
    case 'InitList': for (const e of init.elements) initializerNames(e, out); return;
    case 'FieldInit': initializerNames(init.value, out); return;
    case 'Generic': out.add(init.name); return;
    default: for (const n of namesIn(init)) out.add(n.name);
  }
}

/** The offset of a function's first declaration (prototype or definition) in the module. */
export function firstDeclarationOffset(module: Module, name: string): number | undefined {
  for (const s of module.statements) if (s.kind === 'Function' && s.name === name) return s.range.offset;
  return undefined;
}
