// Def/use of one instruction: the registers it writes and reads, from the ISA
// effects table; `call` return lists are writes, argument lists reads. The
// symbol model collects them (src/cfg/symbols.ts: a function's effect table,
// by register id); `effects` gives one instruction's as lists.
import type * as A from '../../parser/ast.js';
import { destinationRole } from '../../parser/isa/effects.js';
import { fixedRoleOf, OP_CALL } from '../opcodes.js';
import type { FlatInstruction, FunctionModel, RegisterSymbol } from '../symbols.js';

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

/** What an instruction's first operand is when it is not bracketed (an address is always a source) and, for
 *  `call`, when it is a return list: a source (0), a destination (1), a destination it also reads (2). The
 *  model decides the rest from the operand's kind, which it reads once as it resolves it. (`id`: its opcode's
 *  number, `opcodeId(node.opcode)`.) */
export function firstOperandRoleByOpcode(node: A.Instruction, id: number): 0 | 1 | 2 {
  const ops = node.operands;
  if (id === OP_CALL) return ops.length > 1 ? 1 : 0;
  if (ops.length === 0) return 0;
  return destinationRole(node.opcode, node.modifiers, fixedRoleOf(id));
}

/** Per function, the lists `effects` has made, by instruction (checks ask about a few instructions). */
const LISTS = new WeakMap<FunctionModel, (Effects | undefined)[]>();

/** Drops a function's computed lists (its part of the module has been checked). */
export function forgetEffects(fn: FunctionModel): void {
  LISTS.delete(fn);
}

/** Registers `ids[from, to)` as a list (the shared empty one when none). */
export function registerList(regs: readonly RegisterSymbol[], ids: Int32Array, from: number, to: number): readonly RegisterSymbol[] {
  if (from === to) return NO_REGISTERS;
  const out = new Array<RegisterSymbol>(to - from);
  for (let k = from; k < to; k++) out[k - from] = regs[ids[k]!]!;
  return out;
}

/** The registers an instruction writes and reads (guard included), as lists made from the function's effect
 *  table at the first request and kept until `forgetEffects`. */
export function effects(fn: FunctionModel, ins: FlatInstruction): Effects {
  let lists = LISTS.get(fn);
  if (lists === undefined) {
    lists = new Array<Effects | undefined>(fn.instructions.length);
    LISTS.set(fn, lists);
  }
  const i = ins.index;
  let e = lists[i];
  if (e === undefined) {
    const t = fn.effectTable;
    e = {
      defs: registerList(fn.registers, t.defIds, t.defStart[i]!, t.defStart[i + 1]!),
      uses: registerList(fn.registers, t.useIds, t.useStart[i]!, t.useStart[i + 1]!),
    };
    lists[i] = e;
  }
  return e;
}
