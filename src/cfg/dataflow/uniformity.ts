// Uniformity: for every register definition and read, whether its value may
// differ between the threads of a warp, or between the warps of a CTA, with
// the reason as a readable chain; for every conditional branch whether its
// condition is uniform; for every block whether some threads may skip it; for
// every loop whether it exits on a thread-varying condition.
//
// A variance is two bits: WARP (may differ within a warp) and CTA (may differ
// within the CTA). WARP implies CTA, so a value is `uniform` (0),
// `warp-uniform` (CTA only: equal in each warp, may differ between warps) or
// `thread-varying` (both).
//
// Rules (CATALOG.md, "Facts every check shares", made precise):
//
// Seeds. %tid, %laneid, %lanemask_*, %clock*, %globaltimer*, %pm* vary per
// thread; %warpid and %smid per warp; %ctaid, %ntid, %nctaid, %nwarpid and the
// grid constants are uniform (the table in isa/sregs.ts). Special registers
// are read by `mov` and `cvt` only (ptxas 13.0 rejects them in `add`, `setp`,
// `st` ...), so only those are searched for them. Immediates and
// symbol addresses are uniform. A `.func`'s `.reg` parameters are
// thread-varying (each calling thread passes its own); so is every `ld.param`
// inside a `.func`, and a call's results (register returns, and in a kernel
// `ld.param` of a call's argument/return `.param` variables): no
// interprocedural facts. An undefined register (read before any write on some
// path) carries no thread-dependent source and counts as uniform: reading it
// is a correctness finding, not variance.
//
// Loads. The result is as varying as the address, the guard, and:
//  - `ld.const`, `ld.param` of a kernel parameter in an `.entry`, `ldu` and
//    `ld.global.nc` (memory read-only while the kernel runs): nothing more, so
//    uniform at a uniform address;
//  - a broadcast (below): nothing more;
//  - every other load (global, local, shared, generic, tex/surface):
//    thread-varying (memory may be written per thread).
// The state space is the instruction's, else that of the symbol the address
// derives from (through mov/cvta/cvt/add/sub with single reaching
// definitions).
//
// Shared-memory broadcast. A shared load (`ld.shared`, or a generic `ld`
// whose address derives from a `.shared` symbol) is CTA-uniform when:
//  1. its address is CTA-uniform and is symbol S plus a constant offset c;
//  2. every instruction that may write bytes [c, c+width) of S is a plain
//     `st` to exactly S+c with the same width (no atomic, async copy,
//     mbarrier, `st.async`, or store at an overlapping other offset), and no
//     write anywhere may alias it: no store to S at a non-constant offset, no
//     shared or generic write whose symbol is unknown, no `call`;
//  3. each such store is single-thread guarded (by a guard `@p`, or a branch
//     the store's block is control-dependent on and dominated by the equal
//     side of, whose predicate is `setp.eq`/`setp.ne` of %tid.{x,y,z} (directly
//     or through mov/cvt) against an immediate), or stores a CTA-uniform value;
//  4. every path from such a store to the load, and from the load to such a
//     store, passes a CTA barrier (`bar.sync`/`barrier.sync`/`bar.red`/
//     `barrier.red`, `.cta`/`.aligned` allowed, without a thread count or with
//     one equal to the known block size): no thread can write the value in the
//     phase where others read it.
// (The same-symbol, same-constant-offset case only.)
//
// Warp collectives, results: `vote` (any/all/uni/ballot), `redux.sync`,
// `activemask` and `match.all` (both results) are warp-uniform (CTA-varying);
// `shfl.idx` is warp-uniform when its lane operand is warp-uniform and its
// clamp operand an immediate with no segment mask (bits 8-12 zero), and then
// also CTA-uniform when every operand is; `shfl` up/down/bfly, `match.any`, the
// predicate of `elect.sync` (its lane result is warp-uniform) are
// thread-varying; `bar.red` results are uniform (warp-uniform with a thread
// count). Atomics, mbarrier, matrix (mma/wmma/wgmma/ldmatrix/movmatrix/
// tcgen05), texture/surface loads, alloca/stacksave and multimem results are
// thread-varying. Everything else is a pure function of its operands (the
// guard included: a varying guard leaves the old value in some threads).
//
// A read is as varying as the definitions reaching it (reaching-definitions),
// plus sync dependence: for a conditional branch b whose condition is varying
// at a level (`@p bra`, `brx.idx`, `@p ret/exit`), let P be its immediate
// post-dominator and the region the blocks reachable from b's successors
// without passing P. A register with a definition in the region that reaches
// the start of a join block J (P itself when P is a block, or a region block
// reachable from two different successors of b) is "merged" at J: until it is
// written again, every read of it on paths from J is varying at that level
// (the threads that took different paths hold different values). This makes
// values carried out of a loop that exits on a varying condition varying
// after the loop (P is the exit block), while loop counters inside the loop
// stay uniform; an exit-only bypass (`@p exit`, P the virtual exit, no join)
// merges nothing. (Whether a definition reaches J comes from the reaching-
// definition bit sets, or, for a register written once by a write that
// dominates all its reads, from liveness at J.)
//
// Branches and blocks: a branch's variance is that of its condition read. A
// block is reached under divergent control at a level when it is
// (transitively) control-dependent on a branch varying at that level. A loop
// exits on a varying condition when an exit edge to a block leaves from a
// block that is a varying branch or is (transitively, within the loop)
// control-dependent on one.
//
// Reasons: each value records, per level, what first made it vary (an
// operand's reaching definition, a seed, or a merge after a branch), so a
// chain reads back to a seed: `%r7 ← add at line 14 ← %r1 ← %tid.x at line 12`,
// `%r4 merged at line 22 after the branch at line 16 ← %p2 ← setp at line 15 ← ...`.
//
// The fixpoint: a sparse worklist over instructions along def-use chains
// (each value's variance only grows, at most twice), alternating with the
// merged-register dataflow (a union over blocks, solved here) when branches become varying,
// and with re-checking broadcast stores' values.
import type * as A from '../../parser/ast.js';
import { SPECIAL_REGISTERS, type SregSpec } from '../../parser/isa/sregs.js';
import type { Cfg } from '../builder.js';
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import type { DomTree } from '../dominators.js';
import type { FlatInstruction, FunctionModel, RegisterSymbol, VariableSymbol } from '../symbols.js';
import { keepCompiled } from '../keep-compiled.js';
import { OTHER_OPCODE, opcodeName } from '../opcodes.js';
import { typeBytes } from '../symbols.js';
import { bitWords, ENTRY, reachingDefinitionsAnalysis, type ReachingDefinitions } from './reaching-definitions.js';
import { livenessAnalysis, type Liveness } from './liveness.js';
import { IntBuffer } from './int-buffer.js';
import { OperandKind } from '../operand-kinds.js';

/** May differ between the threads of one warp. */
export const WARP = 1;
/** May differ between the threads of one CTA. */
export const CTA = 2;
/** 0 (uniform), CTA (warp-uniform, CTA-varying) or CTA|WARP (thread-varying). */
export type Variance = number;
export type UniformityLevel = 'cta' | 'warp';

const bitOf = (level: UniformityLevel): number => (level === 'cta' ? CTA : WARP);
const norm = (v: number): number => v | ((v & WARP) << 1);

/** `uniform`, `warp-uniform` (varies between warps) or `thread-varying`. */
export function varianceWord(v: Variance): 'uniform' | 'warp-uniform' | 'thread-varying' {
  return (v & WARP) !== 0 ? 'thread-varying' : (v & CTA) !== 0 ? 'warp-uniform' : 'uniform';
}

// ---------------------------------------------------------------- opcode semantics

const K_PURE = 0;
const K_LOAD = 1;
const K_VARYING = 2;
const K_WARP_COLLECTIVE = 3;
const K_SHFL = 4;
const K_ELECT = 5;
const K_BAR_RED = 6;
const K_CALL = 7;

// Seeds: why a value varies when no operand explains it.
const SEED_SREG = 0;
const SEED_ATOMIC = 1;
const SEED_MEMORY = 2;
const SEED_FUNC_PARAM = 3;
const SEED_CALL = 4;
const SEED_SHUFFLE = 5;
const SEED_WARP_COLLECTIVE = 6;
const SEED_OPAQUE = 7;
const SEED_PARAM_REG = 8;
const SEED_ELECT = 9;
const SEED_CALL_PARAM = 10;
const SEED_BAR_COUNT = 11;
const SEED_NO_CONDITION = 12;
const seed = (code: number): number => -1 - code;

const SEED_TEXT: readonly string[] = [
  '', 'atomic result', 'load from memory written per thread', 'argument of a .func',
  'result of a call', 'lane-dependent shuffle', 'warp collective: equal within a warp only',
  'result differs per thread', 'parameter of a .func', 'elected-thread predicate',
  'argument or return value of a call', 'barrier reduction over a thread subset', 'branch without a known condition',
];

/** Opcodes whose results vary per thread regardless of operands. */
const VARYING_OPCODES: ReadonlyMap<string, number> = new Map([
  ['atom', SEED_ATOMIC],
  ...['mbarrier', 'mma', 'wmma', 'wgmma', 'ldmatrix', 'movmatrix', 'tcgen05', 'tex', 'tld4', 'suld',
    'alloca', 'stacksave', 'multimem', 'clusterlaunchcontrol'].map((o): [string, number] => [o, SEED_OPAQUE]),
]);

// What the setup asks of an opcode, in one lookup (a chain of a dozen comparisons and a map lookup for
// most instructions, which match none): flags, and for an instruction that writes a register its result
// kind (K_*, bits 8-11; absent: pure) and seed (bits 12 and up, for K_VARYING).
/** May read special registers (mov, cvt). */
const OP_SREGS = 1;
/** May write memory. */
const OP_WRITER = 2;
const OP_CALL = 4;
const OP_BAR = 8;
/** A writer with `.store` (wmma). */
const OP_STORE = 16;
/** Warp-uniform with `.all`, else varying (match). */
const OP_MATCH = 32;
const opKind = (kind: number, seedCode = 0): number => (kind << 8) | (seedCode << 12);
const OPCODES: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  const add = (ops: readonly string[], bits: number): void => {
    for (const op of ops) m.set(op, (m.get(op) ?? 0) | bits);
  };
  add(['mov', 'cvt'], OP_SREGS);
  add(['st', 'atom', 'red', 'cp', 'stmatrix', 'mbarrier', 'st.async', 'red.async', 'sust', 'sured'], OP_WRITER);
  add(['wmma'], OP_STORE);
  add(['call'], OP_CALL | opKind(K_CALL));
  add(['bar', 'barrier'], OP_BAR | opKind(K_BAR_RED));
  for (const [op, code] of VARYING_OPCODES) add([op], opKind(K_VARYING, code));
  add(['ld', 'ldu'], opKind(K_LOAD));
  add(['vote', 'redux', 'activemask'], opKind(K_WARP_COLLECTIVE));
  add(['match'], OP_MATCH);
  add(['shfl'], opKind(K_SHFL));
  add(['elect'], opKind(K_ELECT));
  return m;
})();

/** OPCODES by opcode number (src/cfg/opcodes.ts), filled as numbers are met; -1: not looked up yet. */
let FLAGS_BY_ID = new Int32Array(256).fill(-1);

/** An instruction's OPCODES entry (0 for none) from its opcode's number; its node read only for an opcode past
 *  the numbered ones. */
