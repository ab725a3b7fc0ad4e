// The semantic model: symbol tables per module, function and `{ }` scope, every
// name in an instruction resolved to its declaration, and each function's
// body flattened into an indexed instruction list (the CFG's raw material).
import type * as A from '../parser/ast.js';
import { lookupSreg, type SregSpec } from '../parser/isa/sregs.js';
import { firstOperandRoleByOpcode, Scratch } from './dataflow/effects.js';
import { OP_CALL, opcodeId } from './opcodes.js';
import { IntBuffer } from './dataflow/int-buffer.js';
import { OperandKind } from './operand-kinds.js';

/** A register: declared by `.reg`, or a `.reg` parameter of a `.func`. */
export interface RegisterSymbol {
  readonly kind: 'register';
  readonly name: string;
  /** Data type with its dot (".b32", ".pred", ".f32"). */
  readonly type: string;
  /** ".v2"/".v4" for vector registers. */
  readonly vector?: string;
  readonly decl: A.VariableDecl;
  /** Dense per function, for bit sets in dataflow. */
  readonly id: number;
  /** Declared as a function parameter (`.func f(.reg .b32 a)`). */
  readonly isParam: boolean;
}

/** A variable in a state space: `.shared`, `.global`, `.local`, `.const`, `.param` ... */
export interface VariableSymbol {
  readonly kind: 'variable';
  readonly name: string;
  readonly space: string;
  readonly type: string;
  readonly vector?: string;
  readonly align?: number;
  /** Array dimensions; null for unsized (`[]`), empty for scalars. */
  readonly dims: readonly (number | null)[];
  /** Bytes, when known (unsized arrays and non-constant dims: undefined). */
  readonly size?: number;
  readonly decl: A.VariableDecl;
  readonly declarator: A.Declarator;
  /** Module scope (true) or function scope. */
  readonly global: boolean;
  /** A parameter of the enclosing function (`.param` space). */
  readonly isParam: boolean;
  /** `.ptr .global` etc. on a kernel pointer parameter. */
  readonly ptrSpace?: string;
}

export interface LabelSymbol {
  readonly kind: 'label';
  readonly name: string;
  /** Index of the instruction the label precedes (the instruction count when it ends the body). */
  readonly target: number;
  readonly node: A.Label;
  /** The `.branchtargets`/`.calltargets`/`.callprototype` directive following the label. */
  readonly directive?: A.TargetListDirective | A.CallPrototype;
}

export interface FunctionSymbol {
  readonly kind: 'function';
  readonly name: string;
  readonly decl: A.FunctionDecl;
}

export interface SregSymbol {
  readonly kind: 'sreg';
  readonly name: string;
  readonly spec: SregSpec;
}

export type SymbolRef = RegisterSymbol | VariableSymbol | LabelSymbol | FunctionSymbol | SregSymbol;

/** The table of a scope that declares nothing of its kind (never written: `withEntry` replaces it). */
const NO_ENTRIES: ReadonlyMap<string, never> = new Map<string, never>();

/** `table` with `name` set to `value`, to store back in its place: a map of its own when it was the shared
 *  empty one. */
function withEntry<V>(table: ReadonlyMap<string, V>, name: string, value: V): ReadonlyMap<string, V> {
  const map = table === NO_ENTRIES ? new Map<string, V>() : (table as Map<string, V>);
  map.set(name, value);
  return map;
}

/** A `{ }` scope: what it declares, and its parent. */
export class Scope {
  // (Each table is one shared empty map until the scope declares something of its kind: compiler output nests
  // thousands of `{ }` scopes around inline assembly, most declaring one predicate and nothing else, and four
  // maps made for each were 10 MB of the model of radix_sort.ptx.)
  registers: ReadonlyMap<string, RegisterSymbol> = NO_ENTRIES;
  /** `%r<N>` declarations by prefix; concrete registers are made on first use, kept by number in `regs`. */
  ranges: ReadonlyMap<string, RegisterRange> = NO_ENTRIES;
  variables: ReadonlyMap<string, VariableSymbol> = NO_ENTRIES;
  labels: ReadonlyMap<string, LabelSymbol> = NO_ENTRIES;
  constructor(readonly parent: Scope | undefined, readonly block: A.Block | undefined) {}
}

/** A `%r<N>` declaration: its registers by number, each made when first used. */
export interface RegisterRange {
  readonly prefix: string;
  readonly decl: A.VariableDecl;
  readonly declarator: A.Declarator;
  readonly count: number;
  readonly regs: (RegisterSymbol | undefined)[];
  /** What the declaration says of each of them. */
  readonly info: RegisterInfo;
}

