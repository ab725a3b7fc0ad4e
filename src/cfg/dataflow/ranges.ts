// Value ranges: an interval for every integer register at every use, forward
// with the dataflow solver; refined on the two edges of `@%p bra` and at
// guarded instructions where %p is a `setp` of a register against a constant
// or another register earlier in the same block; widened at loop headers from
// their second visit: a growing bound jumps to the next constant a setp
// compares that register with (c−1, c, c+1; at most four times per header and
// register), a non-negative lower bound that shrinks to 0, else to infinity
// (other blocks from their eighth visit, for irreducible cycles). So a value
// only shifted or divided down from [lo ≥ 0, hi] stays in [0, hi].
//
// An interval [lo, hi] of a w-bit register means: its bits are v mod 2^w for
// some integer v in [lo, hi] (a representative, so `add`, `sub`, `mul.lo` and
// `shl` are plain interval arithmetic, wrap-around included). Operations that
// read the value as signed or unsigned (comparisons, `shr`, `min`/`max`,
// `rem`, `div`, widening `cvt`, `mul.wide`) take the exact view of the
// interval in that reading when it lies in one window of 2^w values, else the
// whole range of the type. Unknown is [-∞, ∞]. At a join, a register not
// written yet on one path (reading it there is undefined) takes the other
// path's range; a `.func` register parameter's entry value is unknown.
//
// Sources: %tid.x/y/z is [0, n−1] only when the block size is known, with n
// from `.reqntid` or --block, or the thread count of `.maxntid` (which bounds
// the count, not the shape); else unknown (never 1024). %laneid [0, 31];
// %ntid from the block size; %ctaid/%nctaid from the hardware limits; loads
// unknown except narrow ones (`ld.u8` is [0, 255]); `bmsk` as the ISA defines
// it (from bit a, b bits wide: below 2^min(a+b, 32)).
//
// Ranges of affine forms sum their symbols' ranges, except that a pair
// `m·x − m·2^k·(x >> k)` (affine.ts's `m·(x & (2^k−1))`) counts as m·(x mod 2^k)
// when x does not wrap: summed apart, the two terms would not cancel.
import type * as A from '../../parser/ast.js';
import type { BasicBlock, Cfg } from '../builder.js';
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import type { FlatInstruction, FunctionModel, RegisterSymbol } from '../symbols.js';
import {
  addScaled, affineAnalysis, blockBounds, coefOf, compiledFunction, FLOAT, GUARDED, HI, immediate, intWidth, NAMED_DEST, pvEmpty,
  pvEquals, pvGet, pvMerge, pvSetMany, pow2, recordAt, registerPosition, SAT, symForm, UNREACHED, WIDE, wrapTo, type AffineSymbol, type BlockOut, type CompiledFunction,
  NEGATED, PRED_SCALAR, srcOf, type Fact, type OpInfo, type LiveIn, type Form, type PVec, type Src,
} from './affine.js';
import { solve } from './solver.js';
import { sortAscending } from './sort.js';

// ================================================================ intervals

export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

/** Made before any interval: small integer bounds then stay inline, not boxed (see TAGGED_SHAPES in
 *  affine.ts; measured: 8,800 of the 24,500 objects the range facts of a 500 kB module keep). The shape's
 *  first values here are ±Infinity, which would box both fields of every interval. */
export const TAGGED_INTERVAL: unknown = { lo: null, hi: null };

export const UNKNOWN: Interval = { lo: -Infinity, hi: Infinity };

/** Nothing known. */
export function isUnknown(i: Interval): boolean {
  return i.lo === -Infinity && i.hi === Infinity;
}

/** Inside the engine `undefined` is the unknown interval. */
type Iv = Interval | undefined;

const MAX = Number.MAX_SAFE_INTEGER;
const NO_THRESHOLDS: readonly number[] = [];

function mk(lo: number, hi: number): Iv {
  const l = lo < -MAX || Number.isNaN(lo) ? -Infinity : lo + 0; // + 0: no -0
  const h = hi > MAX || Number.isNaN(hi) ? Infinity : hi + 0;
  return l === -Infinity && h === Infinity ? undefined : { lo: l, hi: h };
}

const POINTS: Interval[] = Array.from({ length: 4096 + 1024 }, (_x, k) => ({ lo: k - 1024, hi: k - 1024 }));
const point = (v: number): Interval => (v >= -1024 && v < 4096 && Number.isInteger(v) ? POINTS[v + 1024]! : { lo: v, hi: v });
const U8: Interval = { lo: 0, hi: 255 };
const S8: Interval = { lo: -128, hi: 127 };
const U16: Interval = { lo: 0, hi: 65535 };
const S16: Interval = { lo: -32768, hi: 32767 };

const DOMAINS: Interval[] = [];
for (const w of [1, 8, 16, 32, 64]) {
  DOMAINS[w * 2] = w >= 64 ? { lo: 0, hi: Infinity } : { lo: 0, hi: pow2(w) - 1 };
  DOMAINS[w * 2 + 1] = w >= 64 ? UNKNOWN : { lo: -pow2(w - 1), hi: pow2(w - 1) - 1 };
}

/** The signed (or unsigned) range of a w-bit type. */
function domain(w: number, signed: boolean): Interval {
  const d = DOMAINS[w * 2 + (signed ? 1 : 0)];
  if (d !== undefined) return d;
  if (w >= 64) return signed ? UNKNOWN : { lo: 0, hi: Infinity };
  return signed ? { lo: -pow2(w - 1), hi: pow2(w - 1) - 1 } : { lo: 0, hi: pow2(w) - 1 };
}

/** The representative interval put in a canonical window of a w-bit register:
 *  as is when it reads the same signed or unsigned, else shifted into the
 *  unsigned, then the signed range; unknown when it covers every value. */
function fit(i: Iv, w: number): Iv {
  if (i === undefined || w >= 64) return i;
  const m = pow2(w);
  if (i.hi - i.lo >= m - 1) return undefined;
  if (i.lo >= -(m / 2) && i.hi <= m - 1) return i;
  for (const base of [0, -(m / 2)]) {
    const k = Math.floor((i.lo - base) / m);
    if (i.hi - base < (k + 1) * m) return { lo: i.lo - k * m, hi: i.hi - k * m };
  }
  return undefined;
}

/** The exact range of the value read as signed/unsigned w bits, or the type's whole range. */
export function view(i: Interval | undefined, w: number, signed: boolean): Interval {
  const d = domain(w, signed);
  if (i === undefined || !Number.isFinite(i.lo) || !Number.isFinite(i.hi)) {
    if (i !== undefined && i.lo >= d.lo && i.hi <= d.hi) return i;
    return d;
  }
  if (w >= 64) return i.lo >= d.lo && i.hi <= d.hi ? i : d;
  const m = pow2(w);
  const k = Math.floor((i.lo - d.lo) / m);
  if (i.hi - d.lo < (k + 1) * m) return k === 0 ? i : { lo: i.lo - k * m, hi: i.hi - k * m };
  return d;
}

/** The values of `i` whose signed/unsigned reading lies in [cLo, cHi]; null when none. */
function meetView(i: Iv, w: number, signed: boolean, cLo: number, cHi: number): Iv | null {
  const d = domain(w, signed);
  const lo = Math.max(cLo, d.lo);
  const hi = Math.min(cHi, d.hi);
  if (lo > hi) return null;
  if (i === undefined || !Number.isFinite(i.lo) || !Number.isFinite(i.hi) || w >= 64) {
    if (i !== undefined && w >= 64) {
      // 64-bit: representatives are the values themselves when inside the domain.
      if (i.lo >= d.lo && i.hi <= d.hi) {
        const l = Math.max(i.lo, lo);
        const h = Math.min(i.hi, hi);
        return l > h ? null : mk(l, h);
      }
    }
    return mk(lo, hi);
  }
  const m = pow2(w);
  const k0 = Math.floor((i.lo - d.lo) / m);
  const k1 = Math.floor((i.hi - d.lo) / m);
  if (k1 - k0 > 3) return mk(lo, hi);
  let outLo = Infinity;
  let outHi = -Infinity;
  for (let k = k0; k <= k1; k++) {
    const l = Math.max(i.lo, lo + k * m);
    const h = Math.min(i.hi, hi + k * m);
    if (l <= h) {
      outLo = Math.min(outLo, l);
      outHi = Math.max(outHi, h);
    }
  }
  if (outLo > outHi) return null;
  // `i` itself where the condition leaves it whole (the bounds are finite: mk would make the same interval):
  // no interval made per edge and guard that refines nothing, and the state keeps its entry (see `changed`).
  return outLo === i.lo && outHi === i.hi ? i : mk(outLo, outHi);
}

function hull(a: Iv, b: Iv): Iv {
  if (a === undefined || b === undefined) return undefined;
  if (a.lo <= b.lo && a.hi >= b.hi) return a;
  if (b.lo <= a.lo && b.hi >= a.hi) return b;
  return mk(Math.min(a.lo, b.lo), Math.max(a.hi, b.hi));
}

const ivEquals = (a: Iv, b: Iv): boolean => a === b || (a !== undefined && b !== undefined && a.lo === b.lo && a.hi === b.hi);