function opcodeFlags(id: number, ins: FlatInstruction): number {
  if (id === OTHER_OPCODE) return OPCODES.get(ins.node.opcode) ?? 0;
  if (id >= FLAGS_BY_ID.length) {
    const bigger = new Int32Array(Math.max(id + 1, 2 * FLAGS_BY_ID.length)).fill(-1);
    bigger.set(FLAGS_BY_ID);
    FLAGS_BY_ID = bigger;
  }
  let c = FLAGS_BY_ID[id]!;
  if (c === -1) c = FLAGS_BY_ID[id] = OPCODES.get(opcodeName(id)!) ?? 0;
  return c;
}

/** The state space a modifier names (`.shared::cta` → `.shared`), or undefined. */
function spaceOf(modifiers: readonly string[]): string | undefined {
  for (const m of modifiers) {
    switch (m) {
      case '.const': case '.param': case '.shared': case '.global': case '.local': return m;
      case '.shared::cta': return '.shared';
      case '.shared::cluster': return m;
      case '.param::entry': case '.param::func': return '.param';
      default: break;
    }
  }
  return undefined;
}

/** Bytes an access moves (type times vector lanes), when known. */
function accessWidth(modifiers: readonly string[]): number | undefined {
  let lanes = 1;
  let bytes: number | undefined;
  for (const m of modifiers) {
    if (m === '.v2' || m === '.v4' || m === '.v8') lanes = Number(m.slice(2));
    else {
      const b = typeBytes(m);
      if (b !== undefined) bytes = b;
    }
  }
  return bytes === undefined ? undefined : bytes * lanes;
}

function constValue(e: A.Expression): number | undefined {
  switch (e.kind) {
    case 'Int': return Number(e.value);
    case 'Unary': {
      const v = constValue(e.arg);
      return v === undefined ? undefined : e.op === '-' ? -v : e.op === '+' ? v : e.op === '~' ? ~v : undefined;
    }
    case 'Binary': {
      const l = constValue(e.left);
      const r = constValue(e.right);
      if (l === undefined || r === undefined) return undefined;
      return e.op === '+' ? l + r : e.op === '-' ? l - r : e.op === '*' ? l * r : undefined;
    }
    case 'List': return e.elements.length === 1 ? constValue(e.elements[0]!) : undefined;
    default: return undefined;
  }
}

const SREG_NAMES: ReadonlySet<string> = new Set(SPECIAL_REGISTERS.map((r) => r.name));
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** Whether a name may denote a special register (exact names, and the numbered families). No special
 *  register has a digit third or fourth but the counters `%pm0`..`%pm7`, where registers mostly do (`%r12`,
 *  `%rd3`, `%f1`): those are settled by two characters, not by hashing the name (each name a string of its own). */
function maySreg(name: string): boolean {
  const c2 = name.charCodeAt(2);
  if ((isDigit(c2) || isDigit(name.charCodeAt(3))) && !(name.charCodeAt(1) === 112 && c2 === 109)) return false;
  return SREG_NAMES.has(name) || name.startsWith('%envreg') || name.startsWith('%pm');
}

function sregVariance(spec: SregSpec): Variance {
  return spec.variance === 'thread' ? CTA | WARP : spec.variance === 'warp' ? CTA : 0;
}

function isCtaBarrier(node: A.Instruction, blockThreads: number | undefined): boolean {
  if (node.opcode !== 'bar' && node.opcode !== 'barrier') return false;
  const m = node.modifiers;
  if (m.includes('.warp') || m.includes('.arrive') || m.some((x) => x.startsWith('.cluster'))) return false;
  const red = m.includes('.red');
  if (!red && !m.includes('.sync')) return false;
  // bar.sync a{, b}; bar.red.op d, a{, b}, {!}c: the thread count b.
  const count = red ? (node.operands.length === 4 ? node.operands[2] : undefined) : node.operands[1];
  if (count === undefined) return true;
  const v = constValue(count);
  return v !== undefined && blockThreads !== undefined && v === blockThreads;
}


/** solveUniformity's scratch arrays, by role, kept from function to function: each is at least as long as
 *  asked, zeroed up to that length, and read only below it. (A dozen typed arrays allocated per function,
 *  each an ArrayBuffer with a backing store of its own, cost more than filling kept ones.) */
const SCRATCH_U8: Uint8Array[] = [];
const SCRATCH_I32: Int32Array[] = [];
const makeU8 = (n: number): Uint8Array => new Uint8Array(n);
const makeI32 = (n: number): Int32Array => new Int32Array(n);
function scratch<T extends Uint8Array | Int32Array>(kept: T[], make: (n: number) => T, role: number, length: number): T {
  const a = kept[role];
  if (a !== undefined && a.length >= length) {
    a.fill(0, 0, length);
    return a;
  }
  const b = make(Math.max(length, 2 * (a?.length ?? 512)));
  kept[role] = b;
  return b;
}
const scratchU8 = (role: number, length: number): Uint8Array => scratch(SCRATCH_U8, makeU8, role, length);
const scratchI32 = (role: number, length: number): Int32Array => scratch(SCRATCH_I32, makeI32, role, length);

/** Load addresses' reads (solveUniformity's scratch). */
const ITEMS = new IntBuffer();
/** The merges found so far, four numbers each (MERGE_*), and one branch region's registers with a simple
 *  definition (solveUniformity's scratch; a function's merges are copied out once, exact). */
const MERGES = new IntBuffer();
const SIMPLE_REGS = new IntBuffer();
const MERGE_BLOCK = 0;
const MERGE_REG = 1;
const MERGE_BRANCH = 2;
const MERGE_BITS = 3;
const MERGE_SIZE = 4;
/** The control dependences of a block that has none listed. */
const NO_BLOCKS: readonly number[] = [];
const NO_MERGES = new Int32Array(0);
const NO_LOADS: readonly number[] = [];
const NO_LOOPS: readonly LoopFact[] = [];

/** The bits merged so far per (join block, register): an open-addressing table kept from function to
 *  function. (A Map keyed by J * R + r allocated its entries' storage anew for every function, growing and
 *  rehashing.) Linear probing; a key is stored as J + 1 (0: empty) and r. */
class MergedBits {
  private keys = new Int32Array(2 * 1024);
  private bits = new Uint8Array(1024);
  /** Where a growth rehashes into: the arrays it replaces, kept for the next. */
  private spareKeys = new Int32Array(2 * 1024);
  private spareBits = new Uint8Array(1024);
  private capacity = 0;
  private shift = 32;
  private size = 0;

  /** Empty, for a function. */
  reset(): void {
    this.capacity = 64;
    this.shift = 26;
    this.size = 0;
    this.keys.fill(0, 0, 2 * 64);
  }

  /** The entry of (J, r), or the empty one where it would go. */
  private find(J: number, r: number): number {
    const keys = this.keys;
    const mask = this.capacity - 1;
    let h = Math.imul(Math.imul(J, 0x9e3779b1) ^ r, 0x85ebca6b) >>> this.shift;
    for (;;) {
      const k = keys[2 * h]!;
      if (k === 0 || (k === J + 1 && keys[2 * h + 1] === r)) return h;
      h = (h + 1) & mask;
    }
  }

  /** ORs `bits` into those of (J, r); returns those it had. */
  or(J: number, r: number, bits: number): number {
    let h = this.find(J, r);
    if (this.keys[2 * h] !== 0) {
      const had = this.bits[h]!;
      this.bits[h] = had | bits;
      return had;
    }
    if (2 * (this.size + 1) > this.capacity) {
      this.grow();
      h = this.find(J, r);
    }
    this.keys[2 * h] = J + 1;
    this.keys[2 * h + 1] = r;
    this.bits[h] = bits;
    this.size++;
    return 0;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldBits = this.bits;
    const old = this.capacity;
    const capacity = 2 * old;
    let keys = this.spareKeys;
    let bits = this.spareBits;
    if (keys.length < 2 * capacity) keys = new Int32Array(2 * capacity);
    if (bits.length < capacity) bits = new Uint8Array(capacity);
    keys.fill(0, 0, 2 * capacity);
    this.keys = keys;
    this.bits = bits;
    this.capacity = capacity;
    this.shift--;
    for (let e = 0; e < old; e++) {
      const k = oldKeys[2 * e]!;
      if (k === 0) continue;
      const h = this.find(k - 1, oldKeys[2 * e + 1]!);
      keys[2 * h] = k;
      keys[2 * h + 1] = oldKeys[2 * e + 1]!;
      bits[h] = oldBits[e]!;
    }
    this.spareKeys = oldKeys;
    this.spareBits = oldBits;
  }
}
const MERGED_BITS = new MergedBits();

// ---------------------------------------------------------------- results

export interface BranchFact {
  /** The block ending in the branch. */
  readonly block: number;
  /** The branch instruction (`@p bra`, `brx.idx`, `@p ret` ...). */
  readonly instruction: number;
  /** Variance of its condition. */
  readonly variance: Variance;
}

export interface LoopFact {
  /** Index in `ctx.loops(fn).loops`. */
  readonly loop: number;
  readonly header: number;
  /** Variance of the decision to leave the loop. */
  readonly exitVariance: Variance;
  /** A branch block responsible, or -1. */
  readonly exitBranch: number;
}

export interface Uniformity {
  readonly fn: FunctionModel;
  /** Variance of the value `reg` has when instruction `ins` reads it (0 when it does not). */
  useVariance(ins: number, reg: number | RegisterSymbol): Variance;
  /** Variance of the value instruction `ins` writes into `reg` (0 when it does not). */
  defVariance(ins: number, reg: number | RegisterSymbol): Variance;
  /** Variance of an operand expression of instruction `ins` (registers, special registers, immediates). */
  operandVariance(ins: number, operand: A.Expression): Variance;
  /** Whether the read of `reg` at `ins` is uniform at a level. */
  isUniform(ins: number, reg: number | RegisterSymbol, level: UniformityLevel): boolean;
  /** Conditional branches (blocks with two or more successors). */
  readonly branches: readonly BranchFact[];
  /** The branch ending `block`, if it is conditional. */
  branchOf(block: number): BranchFact | undefined;
  /** Variance of the condition of the branch instruction `ins` (0 when not a conditional branch). */
  branchVariance(ins: number): Variance;
  /** Whether some threads may skip the block, by level. */
  blockDivergence(block: number): Variance;
  /** Per loop of `ctx.loops(fn)`. */
  readonly loops: readonly LoopFact[];
  /** Shared loads recognized as broadcasts (instruction indices). */
  readonly broadcasts: readonly number[];
  /** Why the read of `reg` at `ins` varies at a level, as a chain; undefined when uniform. */
  explainUse(ins: number, reg: number | RegisterSymbol, level?: UniformityLevel): string | undefined;
  /** Why the value `ins` writes into `reg` varies at a level; undefined when uniform. */
  explainDef(ins: number, reg: number | RegisterSymbol, level?: UniformityLevel): string | undefined;
  /** Why the branch ending `block` is varying; undefined when uniform. */
  explainBranch(block: number, level?: UniformityLevel): string | undefined;
  /** Worklist steps, merged-register solves and broadcast re-checks, for tests of cost. */
  readonly stats: { readonly evaluations: number; readonly rounds: number; readonly regionBlocks: number; readonly merges: number };
}

interface Base {
  readonly sym: VariableSymbol;
  /** Constant byte offset, or undefined when it is not constant. */
  readonly offset: number | undefined;
}

const LOAD_UNIFORM_AT_ADDRESS = 0;
const LOAD_MEMORY = 1;
const LOAD_FUNC_PARAM = 2;
const LOAD_CALL_PARAM = 3;
const LOAD_SHARED = 4;

/** What the fixpoint leaves for the queries. (Each kind of array is one array, in parts, and both one
 *  buffer: a function's dozen typed arrays were a dozen backing stores.) */