/** What a `.reg` declaration says of every register it declares: one object per declaration, of one shape. */
export class RegisterInfo {
  constructor(readonly type: string, readonly vector: string | undefined) {}

  static of(decl: A.VariableDecl): RegisterInfo {
    const t = declType(decl);
    return new RegisterInfo(t.type, t.vector);
  }
}

/** The nearest preceding `.loc`: where an instruction comes from in the source. */
export interface SourceLoc {
  readonly file: number;
  readonly line: number;
  readonly column: number;
}

/** One instruction of a function, in body order, with its scope. */
export interface FlatInstruction {
  readonly index: number;
  readonly node: A.Instruction;
  readonly scope: Scope;
  readonly loc?: SourceLoc;
}

/** A flat instruction as the model makes it: one class, so every instruction has one shape, with four fields
 *  (its registers are in the function's effect table). */
export class Flat implements FlatInstruction {
  constructor(readonly index: number, readonly node: A.Instruction, readonly scope: Scope, readonly loc: SourceLoc | undefined) {}
}

/** Every instruction's registers by id, as `effects` lists them (src/cfg/dataflow/effects.ts): instruction i
 *  reads `useIds[useStart[i], useStart[i + 1])`, its guard first, and writes `defIds[defStart[i], defStart[i + 1])`.
 *  Typed lists for the whole function, made in the model's walk: two lists of register objects per instruction
 *  were about 230,000 arrays on a 9 MB module, kept as long as the model, for the collector to copy. */
export interface EffectTable {
  readonly useStart: Int32Array;
  readonly useIds: Int32Array;
  readonly defStart: Int32Array;
  readonly defIds: Int32Array;
  /** Per instruction: 0 without a guard predicate; 2 when its guard (`@p`, `@!p`) is a register, the first of
   *  its uses; 1 when its guard names no register. */
  readonly guarded: Uint8Array;
  /** Where instruction i's operands start among the body's operands (all instructions' in order):
   *  `operandStart[i, i + 1)` bounds them; `operandStart[n]` is the count. */
  readonly operandStart: Int32Array;
  /** Per operand of the body: the id of the register that the first name in it (as the walk meets them: left
   *  to right, the innermost first) denotes; -1 when it holds no name, or its first name is no register. An
   *  operand's register without reading the register's name (`%rd4`, `[%rd4+8]`: the analyses that compile
   *  operands would otherwise compare the names of the instruction's registers with it). */
  readonly operandRegister: Int32Array;
  /** Per operand of the body: what it is (src/cfg/operand-kinds.ts: `OperandKind.Register` for a name that
   *  denotes a register, `OperandKind.Address` for `[...]` ...), so that analyses dispatch on operands without
   *  reading their nodes. */
  readonly operandKind: Uint8Array;
  /** Per instruction: its opcode's number (src/cfg/opcodes.ts), to dispatch on without reading its node. */
  readonly opcode: Uint16Array;
}

export interface FunctionModel {
  readonly decl: A.FunctionDecl;
  readonly name: string;
  readonly isEntry: boolean;
  readonly instructions: readonly FlatInstruction[];
  /** The function's outermost scope (parameters and the body's declarations). */
  readonly scope: Scope;
  /** Every label of the body, in order. */
  readonly labels: readonly LabelSymbol[];
  /** What a name in one of the function's instructions denotes; undefined for a name nothing declares. */
  resolve(name: A.NameExpr): SymbolRef | undefined;
  /** The registers the body names, by id (one of a `%r<N>` range is made when the walk first meets it). */
  readonly registers: readonly RegisterSymbol[];
  /** Every instruction's registers by id. */
  readonly effectTable: EffectTable;
  /** What an instruction's guard predicate denotes. */
  resolveGuard(guard: A.Guard): SymbolRef | undefined;
  /** Names no declaration answers (for F005/F006). */
  readonly unresolved: readonly { readonly instruction: FlatInstruction; readonly name: A.NameExpr }[];
}

export interface ModuleModel {
  readonly module: A.Module;
  readonly functions: readonly FunctionModel[];
  readonly functionsByName: ReadonlyMap<string, FunctionSymbol>;
  readonly variables: ReadonlyMap<string, VariableSymbol>;
  /** `.file` index → path. */
  readonly files: ReadonlyMap<number, string>;
}

