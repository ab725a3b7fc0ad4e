// Opcodes by number. The symbol model gives each instruction its opcode's number
// (`EffectTable.opcode`), so that an analysis that dispatches on the opcode
// reads a typed list rather than the instruction's syntax node: on a large
// module the first read of a node by each analysis is a cache miss, and for
// most instructions the opcode is all an analysis like the CFG builder reads.
import { fixedDestinationRole } from '../parser/isa/effects.js';

/** The number of every opcode past the first 65,535 distinct ones (only a garbled module names so many):
 *  its name is the syntax node's. */
export const OTHER_OPCODE = 0xffff;

const IDS = new Map<string, number>();
const NAMES: string[] = [];
/** Per number: the opcode's `fixedDestinationRole`. */
let ROLES = new Int8Array(64);

/** The number of an opcode (the same in every module this thread reads; numbers are not facts). */
export function opcodeId(name: string): number {
  const id = IDS.get(name);
  return id === undefined ? register(name) : id;
}

function register(name: string): number {
  if (NAMES.length >= OTHER_OPCODE) return OTHER_OPCODE;
  const id = NAMES.length;
  NAMES.push(name);
  IDS.set(name, id);
  if (ROLES.length <= id) {
    const bigger = new Int8Array(2 * ROLES.length);
    bigger.set(ROLES);
    ROLES = bigger;
  }
  ROLES[id] = fixedDestinationRole(name);
  return id;
}

/** How many opcodes have a number (OTHER_OPCODE aside): every number is below it. */
export function opcodeCount(): number {
  return NAMES.length;
}

/** The opcode numbered `id`; undefined for OTHER_OPCODE. */
export function opcodeName(id: number): string | undefined {
  return NAMES[id];
}

/** The opcode's first operand's role when its modifiers do not decide it, else -1 (OTHER_OPCODE: -1). */
export function fixedRoleOf(id: number): number {
  return id === OTHER_OPCODE ? -1 : ROLES[id]!;
}

/** Opcodes the analyses test for. */
export const OP_BRA = opcodeId('bra');
export const OP_BRX = opcodeId('brx');
export const OP_RET = opcodeId('ret');
export const OP_EXIT = opcodeId('exit');
export const OP_TRAP = opcodeId('trap');
export const OP_CALL = opcodeId('call');