interface Solved {
  readonly cfg: Cfg;
  readonly rd: ReachingDefinitions;
  /** Variances: of the definitions [0, D), the reads (use slots) [D, D + U), the branches (by block)
   *  [D + U, D + U + B), and the blocks' divergence [D + U + B, D + U + 2B). */
  readonly vars: Uint8Array;
  /** Reasons, per level, WARP's then CTA's: of the definitions [0, 2D), the reads [2D, 2D + 2U), the
   *  branches [2D + 2U, 2D + 2U + 2B). */
  readonly whys: Int32Array;
  /** Register r merged at block J because of branch b at level bits, MERGE_SIZE numbers each. */
  readonly merges: Int32Array;
  readonly loopFacts: readonly LoopFact[];
  readonly branches: readonly BranchFact[];
  readonly broadcasts: readonly number[];
  readonly stats: Uniformity['stats'];
}

function solveUniformity(ctx: AnalysisContext, fn: FunctionModel): Solved {
  const cfg = ctx.cfg(fn);
  const rd = ctx.get(fn, reachingDefinitionsAnalysis);
  const t = rd.table;
  const n = t.instructionCount;
  const R = t.registerCount;
  const B = cfg.blocks.length;
  const D = rd.definitionCount;
  const U = t.useReg.length;
  const { useStart, useReg, useIns, defStart } = t;
  const { rdStart, rdDef, duStart, duUse, defIns, defIdOfSlot } = rd;
  const blockOf = cfg.blockOf;
  const ins = fn.instructions;
  const dims = ctx.blockSize(fn);
  const blockThreads = dims === undefined ? undefined : dims[0] * dims[1] * dims[2];

  // ------------------------------------------------------------ state
  // (Views of the two arrays the facts keep, see Solved; both in one buffer, one backing store.)
  const whyLength = 2 * (D + U + B);
  const kept = new ArrayBuffer(4 * whyLength + D + U + 2 * B);
  const whys = new Int32Array(kept, 0, whyLength);
  const vars = new Uint8Array(kept, 4 * whyLength, D + U + 2 * B);
  const defVar = vars.subarray(0, D);
  const useVar = vars.subarray(D, D + U);
  const branchVar = vars.subarray(D + U, D + U + B);
  const taint = scratchU8(0, U);
  const defWhyW = whys.subarray(0, D);
  const defWhyC = whys.subarray(D, 2 * D);
  const useWhyW = whys.subarray(2 * D, 2 * D + U);
  const useWhyC = whys.subarray(2 * D + U, 2 * (D + U));
  const branchWhyW = whys.subarray(2 * (D + U), 2 * (D + U) + B);
  const branchWhyC = whys.subarray(2 * (D + U) + B, 2 * (D + U + B));
  // The block a conditional branch ends, by instruction (-1: none).
  const termBlock = scratchI32(12, n).fill(-1, 0, n);
  const kind = scratchU8(1, n);
  const seedOf = scratchU8(2, n);
  const sregVar = scratchU8(3, n);
  const loadClass = scratchU8(4, n);
  const guardSlot = scratchI32(0, n).fill(-1, 0, n);
  // The worklist: a first sweep in program order over the instructions flagged in `queued`, then a FIFO of
  // those queued again behind the sweep (drain). An instruction whose reads are all uniform and that seeds
  // nothing changes nothing when evaluated: only those that may are flagged for the sweep (the seeds below,
  // the reads of the entry definitions; the evaluations flag the reads their definitions reach).
  const queue = scratchI32(2, n);
  const queued = scratchU8(6, n);

  // Entry definitions: `.func` register parameters vary. (The model declares the parameters first: they
  // are the first registers, and the walk stops at the first other one, not touching every register.)
  // (Indexed loops here and below: a for-of met unoptimized, as this function runs at first, allocates an
  // iterator and a result per step.)
  const registers = fn.registers;
  for (let k = 0; k < registers.length; k++) {
    const r = registers[k]!;
    if (!r.isParam) break;
    const d = rd.regBase[r.id]!;
    defVar[d] = CTA | WARP;
    defWhyW[d] = defWhyC[d] = seed(SEED_PARAM_REG);
    for (let e = duStart[d]!; e < duStart[d + 1]!; e++) queued[useIns[duUse[e]!]!] = 1;
  }

  // Conditional branches.
  for (let x = 0; x < B; x++) {
    const b = cfg.blocks[x]!;
    if (b.succs.length >= 2 && b.end > b.start) {
      termBlock[b.end - 1] = b.id;
      queued[b.end - 1] = 1;
    }
  }

  // ------------------------------------------------------------ operand registers
  // The walks below take, with an expression, `first`: the register its first name denotes when the
  // model's operand table says so (the name at the end of the chain of first children of an operand:
  // the first the model's walk met in it), else -1. A name known to be that register skips the symbol
  // lookup (a hash of the name, and a read of its string: a cache miss each).
  const { operandStart, operandRegister, operandKind } = fn.effectTable;
  /** The register the first name of operand k of instruction j denotes, or -1. */
  const opReg = (j: number, k: number): number => operandRegister[operandStart[j]! + k]!;

  // ------------------------------------------------------------ address bases
  const baseMemo = new Map<number, Base | null>();
  const resolveExpr = (i: number, e: A.Expression, depth: number, first: number): Base | undefined => {
    if (depth > 16) return undefined;
    switch (e.kind) {
      case 'Name': {
        if (first >= 0) return resolveReg(i, first, depth);
        const s = fn.resolve(e);
        if (s?.kind === 'variable') return { sym: s, offset: 0 };
        if (s?.kind === 'register') return resolveReg(i, s.id, depth);
        return undefined;
      }
      case 'Binary': {
        if (e.op !== '+' && e.op !== '-') return undefined;
        const c = constValue(e.right);
        const l = resolveExpr(i, e.left, depth + 1, first);
        if (l !== undefined) {
          return { sym: l.sym, offset: c === undefined || l.offset === undefined ? undefined : e.op === '+' ? l.offset + c : l.offset - c };
        }
        if (e.op === '+') {
          const c2 = constValue(e.left);
          const r = resolveExpr(i, e.right, depth + 1, -1);
          if (r !== undefined) return { sym: r.sym, offset: c2 === undefined || r.offset === undefined ? undefined : r.offset + c2 };
        }
        return undefined;
      }
      case 'List': return e.elements.length === 1 ? resolveExpr(i, e.elements[0]!, depth + 1, first) : undefined;
      default: return undefined;
    }
  };
  const singleDef = (i: number, reg: number): number => {
    const s = t.useSlot(i, reg);
    if (s === -1 || rdStart[s + 1]! - rdStart[s]! !== 1) return -1;
    const d = rdDef[rdStart[s]!]!;
    return defIns[d] === ENTRY ? -1 : d;
  };
  const resolveReg = (i: number, reg: number, depth: number): Base | undefined => {
    const d = singleDef(i, reg);
    if (d === -1) return undefined;
    const hit = baseMemo.get(d);
    if (hit !== undefined) return hit ?? undefined;
    baseMemo.set(d, null);
    const j = defIns[d]!;
    const node = ins[j]!.node;
    const ops = node.operands;
    let out: Base | undefined;
    if ((node.opcode === 'mov' || node.opcode === 'cvta' || node.opcode === 'cvt') && ops.length === 2) {
      out = resolveExpr(j, ops[1]!, depth + 1, opReg(j, 1));
    } else if ((node.opcode === 'add' || node.opcode === 'sub') && ops.length === 3) {
      const ca = constValue(ops[1]!);
      const cb = constValue(ops[2]!);
      const ra = ca === undefined ? resolveExpr(j, ops[1]!, depth + 1, opReg(j, 1)) : undefined;
      const rb = cb === undefined && node.opcode === 'add' ? resolveExpr(j, ops[2]!, depth + 1, opReg(j, 2)) : undefined;
      if (ra !== undefined && rb === undefined) {
        out = { sym: ra.sym, offset: cb === undefined || ra.offset === undefined ? undefined : node.opcode === 'add' ? ra.offset + cb : ra.offset - cb };
      } else if (rb !== undefined && ra === undefined) {
        out = { sym: rb.sym, offset: ca === undefined || rb.offset === undefined ? undefined : rb.offset + ca };
      }
    } else if (node.opcode === 'mad' && ops.length === 4 && !node.modifiers.includes('.hi')) {
      // `mad.lo r, i, 4, sym`: the addend is the base, at a non-constant offset.
      const rc = resolveExpr(j, ops[3]!, depth + 1, opReg(j, 3));
      if (rc !== undefined && resolveExpr(j, ops[1]!, depth + 1, opReg(j, 1)) === undefined
        && resolveExpr(j, ops[2]!, depth + 1, opReg(j, 2)) === undefined) {
        out = { sym: rc.sym, offset: undefined };
      }
    }
    baseMemo.set(d, out ?? null);
    return out;
  };
  /** The rank of instruction i's first address operand, or -1 (from the model's operand kinds). */
  const addressOperand = (i: number): number => {
    const o0 = operandStart[i]!;
    const o1 = operandStart[i + 1]!;
    for (let k = o0; k < o1; k++) if (operandKind[k] === OperandKind.Address) return k - o0;
    return -1;
  };
  const resolveAddress = (i: number, a: A.AddressExpr, first: number): Base | undefined =>
    (a.elements.length === 1 ? resolveExpr(i, a.elements[0]!, 0, first) : undefined);

  // ------------------------------------------------------------ per-instruction setup
  const walkSregs = (e: A.Expression, first: number): number => {
    switch (e.kind) {
      case 'Name': {
        // Registers, and names that cannot be special registers, skip the symbol table.
        if (first >= 0 || !maySreg(e.name)) return 0;
        const s = fn.resolve(e);
        return s?.kind === 'sreg' ? sregVariance(s.spec) : 0;
      }
      case 'Unary': case 'Cast': return walkSregs(e.arg, first);
      case 'Binary': return walkSregs(e.left, first) | walkSregs(e.right, -1);
      case 'Conditional': return walkSregs(e.test, first) | walkSregs(e.then, -1) | walkSregs(e.otherwise, -1);
      case 'Vector': case 'Address': case 'List': {
        let v = 0;
        const elements = e.elements;
        for (let k = 0; k < elements.length; k++) v |= walkSregs(elements[k]!, k === 0 ? first : -1);
        return v;
      }
      case 'PredPair': return walkSregs(e.first, first) | walkSregs(e.second, -1);
      default: return 0;
    }
  };
  let hasCall = false;
  const writers: number[] = [];
  const barInstructions: number[] = [];
  const candidates: number[] = [];
  const candidateBases: Base[] = [];
  const itemBuffer = ITEMS.reset();
  const itemStart = scratchI32(1, n + 1);
  const guarded = fn.effectTable.guarded;
  const opcodes = fn.effectTable.opcode;
  for (let i = 0; i < n; i++) {
    itemStart[i] = itemBuffer.length;
    // A guard register is the instruction's first read: the model lists it first and says so.
    if (guarded[i] === 2) guardSlot[i] = useStart[i]!;
    const hasDefs = defStart[i + 1]! > defStart[i]!;
    // (The opcode from the model's table: most instructions' syntax nodes are not read at all.)
    const c = opcodeFlags(opcodes[i]!, ins[i]!);
    // Special registers are read by mov and cvt only (ptxas rejects them
    // anywhere else; WARP_SZ, allowed everywhere, is uniform).
    if ((c & OP_SREGS) !== 0) {
      // (Each operand by the model's record of what it is: a register's name, an immediate or a variable holds
      // no special register, and its node is not read.)
      const o0 = operandStart[i]!;
      const nOps = operandStart[i + 1]! - o0;
      let sv = 0;
      for (let k = hasDefs ? 1 : 0; k < nOps; k++) {
        const ok = operandKind[o0 + k]!;
        if (ok === OperandKind.Register || ok === OperandKind.Variable || ok === OperandKind.OtherName || ok === OperandKind.Int || ok === OperandKind.Float) continue;
        sv |= walkSregs(ins[i]!.node.operands[k]!, opReg(i, k));
      }
      sregVar[i] = sv;
    }
    if ((c & OP_CALL) !== 0) hasCall = true;
    else if ((c & OP_WRITER) !== 0 || ((c & OP_STORE) !== 0 && ins[i]!.node.modifiers.includes('.store'))) writers.push(i);
    // (Whether a barrier is a CTA barrier only matters to broadcasts, which ask it of these.)
    else if ((c & OP_BAR) !== 0) barInstructions.push(i);
    if (!hasDefs) continue;
    if ((c & OP_MATCH) !== 0) {
      if (ins[i]!.node.modifiers.includes('.all')) kind[i] = K_WARP_COLLECTIVE;
      else {
        kind[i] = K_VARYING;
        seedOf[i] = SEED_OPAQUE;
      }
    } else {
      const k = (c >>> 8) & 15;
      kind[i] = k;
      if (k === K_VARYING) seedOf[i] = c >>> 12;
      else if (k === K_LOAD) {
        const node = ins[i]!.node;
        const a = addressOperand(i);
        const addr = a === -1 ? undefined : node.operands[a] as A.AddressExpr;
        const first = a === -1 ? -1 : opReg(i, a);
        loadClass[i] = classifyLoad(i, node, addr, first);
        if (addr !== undefined) addressItems(i, addr, first);
      }
    }
    // Seeds (drain's evaluation with every read uniform): other kinds; special registers; loads of memory
    // written per thread (a shared one while it may be a broadcast too, simply), or at a special register.
    const k = kind[i]!;
    if ((k !== K_PURE && k !== K_LOAD) || sregVar[i] !== 0) queued[i] = 1;
    else if (k === K_LOAD) {
      if (loadClass[i] !== LOAD_UNIFORM_AT_ADDRESS) queued[i] = 1;
      else for (let q = itemStart[i]!; q < itemBuffer.length; q++) if (itemBuffer.data[q]! < 0) queued[i] = 1;
    }
  }

  itemStart[n] = itemBuffer.length;
  const items = itemBuffer.data;

  /** A load address's reads, in the order exprVar meets them: a use slot, or a special register as
   *  -1 - variance (the fixpoint replays them without the expression tree). */
  function addressItems(i: number, e: A.Expression, first: number): void {
    switch (e.kind) {
      case 'Name': {
        if (first >= 0) {
          const slot = t.useSlot(i, first);
          if (slot !== -1) itemBuffer.push(slot);
          return;
        }
        const s = fn.resolve(e);
        if (s?.kind === 'register') {
          const slot = t.useSlot(i, s.id);
          if (slot !== -1) itemBuffer.push(slot);
        } else if (s?.kind === 'sreg') {
          const v = sregVariance(s.spec);
          if (v !== 0) itemBuffer.push(-1 - v);
        }
        return;
      }
      case 'Unary': case 'Cast': addressItems(i, e.arg, first); return;
      case 'Binary': addressItems(i, e.left, first); addressItems(i, e.right, -1); return;
      case 'Conditional': addressItems(i, e.test, first); addressItems(i, e.then, -1); addressItems(i, e.otherwise, -1); return;
      case 'Vector': case 'Address': case 'List': {
        const elements = e.elements;
        for (let k = 0; k < elements.length; k++) addressItems(i, elements[k]!, k === 0 ? first : -1);
        return;
      }
      case 'PredPair': addressItems(i, e.first, first); addressItems(i, e.second, -1); return;
      default: return;
    }
  }

  /** A load's class (LOAD_*); a shared load that may be a broadcast is listed in `candidates`, with its
   *  address's base in `candidateBases`. */
  function classifyLoad(i: number, node: A.Instruction, addr: A.AddressExpr | undefined, first: number): number {
    const m = node.modifiers;
    const declared = spaceOf(m);
    // Most loads name their space; only generic, shared and kernel-param
    // loads need the symbol their address derives from.
    if (declared === '.global') return m.includes('.nc') || node.opcode === 'ldu' ? LOAD_UNIFORM_AT_ADDRESS : LOAD_MEMORY;
    if (declared === '.const') return LOAD_UNIFORM_AT_ADDRESS;
    if (declared === '.local' || declared === '.shared::cluster') return LOAD_MEMORY;
    if (declared === '.param' && !fn.isEntry) return LOAD_FUNC_PARAM;
    const base = addr === undefined ? undefined : resolveAddress(i, addr, first);
    const space = declared ?? base?.sym.space;
    if (node.opcode === 'ldu' || m.includes('.nc')) return space === undefined || space === '.global' ? LOAD_UNIFORM_AT_ADDRESS : LOAD_MEMORY;
    if (space === '.const') return LOAD_UNIFORM_AT_ADDRESS;
    if (space === '.param') {
      if (!fn.isEntry) return LOAD_FUNC_PARAM;
      if (base !== undefined && !(base.sym.isParam && !base.sym.global)) return LOAD_CALL_PARAM;
      return LOAD_UNIFORM_AT_ADDRESS;
    }
    if (space === '.shared' && base !== undefined && base.offset !== undefined && base.sym.space === '.shared') {
      candidates.push(i);
      candidateBases.push(base);
      return LOAD_SHARED;
    }
    return LOAD_MEMORY;
  }

  // ------------------------------------------------------------ broadcasts (static part)
  // bcast: 1 while a load is a broadcast candidate; writers per candidate.
  const bcast = scratchU8(5, n);
  const bcastWriters = new Map<number, { readonly writers: number[]; readonly single: boolean[] }>();
  if (candidates.length > 0 && !hasCall) analyzeBroadcasts();

  function analyzeBroadcasts(): void {
    interface Write { readonly ins: number; readonly offset: number; readonly width: number; readonly plain: boolean }
    const writesOf = new Map<VariableSymbol, Write[]>();
    const candidateSyms = new Set<VariableSymbol>();
    for (const base of candidateBases) candidateSyms.add(base.sym);
    // Candidate symbols written at an unknown offset or width: none of their loads is a broadcast (below), and
    // once every candidate symbol is one, no load is: the remaining writes need not be resolved.
    const unplaced = new Set<VariableSymbol>();
    for (const i of writers) {
      const node = ins[i]!.node;
      const op = node.opcode;
      let k = -1; // the address operand's rank
      const ops = node.operands;
      for (let o = 0; o < ops.length; o++) {
        const a = ops[o]!;
        if (a.kind !== 'Address') continue;
        k++;
        // cp writes its destination (and signals its mbarrier), not its source.
        if (op === 'cp' && k === 1) continue;
        const base = resolveAddress(i, a, opReg(i, o));
        if (base === undefined) {
          // A write that may be to shared memory, at an unknown place: no load is a broadcast.
          if (spaceOf(node.modifiers) === undefined || node.modifiers.some((m) => m.startsWith('.shared'))) return;
          continue;
        }
        if (!candidateSyms.has(base.sym) || unplaced.has(base.sym)) continue;
        const width = accessWidth(node.modifiers);
        if (base.offset === undefined || width === undefined) {
          unplaced.add(base.sym);
          if (unplaced.size === candidateSyms.size) return;
          continue;
        }
        const plain = op === 'st' && !node.modifiers.includes('.async');
        let list = writesOf.get(base.sym);
        if (list === undefined) {
          list = [];
          writesOf.set(base.sym, list);
        }
        list.push({ ins: i, offset: base.offset, width, plain });
      }
    }
    // Candidate loads grouped by location.
    const groups = new Map<string, { loads: number[]; writers: number[] }>();
    const symIds = new Map<VariableSymbol, number>();
    for (let c = 0; c < candidates.length; c++) {
      const i = candidates[c]!;
      const base = candidateBases[c]!;
      const width = accessWidth(ins[i]!.node.modifiers);
      if (width === undefined || base.offset === undefined || unplaced.has(base.sym)) continue;
      const lo = base.offset;
      let ok = true;
      const exact: number[] = [];
      for (const w of writesOf.get(base.sym) ?? []) {
        const overlaps = w.offset < lo + width && lo < w.offset + w.width;
        if (!overlaps) continue;
        if (w.offset === lo && w.width === width && w.plain) exact.push(w.ins);
        else { ok = false; break; }
      }
      if (!ok) continue;
      if (!symIds.has(base.sym)) symIds.set(base.sym, symIds.size);
      const key = `${symIds.get(base.sym)!}:${lo}:${width}`;
      const g = groups.get(key) ?? { loads: [], writers: exact };
      g.loads.push(i);
      groups.set(key, g);
    }
    if (groups.size === 0) return;
    // Barrier separation.
    const barriers = barInstructions.filter((i) => isCtaBarrier(ins[i]!.node, blockThreads));
    const isBar = new Uint8Array(n);
    const firstBar = new Int32Array(B).fill(-1);
    for (let k = barriers.length - 1; k >= 0; k--) {
      const i = barriers[k]!;
      isBar[i] = 1;
      firstBar[blockOf[i]!] = i;
    }
    const entered = new Uint8Array(B);
    const reachFree = (sources: readonly number[], targets: readonly number[]): boolean => {
      entered.fill(0);
      const stack: number[] = [];
      const enter = (x: number): void => {
        if (x === cfg.exit || entered[x] === 1) return;
        entered[x] = 1;
        if (firstBar[x] === -1) stack.push(x);
      };
      const open: [number, number][] = [];
      for (const s of sources) {
        const b = cfg.blocks[blockOf[s]!]!;
        let j = s + 1;
        while (j < b.end && isBar[j] === 0) j++;
        open.push([s, j]);
        if (j === b.end) for (const y of b.succs) enter(y);
      }
      while (stack.length > 0) for (const y of cfg.blocks[stack.pop()!]!.succs) enter(y);
      for (const tgt of targets) {
        const bt = blockOf[tgt]!;
        if (entered[bt] === 1 && (firstBar[bt] === -1 || tgt < firstBar[bt]!)) return true;
        for (const [s, j] of open) if (blockOf[s] === bt && s < tgt && tgt < j) return true;
      }
      return false;
    };
    const dom = ctx.dominators(fn);
    const cd = ctx.controlDependence(fn);
    for (const g of groups.values()) {
      if (g.writers.length > 0 && (reachFree(g.writers, g.loads) || reachFree(g.loads, g.writers))) continue;
      const single = g.writers.map((w) => singleThreadStore(w, dom, cd));
      for (const l of g.loads) {
        bcast[l] = 1;
        bcastWriters.set(l, { writers: g.writers, single });
      }
    }
  }

  /** Is `e` at instruction `i` %tid.{x,y,z}, directly or through one mov/cvt? */
  function isThreadIndex(i: number, e: A.Expression, depth = 0): boolean {
    if (e.kind !== 'Name') return false;
    const s = fn.resolve(e);
    if (s?.kind === 'sreg') return s.spec.name === '%tid';
    if (s?.kind !== 'register' || depth > 2) return false;
    const d = singleDef(i, s.id);
    if (d === -1) return false;
    const j = defIns[d]!;
    const node = ins[j]!.node;
    return (node.opcode === 'mov' || node.opcode === 'cvt') && node.operands.length === 2 && isThreadIndex(j, node.operands[1]!, depth + 1);
  }

  /** Does guard `guard` (negated when `negated`) at instruction `i` hold only where %tid equals a constant? */
  function tidEquality(i: number, guard: A.Guard, negated: boolean): boolean {
    const sym = fn.resolveGuard(guard);
    const g = sym?.kind === 'register' ? sym : undefined;
    if (g === undefined) return false;
    const d = singleDef(i, g.id);
    if (d === -1) return false;
    const j = defIns[d]!;
    const node = ins[j]!.node;
    if (node.opcode !== 'setp' || node.operands.length !== 3) return false;
    let eq = node.modifiers.includes('.eq') ? true : node.modifiers.includes('.ne') ? false : undefined;
    if (eq === undefined) return false;
    const dest = node.operands[0]!;
    if (dest.kind === 'PredPair') {
      if (dest.second.kind === 'Name' && fn.resolve(dest.second) === g) eq = !eq;
    }
    if (negated) eq = !eq;
    if (!eq) return false;
    const [a, b] = [node.operands[1]!, node.operands[2]!];
    return (isThreadIndex(j, a) && constValue(b) !== undefined) || (isThreadIndex(j, b) && constValue(a) !== undefined);
  }

  function singleThreadStore(w: number, dom: DomTree, cd: readonly (readonly number[])[]): boolean {
    const node = ins[w]!.node;
    if (node.guard !== undefined && tidEquality(w, node.guard, node.guard.negated)) return true;
    const x = blockOf[w]!;
    for (const b of cd[x] ?? []) {
      const blk = cfg.blocks[b]!;
      const term = ins[blk.end - 1]!.node;
      if (term.opcode !== 'bra' || term.guard === undefined) continue;
      const target = term.operands[0];
      const label = target?.kind === 'Name' ? fn.resolve(target) : undefined;
      if (label?.kind !== 'label') continue;
      const taken = label.target >= n ? B - 1 : blockOf[label.target]!;
      const fall = blk.end >= n ? -1 : blockOf[blk.end]!;
      let equal = -1;
      if (tidEquality(blk.end - 1, term.guard, term.guard.negated)) equal = taken;
      else if (tidEquality(blk.end - 1, term.guard, !term.guard.negated)) equal = fall;
      if (equal === -1 || (equal === taken && equal === fall)) continue;
      const preds = cfg.blocks[equal]!.preds;
      if (preds.length === 1 && preds[0] === b && dom.dominates(equal, x)) return true;
    }
    return false;
  }

  // ------------------------------------------------------------ evaluation
  let accV = 0;
  let accW = 0;
  let accC = 0;
  const acc = (bits: number, why: number): void => {
    const v = norm(bits);
    if ((v & WARP) !== 0 && (accV & WARP) === 0) accW = why;
    if ((v & CTA) !== 0 && (accV & CTA) === 0) accC = why;
    accV |= v;
  };
  /** Adds the variance of an operand expression (masked) to the accumulator (`first`: see opReg). */
  const exprVar = (i: number, e: A.Expression, first: number, mask = CTA | WARP): void => {
    switch (e.kind) {
      case 'Name': {
        const s = first >= 0 ? undefined : fn.resolve(e);
        const reg = first >= 0 ? first : s?.kind === 'register' ? s.id : -1;
        if (reg >= 0) {
          const slot = t.useSlot(i, reg);
          if (slot !== -1) acc(useVar[slot]! & mask, slot);
        } else if (s?.kind === 'sreg') acc(sregVariance(s.spec) & mask, seed(SEED_SREG));
        return;
      }
      case 'Unary': case 'Cast': exprVar(i, e.arg, first, mask); return;
      case 'Binary': exprVar(i, e.left, first, mask); exprVar(i, e.right, -1, mask); return;
      case 'Conditional': exprVar(i, e.test, first, mask); exprVar(i, e.then, -1, mask); exprVar(i, e.otherwise, -1, mask); return;
      case 'Vector': case 'Address': case 'List': {
        const elements = e.elements;
        for (let k = 0; k < elements.length; k++) exprVar(i, elements[k]!, k === 0 ? first : -1, mask);
        return;
      }
      case 'PredPair': exprVar(i, e.first, first, mask); exprVar(i, e.second, -1, mask); return;
      default: return;
    }
  };
  /** The variance of an operand, leaving the accumulator as it was. */
  const probe = (i: number, e: A.Expression, first: number): number => {
    const v = accV;
    const w = accW;
    const c = accC;
    accV = 0;
    exprVar(i, e, first);
    const r = accV;
    accV = v;
    accW = w;
    accC = c;
    return r;
  };

  let qHead = 0;
  let qLen = 0;
  const push = (i: number): void => {
    if (queued[i] === 1) return;
    queued[i] = 1;
    queue[(qHead + qLen) % n] = i;
    qLen++;
  };
  const pendingBranches: number[] = [];
  // The first sweep's next instruction (n once done). It evaluates every instruction as far as the facts
  // show (one each, whether skipped or not), as the queue of all instructions in order did.
  let sweep = 0;
  let evaluations = n;

  /** A conditional branch's condition (the accumulator is this function's). */
  const evaluateBranch = (i: number, b: number, gs: number): void => {
    const node = ins[i]!.node;
    accV = accW = accC = 0;
    if (gs !== -1) acc(useVar[gs]!, gs);
    if (node.opcode === 'brx' && node.operands[0] !== undefined) exprVar(i, node.operands[0], opReg(i, 0));
    if (gs === -1 && node.opcode !== 'brx') acc(CTA | WARP, seed(SEED_NO_CONDITION));
    const fresh = accV & ~branchVar[b]!;
    if (fresh !== 0) {
      if ((fresh & WARP) !== 0) branchWhyW[b] = accW;
      if ((fresh & CTA) !== 0) branchWhyC[b] = accC;
      branchVar[b]! |= fresh;
      pendingBranches.push(b);
    }
  };
  /** The rare result kinds (barrier reductions, shuffles, elect), on the accumulator the guard started;
   *  returns elect's predicate register, or -1. */
  const evaluateRare = (i: number, k: number): number => {
    const node = ins[i]!.node;
    switch (k) {
      case K_BAR_RED: {
        const count = node.operands.length === 4 ? node.operands[2] : undefined;
        if (count !== undefined) acc(CTA, seed(SEED_BAR_COUNT));
        return -1;
      }
      case K_SHFL: {
        const ops = node.operands;
        const lane = ops[2];
        const clamp = ops[3] === undefined ? undefined : constValue(ops[3]);
        if (node.modifiers.includes('.idx') && lane !== undefined && clamp !== undefined && ((clamp >> 8) & 0x1f) === 0
          && (probe(i, lane, opReg(i, 2)) & WARP) === 0) {
          // Every lane reads the same lane's value: equal within the warp.
          for (let x = 1; x < ops.length; x++) exprVar(i, ops[x]!, opReg(i, x), CTA);
          return -1;
        }
        acc(CTA | WARP, seed(SEED_SHUFFLE));
        return -1;
      }
      case K_ELECT: {
        acc(CTA, seed(SEED_WARP_COLLECTIVE));
        const dest = node.operands[0];
        if (dest?.kind === 'PredPair' && dest.second.kind === 'Name') {
          const s = fn.resolve(dest.second);
          if (s?.kind === 'register') return s.id;
        }
        return -1;
      }
      default: return -1;
    }
  };

  /** Evaluates queued instructions until none is left. One loop over local copies of the arrays (this was
   *  evaluate, setDef, push, useReason and acc as closures: each typed-array read went through the
   *  closure's context, and each call cost more than its body); the rare kinds and branches call out.
   *  The order of evaluation, and so every reason recorded, is the same. The first sweep in program order
   *  evaluates only the flagged instructions (the queue of every instruction in order evaluated each one:
   *  on scan_reduce 12% of them had no read that varies and no seed): a skipped one would have changed
   *  nothing, and the evaluations that do change something come in the same order (those behind the sweep
   *  queued again, as before, those ahead of it met by it). */
  const drain = (): void => {
    const useVar_ = useVar;
    const defVar_ = defVar;
    const taint_ = taint;
    const rdStart_ = rdStart;
    const rdDef_ = rdDef;
    const duStart_ = duStart;
    const duUse_ = duUse;
    const useStart_ = useStart;
    const useIns_ = useIns;
    const defStart_ = defStart;
    const defIdOfSlot_ = defIdOfSlot;
    const defReg_ = t.defReg;
    const useWhyW_ = useWhyW;
    const useWhyC_ = useWhyC;
    const defWhyW_ = defWhyW;
    const defWhyC_ = defWhyC;
    const kind_ = kind;
    const guardSlot_ = guardSlot;
    const termBlock_ = termBlock;
    const sregVar_ = sregVar;
    const loadClass_ = loadClass;
    const bcast_ = bcast;
    const itemStart_ = itemStart;
    const items_ = items;
    const seedOf_ = seedOf;
    const queue_ = queue;
    const queued_ = queued;
    let head = qHead;
    let len = qLen;
    let count = 0;
    let cur = sweep;
    for (;;) {
      let i: number;
      if (cur < n) {
        // The first sweep: the next flagged instruction.
        while (cur < n && queued_[cur] === 0) cur++;
        if (cur === n) continue;
        i = cur++;
      } else if (len > 0) {
        i = queue_[head]!;
        head = (head + 1) % n;
        len--;
        count++;
      } else break;
      queued_[i] = 0;
      // Reads.
      const u0 = useStart_[i]!;
      const u1 = useStart_[i + 1]!;
      for (let s = u0; s < u1; s++) {
        const tv = taint_[s]!;
        let v = tv;
        const k0 = rdStart_[s]!;
        const k1 = rdStart_[s + 1]!;
        for (let k = k0; k < k1; k++) v |= defVar_[rdDef_[k]!]!;
        const fresh = v & ~useVar_[s]!;
        if (fresh === 0) continue;
        // The reason per new bit: -1 (merged) when the taint has it, else the first reaching definition
        // that has it.
        if ((fresh & WARP) !== 0) {
          let why = -1;
          if ((tv & WARP) === 0) for (let k = k0; k < k1; k++) if ((defVar_[rdDef_[k]!]! & WARP) !== 0) { why = rdDef_[k]!; break; }
          useWhyW_[s] = why;
        }
        if ((fresh & CTA) !== 0) {
          let why = -1;
          if ((tv & CTA) === 0) for (let k = k0; k < k1; k++) if ((defVar_[rdDef_[k]!]! & CTA) !== 0) { why = rdDef_[k]!; break; }
          useWhyC_[s] = why;
        }
        useVar_[s] = v;
      }
      const gs = guardSlot_[i]!;
      const b = termBlock_[i]!;
      if (b !== -1) evaluateBranch(i, b, gs);
      const d0 = defStart_[i]!;
      const d1 = defStart_[i + 1]!;
      if (d0 === d1) continue;
      // The accumulator: variance, and the reason each bit first came from (acc, inlined).
      let av = 0;
      let aw = 0;
      let ac = 0;
      if (gs !== -1) {
        const x = norm(useVar_[gs]!);
        if ((x & WARP) !== 0) aw = gs;
        if ((x & CTA) !== 0) ac = gs;
        av = x;
      }
      const k = kind_[i]!;
      let seedCode = -1;
      let second = -1; // elect: the predicate destination's register
      if (k === K_PURE || k === K_LOAD) {
        // Pure: the special registers, then every read; load: its address's reads and special registers.
        if (k === K_PURE && sregVar_[i] !== 0) {
          const x = norm(sregVar_[i]!);
          if ((x & WARP) !== 0 && (av & WARP) === 0) aw = seed(SEED_SREG);
          if ((x & CTA) !== 0 && (av & CTA) === 0) ac = seed(SEED_SREG);
          av |= x;
        }
        const from = k === K_PURE ? u0 : itemStart_[i]!;
        const to = k === K_PURE ? u1 : itemStart_[i + 1]!;
        for (let q = from; q < to; q++) {
          const s = k === K_PURE ? q : items_[q]!;
          // An item below zero is a special register's variance (-1 - variance).
          const x = norm(s >= 0 ? useVar_[s]! : -1 - s);
          const why = s >= 0 ? s : seed(SEED_SREG);
          if ((x & WARP) !== 0 && (av & WARP) === 0) aw = why;
          if ((x & CTA) !== 0 && (av & CTA) === 0) ac = why;
          av |= x;
        }
        if (k === K_LOAD) {
          const cls = loadClass_[i]!;
          if (cls === LOAD_MEMORY) seedCode = SEED_MEMORY;
          else if (cls === LOAD_FUNC_PARAM) seedCode = SEED_FUNC_PARAM;
          else if (cls === LOAD_CALL_PARAM) seedCode = SEED_CALL_PARAM;
          else if (cls === LOAD_SHARED && ((av & CTA) !== 0 || bcast_[i] === 0)) seedCode = SEED_MEMORY;
        }
      } else if (k === K_VARYING) seedCode = seedOf_[i]!;
      else if (k === K_CALL) seedCode = SEED_CALL;
      else if (k === K_WARP_COLLECTIVE) {
        if ((av & CTA) === 0) ac = seed(SEED_WARP_COLLECTIVE);
        av |= CTA;
      } else {
        accV = av;
        accW = aw;
        accC = ac;
        second = evaluateRare(i, k);
        av = accV;
        aw = accW;
        ac = accC;
      }
      if (seedCode !== -1) {
        // acc(CTA | WARP, seed(seedCode)).
        if ((av & WARP) === 0) aw = seed(seedCode);
        if ((av & CTA) === 0) ac = seed(seedCode);
        av = CTA | WARP;
      }
      for (let s = d0; s < d1; s++) {
        const d = defIdOfSlot_[s]!;
        let v = av;
        let whyW = aw;
        let whyC = ac;
        if (second !== -1 && defReg_[s] === second) {
          v = CTA | WARP;
          whyW = whyC = seed(SEED_ELECT);
        }
        // setDef, inlined: the new bits, their reasons, and the reads the definition reaches queued.
        const fresh = v & ~defVar_[d]!;
        if (fresh === 0) continue;
        if ((fresh & WARP) !== 0) defWhyW_[d] = whyW;
        if ((fresh & CTA) !== 0) defWhyC_[d] = whyC;
        defVar_[d]! |= fresh;
        for (let e = duStart_[d]!; e < duStart_[d + 1]!; e++) {
          const j = useIns_[duUse_[e]!]!;
          if (queued_[j] === 1) continue;
          queued_[j] = 1;
          // Ahead of the sweep: it comes to it. Behind it (this one included): queued again.
          if (j < cur) {
            queue_[(head + len) % n] = j;
            len++;
          }
        }
      }
    }
    sweep = cur;
    qHead = head;
    qLen = len;
    evaluations += count;
  };

  // ------------------------------------------------------------ sync dependence
  const pdom = ctx.postDominators(fn);
  const regionGen = scratchI32(3, B);
  const visitGen = scratchI32(4, B);
  const sideCount = scratchU8(7, B);
  let gen = 0;
  let sideGen = 0;
  let regionBlocks = 0;
  // Merges: register r merged at block J because of branch b, at level bits (MERGES, MERGE_SIZE numbers
  // each), and the bits merged per (J, r) so far.
  const merges = MERGES.reset();
  const mergedBits = MERGED_BITS;
  mergedBits.reset();
  const rdAtStart = rd.atBlockStart;
  const rdWords = rd.bitWords;
  const bitToDef = scratchI32(5, rdWords * 32);
  for (let d = 0; d < D; d++) if (rd.bitOfDef[d]! >= 0) bitToDef[rd.bitOfDef[d]!] = d;
  let liveness: Liveness | undefined;
  const regionMask = scratchI32(15, rdWords);
  // A branch's region in discovery order, and the depth-first stack of one side: each visit pushes its
  // block's successors at most, so a side pushes at most 1 + (the successor lists' total length).
  let region: Int32Array | undefined;
  let stack: Int32Array | undefined;

  const merge = (J: number, r: number, b: number, bits: number): void => {
    const had = mergedBits.or(J, r, bits);
    if ((bits & ~had) === 0) return;
    const m = merges.reserve(MERGE_SIZE);
    const at = merges.length;
    m[at + MERGE_BLOCK] = J;
    m[at + MERGE_REG] = r;
    m[at + MERGE_BRANCH] = b;
    m[at + MERGE_BITS] = bits;
    merges.length = at + MERGE_SIZE;
  };

  const addMerges = (b: number): void => {
    const bits = branchVar[b]!;
    const P = pdom.idom[b]!;
    const blocks = cfg.blocks;
    const exit = cfg.exit;
    if (stack === undefined || region === undefined) {
      let edges = 1;
      for (let x = 0; x < B; x++) edges += blocks[x]!.succs.length;
      stack = scratchI32(13, edges);
      region = scratchI32(14, B);
    }
    gen++;
    let regionLength = 0;
    const sides = blocks[b]!.succs;
    for (let q = 0; q < sides.length; q++) {
      const s = sides[q]!;
      if (s === exit || s === P) continue;
      sideGen++;
      let top = 0;
      stack[top++] = s;
      while (top > 0) {
        const x = stack[--top]!;
        if (visitGen[x] === sideGen) continue;
        visitGen[x] = sideGen;
        if (regionGen[x] !== gen) {
          regionBlocks++;
          regionGen[x] = gen;
          sideCount[x] = 1;
          region[regionLength++] = x;
        } else if (sideCount[x]! < 255) sideCount[x]!++;
        const succs = blocks[x]!.succs;
        for (let k = 0; k < succs.length; k++) {
          const y = succs[k]!;
          if (y !== exit && y !== P && visitGen[y] !== sideGen) stack[top++] = y;
        }
      }
    }
    // The join blocks: P (when a block), then the region's blocks reached from two sides, in region order.
    const hasP = P >= 0 && P !== exit;
    let joins = hasP ? 1 : 0;
    for (let q = 0; q < regionLength; q++) if (sideCount[region[q]!]! >= 2) joins++;
    if (joins === 0) return;
    // Definitions in the region: non-simple registers' as a bit set over the
    // reaching-definition bits; simple registers' (one write, dominating every
    // read) reach a join exactly when the register is live there.
    // (The words of the mask that may be non-zero: [lo, hi), a join's scan and the clearing only those.)
    const mask = regionMask;
    let lo = rdWords;
    let hi = 0;
    const simple = SIMPLE_REGS.reset();
    for (let q = 0; q < regionLength; q++) {
      const blk = blocks[region[q]!]!;
      for (let s = defStart[blk.start]!; s < defStart[blk.end]!; s++) {
        const d = defIdOfSlot[s]!;
        const bit = rd.bitOfDef[d]!;
        if (bit === -1) simple.push(t.defReg[s]!);
        else {
          const w = bit >>> 5;
          mask[w]! |= 1 << (bit & 31);
          if (w < lo) lo = w;
          if (w >= hi) hi = w + 1;
        }
      }
    }
    const anyBits = lo < hi;
    const simpleRegs = simple.data;
    const simpleCount = simple.length;
    for (let q = hasP ? -1 : 0; q < regionLength; q++) {
      const J = q === -1 ? P : region[q]!;
      if (q !== -1 && sideCount[J]! < 2) continue;
      if (simpleCount > 0) {
        liveness ??= ctx.get(fn, livenessAnalysis);
        for (let k = 0; k < simpleCount; k++) if (liveness.isLiveIn(J, simpleRegs[k]!)) merge(J, simpleRegs[k]!, b, bits);
      }
      if (!anyBits) continue;
      const at = J * rdWords;
      for (let w = lo; w < hi; w++) {
        let x = rdAtStart[at + w]! & mask[w]!;
        while (x !== 0) {
          const low = x & -x;
          x ^= low;
          merge(J, rd.defRegOf[bitToDef[w * 32 + 31 - Math.clz32(low)]!]!, b, bits);
        }
      }
    }
    if (anyBits) mask.fill(0, lo, hi);
  };

  /** The merged-register dataflow (forward, a union: its one fixpoint whatever the order), into `atStart`
   *  (zero): from the blocks that merge a register, each visited block's exit set ((start | gen) & ~kill) is
   *  joined into its successors' start sets, and a successor whose set grew is visited again, the pending
   *  block of least id first (program order: a loop settles before the blocks after it). (The general solver
   *  visited every block, with a fresh set per visit and calls for the join and the transfer.) */
  const solveMerged = (words: number, gen: Int32Array, killSet: Int32Array, atStart: Int32Array): void => {
    const out = scratchI32(11, words);
    const pending = scratchU8(8, B);
    let count = 0;
    let cursor = B;
    const m = merges.data;
    for (let at = MERGE_BLOCK; at < merges.length; at += MERGE_SIZE) {
      const J = m[at]!;
      if (pending[J] === 1) continue;
      pending[J] = 1;
      count++;
      if (J < cursor) cursor = J;
    }
    while (count > 0) {
      while (pending[cursor] === 0) cursor++;
      const x = cursor;
      pending[x] = 0;
      count--;
      const base = x * words;
      for (let w = 0; w < words; w++) out[w] = (atStart[base + w]! | gen[base + w]!) & ~killSet[base + w]!;
      const succs = cfg.blocks[x]!.succs;
      for (let q = 0; q < succs.length; q++) {
        const y = succs[q]!;
        if (y === cfg.exit) continue;
        const at = y * words;
        let grew = 0;
        for (let w = 0; w < words; w++) {
          const v = atStart[at + w]!;
          grew |= out[w]! & ~v;
          atStart[at + w] = v | out[w]!;
        }
        if (grew !== 0 && pending[y] === 0) {
          pending[y] = 1;
          count++;
          if (y < cursor) cursor = y;
        }
      }
    }
  };

  /** Solves the merged-register dataflow and taints the reads it reaches. */
  const applyMerges = (): void => {
    const tracked = scratchI32(6, R).fill(-1, 0, R);
    // The merged registers, by their rank.
    const trackedRegs = scratchI32(23, R);
    let K = 0;
    const m = merges.data;
    const M = merges.length;
    for (let at = 0; at < M; at += MERGE_SIZE) {
      const r = m[at + MERGE_REG]!;
      if (tracked[r] !== -1) continue;
      trackedRegs[K] = r;
      tracked[r] = K++;
    }
    if (K === 0) return;
    const words = bitWords(2 * K);
    // Per block, words [b * words, (b + 1) * words) of each: the bits merged at its start (gen), those its
    // writes clear (kill), and those at its start (the fixpoint).
    const gen = scratchI32(7, B * words);
    const killSet = scratchI32(8, B * words);
    const atStart = scratchI32(9, B * words);
    for (let at = 0; at < M; at += MERGE_SIZE) {
      const base = m[at + MERGE_BLOCK]! * words;
      const k = tracked[m[at + MERGE_REG]!]!;
      const bits = m[at + MERGE_BITS]!;
      if ((bits & CTA) !== 0) gen[base + ((2 * k) >>> 5)]! |= 1 << ((2 * k) & 31);
      if ((bits & WARP) !== 0) gen[base + ((2 * k + 1) >>> 5)]! |= 1 << ((2 * k + 1) & 31);
    }
    const kill = (state: Int32Array, i: number): void => {
      for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
        if (t.defKills[s] === 0) continue;
        const k = tracked[t.defReg[s]!]!;
        if (k === -1) continue;
        state[(2 * k) >>> 5]! &= ~(1 << ((2 * k) & 31));
        state[(2 * k + 1) >>> 5]! &= ~(1 << ((2 * k + 1) & 31));
      }
    };
    // Each block's kills as a set, so a visit costs the set size: from the merged registers' definitions
    // (grouped by register), not from every instruction's writes (each round, for a few registers).
    const regBase = rd.regBase;
    for (let x = 0; x < K; x++) {
      const r = trackedRegs[x]!;
      // (The register's first definition is its entry definition.)
      for (let d = regBase[r]! + 1; d < regBase[r + 1]!; d++) {
        const i = defIns[d]!;
        if (t.defKills[t.defSlot(i, r)] === 0) continue;
        const base = blockOf[i]! * words;
        killSet[base + ((2 * x) >>> 5)]! |= 1 << ((2 * x) & 31);
        killSet[base + ((2 * x + 1) >>> 5)]! |= 1 << ((2 * x + 1) & 31);
      }
    }
    solveMerged(words, gen, killSet, atStart);
    const state = scratchI32(10, words);
    for (let x = 0; x < B; x++) {
      const block = cfg.blocks[x]!;
      if (block.start === block.end) continue;
      // No merged register at the start: none in the block (kills only clear), no read to taint.
      let any = 0;
      const base = block.id * words;
      for (let w = 0; w < words; w++) any |= (state[w] = atStart[base + w]! | gen[base + w]!);
      if (any === 0) continue;
      for (let i = block.start; i < block.end; i++) {
        for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
          const k = tracked[useReg[s]!]!;
          if (k === -1) continue;
          const c = (state[(2 * k) >>> 5]! >>> ((2 * k) & 31)) & 1;
          const w = (state[(2 * k + 1) >>> 5]! >>> ((2 * k + 1) & 31)) & 1;
          const bits = (c === 1 ? CTA : 0) | (w === 1 ? CTA | WARP : 0);
          if ((bits & ~taint[s]!) !== 0) {
            taint[s]! |= bits;
            push(i);
          }
        }
        kill(state, i);
      }
    }
  };

  // ------------------------------------------------------------ fixpoint
  let rounds = 0;
  const pendingRound = scratchI32(16, B);
  for (;;) {
    drain();
    if (pendingBranches.length > 0) {
      rounds++;
      // Each branch once, in the order first queued (addMerges queues none).
      for (let k = 0; k < pendingBranches.length; k++) {
        const b = pendingBranches[k]!;
        if (pendingRound[b] === rounds) continue;
        pendingRound[b] = rounds;
        addMerges(b);
      }
      pendingBranches.length = 0;
      applyMerges();
      continue;
    }
    // Broadcast stores must be single-thread or store a CTA-uniform value.
    let revoked = false;
    for (const [l, info] of bcastWriters) {
      if (bcast[l] === 0) continue;
      for (let k = 0; k < info.writers.length; k++) {
        if (info.single[k]) continue;
        const w = info.writers[k]!;
        const node = ins[w]!.node;
        accV = 0;
        exprVar(w, node.operands[node.operands.length - 1]!, opReg(w, node.operands.length - 1));
        if ((accV & CTA) !== 0) {
          bcast[l] = 0;
          push(l);
          revoked = true;
          break;
        }
      }
    }
    if (!revoked) break;
    rounds++;
  }

  // ------------------------------------------------------------ block and loop facts
  const cd = ctx.controlDependence(fn);
  const divergence = vars.subarray(D + U + B, D + U + 2 * B);
  // Blocks dependent on each block, as dense lists (arrays of arrays filled by push met elements kinds
  // and maps the optimized code had not seen, and deoptimized it).
  const depStart = scratchI32(17, B + 1);
  for (let x = 0; x < B; x++) {
    const deps = cd[x] ?? NO_BLOCKS;
    for (let k = 0; k < deps.length; k++) depStart[deps[k]! + 1]!++;
  }
  for (let b = 0; b < B; b++) depStart[b + 1]! += depStart[b]!;
  const depList = scratchI32(18, depStart[B]!);
  const depFill = scratchI32(19, B);
  depFill.set(depStart.subarray(0, B));
  // A stack: a block is pushed once, then once per bit its divergence gains (two at most).
  const work = scratchI32(20, 3 * B);
  let top = 0;
  for (let x = 0; x < B; x++) {
    const deps = cd[x] ?? NO_BLOCKS;
    let v = 0;
    for (let k = 0; k < deps.length; k++) {
      const b = deps[k]!;
      depList[depFill[b]!++] = x;
      v |= branchVar[b]!;
    }
    divergence[x] = v;
    if (v !== 0) work[top++] = x;
  }
  while (top > 0) {
    const x = work[--top]!;
    for (let k = depStart[x]!; k < depStart[x + 1]!; k++) {
      const y = depList[k]!;
      const v = divergence[y]! | divergence[x]!;
      if (v !== divergence[y]) {
        divergence[y] = v;
        work[top++] = y;
      }
    }
  }
  const forest = ctx.loops(fn);
  const inLoop = scratchI32(21, B).fill(-1, 0, B);
  const seenIn = scratchI32(22, B).fill(-1, 0, B);
  const loopFacts: readonly LoopFact[] = forest.loops.length === 0 ? NO_LOOPS : forest.loops.map((loop, li) => {
    const inside = loop.blocks;
    for (let k = 0; k < inside.length; k++) inLoop[inside[k]!] = li;
    let v = 0;
    let responsible = -1;
    const visit = (x: number): void => {
      if (seenIn[x] === li) return;
      seenIn[x] = li;
      if (branchVar[x] !== 0 && (branchVar[x]! & ~v) !== 0) {
        if (responsible === -1 || (branchVar[x]! & WARP) !== 0) responsible = x;
        v |= branchVar[x]!;
      }
      const deps = cd[x] ?? NO_BLOCKS;
      for (let k = 0; k < deps.length; k++) if (inLoop[deps[k]!] === li) visit(deps[k]!);
    };
    const exits = loop.exits;
    for (let k = 0; k < exits.length; k++) if (exits[k]![1] !== cfg.exit) visit(exits[k]![0]);
    for (let k = 0; k < inside.length; k++) inLoop[inside[k]!] = -1;
    return { loop: li, header: loop.header, exitVariance: v, exitBranch: responsible };
  });

  const branches: BranchFact[] = [];
  for (let i = 0; i < n; i++) {
    const b = termBlock[i]!;
    if (b !== -1) branches.push({ block: b, instruction: i, variance: branchVar[b]! });
  }
  let broadcasts: number[] | undefined;
  if (candidates.length > 0) for (let i = 0; i < n; i++) if (bcast[i] === 1 && kind[i] === K_LOAD) (broadcasts ??= []).push(i);
  keepCompiled('uniformity', resolveExpr, singleDef, resolveReg, addressOperand, resolveAddress, walkSregs, classifyLoad, analyzeBroadcasts,
    isThreadIndex, tidEquality, singleThreadStore, addressItems, acc, exprVar, probe, push, evaluateBranch, evaluateRare, drain, merge, addMerges, solveMerged, applyMerges);

  return {
    cfg, rd, vars, whys, merges: merges.length === 0 ? NO_MERGES : merges.take(), loopFacts, branches, broadcasts: broadcasts ?? NO_LOADS,
    stats: { evaluations, rounds, regionBlocks, merges: merges.length / MERGE_SIZE },
  };
}

