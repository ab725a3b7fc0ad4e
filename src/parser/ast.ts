// The PTX syntax tree: every node is typed and carries its exact source range.
// The tree is syntax only; names are resolved and types judged later.

/** Where a node lies in its file. Lines and columns are 1-based; offsets are
 *  0-based UTF-16 indices into the text, `endOffset` exclusive. */
export interface SourceRange {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly endOffset: number;
}

interface NodeBase {
  readonly range: SourceRange;
}

// ---------------------------------------------------------------- expressions

/** A name: register (%r1), special register (%tid with component x), variable,
 *  label, function, or a parameter. What it denotes is decided by the symbol table. */
export interface NameExpr extends NodeBase {
  readonly kind: 'Name';
  readonly name: string;
  /** `.x` of `%tid.x`, `.r` of a vector element; without the dot. */
  readonly component?: string;
}

/** An integer literal. `value` is exact (64-bit immediates exceed a double). */
export interface IntExpr extends NodeBase {
  readonly kind: 'Int';
  readonly text: string;
  readonly value: bigint;
  /** Written with the `U` suffix. */
  readonly unsigned: boolean;
}

/** A floating literal: `0f3F800000` (f32 bits), `0d...` (f64 bits) or decimal `1.5`. */
export interface FloatExpr extends NodeBase {
  readonly kind: 'Float';
  readonly text: string;
  readonly value: number;
  readonly form: 'f32-bits' | 'f64-bits' | 'decimal';
}

export type UnaryOp = '-' | '+' | '!' | '~';
export interface UnaryExpr extends NodeBase {
  readonly kind: 'Unary';
  readonly op: UnaryOp;
  readonly arg: Expression;
}

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%' | '<<' | '>>' | '&' | '|' | '^'
  | '&&' | '||' | '==' | '!=' | '<' | '>' | '<=' | '>=';
export interface BinaryExpr extends NodeBase {
  readonly kind: 'Binary';
  readonly op: BinaryOp;
  readonly left: Expression;
  readonly right: Expression;
}

export interface ConditionalExpr extends NodeBase {
  readonly kind: 'Conditional';
  readonly test: Expression;
  readonly then: Expression;
  readonly otherwise: Expression;
}

/** `(.s64) expr`, a cast in a constant expression. */
export interface CastExpr extends NodeBase {
  readonly kind: 'Cast';
  readonly type: string;
  readonly arg: Expression;
}

/** `generic(var)` in an initializer. */
export interface GenericExpr extends NodeBase {
  readonly kind: 'Generic';
  readonly name: string;
}

/** `{a, b, c}`: a vector operand. */
export interface VectorExpr extends NodeBase {
  readonly kind: 'Vector';
  readonly elements: readonly Expression[];
}

/** `[a]`, `[a+4]`, `[tmap, {x, y}]`: an address operand. */
export interface AddressExpr extends NodeBase {
  readonly kind: 'Address';
  readonly elements: readonly Expression[];
}

/** `(a, b)`: a parenthesized list (call arguments and return values), or a
 *  parenthesized expression when it has one element outside a call. */
export interface ListExpr extends NodeBase {
  readonly kind: 'List';
  readonly elements: readonly Expression[];
}

/** `%p|%q`: the two predicate destinations of setp and friends. */
export interface PredPairExpr extends NodeBase {
  readonly kind: 'PredPair';
  readonly first: Expression;
  readonly second: Expression;
}

/** A section name used as a value in a debug section (`.b32 .debug_abbrev`). */
export interface SectionRefExpr extends NodeBase {
  readonly kind: 'SectionRef';
  readonly name: string;
}

export type Expression =
  | NameExpr | IntExpr | FloatExpr | UnaryExpr | BinaryExpr | ConditionalExpr
  | CastExpr | GenericExpr | VectorExpr | AddressExpr | ListExpr | PredPairExpr
  | SectionRefExpr;

// ---------------------------------------------------------------- declarations

/** An initializer: an expression, a brace list, or `name = value` (samplers). */
export type Initializer = Expression | InitListNode | FieldInitNode;

export interface InitListNode extends NodeBase {
  readonly kind: 'InitList';
  readonly elements: readonly Initializer[];
}

export interface FieldInitNode extends NodeBase {
  readonly kind: 'FieldInit';
  readonly field: string;
  readonly value: Expression;
}

/** One declared name: `%r<10>`, `smem[256]`, `x = 5`. */
export interface Declarator extends NodeBase {
  readonly kind: 'Declarator';
  readonly name: string;
  /** `%r<N>`: declares `%r0`..`%r(N-1)`. */
  readonly count?: number;
  /** Array dimensions; `null` for an unsized `[]`. */
  readonly dims: readonly (Expression | null)[];
  readonly init?: Initializer;
}

/** A qualifier of a declaration: `.align 8`, `.attribute(.managed)`, `.v4`, `.ptr`, a type. */
export interface Qualifier extends NodeBase {
  readonly kind: 'Qualifier';
  /** With the leading dot: ".align", ".b32", ".ptr". */
  readonly name: string;
  /** `.align N` has one number; `.attribute(.managed)` has names. */
  readonly args: readonly (number | string)[];
}