function addIv(a: Iv, b: Iv, sign: number): Iv {
  if (a === undefined || b === undefined) return undefined;
  return sign > 0 ? mk(a.lo + b.lo, a.hi + b.hi) : mk(a.lo - b.hi, a.hi - b.lo);
}

const mulB = (x: number, y: number): number => (x === 0 || y === 0 ? 0 : x * y);

function mulIv(a: Iv, b: Iv): Iv {
  if (a === undefined || b === undefined) return undefined;
  const c0 = mulB(a.lo, b.lo);
  const c1 = mulB(a.lo, b.hi);
  const c2 = mulB(a.hi, b.lo);
  const c3 = mulB(a.hi, b.hi);
  // (Four arguments, not a spread of a list made per call.)
  return mk(Math.min(c0, c1, c2, c3), Math.max(c0, c1, c2, c3));
}

/** floor(x / 2^k) over x ∈ a, k ∈ ks (monotone in each, so the corners bound it). */
function shrIv(a: Interval, ks: Interval): Iv {
  const k0 = Math.min(64, Math.max(0, ks.lo));
  const k1 = Math.min(64, Math.max(0, ks.hi));
  const c0 = shrCorner(a.lo, k0);
  const c1 = shrCorner(a.lo, k1);
  const c2 = shrCorner(a.hi, k0);
  const c3 = shrCorner(a.hi, k1);
  return mk(Math.min(c0, c1, c2, c3), Math.max(c0, c1, c2, c3));
}

/** floor(x / 2^k); an infinite x as it is. */
function shrCorner(x: number, k: number): number {
  return Number.isFinite(x) ? Math.floor(x / pow2(k)) : x;
}

/** x / y truncated toward zero, 0 where undefined (∞/∞). */
function quotient(x: number, y: number): number {
  const q = x / y;
  return Number.isNaN(q) ? 0 : Math.trunc(q);
}

/** 2^bitlength(x) − 1: every value with no bit above x's highest. */
function bitCeil(x: number): number {
  if (!Number.isFinite(x)) return Infinity;
  let p = 1;
  while (p <= x) p *= 2;
  return p - 1;
}

/** `bmsk.clamp`/`bmsk.wrap` of two constants, as the PTX ISA defines it (a and b unsigned 32-bit). */
function bmsk(a: number, b: number, clamp: boolean): number {
  const a1 = a % 32;
  const b1 = b % 32;
  const sum = a1 + b1;
  const overflow = sum >= 32 || (clamp && b >= 32);
  const mask0 = clamp && a >= 32 ? 0 : (0xffffffff << a1) >>> 0;
  const below = overflow ? 0xffffffff : b1 === 0 ? 0 : pow2(sum) - 1; // ~mask1
  return (mask0 & below) >>> 0;
}

// ================================================================ comparisons

/** A comparison by its code (numbers: they key the tables below and pack into a condition's Int32Array
 *  entry, see CondTable). */
type Cmp = number;
const EQ = 0;
const NE = 1;
const LT = 2;
const LE = 3;
const GT = 4;
const GE = 5;

/** By code: the comparison that holds when it does not (NEGATE), and with its sides swapped (SWAP). */
const NEGATE: readonly Cmp[] = [NE, EQ, GE, GT, LE, LT];
const SWAP: readonly Cmp[] = [EQ, NE, GT, GE, LT, LE];

/** The conditions on a block's out-edges (`@%p bra`): on the edge to `to0`, `idx cmp0 rhs`, on the one to
 *  `to1`, `idx cmp1 rhs` (-1: the exit, no condition); registers by their state index, rhs the entry `rhsIdx`,
 *  else the constant `value`. One object per block, not a list of an edge and a condition per successor. */
interface Edges {
  readonly to0: number;
  readonly cmp0: Cmp;
  readonly to1: number;
  readonly cmp1: Cmp;
  readonly idx: number;
  readonly signed: boolean;
  readonly w: number;
  readonly rhsIdx: number;
  readonly value: number;
}

/** `refine`'s answer when the comparison constrains nothing. */
const NO_CONSTRAINT: Interval = { lo: -Infinity, hi: Infinity };

/** The values of x (whose view is xv) for which `x cmp [r.lo, r.hi]` can hold: x as it is
 *  (NO_CONSTRAINT) when the comparison says nothing, null when none. (The constraint's
 *  bounds are passed on as numbers, not made into an interval per comparison.) */
function refine(x: Iv, xv: Interval, cmp: Cmp, r: Interval, w: number, signed: boolean): Iv | null {
  const d = domain(w, signed);
  switch (cmp) {
    case LT: return meetView(x, w, signed, d.lo, r.hi - 1);
    case LE: return meetView(x, w, signed, d.lo, r.hi);
    case GT: return meetView(x, w, signed, r.lo + 1, d.hi);
    case GE: return meetView(x, w, signed, r.lo, d.hi);
    case EQ: return meetView(x, w, signed, r.lo, r.hi);
    default:
      if (r.lo !== r.hi) return NO_CONSTRAINT;
      if (xv.lo === r.lo) return meetView(x, w, signed, r.lo + 1, d.hi);
      if (xv.hi === r.lo) return meetView(x, w, signed, d.lo, r.lo - 1);
      return NO_CONSTRAINT;
  }
}

/** What the last `applyCond` refined: each side's new range, when it has one (`lhsSet`, `rhsSet`). A
 *  scratch record (not a callback made per condition applied): applyCond is not re-entered. */
const REFINED: { lhsSet: boolean; lhs: Iv; rhsSet: boolean; rhs: Iv } = { lhsSet: false, lhs: undefined, rhsSet: false, rhs: undefined };

/** Applies `lhs cmp rhs` (read signed/unsigned at width w) to the two sides' ranges, into REFINED; false when
 *  infeasible. */
function applyCond(cmp: Cmp, signed: boolean, w: number, lhs: Iv, rhs: Iv, rhsIsReg: boolean): boolean {
  const out = REFINED;
  out.lhsSet = false;
  out.lhs = undefined;
  out.rhsSet = false;
  out.rhs = undefined;
  const lv = view(lhs, w, signed);
  const rv = view(rhs, w, signed);
  const l = refine(lhs, lv, cmp, rv, w, signed);
  if (l === null) return false;
  if (l !== NO_CONSTRAINT) {
    out.lhsSet = true;
    out.lhs = l;
  }
  if (rhsIsReg) {
    const r = refine(rhs, rv, SWAP[cmp]!, lv, w, signed);
    if (r === null) return false;
    if (r !== NO_CONSTRAINT) {
      out.rhsSet = true;
      out.rhs = r;
    }
  }
  return true;
}

// ================================================================ the analysis

/** Whether `v` is not the range entry k of `vec` already holds (as the same or an equal interval). A state
 *  keeps its old interval for an equal one: a loop's later rounds mostly recompute equal ranges, and an entry
 *  set copies its path of the state's tree, and makes a tree that the next merge or comparison cannot skip
 *  as shared. (Equal intervals are interchangeable: every use reads their bounds.) */
function changed(vec: PVec<Interval>, k: number, v: Iv): boolean {
  const old = pvGet(vec, k);
  return old !== v && (old === undefined || v === undefined || old.lo !== v.lo || old.hi !== v.hi);
}

/** An immediate operand of a comparison at width w, as its signed or unsigned reading. */
function condConst(s: Src, width: number, signed: boolean): number | undefined {
  if (typeof s === 'number' || s.k !== 'imm' || s.value === undefined) return undefined;
  const v = wrapTo(s.value, width);
  if (signed || v >= 0) return v;
  return width >= 64 ? undefined : v + pow2(width);
}

/** The id of the register a setp's destination operand names, among the defs of instruction i; -1 if none. */
function predDef(code: CompiledFunction, i: number, e: A.Expression): number {
  return e.kind === 'Name' ? defNamed(code, i, e.name) : -1;
}

/** The id of instruction i's def named `name` (or with id `name`); -1 if none. */
function defNamed(code: CompiledFunction, i: number, name: string | number): number {
  const k = registerPosition(code, i, true, name);
  return k < 0 ? -1 : code.fx.defIds[code.fx.defStart[i]! + k]!;
}

type RangeFact = Fact<Interval, Edges>;
type RangeOut = BlockOut<Interval, Edges>;

/** Hardware limits (not block-size assumptions). */
const SREG_RANGES: Readonly<Record<string, Interval>> = {
  '%laneid': { lo: 0, hi: 31 }, '%ctaid.x': { lo: 0, hi: 2 ** 31 - 2 }, '%ctaid.y': { lo: 0, hi: 65534 }, '%ctaid.z': { lo: 0, hi: 65534 },
  '%nctaid.x': { lo: 1, hi: 2 ** 31 - 1 }, '%nctaid.y': { lo: 1, hi: 65535 }, '%nctaid.z': { lo: 1, hi: 65535 }, WARP_SZ: { lo: 32, hi: 32 },
};