const MAX_STEPS = 24;
const regOf = (r: number | RegisterSymbol): number => (typeof r === 'number' ? r : r.id);
const levelBit = (v: Variance, level: UniformityLevel | undefined): number =>
  (level !== undefined ? bitOf(level) : (v & WARP) !== 0 ? WARP : CTA);

/** The queries and explanations over a solved function: one object of one class, its methods shared (they
 *  were a dozen closures per function, and a Map of the branches, kept as long as the facts). */
class Queries {
  private readonly cfg: Cfg;
  private readonly rd: ReachingDefinitions;
  private readonly vars: Uint8Array;
  private readonly whys: Int32Array;
  private readonly merges: Int32Array;
  private readonly branches: readonly BranchFact[];
  /** Where the reads' and the branches' parts of `vars` start (Solved). */
  private readonly useAt: number;
  private readonly branchAt: number;

  constructor(private readonly fn: FunctionModel, solved: Solved) {
    this.cfg = solved.cfg;
    this.branches = solved.branches;
    this.rd = solved.rd;
    this.vars = solved.vars;
    this.whys = solved.whys;
    this.merges = solved.merges;
    this.useAt = solved.rd.definitionCount;
    this.branchAt = this.useAt + solved.rd.table.useReg.length;
  }

  // ------------------------------------------------------------ the arrays' parts
  private useVar(s: number): number {
    return this.vars[this.useAt + s]!;
  }
  private defVar(d: number): number {
    return this.vars[d]!;
  }
  private branchVar(b: number): number {
    return b >= 0 && b < this.cfg.blocks.length ? this.vars[this.branchAt + b]! : 0;
  }
  private defWhy(d: number, bit: number): number {
    return this.whys[(bit === WARP ? 0 : this.useAt) + d]!;
  }
  private useWhy(s: number, bit: number): number {
    return this.whys[2 * this.useAt + (bit === WARP ? 0 : this.branchAt - this.useAt) + s]!;
  }
  private branchWhy(b: number, bit: number): number {
    return this.whys[2 * this.branchAt + (bit === WARP ? 0 : this.cfg.blocks.length) + b]!;
  }