const TYPE_BYTES: Readonly<Record<string, number>> = {
  '.b8': 1, '.u8': 1, '.s8': 1, '.b16': 2, '.u16': 2, '.s16': 2, '.f16': 2, '.bf16': 2,
  '.b32': 4, '.u32': 4, '.s32': 4, '.f32': 4, '.f16x2': 4, '.bf16x2': 4, '.tf32': 4,
  '.b64': 8, '.u64': 8, '.s64': 8, '.f64': 8, '.b128': 16, '.pred': 1,
  '.texref': 8, '.samplerref': 8, '.surfref': 8,
};

/** Bytes of a data type, when it has a fixed size. */
export function typeBytes(type: string): number | undefined {
  return TYPE_BYTES[type];
}

function declType(decl: A.VariableDecl): { type: string; vector?: string; align?: number; ptrSpace?: string } {
  let type = '';
  let vector: string | undefined;
  let align: number | undefined;
  let ptrSpace: string | undefined;
  let afterPtr = false;
  for (const q of decl.qualifiers) {
    if (q.name === '.align') align = Number(q.args[0]);
    else if (q.name === '.v2' || q.name === '.v4' || q.name === '.v8') vector = q.name;
    else if (q.name === '.ptr') afterPtr = true;
    else if (afterPtr && (q.name === '.global' || q.name === '.shared' || q.name === '.const' || q.name === '.local')) ptrSpace = q.name;
    else if (q.name in TYPE_BYTES || /^\.[busf]\d+/.test(q.name) || q.name.endsWith('ref')) type = q.name;
  }
  return {
    type,
    ...(vector !== undefined ? { vector } : {}),
    ...(align !== undefined ? { align } : {}),
    ...(ptrSpace !== undefined ? { ptrSpace } : {}),
  };
}

function constDim(e: A.Expression | null): number | null {
  if (e === null) return null;
  return e.kind === 'Int' ? Number(e.value) : null;
}

function variableSymbol(decl: A.VariableDecl, d: A.Declarator, global: boolean, isParam: boolean): VariableSymbol {
  const t = declType(decl);
  const dims = d.dims.map(constDim);
  const elem = typeBytes(t.type);
  const lanes = t.vector === undefined ? 1 : Number(t.vector.slice(2));
  const size = elem === undefined || dims.some((x) => x === null) ? undefined : dims.reduce<number>((n, x) => n * (x ?? 1), elem * lanes);
  return {
    kind: 'variable', name: d.name, space: decl.space, type: t.type, dims, decl, declarator: d, global, isParam,
    ...(t.vector !== undefined ? { vector: t.vector } : {}),
    ...(t.align !== undefined ? { align: t.align } : {}),
    ...(size !== undefined ? { size } : {}),
    ...(t.ptrSpace !== undefined ? { ptrSpace: t.ptrSpace } : {}),
  };
}

/** The most room made up front for one `%r<N>` range's registers (the list grows past it as needed). */
const MAX_DENSE_RANGE = 1 << 16;

/** Where the number of a `%r<N>` register's name starts (`%r12`: 2), or -1 when the name is none's: no digits,
 *  nothing before them, or a leading zero (ptxas reads `%r01` by value, but it is not the name `%r1`). */
function numberStart(name: string): number {
  const len = name.length;
  let i = len;
  while (i > 0) {
    const c = name.charCodeAt(i - 1);
    if (c < 48 || c > 57) break;
    i--;
  }
  if (i === len || i === 0 || (len - i > 1 && name.charCodeAt(i) === 48)) return -1;
  return i;
}

/** Splits `%r12` into `%r` and 12, for `%r<N>` lookups. */
function splitNumbered(name: string): [string, number] | undefined {
  const i = numberStart(name);
  return i < 0 ? undefined : [name.slice(0, i), Number(name.slice(i))];
}

/** The `%r<N>` ranges of a function's outermost scope, to find a register from its name's characters: no
 *  map lookup, and most names in compiler output are such registers. (The scanner gives each distinct name one
 *  string, so a lookup by name hashes it once; the per-function map alone was still slower: resolution on
 *  segmented_sort.ptx 93-103 ms against 64-78, docs/performance.md, session 26.) */
class NumberedNames {
  /** The number of the register `find` found. */
  n = 0;
  constructor(private readonly ranges: readonly RegisterRange[]) {}

