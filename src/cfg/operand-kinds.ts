// What each operand of a function's body is, as a number per operand (`EffectTable.operandKind`), recorded by
// the model's walk, which reads every operand's `kind` once anyway. The analyses that dispatch on operands
// read this number instead of the syntax node: an operand's `kind` is a property of a dozen node shapes, so
// each read of it is a megamorphic load (a stub-cache lookup), and for most operands (a register's name) the
// number and the operand table's register say all they need, without touching the node.
//
// A `const enum`, as the scanner's `Tok`: the compiler writes each member as its number where it is used, so
// a comparison loads no module binding.

export const enum OperandKind {
  /** A name that denotes a register (its id is the operand table's `operandRegister`). */
  Register = 1,
  /** A name that denotes a variable (any state space). */
  Variable = 2,
  /** A name that denotes a special register (`%tid.x`, `WARP_SZ`). */
  Sreg = 3,
  /** Any other name: a label, a function, `_`, or a name nothing declares. */
  OtherName = 4,
  Int = 5,
  Float = 6,
  /** `[...]`. */
  Address = 7,
  /** `{...}`. */
  Vector = 8,
  List = 9,
  PredPair = 10,
  Binary = 11,
  Unary = 12,
  /** Any other expression (a cast, a conditional, a generic address, a section reference). */
  Other = 13,
}

/** Whether an operand kind is a name (of anything). */
export function isNameKind(k: number): boolean {
  return k >= OperandKind.Register && k <= OperandKind.OtherName;
}