  // ------------------------------------------------------------ queries
  useVariance(i: number, reg: number | RegisterSymbol): Variance {
    const s = this.rd.table.useSlot(i, regOf(reg));
    return s === -1 ? 0 : this.useVar(s);
  }

  defVariance(i: number, reg: number | RegisterSymbol): Variance {
    const s = this.rd.table.defSlot(i, regOf(reg));
    return s === -1 ? 0 : this.defVar(this.rd.defIdOfSlot[s]!);
  }

  operandVariance(i: number, e: A.Expression): Variance {
    switch (e.kind) {
      case 'Name': {
        const s = this.fn.resolve(e);
        if (s?.kind === 'register') {
          const slot = this.rd.table.useSlot(i, s.id);
          return slot === -1 ? 0 : this.useVar(slot);
        }
        return s?.kind === 'sreg' ? sregVariance(s.spec) : 0;
      }
      case 'Unary': case 'Cast': return this.operandVariance(i, e.arg);
      case 'Binary': return this.operandVariance(i, e.left) | this.operandVariance(i, e.right);
      case 'Conditional': return this.operandVariance(i, e.test) | this.operandVariance(i, e.then) | this.operandVariance(i, e.otherwise);
      case 'Vector': case 'Address': case 'List': {
        let v = 0;
        for (const x of e.elements) v |= this.operandVariance(i, x);
        return v;
      }
      case 'PredPair': return this.operandVariance(i, e.first) | this.operandVariance(i, e.second);
      default: return 0;
    }
  }