  /** The range `name` is a register of, as `lookupIn` would find it (`numberStart`'s rules, below the range's
   *  count), its number left in `n`; undefined when none (or more than 9 digits: left to the general search). */
  find(name: string): RegisterRange | undefined {
    const i = numberStart(name);
    const len = name.length;
    if (i < 0 || len - i > 9) return undefined;
    const ranges = this.ranges;
    for (let k = 0; k < ranges.length; k++) {
      const r = ranges[k]!;
      if (r.prefix.length !== i || !name.startsWith(r.prefix)) continue;
      let n = 0;
      for (let j = i; j < len; j++) n = n * 10 + name.charCodeAt(j) - 48;
      if (n >= r.count) return undefined;
      this.n = n;
      return r;
    }
    return undefined;
  }

  /** For the outermost scope, or null when none can be used: no ranges, or a register declared by name that a
   *  range's name would also match (the by-name declaration is found first). */
  static of(scope: Scope): NumberedNames | null {
    if (scope.ranges.size === 0) return null;
    const names = new NumberedNames([...scope.ranges.values()]);
    for (const name of scope.registers.keys()) if (names.find(name) !== undefined) return null;
    return names;
  }
}

const NO_EFFECTS: EffectTable = {
  useStart: new Int32Array(1), useIds: new Int32Array(0), defStart: new Int32Array(1), defIds: new Int32Array(0), guarded: new Uint8Array(0),
  operandStart: new Int32Array(1), operandRegister: new Int32Array(0), operandKind: new Uint8Array(0), opcode: new Uint16Array(0),
};

class FunctionBuilder {
  readonly instructions: Flat[] = [];
  readonly labels: LabelSymbol[] = [];
  readonly registers: RegisterSymbol[] = [];
  /** Per name, as the function's outermost scope sees it (null: nothing): one entry per distinct name
   *  instead of one per occurrence. */
  readonly byName = new Map<string, SymbolRef | null>();
  /** Per occurrence, only where a nested `{ }` scope declares the name (its meaning there may differ from
   *  the outermost scope's). Compiler output nests scopes around inline assembly, a few instructions of a
   *  function, so these stay small or empty. */
  readonly resolved = new Map<A.NameExpr, SymbolRef>();
  readonly guards = new Map<A.Guard, SymbolRef>();
  readonly unresolved: { instruction: FlatInstruction; name: A.NameExpr }[] = [];
  readonly scope: Scope;
  /** The outermost scope's `%r<N>` ranges by name (null: none, or not usable); set once the body is walked. */
  numbered: NumberedNames | null = null;
  /** Set by `resolveOperands`. */
  effectTable: EffectTable = NO_EFFECTS;
  /** The register id of the first name met in the operand being resolved (-1: none, or not a register), and
   *  whether a name was met yet. */
  private firstRegister = -1;
  private named = false;
  private loc: SourceLoc | undefined;
  /** Labels waiting for their instruction, with the scope they belong to. */
  private pendingLabels: { node: A.Label; scope: Scope; directive?: A.TargetListDirective | A.CallPrototype }[] = [];

  constructor(readonly decl: A.FunctionDecl, readonly module: ModuleTables) {
    this.scope = new Scope(undefined, decl.body ?? undefined);
    for (const p of [...(decl.returns ?? []), ...decl.params]) this.declare(this.scope, p, true, 0);
  }

  /** A new register of declaration `decl` (`info`: what the declaration says of it). */
  private newRegister(name: string, decl: A.VariableDecl, info: RegisterInfo, isParam: boolean): RegisterSymbol {
    const id = this.registers.length;
    const vector = info.vector;
    const r: RegisterSymbol = vector === undefined
      ? { kind: 'register', name, type: info.type, decl, id, isParam }
      : { kind: 'register', name, type: info.type, decl, id, isParam, vector };
    this.registers.push(r);
    return r;
  }

  /** Declares what `decl` names in `scope`; `statements`, the declaring block's statement count, bounds the
   *  room made for a `%r<N>` range's registers (a body of S statements names few more than 8·S of them). */
  declare(scope: Scope, decl: A.VariableDecl, isParam: boolean, statements: number): void {
    // (What a `.reg` declaration says of its registers, once: `.reg .b32 %r<900>;` makes 900 of them.)
    const info = decl.space === '.reg' ? RegisterInfo.of(decl) : undefined;
    for (const d of decl.declarators) {
      if (info !== undefined) {
        if (d.count !== undefined) {
          // Made with room for every register the body can name (a register first used far past the others
          // would make a list grown from empty a slow dictionary), but not for more: `%r<65536>` in each of
          // thousands of small functions must not take 512 kB each.
          const regs = new Array<RegisterSymbol | undefined>(Math.min(d.count, MAX_DENSE_RANGE, 8 * statements + 64));
          scope.ranges = withEntry(scope.ranges, d.name, { prefix: d.name, decl, declarator: d, count: d.count, regs, info });
        } else {
          scope.registers = withEntry(scope.registers, d.name, this.newRegister(d.name, decl, info, isParam));
        }
      } else {
        scope.variables = withEntry(scope.variables, d.name, variableSymbol(decl, d, false, isParam));
      }
    }
  }

