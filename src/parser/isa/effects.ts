// Which instructions write their first operand: the data behind def/use
// facts. By default an instruction's first operand is its destination; these
// tables list the exceptions, keyed by opcode and, where it decides, a modifier.

/** Opcodes that never write a register operand. */
export const NO_DESTINATION: ReadonlySet<string> = new Set([
  'st', 'stmatrix', 'red', 'sust', 'sured', 'bra', 'brx', 'ret', 'exit', 'trap', 'brkpt',
  'prefetch', 'prefetchu', 'fence', 'membar', 'cp', 'nanosleep', 'pmevent', 'griddepcontrol',
  'setmaxnreg', 'discard', 'applypriority', 'tensormap', 'stackrestore', 'st.async', 'red.async',
]);

/** Opcodes with a destination only when one of these modifiers is present. */
export const DESTINATION_WHEN: ReadonlyMap<string, readonly string[]> = new Map([
  ['bar', ['.red']],
  ['barrier', ['.red']],
  ['wgmma', ['.mma_async']],
  ['tcgen05', ['.ld']],
  ['multimem', ['.ld_reduce']],
  ['clusterlaunchcontrol', ['.query_cancel']],
]);

/** Opcodes without a destination when one of these modifiers is present. */
export const NO_DESTINATION_WHEN: ReadonlyMap<string, readonly string[]> = new Map([
  ['mbarrier', ['.init', '.inval', '.expect_tx', '.complete_tx']],
]);

/** Instructions whose destination is also read (accumulate in place). */
export const DESTINATION_IS_READ: ReadonlyMap<string, readonly string[]> = new Map([
  ['wgmma', ['.mma_async']],
]);

/** Whether `modifiers` has one of `wanted`. (Loops, not `some` with a closure: a closure over a local
 *  makes the function allocate a context on every call, and the model asks once per instruction.) */
function hasAny(modifiers: readonly string[], wanted: readonly string[]): boolean {
  for (let i = 0; i < modifiers.length; i++) if (wanted.includes(modifiers[i]!)) return true;
  return false;
}

/** Whether an instruction writes its first operand. */
export function writesFirstOperand(opcode: string, modifiers: readonly string[]): boolean {
  if (NO_DESTINATION.has(opcode)) return false;
  const when = DESTINATION_WHEN.get(opcode);
  if (when !== undefined) return hasAny(modifiers, when);
  const unless = NO_DESTINATION_WHEN.get(opcode);
  if (unless !== undefined && hasAny(modifiers, unless)) return false;
  return opcode !== 'call';
}

export function destinationIsRead(opcode: string, modifiers: readonly string[]): boolean {
  const when = DESTINATION_IS_READ.get(opcode);
  return when !== undefined && hasAny(modifiers, when);
}

const NO_MODIFIERS: readonly string[] = [];

/** An opcode's first operand's role when its modifiers do not decide it (0: no destination, 1: a
 *  destination, 2: a destination also read), or -1 when they do (see `destinationRole`). */
export function fixedDestinationRole(opcode: string): number {
  if (DESTINATION_WHEN.has(opcode) || NO_DESTINATION_WHEN.has(opcode) || DESTINATION_IS_READ.has(opcode)) return -1;
  return writesFirstOperand(opcode, NO_MODIFIERS) ? 1 : 0;
}

/** What an instruction's first operand is, by opcode and modifiers alone: 0 when it writes none, 1 when it
 *  writes it, 2 when it also reads it (`writesFirstOperand` and `destinationIsRead` in one answer). `fixed`:
 *  the opcode's `fixedDestinationRole`, which the caller keeps per opcode. */
export function destinationRole(opcode: string, modifiers: readonly string[], fixed: number): 0 | 1 | 2 {
  if (fixed >= 0) return fixed as 0 | 1;
  if (!writesFirstOperand(opcode, modifiers)) return 0;
  return destinationIsRead(opcode, modifiers) ? 2 : 1;
}