  isUniform(i: number, reg: number | RegisterSymbol, level: UniformityLevel): boolean {
    const s = this.rd.table.useSlot(i, regOf(reg));
    return s === -1 || (this.useVar(s) & bitOf(level)) === 0;
  }

  branchOf(block: number): BranchFact | undefined {
    const blk = this.cfg.blocks[block];
    if (blk === undefined || blk.succs.length < 2 || blk.end <= blk.start) return undefined;
    // The branches are in instruction order: the one ending at blk.end - 1, by bisection.
    const list = this.branches;
    const i = blk.end - 1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.instruction < i) lo = mid + 1;
      else hi = mid;
    }
    const f = list[lo];
    return f !== undefined && f.block === block ? f : undefined;
  }

  branchVariance(i: number): Variance {
    const b = this.cfg.blockOf[i];
    if (b === undefined) return 0;
    const blk = this.cfg.blocks[b]!;
    return blk.end - 1 === i && blk.succs.length >= 2 ? this.branchVar(b) : 0;
  }

  blockDivergence(block: number): Variance {
    return this.vars[this.branchAt + this.cfg.blocks.length + block]!;
  }

  explainUse(i: number, reg: number | RegisterSymbol, level?: UniformityLevel): string | undefined {
    const s = this.rd.table.useSlot(i, regOf(reg));
    if (s === -1) return undefined;
    const v = this.useVar(s);
    const bit = levelBit(v, level);
    if ((v & bit) === 0) return undefined;
    const steps: string[] = [];
    this.chainUse(s, bit, steps, new Set(), false);
    return steps.join(' ← ');
  }

  explainDef(i: number, reg: number | RegisterSymbol, level?: UniformityLevel): string | undefined {
    const s = this.rd.table.defSlot(i, regOf(reg));
    if (s === -1) return undefined;
    const d = this.rd.defIdOfSlot[s]!;
    const v = this.defVar(d);
    const bit = levelBit(v, level);
    if ((v & bit) === 0) return undefined;
    const steps: string[] = [];
    this.chainDef(d, bit, steps, new Set());
    return steps.join(' ← ');
  }

  explainBranch(block: number, level?: UniformityLevel): string | undefined {
    const v = this.branchVar(block);
    const bit = levelBit(v, level);
    if ((v & bit) === 0) return undefined;
    const steps: string[] = [];
    this.chainBranch(block, bit, steps, new Set());
    return steps.join(' ← ');
  }

  // ------------------------------------------------------------ explanations
  private lineOf(i: number): number {
    return this.fn.instructions[i]!.node.range.line;
  }

  private regName(r: number): string {
    return this.fn.registers[r]?.name ?? `%reg${r}`;
  }

  private opText(i: number): string {
    const node = this.fn.instructions[i]!.node;
    const space = spaceOf(node.modifiers);
    return node.opcode === 'ld' || node.opcode === 'st' ? `${node.opcode}${space ?? ''}` : node.opcode;
  }

  private sregText(i: number, bit: number): string {
    const fn = this.fn;
    let found = '';
    const visit = (e: A.Expression): void => {
      if (found !== '') return;
      switch (e.kind) {
        case 'Name': {
          const s = fn.resolve(e);
          if (s?.kind === 'sreg' && (sregVariance(s.spec) & bit) !== 0) found = e.component === undefined ? e.name : `${e.name}.${e.component}`;
          return;
        }
        case 'Unary': case 'Cast': visit(e.arg); return;
        case 'Binary': visit(e.left); visit(e.right); return;
        case 'Vector': case 'Address': case 'List': e.elements.forEach(visit); return;
        case 'PredPair': visit(e.first); visit(e.second); return;
        default: return;
      }
    };
    fn.instructions[i]!.node.operands.forEach(visit);
    return found === '' ? 'a special register' : found;
  }

  private seedText(code: number, i: number, bit: number): string {
    if (code === SEED_SREG) return `${this.sregText(i, bit)} at line ${this.lineOf(i)}`;
    return `${this.opText(i)} at line ${this.lineOf(i)} (${SEED_TEXT[code]})`;
  }

  private reachable(from: number, to: number): boolean {
    if (from === to) return true;
    const cfg = this.cfg;
    const seen = new Uint8Array(cfg.blocks.length);
    const stack = [from];
    seen[from] = 1;
    while (stack.length > 0) {
      for (const y of cfg.blocks[stack.pop()!]!.succs) {
        if (y === cfg.exit || seen[y] === 1) continue;
        if (y === to) return true;
        seen[y] = 1;
        stack.push(y);
      }
    }
    return false;
  }

  private chainDef(d: number, bit: number, steps: string[], seen: Set<string>): void {
    const r = this.rd.defRegOf[d]!;
    const i = this.rd.defIns[d]!;
    if (i === ENTRY) {
      steps.push(`${this.regName(r)} (${SEED_TEXT[SEED_PARAM_REG]} ${this.fn.name})`);
      return;
    }
    const why = this.defWhy(d, bit);
    if (why < 0) {
      const code = -1 - why;
      steps.push(`${this.regName(r)} ← ${this.seedText(code, i, bit)}`);
      return;
    }
    steps.push(`${this.regName(r)} ← ${this.opText(i)} at line ${this.lineOf(i)}`);
    this.chainUse(why, bit, steps, seen, true);
  }

  private chainUse(s: number, bit: number, steps: string[], seen: Set<string>, named: boolean): void {
    const key = `u${s}:${bit}`;
    if (seen.has(key) || steps.length >= MAX_STEPS) {
      steps.push('…');
      return;
    }
    seen.add(key);
    const why = this.useWhy(s, bit);
    if (why >= 0) {
      // The definition names the register itself.
      this.chainDef(why, bit, steps, seen);
      return;
    }
    const t = this.rd.table;
    const r = t.useReg[s]!;
    const i = t.useIns[s]!;
    const bi = this.cfg.blockOf[i]!;
    const merges = this.merges;
    let m = -1;
    for (let at = 0; at < merges.length; at += MERGE_SIZE) {
      if (merges[at + MERGE_REG] === r && (merges[at + MERGE_BITS]! & bit) !== 0 && this.reachable(merges[at + MERGE_BLOCK]!, bi)) { m = at; break; }
    }
    if (m === -1) {
      if (!named) steps.push(this.regName(r));
      return;
    }
    const b = merges[m + MERGE_BRANCH]!;
    const J = merges[m + MERGE_BLOCK]!;
    const blocks = this.cfg.blocks;
    const jLine = blocks[J]!.start < this.fn.instructions.length ? `line ${this.lineOf(blocks[J]!.start)}` : 'the end';
    steps.push(`${this.regName(r)} merged at ${jLine} after the branch at line ${this.lineOf(blocks[b]!.end - 1)}`);
    this.chainBranch(b, bit, steps, seen);
  }

  private chainBranch(b: number, bit: number, steps: string[], seen: Set<string>): void {
    const key = `b${b}:${bit}`;
    if (seen.has(key) || steps.length >= MAX_STEPS) {
      steps.push('…');
      return;
    }
    seen.add(key);
    const why = this.branchWhy(b, bit);
    const i = this.cfg.blocks[b]!.end - 1;
    if (why < 0) {
      steps.push(this.seedText(-1 - why, i, bit));
      return;
    }
    this.chainUse(why, bit, steps, seen, false);
  }
}