  /** Walks the body: declarations into scopes, instructions flattened, labels bound. */
  walk(block: A.Block, scope: Scope): void {
    // Declarations are made in the walk's own pass (names are resolved after it, `resolveOperands`), but all of a
    // block's before a nested block is walked, as a pass over its declarations first made them: the registers a
    // declaration names are numbered as they are declared. (The pass of its own touched every statement twice.)
    const stmts = block.statements;
    let declaredTo = 0;
    for (let i = 0; i < stmts.length; i++) {
      const s = stmts[i]!;
      switch (s.kind) {
        case 'Variable':
          if (i >= declaredTo) this.declare(scope, s, false, stmts.length);
          break;
        case 'Label': {
          const next = stmts[i + 1];
          const directive = next !== undefined && (next.kind === 'BranchTargets' || next.kind === 'CallTargets' || next.kind === 'CallPrototype') ? next : undefined;
          this.pendingLabels.push(directive === undefined ? { node: s, scope } : { node: s, scope, directive });
          break;
        }
        case 'Instruction': {
          const ins = new Flat(this.instructions.length, s, scope, this.loc);
          this.flushLabels();
          this.instructions.push(ins);
          break;
        }
        case 'Block':
          for (let j = Math.max(i + 1, declaredTo); j < stmts.length; j++) {
            const d = stmts[j]!;
            if (d.kind === 'Variable') this.declare(scope, d, false, stmts.length);
          }
          declaredTo = stmts.length;
          this.walk(s, new Scope(scope, s));
          break;
        case 'Loc':
          // Code inlined from another file (a CUDA header's __shfl_sync, atomicAdd) is reported at its
          // call site, the line the user wrote; code inlined from the same file keeps its own line.
          this.loc = s.inlinedAt !== undefined && s.inlinedAt.file !== s.file
            ? { file: s.inlinedAt.file, line: s.inlinedAt.line, column: s.inlinedAt.column }
            : { file: s.file, line: s.line, column: s.column };
          break;
        default:
          break;
      }
    }
  }

  flushLabels(): void {
    // (Most instructions follow no label: no new list for them.)
    if (this.pendingLabels.length === 0) return;
    for (const p of this.pendingLabels) {
      const sym: LabelSymbol = p.directive === undefined
        ? { kind: 'label', name: p.node.name, target: this.instructions.length, node: p.node }
        : { kind: 'label', name: p.node.name, target: this.instructions.length, node: p.node, directive: p.directive };
      if (!p.scope.labels.has(sym.name)) p.scope.labels = withEntry(p.scope.labels, sym.name, sym);
      this.labels.push(sym);
    }
    this.pendingLabels = [];
  }

  lookup(name: string, scope: Scope): SymbolRef | undefined {
    for (let s: Scope | undefined = scope; s !== undefined; s = s.parent) {
      const hit = this.lookupIn(name, s);
      if (hit !== undefined) return hit;
    }
    const sreg = lookupSreg(name);
    if (sreg !== undefined) return { kind: 'sreg', name, spec: sreg };
    return this.module.variables.get(name) ?? this.module.functions.get(name);
  }

  /** What `name` means in scope `s` itself (not its parents); a register of a `%r<N>` range is made on first use. */
  private lookupIn(name: string, s: Scope): SymbolRef | undefined {
    const r = s.registers.get(name);
    if (r !== undefined) return r;
    // (Most nested scopes declare no `%r<N>` range: no split then.)
    const split = s.ranges.size === 0 ? undefined : splitNumbered(name);
    if (split !== undefined) {
      const range = s.ranges.get(split[0]);
      if (range !== undefined && split[1] < range.count) return this.rangeRegister(range, split[1], name);
    }
    const v = s.variables.get(name);
    if (v !== undefined) return v;
    return s.labels.get(name);
  }

  /** Register `n` of a `%r<N>` range, made on first use (registers are numbered in first-use order). */
  private rangeRegister(range: RegisterRange, n: number, name: string): RegisterSymbol {
    let r = range.regs[n];
    if (r === undefined) {
      r = this.newRegister(name, range.decl, range.info, false);
      range.regs[n] = r;
    }
    return r;
  }

