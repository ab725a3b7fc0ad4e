// Def/use of one instruction: the registers it writes and reads, from the ISA
// effects table; `call` return lists are writes, argument lists reads. The
// symbol model collects them (src/cfg/symbols.ts: a function's effect table,
// by register id); `effects` gives one instruction's as lists.
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
}

/** What an instruction's first operand is: a source (0), a destination (1), a destination it also reads (2). */
export function firstOperandRole(node: A.Instruction): 0 | 1 | 2 {
  const ops = node.operands;
  if (node.opcode === 'call') return ops[0]?.kind === 'List' && ops.length > 1 ? 1 : 0;
  if (ops.length === 0 || !writesFirstOperand(node.opcode, node.modifiers) || ops[0]!.kind === 'Address') return 0;
  return destinationIsRead(node.opcode, node.modifiers) ? 2 : 1;
}

/** Drops a function's computed effects (its part of the module has been checked). */
export function forgetEffects(fn: FunctionModel): void {
  for (const ins of fn.instructions) {
    const flat = ins as Flat;
    flat.defs = undefined;
    flat.uses = undefined;
  }
}

/** Registers `ids[from, to)` as a list (the shared empty one when none). */
function listOf(regs: readonly RegisterSymbol[], ids: Int32Array, from: number, to: number): readonly RegisterSymbol[] {
  if (from === to) return NO_REGISTERS;
  const out = new Array<RegisterSymbol>(to - from);
  for (let k = from; k < to; k++) out[k - from] = regs[ids[k]!]!;
  return out;
}

/** The registers an instruction writes and reads (guard included), from the function's effect table. Made
 *  once and kept on the model's instruction object, which is what is returned. */
export function effects(fn: FunctionModel, ins: FlatInstruction): Effects {
  // (The model's own object for that instruction: a caller may hold a copy.)
  const flat = fn.instructions[ins.index] as Flat;
  if (flat.defs !== undefined) return flat as Effects;
  const t = fn.effectTable;
  const i = ins.index;
  flat.uses = listOf(fn.registers, t.useIds, t.useStart[i]!, t.useStart[i + 1]!);
  flat.defs = listOf(fn.registers, t.defIds, t.defStart[i]!, t.defStart[i + 1]!);
  return flat as Effects;
}