const QUERIES: unique symbol = Symbol('uniformity queries');
/** The facts object: the queries as own properties, one function each for every function's facts (the facts
 *  digest lists an object's own keys: these are those the closures' object had), and their state under a
 *  symbol. */
interface Facts extends Uniformity {
  readonly [QUERIES]: Queries;
}
function useVariance(this: Facts, i: number, reg: number | RegisterSymbol): Variance {
  return this[QUERIES].useVariance(i, reg);
}
function defVariance(this: Facts, i: number, reg: number | RegisterSymbol): Variance {
  return this[QUERIES].defVariance(i, reg);
}
function operandVariance(this: Facts, i: number, e: A.Expression): Variance {
  return this[QUERIES].operandVariance(i, e);
}
function isUniform(this: Facts, i: number, reg: number | RegisterSymbol, level: UniformityLevel): boolean {
  return this[QUERIES].isUniform(i, reg, level);
}
function branchOf(this: Facts, block: number): BranchFact | undefined {
  return this[QUERIES].branchOf(block);
}
function branchVariance(this: Facts, i: number): Variance {
  return this[QUERIES].branchVariance(i);
}
function blockDivergence(this: Facts, block: number): Variance {
  return this[QUERIES].blockDivergence(block);
}
function explainUse(this: Facts, i: number, reg: number | RegisterSymbol, level?: UniformityLevel): string | undefined {
  return this[QUERIES].explainUse(i, reg, level);
}
function explainDef(this: Facts, i: number, reg: number | RegisterSymbol, level?: UniformityLevel): string | undefined {
  return this[QUERIES].explainDef(i, reg, level);
}
function explainBranch(this: Facts, block: number, level?: UniformityLevel): string | undefined {
  return this[QUERIES].explainBranch(block, level);
}

