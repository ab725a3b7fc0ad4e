// Shapes of the PTX ISA table: what an opcode accepts, and since when.
// The table is data (src/parser/isa/opcodes/*.ts); checks and the keyword
// classifier read it, no PTX knowledge is spread through code.

/** A PTX ISA version written "major.minor", e.g. "7.8". */
export type PtxVersion = `${number}.${number}`;

/** When a feature became available. */
export interface Availability {
  /** Minimum `.version`. */
  readonly ptx: PtxVersion;
  /** Minimum SM number (75 for sm_75), when the feature needs one. */
  readonly sm?: number;
  /**
   * The exact target set, when the feature is restricted beyond a minimum
   * (e.g. wgmma: ["sm_90a"]; tcgen05: ["sm_100a", "sm_101a", ...]).
   */
  readonly targets?: readonly string[];
}

/**
 * One group of mutually exclusive modifiers, e.g. a state space
 * (`.global`/`.shared`/...), a rounding mode, or a type slot.
 * An instruction picks at most one value from each group (exactly one when
 * `required`). Values are written with their leading dot: ".global".
 */
export interface ModifierGroup {
  /** Group name, used by operand specs to refer to a type slot ("type", "dtype", "atype"). */
  readonly name: string;
  /** "type" groups hold data types (.u32, .f16x2 ...); all others are plain modifiers. */
  readonly kind: 'type' | 'modifier';
  readonly values: readonly string[];
  readonly required?: boolean;
  /** Values that need a newer version/target than the opcode itself. */
  readonly since?: Readonly<Record<string, Availability>>;
}

/** What may stand in an operand position. */
export type OperandKind =
  | 'reg' // a register (%r1)
  | 'pred' // a predicate register, optionally negated (!%p1)
  | 'imm' // an immediate or constant expression
  | 'sreg' // a special register (%tid.x)
  | 'addr' // a bracketed address [..]
  | 'vec' // a vector in braces {%r1, %r2}
  | 'label' // a label name (branch targets)
  | 'sym' // a variable or function name (mov %rd1, smem)
  | 'func' // a function name or a register holding one (call)
  | 'list' // a parenthesized list (call arguments)
  | 'sink'; // the sink `_`

/** One operand position of one form of an instruction. */
export interface OperandSpec {
  /** The ISA's name for the operand: "d", "a", "b", "c", "p", "q" ... */
  readonly name: string;
  readonly kinds: readonly OperandKind[];
  /**
   * The type the operand must have: the name of a type group of this opcode
   * ("type", "dtype", "atype"), or a literal type (".pred", ".u32", ".b64").
   * Absent when the operand is untyped (labels, addresses) or free.
   */
  readonly type?: string;
  /** A trailing operand that may be left out (e.g. the membermask-less forms). */
  readonly optional?: boolean;
  /** `d|p` pairs: this operand may be followed by `|name`. */
  readonly pairedWith?: string;
}

/** One opcode of the ISA: `ld`, `mma`, `cp.async.bulk.tensor` ... */
export interface OpcodeSpec {
  /** The opcode as it appears before its modifiers. Multi-part opcodes whose
   *  parts are not modifiers (e.g. "cp.async.bulk.tensor") are written dotted. */
  readonly opcode: string;
  /** Section of the PTX ISA manual, for docs and reports. */
  readonly section: string;
  readonly since: Availability;
  readonly modifiers: readonly ModifierGroup[];
  /** Alternative operand forms; an instruction must match one. */
  readonly forms: readonly (readonly OperandSpec[])[];
  /** A real instruction in this opcode's canonical form, accepted by ptxas at `since`. */
  readonly example: string;
}