/** A setp's comparison modifier: its comparison, plus UNSIGNED_CMP where it reads the operands unsigned. */
const UNSIGNED_CMP = 8;
const CMPS: ReadonlyMap<string, number> = new Map([
  ['.eq', EQ], ['.ne', NE], ['.lt', LT], ['.le', LE], ['.gt', GT], ['.ge', GE],
  ['.lo', LT | UNSIGNED_CMP], ['.ls', LE | UNSIGNED_CMP], ['.hi', GT | UNSIGNED_CMP], ['.hs', GE | UNSIGNED_CMP],
]);

/** The block walk's scratch, per register id and per instruction or block, shared by the engines: one runs at
 *  a time (`run` asks the context nothing, so it never starts another), and made per function they were
 *  most of what an engine allocated besides its records. Each engine's `run` takes them, grown to its sizes;
 *  the caches are set there, `local` is read only where `stamp` holds the current walk. */
class Scratch {
  /** Per register: the walk (`gen`) that wrote `local`. */
  stamp = new Int32Array(0);
  local: Iv[] = [];
  gen = 0;
  /** Per instruction: where its setp conditions start in the columns below (-1: not computed yet, see
   *  RangeEngine.conds), and how many (`condN`). */
  condAt = new Int32Array(0);
  condN = new Uint8Array(0);
  /** The conditions setps write, one per predicate, as columns (a condition is an index): into predicate
   *  `condPred` (a register id) `reg cmp rhs`, read signed/unsigned at width w, with reg `condReg`, rhs the
   *  register `condRhs` (an id), else (-1) the constant `condValue`; `condKey` packs cmp | signed << 3 |
   *  w << 4. (An object per condition and a list per setp, made per engine, were 3.4 MB of a pass over
   *  scan_reduce.ptx.) The first `nCond` hold the current engine's. */
  condPred = new Int32Array(0);
  condReg = new Int32Array(0);
  condRhs = new Int32Array(0);
  condKey = new Int32Array(0);
  condValue = new Float64Array(0);
  nCond = 0;
  edgeCache: (Edges | null | undefined)[] = [];
  /** Per block: its output as the solver last received it (see RangeEngine.outs). */
  outs: (RangeOut | undefined)[] = [];
  /** See RangeEngine.growths; cleared by the engine once its walk is done. */
  readonly growths = new Map<number, number>();
  /** Sort keys of the entries a block walk sets (see RangeEngine.sortSets). */
  keys = new Float64Array(64);
  readonly sortVals: Iv[] = [];
  /** The engine's lists of the block walk (see RangeEngine), counted there. */
  readonly touched: number[] = [];
  readonly condPreds: number[] = [];
  readonly condIds: number[] = [];
  readonly setIdx: number[] = [];
  readonly setVal: Iv[] = [];

  /** The scratch, sized and cleared for a function. */
  take(fn: FunctionModel, blocks: number): this {
    const registers = fn.registers.length;
    const instructions = fn.instructions.length;
    if (this.stamp.length < registers) {
      const size = Math.max(registers, 2 * this.stamp.length);
      this.stamp = new Int32Array(size).fill(-1);
      this.local = new Array<Iv>(size).fill(undefined);
    }
    if (this.gen > 0x3fffffff) {
      this.stamp.fill(-1);
      this.gen = 0;
    }
    if (this.condAt.length < instructions) {
      this.condAt = new Int32Array(Math.max(instructions, 2 * this.condAt.length));
      this.condN = new Uint8Array(this.condAt.length);
    }
    this.condAt.fill(-1, 0, instructions);
    this.nCond = 0;
    this.growths.clear();
    // (Made at full length: growing a small array to a large index makes it a slow dictionary.)
    if (this.edgeCache.length < blocks) {
      const size = Math.max(blocks, 2 * this.edgeCache.length);
      this.edgeCache = new Array<Edges | null | undefined>(size).fill(undefined);
      this.outs = new Array<RangeOut | undefined>(size).fill(undefined);
    } else {
      this.edgeCache.fill(undefined, 0, blocks);
    }
    return this;
  }

  /** A new condition's index, the columns grown to hold it. */
  addCond(pred: number, reg: number, key: number, rhs: number, value: number): number {
    const j = this.nCond++;
    if (j >= this.condPred.length) {
      const size = Math.max(64, 2 * this.condPred.length);
      this.condPred = grownInt(this.condPred, size);
      this.condReg = grownInt(this.condReg, size);
      this.condRhs = grownInt(this.condRhs, size);
      this.condKey = grownInt(this.condKey, size);
      const values = new Float64Array(size);
      values.set(this.condValue);
      this.condValue = values;
    }
    this.condPred[j] = pred;
    this.condReg[j] = reg;
    this.condKey[j] = key;
    this.condRhs[j] = rhs;
    this.condValue[j] = value;
    return j;
  }
}

