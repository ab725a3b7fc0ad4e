// What each operand of a function's body is, as a number per operand (`EffectTable.operandKind`), recorded by
// the model's walk, which reads every operand's `kind` once anyway. The analyses that dispatch on operands
// read this number instead of the syntax node: an operand's `kind` is a property of a dozen node shapes, so
// each read of it is a megamorphic load (a stub-cache lookup), and for most operands (a register's name) the
// number and the operand table's register say all they need, without touching the node.

/** A name that denotes a register (its id is the operand table's `operandRegister`). */
export const OK_REGISTER = 1;
/** A name that denotes a variable (any state space). */
export const OK_VARIABLE = 2;
/** A name that denotes a special register (`%tid.x`, `WARP_SZ`). */
export const OK_SREG = 3;
/** Any other name: a label, a function, `_`, or a name nothing declares. */
export const OK_OTHER_NAME = 4;
export const OK_INT = 5;
export const OK_FLOAT = 6;
/** `[...]`. */
export const OK_ADDRESS = 7;
/** `{...}`. */
export const OK_VECTOR = 8;
export const OK_LIST = 9;
export const OK_PRED_PAIR = 10;
export const OK_BINARY = 11;
export const OK_UNARY = 12;
/** Any other expression (a cast, a conditional, a generic address, a section reference). */
export const OK_OTHER = 13;

/** Whether an operand kind is a name (of anything). */
export function isNameKind(k: number): boolean {
  return k >= OK_REGISTER && k <= OK_OTHER_NAME;
}
