// Def/use of one instruction: the registers it writes and reads, from the ISA
// effects table; `call` return lists are writes, argument lists reads.
import type * as A from '../../parser/ast.js';
import { destinationIsRead, writesFirstOperand } from '../../parser/isa/effects.js';
import type { Flat, FlatInstruction, FunctionModel, RegisterSymbol } from '../symbols.js';

export interface Effects {
  readonly defs: readonly RegisterSymbol[];
  readonly uses: readonly RegisterSymbol[];
}

/** Shared by every instruction with no defs (or no uses). Not frozen: a frozen array has a map of its own,
 *  and every loop over defs and uses would meet two kinds of array. */
const NO_REGISTERS: readonly RegisterSymbol[] = [];

/** Registers of one instruction as they are collected: `items[0, n)`. Reset by `n = 0`, not by
 *  `length = 0`, which drops the array's storage and has every instruction allocate it anew. */
export class Scratch {
  readonly items: RegisterSymbol[] = [];
  n = 0;
  add(r: RegisterSymbol): void {
    this.items[this.n++] = r;
  }
  /** The collected registers as an exact-size list. */
  take(): readonly RegisterSymbol[] {
    return this.n === 0 ? NO_REGISTERS : this.items.slice(0, this.n);
  }
  /** `first`, then the collected registers, as an exact-size list. */
  takeAfter(first: RegisterSymbol): readonly RegisterSymbol[] {
    const out = new Array<RegisterSymbol>(this.n + 1);
    out[0] = first;
    for (let i = 0; i < this.n; i++) out[i + 1] = this.items[i]!;
    return out;
  }
}

/** What an instruction's first operand is: a source (0), a destination (1), a destination it also reads (2). */
export function firstOperandRole(node: A.Instruction): 0 | 1 | 2 {
  const ops = node.operands;
  if (node.opcode === 'call') return ops[0]?.kind === 'List' && ops.length > 1 ? 1 : 0;
  if (ops.length === 0 || !writesFirstOperand(node.opcode, node.modifiers) || ops[0]!.kind === 'Address') return 0;
  return destinationIsRead(node.opcode, node.modifiers) ? 2 : 1;
}

function collect(fn: FunctionModel, e: A.Expression, out: Scratch): void {
  switch (e.kind) {
    case 'Name': {
      const s = fn.resolve(e);
      if (s?.kind === 'register') out.add(s);
      return;
    }
    case 'Unary': collect(fn, e.arg, out); return;
    case 'Binary': collect(fn, e.left, out); collect(fn, e.right, out); return;
    case 'Conditional': collect(fn, e.test, out); collect(fn, e.then, out); collect(fn, e.otherwise, out); return;
    case 'Cast': collect(fn, e.arg, out); return;
    case 'Vector': case 'Address': case 'List': for (const x of e.elements) collect(fn, x, out); return;
    case 'PredPair': collect(fn, e.first, out); collect(fn, e.second, out); return;
    default: return;
  }
}

/** Drops a function's computed effects (its part of the module has been checked). */
export function forgetEffects(fn: FunctionModel): void {
  for (const ins of fn.instructions) {
    const flat = ins as Flat;
    flat.defs = undefined;
    flat.uses = undefined;
  }
}

/** Scratch lists for one instruction's registers (copied to their exact size once collected). */
const DEFS = new Scratch();
const USES = new Scratch();

/** The registers an instruction writes and reads (guard included). Computed once and kept on the model's
 *  instruction object, which is what is returned. */
export function effects(fn: FunctionModel, ins: FlatInstruction): Effects {
  // (The model's own object for that instruction: a caller may hold a copy.)
  const flat = fn.instructions[ins.index] as Flat;
  if (flat.defs !== undefined) return flat as Effects;
  const node = ins.node;
  const defs = DEFS;
  const uses = USES;
  defs.n = 0;
  uses.n = 0;
  if (node.guard !== undefined) {
    const g = fn.resolveGuard(node.guard);
    if (g?.kind === 'register') uses.add(g);
  }
  const ops = node.operands;
  const role = firstOperandRole(node);
  if (role !== 0) {
    collect(fn, ops[0]!, defs);
    if (role === 2) collect(fn, ops[0]!, uses);
  }
  for (let i = role === 0 ? 0 : 1; i < ops.length; i++) collect(fn, ops[i]!, uses);
  // Kept lists are exact copies: a list grown by `push` from empty holds room for 17 entries, and a part
  // keeps two per instruction.
  flat.uses = uses.take();
  flat.defs = defs.take();
  return flat as Effects;
}