/** `.reg .b32 %r<5>;`, `.shared .align 16 .b8 smem[1024];`, a parameter, ... */
export interface VariableDecl extends NodeBase {
  readonly kind: 'Variable';
  /** `.visible`, `.extern`, `.weak`, `.common`. */
  readonly linkage: readonly string[];
  /** `.reg`, `.global`, `.shared`, `.param` ... with the dot. */
  readonly space: string;
  readonly qualifiers: readonly Qualifier[];
  readonly declarators: readonly Declarator[];
}

// ---------------------------------------------------------------- statements

export interface Label extends NodeBase {
  readonly kind: 'Label';
  readonly name: string;
}

export interface Guard extends NodeBase {
  readonly negated: boolean;
  readonly predicate: string;
}

/** One instruction: `@!%p1 ld.global.nc.v4.f32 {..}, [%rd1+16];` */
export interface Instruction extends NodeBase {
  readonly kind: 'Instruction';
  readonly guard?: Guard;
  /** The first part of the opcode: `ld` of `ld.global.u32`. */
  readonly opcode: string;
  /** Everything after it, in order, with dots: [".global", ".u32"]. */
  readonly modifiers: readonly string[];
  readonly operands: readonly Expression[];
}

export interface LocDirective extends NodeBase {
  readonly kind: 'Loc';
  readonly file: number;
  readonly line: number;
  readonly column: number;
  readonly functionName?: Expression;
  readonly inlinedAt?: { readonly file: number; readonly line: number; readonly column: number };
}

export interface PragmaDirective extends NodeBase {
  readonly kind: 'Pragma';
  readonly values: readonly string[];
}

/** `.branchtargets L1, L2;` and `.calltargets f, g;` (after a label). */
export interface TargetListDirective extends NodeBase {
  readonly kind: 'BranchTargets' | 'CallTargets';
  readonly names: readonly string[];
}

/** `.callprototype (.param .b32 _) _ (.param .b32 _);` */
export interface CallPrototype extends NodeBase {
  readonly kind: 'CallPrototype';
  readonly returns: readonly VariableDecl[] | null;
  readonly params: readonly VariableDecl[];
  readonly directives: readonly FunctionDirective[];
}

/** `@@DWARF ...` line, kept verbatim. */
export interface DwarfLine extends NodeBase {
  readonly kind: 'Dwarf';
  readonly text: string;
}

/** `{ ... }`: a scope. */
export interface Block extends NodeBase {
  readonly kind: 'Block';
  readonly statements: readonly Statement[];
}

export type Statement =
  | Instruction | Label | VariableDecl | Block | LocDirective | PragmaDirective
  | TargetListDirective | CallPrototype | DwarfLine;

// ---------------------------------------------------------------- module level

/** `.maxntid 128, 1, 1`, `.noreturn`, `.explicitcluster` ... */
export interface FunctionDirective extends NodeBase {
  readonly kind: 'FunctionDirective';
  readonly name: string;
  readonly args: readonly number[];
}

export interface FunctionDecl extends NodeBase {
  readonly kind: 'Function';
  readonly linkage: readonly string[];
  readonly isEntry: boolean;
  readonly name: string;
  /** Range of the name, for findings about the function itself. */
  readonly nameRange: SourceRange;
  /** `.func (.param .b32 r) f(...)`: the return parameters; null when absent. */
  readonly returns: readonly VariableDecl[] | null;
  readonly params: readonly VariableDecl[];
  readonly directives: readonly FunctionDirective[];
  /** Null for a prototype (`.extern .func f(...);`). */
  readonly body: Block | null;
}

export interface VersionDirective extends NodeBase {
  readonly kind: 'Version';
  readonly major: number;
  readonly minor: number;
}

export interface TargetDirective extends NodeBase {
  readonly kind: 'Target';
  readonly targets: readonly string[];
}

export interface AddressSizeDirective extends NodeBase {
  readonly kind: 'AddressSize';
  readonly size: number;
}

export interface FileDirective extends NodeBase {
  readonly kind: 'File';
  readonly index: number;
  readonly path: string;
  readonly timestamp?: number;
  readonly size?: number;
}

export type SectionItem = SectionLabel | SectionData | DwarfLine;
export interface SectionLabel extends NodeBase {
  readonly kind: 'SectionLabel';
  readonly name: string;
}
export interface SectionData extends NodeBase {
  readonly kind: 'SectionData';
  /** `.b8`, `.b32`, `.b64` ... */
  readonly type: string;
  readonly values: readonly Expression[];
}

export interface SectionDirective extends NodeBase {
  readonly kind: 'Section';
  readonly name: string;
  readonly items: readonly SectionItem[];
}

export interface AliasDirective extends NodeBase {
  readonly kind: 'Alias';
  readonly alias: string;
  readonly target: string;
}

export type ModuleStatement =
  | VersionDirective | TargetDirective | AddressSizeDirective | FileDirective
  | SectionDirective | AliasDirective | PragmaDirective | LocDirective | DwarfLine
  | VariableDecl | FunctionDecl;

export interface Comment extends NodeBase {
  readonly kind: 'Comment';
  readonly text: string;
}

export interface Module extends NodeBase {
  readonly kind: 'Module';
  readonly statements: readonly ModuleStatement[];
  /** Every comment, in order (inline suppressions live here). */
  readonly comments: readonly Comment[];
  /** The file began with a byte-order mark. */
  readonly hasBom: boolean;
}

export type Node =
  | Module | ModuleStatement | Statement | Expression | Declarator | Qualifier
  | FunctionDirective | SectionItem | InitListNode | FieldInitNode | Comment;