function grownInt(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

/** A condition's comparison, signedness and width, from its `condKey`. */
const keyCmp = (key: number): Cmp => key & 7;
const keySigned = (key: number): boolean => (key & 8) !== 0;
const keyWidth = (key: number): number => key >> 4;

const SCRATCH = new Scratch();

/** An engine's `growths` outside its walk. */
const NO_GROWTHS = new Map<number, number>();

class RangeEngine {
  readonly cfg: Cfg;
  readonly code: CompiledFunction;
  /** The compiled function's table of register widths (see `width`). */
  private readonly scalars: Uint8Array;
  readonly live: LiveIn;
  readonly empty: PVec<Interval>;
  readonly block: readonly [number, number, number] | undefined;
  readonly exactBlock: boolean;
  readonly headers: Uint8Array;
  /** Per state entry: the constants a setp compares that register with (±1), sorted. */
  private thresholdLists: (readonly number[] | undefined)[] | undefined;
  /** How often a (block, state entry) grew when widened: thresholds first, then infinity. SCRATCH's, from
   *  `run`. */
  private growths = NO_GROWTHS;
  /** The walk's scratch (see Scratch), SCRATCH's arrays from `run` on. */
  private readonly scratch = SCRATCH;
  /** Each block's out-edge conditions when they do not depend on the state (null: none). */
  private edgeCache: (Edges | null | undefined)[] = [];
  private stamp = new Int32Array(0);
  private local: Iv[] = [];
  private input: PVec<Interval>;
  /** The registers the block walk wrote: the first `nTouched` entries. (Counts, not `length = 0` per
   *  block: that gives the list's room back, and the next block's pushes allocate it again; and the
   *  lists of this walk, like SCRATCH's arrays, are shared by the engines.) */
  private readonly touched = SCRATCH.touched;
  private nTouched = 0;
  /** Predicates set by a setp earlier in the block, and what they mean (conditions by index; the first
   *  `nConds`). */
  private readonly condPreds = SCRATCH.condPreds;
  private readonly condIds = SCRATCH.condIds;
  private nConds = 0;
  /** Guard refinement of the instruction being run: at most two registers (`ovLhs`, then `ovRhs`,
   *  which wins when they are one), -1 when none. */
  private ovLhs = -1;
  private ovLhsV: Iv = undefined;
  private ovRhs = -1;
  private ovRhsV: Iv = undefined;
  /** Scratch lists of the entries a block walk or an edge condition sets in a state. */
  private readonly setIdx = SCRATCH.setIdx;
  private readonly setVal = SCRATCH.setVal;
  /** The out-edge conditions of the block `runBlock` ran last. */
  private lastEdges: Edges | undefined;
  /** Per instruction (from `recordAt`): the intervals of its uses, then of its defs, aligned with the effect
   *  table, as pairs of bounds (slot s at 2s, 2s + 1; unknown as [-∞, ∞]). (Bounds, not intervals: an array of
   *  pointers per function and the intervals only it held were 5 MB of what the facts of scan_reduce.ptx
   *  kept on the heap, copied by each scavenge they lived through, and every record written into the array,
   *  once old, was a write barrier's slow path.) */
  readonly bounds: Float64Array;
  /** Instructions recorded (reachable). */
  readonly reached: Uint8Array;
  /** Per block with several predecessors (a join point): its start state, as its last visit merged it (at the
   *  fixpoint that visit's input is the block's), undefined when unreachable. */
  private readonly starts: (PVec<Interval> | undefined)[];

  constructor(ctx: AnalysisContext, readonly fn: FunctionModel) {
    this.cfg = ctx.cfg(fn);
    this.code = ctx.get(fn, compiledFunction);
    this.scalars = this.code.scalars;
    this.live = this.code.live;
    this.empty = pvEmpty<Interval>(this.live.regs.length);
    this.input = this.empty;
    this.bounds = new Float64Array(2 * recordAt(this.code, fn.instructions.length));
    this.reached = new Uint8Array(fn.instructions.length);
    const bounds = blockBounds(ctx, fn);
    this.block = bounds?.dims;
    this.exactBlock = bounds?.exact ?? false;
    this.headers = new Uint8Array(this.cfg.blocks.length);
    const loops = ctx.loops(fn);
    // (Index loops: run once per function, mostly unoptimized, where a `for of` allocates per element.)
    for (let j = 0; j < loops.loops.length; j++) this.headers[loops.loops[j]!.header] = 1;
    for (let j = 0; j < loops.irreducibleEdges.length; j++) this.headers[loops.irreducibleEdges[j]![1]] = 1;
    this.starts = new Array<PVec<Interval> | undefined>(this.cfg.blocks.length).fill(undefined);
  }

  /** The constants each register is compared with (±1), for widening. */
  private thresholds(k: number): readonly number[] {
    this.thresholdLists ??= this.collectThresholds();
    return this.thresholdLists[k] ?? NO_THRESHOLDS;
  }

  /** Per state entry, the constants a setp compares it with (±1), sorted, each once. (Lists sorted and
   *  deduplicated in place, not a set per register spread into a list; index loops: run once per function,
   *  this code mostly runs unoptimized, where a `for of` allocates per element.) */
  private collectThresholds(): (readonly number[] | undefined)[] {
    const lists = new Array<number[] | undefined>(this.live.regs.length).fill(undefined);
    const ops = this.code.ops;
    for (let i = 0; i < ops.length; i++) {
      if (ops[i]!.opcode !== 'setp') continue;
      const first = this.conds(i);
      const s = this.scratch;
      for (let j = first; j < first + s.condN[i]!; j++) {
        const k = this.live.index[s.condReg[j]!]!;
        if (k < 0 || s.condRhs[j]! >= 0) continue;
        const v = s.condValue[j]!;
        (lists[k] ??= []).push(v - 1, v + 0, v + 1); // (+ 0: no -0, as the set this was made with)
      }
    }
    for (let k = 0; k < lists.length; k++) {
      const list = lists[k];
      if (list === undefined) continue;
      sortAscending(list);
      let n = 0;
      for (let j = 0; j < list.length; j++) if (n === 0 || list[j] !== list[n - 1]) list[n++] = list[j]!;
      list.length = n;
    }
    return lists;
  }

  private above(k: number, x: number): number {
    const list = this.thresholds(k);
    for (let j = 0; j < list.length; j++) if (list[j]! >= x) return list[j]!;
    return Infinity;
  }

  private below(k: number, x: number): number {
    const list = this.thresholds(k);
    for (let j = list.length - 1; j >= 0; j--) if (list[j]! <= x) return list[j]!;
    return -Infinity;
  }

  // ------------------------------------------------------------ the block walk

  /** The range of the register with id `id`. */
  private getId(id: number): Iv {
    if (this.ovRhs === id) return this.ovRhsV;
    if (this.ovLhs === id) return this.ovLhsV;
    if (this.stamp[id] === this.scratch.gen) return this.local[id];
    const k = this.live.index[id]!;
    return k >= 0 ? this.inputAt(k) : undefined;
  }

  /** Writes the register with id `id`. */
  private set(id: number, v: Iv): void {
    const gen = this.scratch.gen;
    if (this.stamp[id] !== gen) {
      this.stamp[id] = gen;
      this.touched[this.nTouched++] = id;
    }
    // In the states, `undefined` is "not written yet"; a written unknown is UNKNOWN.
    const w = this.width(id);
    this.local[id] = w !== 0 ? fit(v, w) ?? UNKNOWN : undefined;
    if (this.nConds > 0) this.forgetConds(id);
  }

  /** Drops the conditions that writing the register with id `id` makes stale (in place, keeping the others'
   *  order). */
  private forgetConds(id: number): void {
    const preds = this.condPreds;
    const ids = this.condIds;
    const s = this.scratch;
    let n = 0;
    for (let k = 0; k < this.nConds; k++) {
      const c = ids[k]!;
      if (preds[k] === id || s.condReg[c] === id || s.condRhs[c] === id) continue;
      preds[n] = preds[k]!;
      ids[n++] = c;
    }
    this.nConds = n;
  }

  /** The range of a special register. */
  sreg(name: string, component: string | undefined): Iv {
    const dim: number = component === 'x' ? 0 : component === 'y' ? 1 : component === 'z' ? 2 : -1;
    if (name === '%tid' && dim >= 0) return this.block === undefined ? undefined : { lo: 0, hi: this.block[dim]! - 1 };
    if (name === '%ntid' && dim >= 0) {
      if (this.block === undefined) return undefined;
      return this.exactBlock ? point(this.block[dim]!) : { lo: 1, hi: this.block[dim]! };
    }
    return SREG_RANGES[component === undefined ? name : `${name}.${component}`];
  }

  src(s: Src, w: number): Iv {
    if (typeof s === 'number') return this.getId(s);
    switch (s.k) {
      case 'imm': return s.value === undefined ? undefined : point(wrapTo(s.value, w));
      case 'sreg': return this.sreg(s.name, s.component);
      case 'sum': return addIv(this.src(s.base, w), point(s.offset), 1);
      case 'expr': return this.evalExpr(s.e, w);
      default: return undefined;
    }
  }

  evalExpr(e: A.Expression, w: number): Iv {
    switch (e.kind) {
      case 'Int': case 'Unary': {
        const v = immediate(e, w);
        if (v !== undefined) return point(v);
        if (e.kind === 'Unary' && e.op === '-') {
          const a = this.evalExpr(e.arg, w);
          return a === undefined ? undefined : mk(-a.hi, -a.lo);
        }
        return undefined;
      }
      case 'Name': {
        const s = this.fn.resolve(e);
        if (s?.kind === 'register') return this.getId(s.id);
        if (s?.kind === 'sreg') return this.sreg(s.name, e.component);
        return undefined;
      }
      case 'Binary': {
        const a = this.evalExpr(e.left, w);
        const b = this.evalExpr(e.right, w);
        if (e.op === '+') return addIv(a, b, 1);
        if (e.op === '-') return addIv(a, b, -1);
        if (e.op === '*') return mulIv(a, b);
        return undefined;
      }
      case 'Cast': return this.evalExpr(e.arg, w);
      case 'List': return e.elements.length === 1 ? this.evalExpr(e.elements[0]!, w) : undefined;
      default: return undefined;
    }
  }

  /** The first of the conditions instruction i writes (see Scratch.condAt; `condN` of them, computed on
   *  the first ask: they depend on the instruction only). */
  private conds(i: number): number {
    const s = this.scratch;
    let at = s.condAt[i]!;
    if (at < 0) {
      at = s.nCond;
      s.condN[i] = this.setpConds(i);
      s.condAt[i] = at;
    }
    return at;
  }

  /** Adds the conditions a `setp` writes into its predicate(s) to the scratch columns; returns how many. */
  private setpConds(i: number): number {
    // (The syntax tree is read only for a predicate pair's destination, its modifiers taken from the shared op:
    // each node, list and operand read there is a cache miss, and they made this function a tenth of the
    // analysis's time in a profile.)
    const ty = this.code.ops[i]!.ty;
    if (this.code.ops[i]!.opcode !== 'setp' || ty === undefined || srcOf(this.code, i, 3) !== undefined) return 0;
    const x = srcOf(this.code, i, 1);
    const y = srcOf(this.code, i, 2);
    if (x === undefined || y === undefined) return 0;
    const rx = this.condReg(x);
    const ry = this.condReg(y);
    if (rx < 0 && ry < 0) return 0;
    let spec: number | undefined;
    const mods = this.code.ops[i]!.modifiers;
    for (let j = 0; j < mods.length && spec === undefined; j++) spec = CMPS.get(mods[j]!);
    if (spec === undefined) return 0;
    const signed = ty.signed && (spec & UNSIGNED_CMP) === 0;
    // `reg cmp rhs`: reg, cmp, rhsReg, value.
    const cx = condConst(x, ty.width, signed);
    const cy = condConst(y, ty.width, signed);
    // Register ids: `reg`, and `rhs` (-1: the constant `value`).
    let reg: number;
    let cmp = spec & 7;
    let rhs = -1;
    let value = 0;
    if (rx >= 0 && cy !== undefined) {
      reg = rx;
      value = cy;
    } else if (ry >= 0 && cx !== undefined) {
      reg = ry;
      cmp = SWAP[cmp]!;
      value = cx;
    } else if (rx >= 0 && ry >= 0) {
      reg = rx;
      rhs = ry;
    } else {
      return 0;
    }
    // p, and q of `p|q` (the negation). A destination compiled to a register is a name (a pair compiles to
    // no source), and its def is that register.
    const d = srcOf(this.code, i, 0)!;
    let p: number;
    let q = -1;
    if (typeof d === 'number') {
      p = defNamed(this.code, i, d);
    } else {
      const dst = this.fn.instructions[i]!.node.operands[0]!;
      p = predDef(this.code, i, dst.kind === 'PredPair' ? dst.first : dst);
      q = dst.kind === 'PredPair' ? predDef(this.code, i, dst.second) : -1;
    }
    const key = (signed ? 8 : 0) | (ty.width << 4);
    const s = this.scratch;
    if (p >= 0) s.addCond(p, reg, cmp | key, rhs, value);
    if (q >= 0) s.addCond(q, reg, NEGATE[cmp]! | key, rhs, value);
    return (p < 0 ? 0 : 1) + (q < 0 ? 0 : 1);
  }

  /** An operand's register id, when an integer scalar (a comparison of it says something); else -1. */
  private condReg(s: Src): number {
    return typeof s === 'number' && this.width(s) !== 0 ? s : -1;
  }

  /** The width of the integer scalar register with id `id`, 0 for any other (from the compiled function's
   *  table: read from the registers' symbols, scattered in memory, it was 3.1% of the analysis's profile on
   *  block_warp.ptx, where functions declare about a register per instruction). */
  private width(id: number): number {
    const w = this.scalars[id]!;
    return w === PRED_SCALAR ? 0 : w;
  }

  /** The condition of instruction i's guard (true when not negated), when known in this block. */
  private guardCond(i: number): number {
    if ((this.code.flags[i]! & GUARDED) === 0) return -1;
    const id = this.code.fx.useIds[this.code.fx.useStart[i]!]!;
    for (let k = 0; k < this.nConds; k++) if (this.condPreds[k] === id) return this.condIds[k]!;
    return -1;
  }

  private step(i: number): void {
    // A guard known in this block refines what the instruction reads.
    const flags = this.code.flags[i]!;
    const gc = this.guardCond(i);
    let infeasible = false;
    if (gc >= 0) {
      const s = this.scratch;
      const rhsId = s.condRhs[gc]!;
      const key = s.condKey[gc]!;
      const lhsId = s.condReg[gc]!;
      const rhs = rhsId >= 0 ? this.getId(rhsId) : point(s.condValue[gc]!);
      const cmp = (flags & NEGATED) !== 0 ? NEGATE[keyCmp(key)]! : keyCmp(key);
      if (!applyCond(cmp, keySigned(key), keyWidth(key), this.getId(lhsId), rhs, rhsId >= 0)) infeasible = true;
      else this.overlayRefined(lhsId, rhsId);
    }
    // Each visit overwrites the record: the last one is at the fixpoint. (Registers by id from the effect table:
    // no list of them per instruction.)
    const fx = this.code.fx;
    const u0 = fx.useStart[i]!;
    const d0 = fx.defStart[i]!;
    const nu = fx.useStart[i + 1]! - u0;
    const nd = fx.defStart[i + 1]! - d0;
    const guarded = (flags & GUARDED) !== 0;
    const at = u0 + d0;
    this.reached[i] = 1;
    for (let k = 0; k < nu; k++) this.record(at + k, this.getId(fx.useIds[u0 + k]!));
    if (nd > 0) {
      this.srcAt = fx.operandStart[i]!;
      this.srcEnd = fx.operandStart[i + 1]!;
      for (let k = 0; k < nd; k++) {
        const d = fx.defIds[d0 + k]!;
        if (this.width(d) === 0) {
          this.set(d, undefined);
          continue;
        }
        if (infeasible) continue; // never runs: the old value stays
        let v = this.rule(i, flags, k, nd);
        if (guarded) {
          this.clearOverlay();
          v = hull(v, this.getId(d));
        }
        this.set(d, v);
      }
      this.clearOverlay();
      if (!guarded && this.code.ops[i]!.opcode === 'setp') {
        const first = this.conds(i);
        const pred = this.scratch.condPred;
        for (let j = first; j < first + this.scratch.condN[i]!; j++) {
          this.condPreds[this.nConds] = pred[j]!;
          this.condIds[this.nConds++] = j;
        }
      }
      for (let k = 0; k < nd; k++) this.record(at + nu + k, this.getId(fx.defIds[d0 + k]!));
    }
    this.clearOverlay();
  }

  /** Writes record slot `slot` (see `bounds`). */
  private record(slot: number, v: Iv): void {
    const b = this.bounds;
    if (v === undefined) {
      b[2 * slot] = -Infinity;
      b[2 * slot + 1] = Infinity;
    } else {
      b[2 * slot] = v.lo;
      b[2 * slot + 1] = v.hi;
    }
  }

  /** What applyCond refined (REFINED) read in place of the registers' values: `lhs` and `rhs` by id. */
  private overlayRefined(lhs: number, rhs: number): void {
    const r = REFINED;
    if (r.lhsSet) {
      this.ovLhs = lhs;
      this.ovLhsV = r.lhs;
    }
    if (r.rhsSet) {
      this.ovRhs = rhs;
      this.ovRhsV = r.rhs;
    }
  }

  private clearOverlay(): void {
    this.ovLhs = -1;
    this.ovLhsV = undefined;
    this.ovRhs = -1;
    this.ovRhsV = undefined;
  }

  /** The value(s) an instruction writes, per destination. */
  /** The value an instruction writes into its k-th destination. */
  private rule(i: number, flags: number, k: number, nd: number): Iv {
    const info = this.code.ops[i]!;
    if (info.opcode === 'ld') {
      const t = info.types[info.types.length - 1];
      return t === '.u8' ? U8 : t === '.s8' ? S8 : t === '.u16' ? U16 : t === '.s16' ? S16 : undefined;
    }
    if (nd !== 1 || (flags & NAMED_DEST) === 0 || k !== 0) return undefined;
    const w = info.ty?.width ?? (intWidth(this.code.regs[this.code.fx.defIds[this.code.fx.defStart[i]!]!]!.type) ?? 64);
    return this.value(flags, info, w, info.ty?.signed ?? false);
  }

  /** Where the sources of the instruction `step` interprets start and end in `code.srcs` (see `srcOf`). */
  private srcAt = 0;
  private srcEnd = 0;

  /** Operand k's range (of the instruction `step` interprets). */
  private ev(k: number, w: number): Iv {
    const at = this.srcAt + k;
    return at < this.srcEnd ? this.src(this.code.srcs[at]!, w) : undefined;
  }

  /** The value the instruction `step` interprets (its flags `flags`, its opcode and modifiers `info`) writes. */
  private value(flags: number, info: OpInfo, w: number, signed: boolean): Iv {
    const op = info.opcode;
    const ty = info.ty;
    switch (op) {
      case 'mov': return (flags & FLOAT) !== 0 ? undefined : this.ev(1, w);
      case 'add': case 'sub': {
        if (ty === undefined) return undefined;
        const sign = op === 'add' ? 1 : -1;
        if ((flags & SAT) !== 0) {
          const s = addIv(view(this.ev(1, w), w, true), view(this.ev(2, w), w, true), sign);
          const d = domain(w, true);
          return s === undefined ? d : mk(Math.max(d.lo, Math.min(d.hi, s.lo)), Math.max(d.lo, Math.min(d.hi, s.hi)));
        }
        return addIv(this.ev(1, w), this.ev(2, w), sign);
      }
      case 'mul': case 'mad': {
        if (ty === undefined) return undefined;
        if ((flags & HI) !== 0) {
          const p = mulIv(view(this.ev(1, w), w, signed), view(this.ev(2, w), w, signed));
          return p === undefined ? undefined : shrIv(p, point(w));
        }
        const wide = (flags & WIDE) !== 0;
        const p = mulIv(wide ? view(this.ev(1, w), w, signed) : this.ev(1, w), wide ? view(this.ev(2, w), w, signed) : this.ev(2, w));
        return op === 'mul' ? p : addIv(p, this.ev(3, wide ? 2 * w : w), 1);
      }
      case 'neg': { const a = this.ev(1, w); return a === undefined ? undefined : mk(-a.hi, -a.lo); }
      case 'not': { const a = this.ev(1, w); return a === undefined ? undefined : mk(-a.hi - 1, -a.lo - 1); }
      case 'abs': {
        if (ty === undefined) return undefined;
        const a = view(this.ev(1, w), w, true);
        return mk(a.lo >= 0 ? a.lo : a.hi <= 0 ? -a.hi : 0, Math.max(Math.abs(a.lo), Math.abs(a.hi)));
      }
      case 'shl': {
        const k = this.ev(2, 32);
        if (k === undefined || k.lo !== k.hi || k.lo < 0) return undefined;
        return k.lo >= w ? point(0) : mulIv(this.ev(1, w), point(pow2(k.lo)));
      }
      case 'shr': {
        if (ty === undefined) return undefined;
        const k = view(this.ev(2, 32), 32, false);
        return shrIv(view(this.ev(1, w), w, signed), signed ? { lo: Math.min(k.lo, w - 1), hi: Math.min(k.hi, w - 1) } : k);
      }
      case 'and': case 'or': case 'xor': {
        if (ty === undefined) return undefined;
        const a = view(this.ev(1, w), w, false);
        const b = view(this.ev(2, w), w, false);
        if (a.lo === a.hi && b.lo === b.hi && Number.isFinite(a.lo) && Number.isFinite(b.lo)) {
          const x = BigInt(a.lo);
          const y = BigInt(b.lo);
          return point(Number(op === 'and' ? x & y : op === 'or' ? x | y : x ^ y));
        }
        if (op === 'and') return mk(0, Math.min(a.hi, b.hi));
        const top = bitCeil(Math.max(a.hi, b.hi));
        return op === 'or' ? mk(Math.max(a.lo, b.lo), top) : mk(0, top);
      }
      case 'bmsk': {
        // PTX ISA: the bits [a', a' + b') of 32 (none past bit 31), a' = a & 31 and
        // b' = b & 31; under .clamp a ≥ 32 gives 0 and b ≥ 32 every bit from a' up.
        const a = view(this.ev(1, 32), 32, false);
        const b = view(this.ev(2, 32), 32, false);
        const clamp = !info.modifiers.includes('.wrap');
        if (a.lo === a.hi && b.lo === b.hi) return point(bmsk(a.lo, b.lo, clamp));
        const top = Math.min(a.hi, 31) + Math.min(b.hi, clamp ? 32 : 31);
        return mk(0, pow2(Math.min(top, 32)) - 1);
      }
      case 'rem': {
        if (ty === undefined) return undefined;
        const a = view(this.ev(1, w), w, signed);
        const b = view(this.ev(2, w), w, signed);
        if (!signed) {
          if (b.lo <= 0) return mk(0, a.hi);
          return a.hi < b.lo ? a : mk(0, Math.min(a.hi, b.hi - 1));
        }
        const m = Math.max(Math.abs(b.lo), Math.abs(b.hi)) - 1;
        if (a.lo >= 0) return mk(0, Math.min(a.hi, m));
        if (a.hi <= 0) return mk(Math.max(a.lo, -m), 0);
        return mk(Math.max(a.lo, -m), Math.min(a.hi, m));
      }
      case 'div': {
        if (ty === undefined) return undefined;
        const a = view(this.ev(1, w), w, signed);
        const b = view(this.ev(2, w), w, signed);
        if (b.lo <= 0 && b.hi >= 0) return signed ? undefined : domain(w, false);
        const q0 = quotient(a.lo, b.lo);
        const q1 = quotient(a.lo, b.hi);
        const q2 = quotient(a.hi, b.lo);
        const q3 = quotient(a.hi, b.hi);
        return mk(Math.min(q0, q1, q2, q3), Math.max(q0, q1, q2, q3));
      }
      case 'min': case 'max': {
        if (ty === undefined) return undefined;
        const a = view(this.ev(1, w), w, signed);
        const b = view(this.ev(2, w), w, signed);
        return op === 'min' ? mk(Math.min(a.lo, b.lo), Math.min(a.hi, b.hi)) : mk(Math.max(a.lo, b.lo), Math.max(a.hi, b.hi));
      }
      case 'selp': return hull(this.ev(1, w), this.ev(2, w));
      case 'popc': case 'clz': return { lo: 0, hi: w };
      case 'cvt': {
        const dw = intWidth(info.types[0] ?? '');
        const sw = intWidth(info.types[1] ?? '');
        if (dw === undefined) return undefined;
        const dsigned = info.types[0]!.startsWith('.s');
        if (sw === undefined) return (flags & SAT) !== 0 ? domain(dw, dsigned) : undefined;
        const a = this.ev(1, sw);
        const ssigned = info.types[1]!.startsWith('.s');
        if ((flags & SAT) !== 0) {
          const v = view(a, sw, ssigned);
          const d = domain(dw, dsigned);
          return mk(Math.max(d.lo, Math.min(d.hi, v.lo)), Math.max(d.lo, Math.min(d.hi, v.hi)));
        }
        return dw > sw ? view(a, sw, ssigned) : a;
      }
      case 'cvta': return this.ev(1, 64);
      default: return undefined;
    }
  }

  /** Runs a block; the state at its end and the conditions on its out-edges. */
  /** Runs a block: the state at its end (the conditions on its out-edges in `lastEdges`). */
  runBlock(block: BasicBlock, input: PVec<Interval>): PVec<Interval> {
    this.scratch.gen++;
    this.input = input;
    this.nTouched = 0;
    this.nConds = 0;
    for (let i = block.start; i < block.end; i++) this.step(i);
    this.lastEdges = this.branchEdges(block);
    // The registers written that the states hold, where their range changed (see `changed`).
    const idx = this.setIdx;
    const val = this.setVal;
    const index = this.live.index;
    // First the entries the input refined over `input` (see refineArrival), then those written (which win).
    let n = this.refinedEntries(idx, val);
    let sorted = n < 2 || idx[0]! < idx[1]!;
    for (let j = 0; j < this.nTouched; j++) {
      const r = this.touched[j]!;
      const k = index[r]!;
      if (k >= 0 && this.inputChanged(k, this.local[r])) {
        if (n > 0 && k <= idx[n - 1]!) sorted = false;
        idx[n] = k;
        val[n++] = this.local[r];
      }
    }
    this.clearInput();
    if (!sorted && n > 32 && n < 1048576) this.sortSets(n);
    const out = pvSetMany(input, idx, val, n);
    val.fill(undefined, 0, n);
    return out;
  }

  /** Orders the first n entries of `setIdx` (distinct: one per register) and `setVal` by index. pvSetMany
   *  sorts up to 32 entries itself, more with a list and a closure made per call (3 MB of a pass over
   *  scan_reduce.ptx); here by a typed array of keys, index·2^20 + position, sorted in place. */
  private sortSets(n: number): void {
    const s = this.scratch;
    if (s.keys.length < n) s.keys = new Float64Array(Math.max(n, 2 * s.keys.length));
    const keys = s.keys;
    const idx = this.setIdx;
    const val = this.setVal;
    for (let j = 0; j < n; j++) keys[j] = idx[j]! * 1048576 + j;
    keys.subarray(0, n).sort();
    const vals = s.sortVals;
    for (let j = 0; j < n; j++) vals[j] = val[j];
    for (let j = 0; j < n; j++) {
      const from = keys[j]! % 1048576;
      idx[j] = (keys[j]! - from) / 1048576;
      val[j] = vals[from];
    }
    vals.fill(undefined, 0, n);
  }

  /** `@%p bra L` with %p from a setp in this block: the condition on each edge. */
  private branchEdges(block: BasicBlock): Edges | undefined {
    const hit = this.edgeCache[block.id];
    if (hit !== undefined) return hit ?? undefined;
    this.dynamicEdges = false;
    const edges = this.computeEdges(block);
    if (!this.dynamicEdges) this.edgeCache[block.id] = edges ?? null;
    return edges;
  }

  /** Whether the last `computeEdges` read the state (a right side in no state entry): not cached then. */
  private dynamicEdges = false;

  private computeEdges(block: BasicBlock): Edges | undefined {
    if (block.end === block.start || block.succs.length !== 2) return undefined;
    const last = block.end - 1;
    if (this.code.ops[last]!.opcode !== 'bra') return undefined;
    const cond = this.guardCond(last);
    if (cond < 0) return undefined;
    const truth = (this.code.flags[last]! & NEGATED) === 0;
    const s = this.scratch;
    const idx = this.live.index[s.condReg[cond]!]!;
    const key = s.condKey[cond]!;
    const cmp = keyCmp(key);
    const rhsId = s.condRhs[cond]!;
    let rhsIdx = -1;
    let value = s.condValue[cond]!;
    if (rhsId >= 0) {
      const k = this.live.index[rhsId]!;
      if (k >= 0) rhsIdx = k;
      else {
        this.dynamicEdges = true;
        const v = this.getId(rhsId);
        if (v === undefined || v.lo !== v.hi) return undefined;
        value = v.lo;
      }
    }
    if (idx < 0 && rhsIdx < 0) return undefined;
    // Each successor but the exit, in order, with the comparison that holds on its edge.
    const exit = this.cfg.exit;
    const s0 = block.succs[0]!;
    const s1 = block.succs[1]!;
    const cmp0 = (this.cfg.edgeKind(block.id, s0) === 'branch') === truth ? cmp : NEGATE[cmp]!;
    const cmp1 = (this.cfg.edgeKind(block.id, s1) === 'branch') === truth ? cmp : NEGATE[cmp]!;
    return { to0: s0 === exit ? -1 : s0, cmp0, to1: s1 === exit ? -1 : s1, cmp1, idx, signed: keySigned(key), w: keyWidth(key), rhsIdx, value };
  }

  /** A predecessor's state as it arrives at `block` (null: the edge cannot be taken). */
  private arriving(block: number, p: RangeOut): PVec<Interval> | null {
    if (!this.refineArrival(block, p)) return null;
    if (this.inK0 < 0 && this.inK1 < 0) return p.vec;
    // The refined sides, lhs then rhs (the later wins where they are one entry).
    const idx = this.setIdx;
    const val = this.setVal;
    const n = this.refinedEntries(idx, val);
    this.clearInput();
    const out = pvSetMany(p.vec, idx, val, n);
    val.fill(undefined, 0, n);
    return out;
  }

  /** The entries an out-edge's condition refines in a predecessor's state `p` as it arrives at `block`, into
   *  `inK0`/`inV0` (its left side) and `inK1`/`inV1` (its right side, which wins where they are one entry);
   *  false when the edge cannot be taken. */
  private refineArrival(block: number, p: RangeOut): boolean {
    this.clearInput();
    const e = p.edges;
    if (e === undefined) return true;
    const cmp = e.to0 === block ? e.cmp0 : e.to1 === block ? e.cmp1 : undefined;
    if (cmp === undefined) return true;
    const vec = p.vec;
    const lhs = e.idx >= 0 ? pvGet(vec, e.idx) : undefined;
    const rhsIdx = e.rhsIdx;
    const rhs = rhsIdx >= 0 ? pvGet(vec, rhsIdx) : point(e.value);
    if (!applyCond(cmp, e.signed, e.w, lhs, rhs, rhsIdx >= 0)) return false;
    if (REFINED.lhsSet && e.idx >= 0) {
      const v = fit(REFINED.lhs, this.width(this.live.regs[e.idx]!.id)) ?? UNKNOWN;
      if (changed(vec, e.idx, v)) {
        this.inK0 = e.idx;
        this.inV0 = v;
      }
    }
    if (REFINED.rhsSet && rhsIdx >= 0) {
      const v = fit(REFINED.rhs, this.width(this.live.regs[rhsIdx]!.id)) ?? UNKNOWN;
      // (Set even when unchanged where it is the lhs's entry: the later one wins.)
      if (rhsIdx === e.idx ? this.inK0 >= 0 || changed(vec, rhsIdx, v) : changed(vec, rhsIdx, v)) {
        this.inK1 = rhsIdx;
        this.inV1 = v;
      }
    }
    return true;
  }

  /** Entries of the block's input state that an edge condition refined, over `input` (see refineArrival): a
   *  block with one predecessor runs on that predecessor's state as it is, and its output sets these entries
   *  with those it writes, in one copy of the state's path instead of two (the refined input state was the
   *  larger part of what the analysis allocated). -1: none. */
  private inK0 = -1;
  private inV0: Iv = undefined;
  private inK1 = -1;
  private inV1: Iv = undefined;

  /** The entries the input refined (see `inK0`), written to `idx`/`val` from 0, lhs then rhs (the later wins
   *  where they are one entry); returns how many. */
  private refinedEntries(idx: number[], val: Iv[]): number {
    let n = 0;
    if (this.inK0 >= 0) {
      idx[n] = this.inK0;
      val[n++] = this.inV0;
    }
    if (this.inK1 >= 0) {
      idx[n] = this.inK1;
      val[n++] = this.inV1;
    }
    return n;
  }

  private clearInput(): void {
    this.inK0 = -1;
    this.inV0 = undefined;
    this.inK1 = -1;
    this.inV1 = undefined;
  }

  /** Entry k of the block's input state. */
  private inputAt(k: number): Iv {
    if (k === this.inK1) return this.inV1;
    if (k === this.inK0) return this.inV0;
    return pvGet(this.input, k);
  }

  /** Whether `v` is not what entry k of the block's input state holds (see `changed`). */
  private inputChanged(k: number, v: Iv): boolean {
    const old = this.inputAt(k);
    return old !== v && (old === undefined || v === undefined || old.lo !== v.lo || old.hi !== v.hi);
  }

  /** A register not written yet on one path (reading it there is undefined)
   *  takes the other path's range; a `.func` parameter's entry value is unknown. */
  private readonly join = (k: number, x: Iv, y: Iv): Iv => {
    if (x === undefined) return this.live.regs[k]!.isParam ? UNKNOWN : y;
    if (y === undefined) return this.live.regs[k]!.isParam ? UNKNOWN : x;
    return hull(x, y) ?? UNKNOWN;
  };

  /** The block `widenEntry` widens at: its first (block, entry) key in `growths`, and whether a loop header. */
  private widenBase = 0;
  private widenHeader = false;

  /** An entry widened from x (the block's last output) to y (its new one). (One per engine, not a closure
   *  made per widening.) */
  private readonly widenEntry = (k: number, x: Iv, y: Iv): Iv => {
    if (x === undefined || y === undefined) return this.join(k, x, y);
    if (y.lo >= x.lo && y.hi <= x.hi) return x;
    const key = this.widenBase + k;
    const grown = this.growths.get(key) ?? 0;
    this.growths.set(key, grown + 1);
    const steps = this.widenHeader && grown < 4;
    // A non-negative lower bound that shrinks stops at 0 first: a value only
    // shifted or divided down (`s >>= 1` in a loop counted by another
    // register, which no setp compares with a constant) stays in [0, hi].
    const floor = y.lo >= 0 ? 0 : -Infinity;
    const lo = y.lo >= x.lo ? x.lo : steps ? Math.max(this.below(k, y.lo), floor) : floor;
    const hi = y.hi <= x.hi ? x.hi : steps ? this.above(k, y.hi) : Infinity;
    return mk(lo, hi) ?? UNKNOWN;
  };

  /** Per block: its output as the solver last received it (from `widen`), undefined while unreached; the
   *  transfer reads its predecessors' here. The solver keeps a new output only where it differs from the one
   *  it has, by `equals`, so where it keeps its own this one is equal to it (entry by entry, edges too), and
   *  a merge of either gives the same ranges. (The solver's join folds the predecessors' outputs into a list
   *  per block visit, and an object around it: 1.6 MB of a pass over scan_reduce.ptx.) SCRATCH's, from `run`. */
  private outs: (RangeOut | undefined)[] = [];
  /** The block the solver visits (for `widen`, which is not told). */
  private current = -1;
  /** The entry block's input. */
  private boundary: RangeOut | undefined;

  /** The output of a predecessor `from` of a block, skipping the exit (undefined: none, or unreached). */
  private outOf(from: number): RangeOut | undefined {
    return from === this.cfg.exit ? undefined : this.outs[from];
  }

  /** The state entering `block` from its predecessors' outputs (undefined: none arrives), in the order the
   *  solver folds them: the boundary first (the entry block), then the predecessors. */
  private merge(block: BasicBlock): PVec<Interval> | undefined {
    let acc: PVec<Interval> | undefined;
    if (block.id === 0) acc = this.arriving(0, this.boundary!) ?? undefined;
    const preds = block.preds;
    for (let j = 0; j < preds.length; j++) {
      const p = this.outOf(preds[j]!);
      if (p === undefined) continue;
      const v = this.arriving(block.id, p);
      if (v === null) continue;
      acc = acc === undefined ? v : pvMerge(acc, v, this.join);
    }
    return acc;
  }

  /** The block's output (UNREACHED while no state arrives). */
  private visit(block: BasicBlock): RangeFact {
    let vec: PVec<Interval> | undefined;
    if (block.preds.length + (block.id === 0 ? 1 : 0) >= 2) {
      vec = this.merge(block);
      // Kept for the join points (where join symbols and induction variables live); every other block
      // state can go. (Kept here, not merged again from the solver's inputs once it is done.)
      this.starts[block.id] = vec;
    } else {
      // One predecessor: its state, and the entries its edge's condition refines (runBlock sets them).
      const p = block.id === 0 ? this.boundary : block.preds.length === 1 ? this.outOf(block.preds[0]!) : undefined;
      if (p !== undefined && this.refineArrival(block.id, p)) vec = p.vec;
    }
    if (vec === undefined) return UNREACHED;
    const out = this.runBlock(block, vec);
    const edges = this.lastEdges;
    // The block's last output where this visit made the same state and edges (a revisit that changed nothing).
    const last = this.outs[block.id];
    if (last !== undefined && last.vec === out && last.edges === edges) return last;
    return edges === undefined ? { tag: 'out', from: block.id, vec: out } : { tag: 'out', from: block.id, vec: out, edges };
  }

  // Loop headers widen from their second visit (other blocks from their
  // eighth, for irreducible cycles): a bound that grows jumps to the next
  // constant a setp compares that register with (the first four times it
  // grows at that block), a non-negative lower bound to 0, else to infinity.
  private widened(prev: RangeFact, next: RangeFact, visits: number): RangeFact {
    if (prev.tag !== 'out' || next.tag !== 'out') return next;
    const header = this.headers[next.from] === 1;
    if (!(header && visits >= 2) && visits < 8) return next;
    this.widenBase = next.from * this.live.regs.length;
    this.widenHeader = header;
    const vec = pvMerge(prev.vec, next.vec, this.widenEntry);
    return next.edges === undefined ? { tag: 'out', from: next.from, vec } : { tag: 'out', from: next.from, vec, edges: next.edges };
  }

  run(): void {
    const s = this.scratch.take(this.fn, this.cfg.blocks.length);
    this.stamp = s.stamp;
    this.local = s.local;
    this.edgeCache = s.edgeCache;
    this.outs = s.outs;
    this.growths = s.growths;
    const boundary: RangeOut = { tag: 'out', from: -1, vec: this.empty };
    this.boundary = boundary;
    const edgesEqual = (a: Edges | undefined, b: Edges | undefined): boolean => {
      if (a === b) return true;
      if (a === undefined || b === undefined) return false;
      return a.to0 === b.to0 && a.cmp0 === b.cmp0 && a.to1 === b.to1 && a.cmp1 === b.cmp1 && a.idx === b.idx && a.signed === b.signed &&
        a.w === b.w && a.rhsIdx === b.rhsIdx && (a.rhsIdx >= 0 || a.value === b.value);
    };
    solve<RangeFact>(this.cfg, {
      site: 'ranges', direction: 'forward',
      boundary: (): RangeFact => boundary,
      initial: (): RangeFact => UNREACHED,
      // (The transfer reads the predecessors' outputs from `outs`.)
      join: (a) => a,
      equals: (a, b) => {
        if (a.tag !== 'out' || b.tag !== 'out') return a.tag === b.tag;
        return edgesEqual(a.edges, b.edges) && pvEquals(a.vec, b.vec, ivEquals);
      },
      transfer: (block) => {
        this.current = block.id;
        return this.visit(block);
      },
      widen: (prev, next, visits) => {
        const out = this.widened(prev, next, visits);
        this.outs[this.current] = out.tag === 'out' ? out : undefined;
        return out;
      },
    });
    // What only the walk needed: the facts keep the engine.
    this.outs.fill(undefined, 0, this.cfg.blocks.length);
    this.outs = [];
    this.growths.clear();
    this.growths = NO_GROWTHS;
    this.thresholdLists = undefined;
    this.input = this.empty;
    this.lastEdges = undefined;
    this.boundary = undefined;
  }

  /** The state at the start of a block with several predecessors (undefined otherwise, or when unreachable). */
  startState(block: number): PVec<Interval> | undefined {
    return this.starts[block];
  }
}

// ================================================================ the facts

export interface RangeFacts {
  readonly fn: FunctionModel;
  /** The interval of `reg` as `ins` reads it (after refinement by a guard
   *  known in the block); undefined when `ins` does not read it or is unreachable. */
  rangeAt(ins: number | FlatInstruction, reg: RegisterSymbol | string): Interval | undefined;
  /** The interval `ins` leaves in a register it writes. */
  rangeAfter(ins: number | FlatInstruction, reg: RegisterSymbol | string): Interval | undefined;
  /** The register's value read unsigned (or signed) at `ins`: exact when one window, else the type's range. */
  viewAt(ins: number | FlatInstruction, reg: RegisterSymbol | string, signed: boolean): Interval | undefined;
  /** The interval at the start of a block with several predecessors (a join
   *  point or loop header, where join symbols and induction variables live),
   *  after the incoming edges' conditions; undefined for other blocks (read
   *  `rangeAt` of their first instruction) and unreachable ones. */
  rangeAtBlockStart(block: number, reg: RegisterSymbol): Interval | undefined;
  /** The range of an affine symbol's value (tid from the block size,
   *  induction variables at their header, opaque definitions after their instruction). */
  symbolRange(sym: AffineSymbol): Interval | undefined;
  /** The range of an affine form from its symbols' ranges. */
  formRange(form: Form): Interval;
}

/** A form holding `m·x − m·2^k·(x >> k)` (how affine.ts writes `m·(x & (2^k − 1))`):
 *  the rest of the form, and the range of that pair, `m·(x mod 2^k)`, with
 *  x mod 2^k in [0, 2^k − g] when g (a power of two ≤ 2^k) divides x's
 *  constant and coefficients, and x itself when x lies in [0, 2^k). Exact only
 *  when x's range lies in the window the shift read it in (no wrap), else not
 *  used. Summing the two terms' ranges separately would lose that they cancel. */
function lowBits(form: Form, symbols: readonly AffineSymbol[], rangeOf: (f: Form) => Interval): { rest: Form; range: Interval } | undefined {
  for (const t of form.terms) {
    const s = symbols[t.sym]!;
    if (s.kind !== 'shr' || s.of.terms.length === 0 || s.shift >= 53) continue;
    const p = pow2(s.shift);
    const m = -t.coef / p;
    if (!Number.isSafeInteger(m) || m === 0) continue;
    if (!s.of.terms.every((u) => coefOf(form, u.sym) === m * u.coef)) continue;
    const x = rangeOf(s.of);
    const d = domain(s.width, s.signed);
    if (!(x.lo >= d.lo && x.hi <= d.hi)) continue;
    let g = pow2Factor(s.of.c, p);
    for (const u of s.of.terms) g = Math.min(g, pow2Factor(u.coef, p));
    const r = x.lo >= 0 && x.hi < p ? x : { lo: 0, hi: Math.min(p - g, x.lo >= 0 ? x.hi : Infinity) };
    const without = addScaled(form, s.of, -m);
    const rest = without === undefined ? undefined : addScaled(without, symForm(t.sym), -t.coef);
    const range = mulIv(r, point(m));
    if (rest !== undefined && range !== undefined) return { rest, range };
  }
  return undefined;
}

/** The largest power of two dividing x, capped at `cap` (a power of two); `cap` for 0. */
function pow2Factor(x: number, cap: number): number {
  let g = 1;
  while (g < cap && x % (g * 2) === 0) g *= 2;
  return g;
}

/** [lo, hi] as an interval: UNKNOWN, a shared point, or one made for the caller. */
function intervalOf(lo: number, hi: number): Interval {
  if (lo === -Infinity && hi === Infinity) return UNKNOWN;
  return lo === hi ? point(lo) : { lo, hi };
}

const indexOf = (ins: number | FlatInstruction): number => (typeof ins === 'number' ? ins : ins.index);

function computeRanges(ctx: AnalysisContext, fn: FunctionModel): RangeFacts {
  const engine = new RangeEngine(ctx, fn);
  engine.run();
  const at = (ins: number | FlatInstruction, reg: RegisterSymbol | string, defs: boolean): Interval | undefined => {
    const i = indexOf(ins);
    const code = engine.code;
    if (code.ops[i] === undefined || engine.reached[i] === 0) return undefined;
    const k = registerPosition(code, i, defs, reg);
    if (k < 0) return undefined;
    const fx = code.fx;
    // (An integer scalar, by the compiled table: not a read of the register's symbol.)
    const w = code.scalars[defs ? fx.defIds[fx.defStart[i]! + k]! : fx.useIds[fx.useStart[i]! + k]!]!;
    if (w === 0 || w === PRED_SCALAR) return undefined;
    const slot = (defs ? fx.useStart[i + 1]! : fx.useStart[i]!) + fx.defStart[i]! + k;
    return intervalOf(engine.bounds[2 * slot]!, engine.bounds[2 * slot + 1]!);
  };
  const symMemo = new Map<number, Interval | undefined>();
  // The range of a shift symbol's operand (asked again for each form holding the symbol).
  const ofMemo = new WeakMap<Form, Interval>();
  const ofRange = (f: Form): Interval => {
    let r = ofMemo.get(f);
    if (r === undefined) {
      r = facts.formRange(f);
      ofMemo.set(f, r);
    }
    return r;
  };
  const facts: RangeFacts = {
    fn,
    rangeAt: (ins, reg) => at(ins, reg, false),
    rangeAfter: (ins, reg) => at(ins, reg, true),
    viewAt(ins, reg, signed) {
      const r = at(ins, reg, false);
      if (r === undefined) return undefined;
      const i = indexOf(ins);
      const code = engine.code;
      // (An integer scalar, as `at` found: its width from the compiled table.)
      const w = code.scalars[code.fx.useIds[code.fx.useStart[i]! + registerPosition(code, i, false, reg)]!]!;
      return view(isUnknown(r) ? undefined : r, w, signed);
    },
    rangeAtBlockStart(block, reg) {
      const start = engine.startState(block);
      if (start === undefined) return undefined;
      const k = engine.live.index[reg.id]!;
      return (k >= 0 ? pvGet(start, k) : undefined) ?? UNKNOWN;
    },
    symbolRange(sym) {
      if (symMemo.has(sym.id)) return symMemo.get(sym.id);
      symMemo.set(sym.id, undefined); // cycles stay unknown
      let r: Interval | undefined;
      switch (sym.kind) {
        case 'sreg': r = engine.sreg(sym.sreg, sym.component); break;
        case 'def': {
          const fx = engine.code.fx;
          const slot = fx.defStart[sym.instruction]! + sym.element;
          const reg = sym.element >= 0 && slot < fx.defStart[sym.instruction + 1]! ? engine.code.regs[fx.defIds[slot]!] : undefined;
          r = reg === undefined ? undefined : facts.rangeAfter(sym.instruction, reg);
          break;
        }
        case 'join': case 'iv': r = sym.kind === 'join' && sym.atEnd ? undefined : facts.rangeAtBlockStart(sym.block, sym.register); break;
        case 'shr': {
          const f = ofRange(sym.of);
          r = shrIv(view(isUnknown(f) ? undefined : f, sym.width, sym.signed), point(sym.shift));
          break;
        }
        default: r = undefined;
      }
      if (r !== undefined && isUnknown(r)) r = undefined;
      symMemo.set(sym.id, r);
      return r;
    },
    formRange(form) {
      const symbols = ctx.get(fn, affineAnalysis).symbols;
      let acc: Iv = point(form.c);
      for (const t of form.terms) {
        const r = facts.symbolRange(symbols[t.sym]!);
        acc = addIv(acc, mulIv(r, point(t.coef)), 1);
        if (acc === undefined) break;
      }
      // Both bounds hold, so their intersection does.
      const digit = lowBits(form, symbols, ofRange);
      const low = digit === undefined ? undefined : addIv(facts.formRange(digit.rest), digit.range, 1);
      if (low === undefined) return acc ?? UNKNOWN;
      if (acc === undefined) return low;
      const lo = Math.max(acc.lo, low.lo);
      const hi = Math.min(acc.hi, low.hi);
      return lo > hi ? acc : mk(lo, hi) ?? UNKNOWN;
    },
  };
  return facts;
}

export const rangeAnalysis: FunctionAnalysis<RangeFacts> = { name: 'ranges', compute: computeRanges };