function factsOf(fn: FunctionModel, solved: Solved): Facts {
  return {
    fn, useVariance, defVariance, operandVariance, isUniform, branches: solved.branches, branchOf, branchVariance,
    blockDivergence, loops: solved.loopFacts, broadcasts: solved.broadcasts, explainUse, explainDef, explainBranch,
    stats: solved.stats, [QUERIES]: new Queries(fn, solved),
  };
}

/** Uniformity of every value and branch: `ctx.get(fn, uniformityAnalysis)`. */
export const uniformityAnalysis: FunctionAnalysis<Uniformity> = {
  name: 'uniformity',
  compute: (ctx, fn) => factsOf(fn, solveUniformity(ctx, fn)),
};

// ---------------------------------------------------------------- readable facts

/** One fact per line, for tests and debugging:
 *  `line 14: %r7 is thread-varying: %r7 ← add at line 14 ← %r1 ← %tid.x at line 12`,
 *  `line 20: branch is warp-uniform: ...`, `loop at line 30 exits on a thread-varying condition (branch at line 35)`,
 *  `line 40: ld.shared is a broadcast`, `block at line 22 is reached under thread-varying control`. */
export function describeUniformity(ctx: AnalysisContext, fn: FunctionModel, u: Uniformity = ctx.get(fn, uniformityAnalysis)): string[] {
  const cfg = ctx.cfg(fn);
  const t = ctx.get(fn, reachingDefinitionsAnalysis).table;
  const out: string[] = [];
  const line = (i: FlatInstruction | number): number => (typeof i === 'number' ? fn.instructions[i]! : i).node.range.line;
  for (const i of fn.instructions) {
    for (let s = t.defStart[i.index]!; s < t.defStart[i.index + 1]!; s++) {
      const r = t.defReg[s]!;
      const v = u.defVariance(i.index, r);
      const name = fn.registers[r]!.name;
      out.push(v === 0
        ? `line ${line(i)}: ${name} is uniform`
        : `line ${line(i)}: ${name} is ${varianceWord(v)}: ${u.explainDef(i.index, r)!}`);
    }
    const bv = u.branchVariance(i.index);
    const bf = u.branchOf(cfg.blockOf[i.index]!);
    if (bf !== undefined && bf.instruction === i.index) {
      out.push(bv === 0
        ? `line ${line(i)}: branch is uniform`
        : `line ${line(i)}: branch is ${varianceWord(bv)}: ${u.explainBranch(bf.block)!}`);
    }
  }
  for (const b of cfg.blocks) {
    const v = u.blockDivergence(b.id);
    if (v !== 0 && b.start < b.end) out.push(`block at line ${line(b.start)} is reached under ${varianceWord(v)} control`);
  }
  for (const l of u.loops) {
    const head = cfg.blocks[l.header]!;
    if (head.start >= head.end) continue;
    out.push(l.exitVariance === 0
      ? `loop at line ${line(head.start)} exits on a uniform condition`
      : `loop at line ${line(head.start)} exits on a ${varianceWord(l.exitVariance)} condition (branch at line ${line(cfg.blocks[l.exitBranch]!.end - 1)})`);
  }
  for (const i of u.broadcasts) out.push(`line ${line(i)}: ${fn.instructions[i]!.node.opcode}${fn.instructions[i]!.node.modifiers.join('')} is a broadcast`);
  return out;
}