  /** What `name` means in the outermost scope: a register of one of its `%r<N>` ranges straight from the
   *  name's characters (most names are), else from the per-name table. */
  private outerMeaning(name: string): SymbolRef | undefined {
    const numbered = this.numbered;
    if (numbered !== null) {
      const hit = numbered.find(name);
      if (hit !== undefined) return this.rangeRegister(hit, numbered.n, name);
    }
    let sym = this.byName.get(name);
    if (sym === undefined) {
      sym = this.lookup(name, this.scope) ?? null;
      this.byName.set(name, sym);
    }
    return sym ?? undefined;
  }

  /** What `name` means in a nested `scope`, when a scope between it and the outermost one declares the name
   *  (the same search as `lookup`, innermost first); undefined when none does, and the outermost meaning holds. */
  private nestedMeaning(name: string, scope: Scope): SymbolRef | undefined {
    for (let s: Scope | undefined = scope; s !== undefined && s !== this.scope; s = s.parent) {
      const hit = this.lookupIn(name, s);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /** Resolves every name of every instruction, and lists the registers each writes and reads by id (the effect
   *  table: what src/cfg/dataflow/effects.ts gives as lists, in the same order) in the same walk. */
  resolveOperands(): void {
    this.numbered = NumberedNames.of(this.scope);
    const defs = DEFS;
    const uses = USES;
    const n = this.instructions.length;
    const useStart = new Int32Array(n + 1);
    const defStart = new Int32Array(n + 1);
    const guarded = new Uint8Array(n);
    const useIds = USE_IDS.reset();
    const defIds = DEF_IDS.reset();
    let ul = 0;
    let dl = 0;
    const operandStart = new Int32Array(n + 1);
    const opcode = new Uint16Array(n);
    // (Collected as the walk goes, then copied at their count: a count first was a pass of its own over every
    // instruction's operand list, the first read of each.)
    const operandRegister = OPERAND_REGISTERS.reset();
    const operandKind = OPERAND_KINDS.reset();
    let ol = 0;
    for (const ins of this.instructions) {
      const nested = ins.scope !== this.scope;
      const node = ins.node;
      const ops = node.operands;
      defs.n = 0;
      uses.n = 0;
      const id = opcodeId(node.opcode);
      opcode[ins.index] = id;
      // The first operand's role by the opcode; its kind, read as it is resolved, decides the rest below.
      const role = firstOperandRoleByOpcode(node, id);
      operandStart[ins.index] = ol;
      const od = operandRegister.reserve(ops.length);
      const ok = operandKind.reserve(ops.length);
      for (let k = 0; k < ops.length; k++) {
        this.named = false;
        this.firstRegister = -1;
        let kind: number;
        if (k === 0 && role !== 0) {
          kind = this.resolveIn(ops[0]!, ins, nested, defs);
          // An address is a source; so is what a call passes unless it is a return list. (The uses are empty
          // yet: its registers come first among them, as they would have been resolved into them.)
          if (id === OP_CALL ? kind !== OperandKind.List : kind === OperandKind.Address) {
            for (let j = 0; j < defs.n; j++) uses.add(defs.items[j]!);
            defs.n = 0;
          } else if (role === 2) {
            // (A destination it also reads: the same registers, in the same order, among the uses.)
            for (let j = 0; j < defs.n; j++) uses.add(defs.items[j]!);
          }
        } else {
          kind = this.resolveIn(ops[k]!, ins, nested, uses);
        }
        ok[ol] = kind;
        od[ol++] = this.firstRegister;
      }
      operandRegister.length = ol;
      operandKind.length = ol;
      // The guard after the operands (registers of a `%r<N>` range are numbered in this order), but first
      // among the uses, as effects() lists it.
      let guard: RegisterSymbol | undefined;
      if (node.guard !== undefined) {
        const g = node.guard;
        const inner = nested ? this.nestedMeaning(g.predicate, ins.scope) : undefined;
        if (inner !== undefined) this.guards.set(g, inner);
        const sym = inner ?? this.outerMeaning(g.predicate);
        if (sym === undefined) this.unresolved.push({ instruction: ins, name: { kind: 'Name', name: g.predicate, range: g.range } });
        else if (sym.kind === 'register') guard = sym;
      }
      // By id (written into the buffers' storage: no call per id), the guard first.
      const i = ins.index;
      if (node.guard !== undefined) guarded[i] = guard === undefined ? 1 : 2;
      useStart[i] = ul;
      const ud = useIds.reserve(uses.n + 1);
      if (guard !== undefined) ud[ul++] = guard.id;
      for (let k = 0; k < uses.n; k++) ud[ul++] = uses.items[k]!.id;
      useIds.length = ul;
      defStart[i] = dl;
      const dd = defIds.reserve(defs.n);
      for (let k = 0; k < defs.n; k++) dd[dl++] = defs.items[k]!.id;
      defIds.length = dl;
    }
    useStart[n] = ul;
    defStart[n] = dl;
    operandStart[n] = ol;
    this.effectTable = { useStart, useIds: useIds.take(), defStart, defIds: defIds.take(), guarded, operandStart, operandRegister: operandRegister.take(), operandKind: operandKind.takeBytes(), opcode };
  }

  /** Resolves every name in an operand, its registers into `out` (a method, not a closure made per instruction);
   *  returns what the operand is (src/cfg/operand-kinds.ts), from the one read of its `kind`. */
  private resolveIn(e: A.Expression, ins: FlatInstruction, nested: boolean, out: Scratch): number {
    switch (e.kind) {
      case 'Name': {
        if (e.name === '_') {
          this.named = true;
          return OperandKind.OtherName;
        }
        const inner = nested ? this.nestedMeaning(e.name, ins.scope) : undefined;
        if (inner !== undefined) this.resolved.set(e, inner);
        const sym = inner ?? this.outerMeaning(e.name);
        if (sym === undefined) {
          this.unresolved.push({ instruction: ins, name: e });
          this.named = true;
          return OperandKind.OtherName;
        }
        const kind = sym.kind;
        if (kind === 'register') {
          if (!this.named) this.firstRegister = sym.id;
          this.named = true;
          out.add(sym);
          return OperandKind.Register;
        }
        this.named = true;
        return kind === 'variable' ? OperandKind.Variable : kind === 'sreg' ? OperandKind.Sreg : OperandKind.OtherName;
      }
      case 'Int': return OperandKind.Int;
      case 'Float': return OperandKind.Float;
      case 'Unary': this.resolveIn(e.arg, ins, nested, out); return OperandKind.Unary;
      case 'Binary': this.resolveIn(e.left, ins, nested, out); this.resolveIn(e.right, ins, nested, out); return OperandKind.Binary;
      case 'Conditional':
        this.resolveIn(e.test, ins, nested, out); this.resolveIn(e.then, ins, nested, out); this.resolveIn(e.otherwise, ins, nested, out);
        return OperandKind.Other;
      case 'Cast': this.resolveIn(e.arg, ins, nested, out); return OperandKind.Other;
      case 'Address': this.resolveAll(e.elements, ins, nested, out); return OperandKind.Address;
      case 'Vector': this.resolveAll(e.elements, ins, nested, out); return OperandKind.Vector;
      case 'List': this.resolveAll(e.elements, ins, nested, out); return OperandKind.List;
      case 'PredPair': this.resolveIn(e.first, ins, nested, out); this.resolveIn(e.second, ins, nested, out); return OperandKind.PredPair;
      default: return OperandKind.Other;
    }
  }

  private resolveAll(elements: readonly A.Expression[], ins: FlatInstruction, nested: boolean, out: Scratch): void {
    // (An index loop: no iterator.)
    for (let k = 0; k < elements.length; k++) this.resolveIn(elements[k]!, ins, nested, out);
  }
}

/** Scratch lists of the registers one instruction writes and reads, while the model walks it. */
const DEFS = new Scratch();
const USES = new Scratch();
/** A function's register ids as they are collected (copied to their exact size once the walk is done). */
const USE_IDS = new IntBuffer();
const DEF_IDS = new IntBuffer();
const OPERAND_REGISTERS = new IntBuffer();
const OPERAND_KINDS = new IntBuffer();

interface ModuleTables {
  readonly variables: Map<string, VariableSymbol>;
  readonly functions: Map<string, FunctionSymbol>;
}

/** What the walk of a function's body gives: its instructions, scopes, labels, registers and resolved names. */
class FunctionBody {
  readonly instructions: readonly FlatInstruction[];
  readonly scope: Scope;
  readonly labels: readonly LabelSymbol[];
  readonly registers: readonly RegisterSymbol[];
  readonly effectTable: EffectTable;
  readonly unresolved: readonly { readonly instruction: FlatInstruction; readonly name: A.NameExpr }[];
  readonly resolved: ReadonlyMap<A.NameExpr, SymbolRef>;
  readonly guards: ReadonlyMap<A.Guard, SymbolRef>;
  readonly byName: ReadonlyMap<string, SymbolRef | null>;
  readonly numbered: NumberedNames | null;

  constructor(decl: A.FunctionDecl, body: A.Block, tables: ModuleTables) {
    const b = new FunctionBuilder(decl, tables);
    b.walk(body, b.scope);
    b.flushLabels();
    b.resolveOperands();
    this.instructions = b.instructions;
    this.scope = b.scope;
    this.labels = b.labels;
    this.registers = b.registers;
    this.effectTable = b.effectTable;
    this.unresolved = b.unresolved;
    this.resolved = b.resolved;
    this.guards = b.guards;
    this.byName = b.byName;
    this.numbered = b.numbered;
  }

  /** What a name means in the outermost scope (a register of a range only if the walk met it). */
  outer(name: string): SymbolRef | undefined {
    const numbered = this.numbered;
    if (numbered !== null) {
      const hit = numbered.find(name);
      if (hit !== undefined) return hit.regs[numbered.n];
    }
    return this.byName.get(name) ?? undefined;
  }
}

/** A function's model, its body walked on first use: the engine then walks each function's syntax tree while
 *  the analyses that follow it (the CFG, the dataflow) find it in the processor's caches. A walk of the whole
 *  module first left every function's tree cold again by the time its analyses ran: on a 9 MB module a full
 *  pass of every analysis over every function took about 5% longer after a model made up front (interleaved
 *  runs of the two builds). The module's tables (its variables and functions) are complete before any body is
 *  walked, so a body resolves as before.
 *
 *  `resolve` and `resolveGuard` are methods of one class, not closures made per function: code that calls them
 *  for many functions then meets one call target (V8 deoptimized such call sites each time a new function's
 *  closure came by). */
class FunctionModelOf implements FunctionModel {
  readonly name: string;
  readonly isEntry: boolean;
  private walked: FunctionBody | undefined;

  constructor(readonly decl: A.FunctionDecl, private readonly bodyBlock: A.Block, private readonly tables: ModuleTables) {
    this.name = decl.name;
    this.isEntry = decl.isEntry;
  }

  private get body(): FunctionBody {
    return this.walked ??= new FunctionBody(this.decl, this.bodyBlock, this.tables);
  }

  get instructions(): readonly FlatInstruction[] {
    return this.body.instructions;
  }

  get scope(): Scope {
    return this.body.scope;
  }

  get labels(): readonly LabelSymbol[] {
    return this.body.labels;
  }

  get registers(): readonly RegisterSymbol[] {
    return this.body.registers;
  }

  get effectTable(): EffectTable {
    return this.body.effectTable;
  }

  get unresolved(): readonly { readonly instruction: FlatInstruction; readonly name: A.NameExpr }[] {
    return this.body.unresolved;
  }

  resolve(name: A.NameExpr): SymbolRef | undefined {
    const body = this.body;
    if (body.resolved.size !== 0) {
      const inner = body.resolved.get(name);
      if (inner !== undefined) return inner;
    }
    return name.name === '_' ? undefined : body.outer(name.name);
  }

  resolveGuard(guard: A.Guard): SymbolRef | undefined {
    const body = this.body;
    if (body.guards.size !== 0) {
      const inner = body.guards.get(guard);
      if (inner !== undefined) return inner;
    }
    return body.outer(guard.predicate);
  }
}

/** Builds the semantic model of a parsed module. */
export function buildModuleModel(module: A.Module): ModuleModel {
  const tables: ModuleTables = { variables: new Map(), functions: new Map() };
  const files = new Map<number, string>();
  for (const s of module.statements) {
    if (s.kind === 'Variable') {
      for (const d of s.declarators) tables.variables.set(d.name, variableSymbol(s, d, true, false));
    } else if (s.kind === 'Function') {
      const existing = tables.functions.get(s.name);
      // A definition wins over an earlier prototype.
      if (existing === undefined || (existing.decl.body === null && s.body !== null)) {
        tables.functions.set(s.name, { kind: 'function', name: s.name, decl: s });
      }
    } else if (s.kind === 'File') {
      files.set(s.index, s.path);
    }
  }
  const functions: FunctionModel[] = [];
  for (const s of module.statements) {
    if (s.kind !== 'Function' || s.body === null) continue;
    functions.push(new FunctionModelOf(s, s.body, tables));
  }
  return { module, functions, functionsByName: tables.functions, variables: tables.variables, files };
}
