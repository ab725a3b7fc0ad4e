// Affine values: every integer register at every use as a linear form
// `c0 + Σ ci·xi` over symbols (%tid, %laneid, %ctaid, %ntid, the base address
// of a named variable, kernel parameters, loop induction variables, and opaque
// values), computed forward with the dataflow solver; and the per-lane facts
// the memory checks read from an address form: the lane stride, shared-memory
// bank conflicts (F052), global sectors per request (F053), and whether two
// accesses can touch the same bytes from different threads (F036/F037).
//
// Arithmetic is modulo 2^width: a form is the register's value modulo 2^w of
// the instruction that computed it (constants and coefficients are kept as the
// signed representative, e.g. `add.u32 r, tid, 0xffffffff` is `%tid.x - 1`).
// Where a narrow form is widened (`cvt.u64.u32`, `mul.wide`, `mad.wide`) the
// form equals the wide value only if the narrow one did not wrap; when that is
// not provable from hardware bounds (%tid < 1024, %laneid < 32, ...) the form
// is marked `mayWrap`. Lane-relative facts (strides, banks) hold modulo the
// width whatever `mayWrap` says, as long as no wrap falls between the lanes
// of one warp.
//
// Transfer: mov, add/sub, mul/mad (.lo/.wide) by a constant, shl by a
// constant, neg, not (= −x − 1), cvt between integers and cvta keep the form;
// shr/div/rem/and by powers of two become `x >> k` symbols (`x & (2^k−1)` is
// `x − 2^k·(x >> k)`), or a constant when x's bounds lie in one window of 2^k
// (`(%tid.x + 32) % 256` is `%tid.x + 32` when tid.x < 224); or/xor with provably disjoint bits add; `mad` of two
// values is an opaque product plus the addend; `ld.param` of a parameter is a
// parameter symbol (one per parameter and offset); anything else is an opaque
// symbol of its definition (a guarded definition: the old or the new value).
//
// Joins: where different forms meet at a block, the register becomes a fresh
// symbol for that (block, register) pair (deterministic: one per pair); a
// register not written yet on one path takes the other path's form (reading
// it there is undefined), except `.func` register parameters. At a natural
// loop header every state register the loop writes is that symbol from the
// first visit on, so the body is interpreted once, not twice; such a symbol
// whose back-edge values are all `itself + step` (step loop-invariant,
// non-zero) and whose entry values agree is an induction variable
// `iv(header, reg)` with that init and step.
//
// The block states are persistent vectors over the registers that are live
// into some block (path copying, shared subtrees skipped by joins and
// comparisons), so a pass costs about the number of definitions, not blocks ×
// registers. Instructions are compiled once per function (operands resolved)
// and shared with the ranges analysis (ranges.ts), which reuses the vectors.
import type * as A from '../../parser/ast.js';
import type { BasicBlock, Cfg } from '../builder.js';
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import type { LoopForest } from '../loops.js';
import { typeBytes, type EffectTable, type FlatInstruction, type FunctionModel, type RegisterSymbol, type SregSymbol as ModelSreg, type VariableSymbol } from '../symbols.js';
import type { SregVariance } from '../../parser/isa/sregs.js';
import { solve, type DataflowResult } from './solver.js';
import { OTHER_OPCODE } from '../opcodes.js';
import { isNameKind, OperandKind } from '../operand-kinds.js';

// ================================================================ forms

export interface Term {
  /** Symbol id (see `AffineFacts.symbols`). */
  readonly sym: number;
  /** Never 0. */
  readonly coef: number;
}

/** `c + Σ coef·sym`; terms sorted by symbol id. Numbers are safe integers. */
export interface Form {
  readonly c: number;
  readonly terms: readonly Term[];
  /** A narrower value was widened here without proof that it did not wrap. */
  readonly mayWrap: boolean;
}

/** Term and form objects are made by the hundred thousand. V8 keeps a number field of an object inline only
 *  while every value that field has held, in any object of that shape, was a small integer; after the first
 *  other number (a coefficient above 2^30, a product the compiler did not prove integral) the field is boxed
 *  in every object of the shape: one more heap object per field of each term (measured: 27,000 of the
 *  145,000 objects the affine facts of a 500 kB module keep). A field that has held a non-number keeps small
 *  integers inline and boxes only the others. These objects, made before any form, give the fields of both
 *  shapes that representation; they are kept so that the shapes are. */
export const TAGGED_SHAPES: readonly unknown[] = [
  { sym: null, coef: null },
  { c: null, terms: null, mayWrap: null },
];

/** Forms with more terms become opaque (keeps every operation cheap). */
export const MAX_TERMS = 8;

const NO_TERMS: readonly Term[] = [];
const CONSTS = new Map<number, Form>();

export function constForm(c: number): Form {
  let f = CONSTS.get(c);
  if (f === undefined) {
    f = { c, terms: NO_TERMS, mayWrap: false };
    if (CONSTS.size < 4096) CONSTS.set(c, f);
  }
  return f;
}

export function symForm(sym: number): Form {
  return { c: 0, terms: [{ sym, coef: 1 }], mayWrap: false };
}

export function isConstant(f: Form): boolean {
  return f.terms.length === 0;
}

/** Coefficient of `sym` in `f` (0 when absent). */
export function coefOf(f: Form, sym: number): number {
  for (const t of f.terms) if (t.sym === sym) return t.coef;
  return 0;
}

/** A form as text (`c,sym*coef,...`): equal texts, equal constant and terms. A key for memo tables. */
export function formKey(f: Form): string {
  let key = `${f.c}`;
  for (const t of f.terms) key += `,${t.sym}*${t.coef}`;
  return key;
}

export function formEquals(a: Form, b: Form): boolean {
  if (a === b) return true;
  if (a.c !== b.c || a.mayWrap !== b.mayWrap || a.terms.length !== b.terms.length) return false;
  for (let i = 0; i < a.terms.length; i++) {
    const x = a.terms[i]!;
    const y = b.terms[i]!;
    if (x.sym !== y.sym || x.coef !== y.coef) return false;
  }
  return true;
}

const safe = (x: number): boolean => Number.isSafeInteger(x);

/** Terms being built (`addScaled`, `scaleForm`, `normalize`), copied into a list of their number when done: a list
 *  filled by `push` from empty has room for 16 (V8's first growth), 150 bytes that every form the facts keep
 *  kept. (Not re-entered: the builders call nothing that builds.) */
let BUILD: (Term | null)[] = new Array<Term | null>(32).fill(null);

function buildRoom(n: number): (Term | null)[] {
  if (BUILD.length < n) BUILD = new Array<Term | null>(Math.max(n, 2 * BUILD.length)).fill(null);
  return BUILD;
}

/** The first n built terms, as a list of exactly n (the shared empty one for none). */
function built(out: readonly (Term | null)[], n: number): readonly Term[] {
  return n === 0 ? NO_TERMS : (out.slice(0, n) as Term[]);
}

/** `a + k·b`; undefined on overflow of a safe integer or more than MAX_TERMS terms. */
export function addScaled(a: Form, b: Form, k: number): Form | undefined {
  if (k === 0) return a;
  const c = a.c + k * b.c;
  if (!safe(c)) return undefined;
  if (b.terms.length === 0) return c === a.c ? a : a.terms.length === 0 ? constForm(c) : { c, terms: a.terms, mayWrap: a.mayWrap || b.mayWrap };
  if (a.terms.length === 0 && k === 1) return { c, terms: b.terms, mayWrap: a.mayWrap || b.mayWrap };
  const at = a.terms;
  const bt = b.terms;
  const out = buildRoom(at.length + bt.length);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < at.length || j < bt.length) {
    const x = at[i];
    const y = bt[j];
    if (y === undefined || (x !== undefined && x.sym < y.sym)) {
      out[n++] = x!;
      i++;
    } else if (x === undefined || y.sym < x.sym) {
      // (Terms are immutable: b's own where k = 1, an `add`'s.)
      if (k === 1) {
        out[n++] = y;
      } else {
        const coef = k * y.coef;
        if (!safe(coef)) return undefined;
        out[n++] = { sym: y.sym, coef };
      }
      j++;
    } else {
      const coef = x.coef + k * y.coef;
      if (!safe(coef)) return undefined;
      if (coef !== 0) out[n++] = { sym: x.sym, coef };
      i++;
      j++;
    }
  }
  if (n > MAX_TERMS) return undefined;
  return { c, terms: built(out, n), mayWrap: a.mayWrap || b.mayWrap };
}

export function scaleForm(a: Form, k: number): Form | undefined {
  if (k === 1) return a;
  if (k === 0) return constForm(0);
  const c = a.c * k;
  if (!safe(c)) return undefined;
  const at = a.terms;
  const out = buildRoom(at.length);
  for (let i = 0; i < at.length; i++) {
    const t = at[i]!;
    const coef = t.coef * k;
    if (!safe(coef)) return undefined;
    out[i] = { sym: t.sym, coef };
  }
  return { c, terms: built(out, at.length), mayWrap: a.mayWrap };
}

export function subForms(a: Form, b: Form): Form | undefined {
  return addScaled(a, b, -1);
}

/** x (a safe integer) reduced modulo 2^w to the signed representative (1 ≤ w ≤ 32; wider widths are left
 *  alone). The shifts do it: `<<` takes its operand modulo 2^32 (ToInt32 is exact on safe integers), and
 *  the arithmetic `>>` back sign-extends bit w−1. */
function wrapSigned(x: number, w: number): number {
  if (w > 32) return x;
  const s = 32 - w;
  return (x << s) >> s;
}

/** The form with constant and coefficients reduced modulo 2^w (identity for 64-bit). */
function normalize(f: Form, w: number): Form {
  if (w > 32) return f;
  let changed = wrapSigned(f.c, w) !== f.c;
  for (const t of f.terms) if (wrapSigned(t.coef, w) !== t.coef) changed = true;
  if (!changed) return f;
  const out = buildRoom(f.terms.length);
  let n = 0;
  for (const t of f.terms) {
    const coef = wrapSigned(t.coef, w);
    if (coef !== 0) out[n++] = coef === t.coef ? t : { sym: t.sym, coef };
  }
  return { c: wrapSigned(f.c, w), terms: built(out, n), mayWrap: f.mayWrap };
}

function withWrap(f: Form, mayWrap: boolean): Form {
  return mayWrap && !f.mayWrap ? { ...f, mayWrap: true } : f;
}

const POW2 = new Float64Array(129).map((_x, k) => 2 ** k);

/** 2^k. From a table for integers 0 to 128: V8 computes `2 ** k` with a variable k by a call into its
 *  pow routine, about 50 ns, and the range and affine rules ask for it at almost every instruction. */
export function pow2(k: number): number {
  return k >= 0 && k <= 128 && (k | 0) === k ? POW2[k]! : 2 ** k;
}

/** The low w bits of the integer x, unsigned (1 ≤ w ≤ 32; exact on safe integers, as ToInt32 is). */
function low(x: number, w: number): number {
  return w >= 32 ? x >>> 0 : x & ((1 << w) - 1);
}

/** x (unsigned, below 2^32) is 2^k − 1 for some k ≥ 0. */
function isLowMask(x: number): boolean {
  return (x & (x + 1)) === 0;
}

/** The largest power of two dividing x (x ≠ 0), capped at 2^30. */
function pow2Factor(x: number): number {
  if (x === 0) return 2 ** 30;
  // (A 32-bit integer's lowest set bit directly: most constants and coefficients are.)
  const i = x | 0;
  if (i === x && i !== -2147483648) {
    const bit = i & -i;
    return bit > 2 ** 30 ? 2 ** 30 : bit;
  }
  let p = 1;
  while (p < 2 ** 30 && x % (p * 2) === 0) p *= 2;
  return p;
}

const mod = (x: number, m: number): number => ((x % m) + m) % m;

// ================================================================ symbols

interface SymbolBase {
  readonly id: number;
  /** Printable: `%tid.x`, `&smem`, `param(k_param_0)`, `iv(B2,%r5)` ... */
  readonly name: string;
  /** Derived (by data, not by control) from %tid, %laneid or %lanemask_*. */
  readonly threadDependent: boolean;
  /** Equal across the CTA: true only when trivially so (special registers of
   *  the CTA/grid, variable addresses, kernel parameters, pure arithmetic on
   *  those); false when thread-dependent; undefined otherwise (the uniformity
   *  analysis decides). */
  readonly uniform: boolean | undefined;
}

/** A special register (`%tid.x`, `%laneid`, `%ctaid.y`, `%ntid.x`, `%warpid` ...). */
export interface SregSymbol extends SymbolBase {
  readonly kind: 'sreg';
  /** Without the component: `%tid`. */
  readonly sreg: string;
  readonly component?: string;
  readonly variance: SregVariance;
}

/** The address of a named variable: `mov.u64 %rd1, smem` or `[smem+4]`. */
export interface VarSymbol extends SymbolBase {
  readonly kind: 'var';
  readonly variable: VariableSymbol;
}

/** The value `ld.param` reads from a parameter of the function, at a byte offset. */
export interface ParamSymbol extends SymbolBase {
  readonly kind: 'param';
  readonly variable: VariableSymbol;
  readonly offset: number;
}

/** A register's value on entry (a `.func` register parameter, or never written). */
export interface InitSymbol extends SymbolBase {
  readonly kind: 'init';
  readonly register: RegisterSymbol;
}

/** An opaque value defined by one instruction (`element` of a vector or pair destination). */
export interface DefSymbol extends SymbolBase {
  readonly kind: 'def';
  readonly instruction: number;
  readonly element: number;
  /** A guarded definition: the old value or the new one. */
  readonly guarded: boolean;
}

/** Different forms of `register` meet at the start of `block` (or, after the
 *  solver's widening cap, at its end: `atEnd`). */
export interface JoinSymbol extends SymbolBase {
  readonly kind: 'join';
  readonly block: number;
  readonly register: RegisterSymbol;
  readonly atEnd: boolean;
}

/** An induction variable: `register` at the start of loop header `block` is
 *  `init` on entry and goes up by `step` on every back edge. */
export interface IvSymbol extends SymbolBase {
  readonly kind: 'iv';
  readonly block: number;
  /** Index into `LoopForest.loops`. */
  readonly loop: number;
  readonly register: RegisterSymbol;
  readonly init: Form;
  readonly step: Form;
  /** The step when it is a constant. */
  readonly constStep?: number;
}

/** `floor(of / 2^shift)` of the `width`-bit value of `of` (`shr`, and the high
 *  part of `and` with a low mask: `x & (2^k-1) = x - 2^k·(x >> k)`). */
export interface ShrSymbol extends SymbolBase {
  readonly kind: 'shr';
  readonly of: Form;
  readonly shift: number;
  readonly signed: boolean;
  readonly width: number;
}

export type AffineSymbol = SregSymbol | VarSymbol | ParamSymbol | InitSymbol | DefSymbol | JoinSymbol | IvSymbol | ShrSymbol;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const THREAD_SREGS = new Set(['%tid', '%laneid', '%lanemask_eq', '%lanemask_le', '%lanemask_lt', '%lanemask_ge', '%lanemask_gt']);

/** Opcodes whose result is a pure function of their operands (for `uniform`). */
const PURE = new Set([
  'add', 'sub', 'mul', 'mad', 'mul24', 'mad24', 'sad', 'div', 'rem', 'abs', 'neg', 'min', 'max', 'popc', 'clz',
  'bfind', 'brev', 'bfe', 'bfi', 'fns', 'and', 'or', 'xor', 'not', 'cnot', 'lop3', 'shl', 'shr', 'shf', 'prmt',
  'cvt', 'cvta', 'mov', 'selp', 'slct', 'setp', 'set', 'addc', 'subc', 'madc', 'dp4a', 'dp2a', 'copysign', 'testp',
]);

// ================================================================ persistent vectors

const BITS = 4;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

type PNode = readonly unknown[];

/** A fixed-length persistent vector: 32-way trie with path copying. Entries
 *  are `undefined` until set; the analyses give `undefined` a meaning
 *  (the register's entry value). */
export interface PVec<T> {
  readonly size: number;
  /** Levels of internal nodes above the leaves (0: the root is a leaf). */
  readonly shift: number;
  readonly root: PNode;
  /** Phantom: the element type. */
  readonly _t?: T;
}

const EMPTY_LEAF: PNode = new Array<unknown>(WIDTH).fill(undefined);

export function pvEmpty<T>(size: number): PVec<T> {
  let shift = 0;
  while (WIDTH << shift < size) shift += BITS;
  let node: PNode = EMPTY_LEAF;
  for (let s = BITS; s <= shift; s += BITS) node = new Array<unknown>(WIDTH).fill(node);
  return { size, shift, root: node };
}

export function pvGet<T>(v: PVec<T>, i: number): T | undefined {
  let node = v.root;
  for (let s = v.shift; s > 0; s -= BITS) node = node[(i >>> s) & MASK] as PNode;
  return node[i & MASK] as T | undefined;
}

/** The vector with entries `idx[k]` set to `val[k]` for k < n (indices in any order). */
export function pvSetMany<T>(v: PVec<T>, idx: readonly number[], val: readonly (T | undefined)[], n = idx.length): PVec<T> {
  if (n === 0) return v;
  const job = SET_JOB;
  job.idx = idx;
  job.val = val;
  job.order = setOrder(idx, n);
  job.changed = false;
  const root = setNodes(job, v.root, v.shift, 0, n);
  const changed = job.changed;
  job.idx = NO_INDICES;
  job.val = NO_INDICES;
  return changed ? { size: v.size, shift: v.shift, root } : v;
}

/** What `setNodes` writes: entries `val[order[k]]` at `idx[order[k]]`; `changed` once one differs. */
interface SetJob { idx: readonly number[]; val: readonly unknown[]; order: ArrayLike<number>; changed: boolean }

const NO_INDICES: readonly number[] = [];
/** Scratch lists of the entries `pvSetTouched` sets. */
const SET_IDX: number[] = [];
const SET_VAL: unknown[] = [];

/** The vector with the registers a block walk wrote (`touched[0, count)`, by register id) set to their values in
 *  `local`, those with a position in `index` (the live-in registers the states hold); the lists it sets from are
 *  scratch, kept by neither (affine forms and value ranges). */
export function pvSetTouched<T>(v: PVec<T>, touched: readonly number[], index: Int32Array, local: readonly (T | undefined)[], count = touched.length): PVec<T> {
  const idx = SET_IDX;
  const val = SET_VAL as (T | undefined)[];
  let n = 0;
  for (let t = 0; t < count; t++) {
    const r = touched[t]!;
    const k = index[r]!;
    if (k >= 0) {
      idx[n] = k;
      val[n++] = local[r];
    }
  }
  const out = pvSetMany(v, idx, val, n);
  val.fill(undefined, 0, n);
  return out;
}

/** The one job of `pvSetMany` (not re-entered: `setNodes` calls nothing that sets), and its order's room. */
const SET_JOB: SetJob = { idx: NO_INDICES, val: NO_INDICES, order: NO_INDICES, changed: false };
let ORDER = new Int32Array(64);

/** Positions 0..n-1 of `idx` ordered by index, stably (equal indices keep their order: the last one wins), in
 *  a scratch list: a block writes a few registers, so a list and a sort with a closure per call were most of
 *  what setting them allocated. Lists already in order (most) need no sort. */
function setOrder(idx: readonly number[], n: number): ArrayLike<number> {
  if (ORDER.length < n) ORDER = new Int32Array(Math.max(n, 2 * ORDER.length));
  const order = ORDER;
  let sorted = true;
  for (let k = 0; k < n; k++) {
    order[k] = k;
    if (k > 0 && idx[k]! < idx[k - 1]!) sorted = false;
  }
  if (sorted) return order;
  if (n > 32) {
    const list = Array.from({ length: n }, (_x, k) => k).sort((a, b) => idx[a]! - idx[b]!);
    for (let k = 0; k < n; k++) order[k] = list[k]!;
    return order;
  }
  // Insertion sort: stable, as the sort above.
  for (let k = 1; k < n; k++) {
    const x = order[k]!;
    const key = idx[x]!;
    let j = k - 1;
    while (j >= 0 && idx[order[j]!]! > key) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = x;
  }
  return order;
}

/** `node` with the entries order[lo..hi) of `job`, which all fall in it, written: a copy from the first entry
 *  that differs, else `node` itself (unchanged subtrees stay shared, and a walk that rewrites a register's own
 *  value copies nothing). */
function setNodes(job: SetJob, node: PNode, shift: number, lo: number, hi: number): PNode {
  const { idx, val, order } = job;
  let copy: unknown[] | undefined;
  if (shift === 0) {
    for (let k = lo; k < hi; k++) {
      const j = idx[order[k]!]! & MASK;
      const x = val[order[k]!];
      if ((copy ?? node)[j] !== x) {
        copy ??= node.slice();
        copy[j] = x;
        job.changed = true;
      }
    }
    return copy ?? node;
  }
  let k = lo;
  while (k < hi) {
    const slot = (idx[order[k]!]! >>> shift) & MASK;
    let e = k + 1;
    while (e < hi && ((idx[order[e]!]! >>> shift) & MASK) === slot) e++;
    const child = node[slot] as PNode;
    const next = setNodes(job, child, shift - BITS, k, e);
    if (next !== child) {
      copy ??= node.slice();
      copy[slot] = next;
    }
    k = e;
  }
  return copy ?? node;
}

/** Entry-wise combination; subtrees shared by both are kept as they are, and
 *  `f` is called only where the entries differ (by reference). */
// (The trees are walked by top-level functions, not closures made per call: V8 keeps a closure's optimized
// code only while one of its closures lives, and these run millions of times; see keep-compiled.ts.)
function mergeNodes<T>(x: PNode, y: PNode, shift: number, base: number, f: (i: number, x: T | undefined, y: T | undefined) => T | undefined): PNode {
  if (x === y) return x;
  let out: unknown[] | undefined;
  for (let j = 0; j < WIDTH; j++) {
    const xj = x[j];
    const yj = y[j];
    if (xj === yj) continue;
    const r = shift === 0 ? f(base + j, xj as T | undefined, yj as T | undefined) : mergeNodes(xj as PNode, yj as PNode, shift - BITS, base + (j << shift), f);
    if (r !== xj) {
      out ??= x.slice();
      out[j] = r;
    }
  }
  return out ?? x;
}

export function pvMerge<T>(a: PVec<T>, b: PVec<T>, f: (i: number, x: T | undefined, y: T | undefined) => T | undefined): PVec<T> {
  if (a.root === b.root) return a;
  const root = mergeNodes(a.root, b.root, a.shift, 0, f);
  return root === a.root ? a : { size: a.size, shift: a.shift, root };
}

function nodesEqual<T>(x: PNode, y: PNode, shift: number, eq: (x: T | undefined, y: T | undefined) => boolean): boolean {
  if (x === y) return true;
  for (let j = 0; j < WIDTH; j++) {
    const xj = x[j];
    const yj = y[j];
    if (xj === yj) continue;
    if (shift === 0 ? !eq(xj as T | undefined, yj as T | undefined) : !nodesEqual(xj as PNode, yj as PNode, shift - BITS, eq)) return false;
  }
  return true;
}

export function pvEquals<T>(a: PVec<T>, b: PVec<T>, eq: (x: T | undefined, y: T | undefined) => boolean): boolean {
  return nodesEqual(a.root, b.root, a.shift, eq);
}

// ================================================================ solver facts

/** A block's output: its state, and per-successor refinements (ranges). */
export interface BlockOut<T, E> {
  readonly tag: 'out';
  /** The block, or -1 for the entry boundary. */
  readonly from: number;
  readonly vec: PVec<T>;
  readonly edges?: E;
}

/** The solver's join only collects the predecessors' outputs; the block's
 *  transfer merges them, knowing the block (join symbols, per-edge refinement). */
export interface Parts<T, E> {
  readonly tag: 'parts';
  readonly parts: readonly BlockOut<T, E>[];
}

export interface Unreached {
  readonly tag: 'bottom';
}

export type Fact<T, E> = BlockOut<T, E> | Parts<T, E> | Unreached;

export const UNREACHED: Unreached = { tag: 'bottom' };

export function partsOf<T, E>(f: Fact<T, E>): readonly BlockOut<T, E>[] {
  return f.tag === 'out' ? [f] : f.tag === 'parts' ? f.parts : [];
}

export function joinFacts<T, E>(a: Fact<T, E>, b: Fact<T, E>): Fact<T, E> {
  if (a.tag === 'bottom') return b;
  if (b.tag === 'bottom') return a;
  // (One list, filled in place: no one-element lists for the outputs, no spreads.)
  if (a.tag === 'out' && b.tag === 'out') return { tag: 'parts', parts: [a, b] };
  const parts: BlockOut<T, E>[] = [];
  if (a.tag === 'out') parts.push(a);
  else for (const p of a.parts) parts.push(p);
  if (b.tag === 'out') parts.push(b);
  else for (const p of b.parts) parts.push(p);
  return { tag: 'parts', parts };
}

// ================================================================ registers and operands

/** Width in bits of an integer (`.b/.u/.s`) register or type; undefined otherwise. */
export function intWidth(type: string): number | undefined {
  switch (type) {
    case '.b8': case '.u8': case '.s8': return 8;
    case '.b16': case '.u16': case '.s16': return 16;
    case '.b32': case '.u32': case '.s32': return 32;
    case '.b64': case '.u64': case '.s64': return 64;
    default: return undefined;
  }
}

export interface IntType {
  readonly width: number;
  readonly signed: boolean;
}

const TYPES: ReadonlySet<string> = new Set([
  '.b8', '.b16', '.b32', '.b64', '.b128', '.u8', '.u16', '.u32', '.u64', '.s8', '.s16', '.s32', '.s64',
  '.f16', '.f32', '.f64', '.bf16', '.f16x2', '.bf16x2', '.tf32', '.pred', '.e4m3', '.e5m2', '.e4m3x2', '.e5m2x2',
]);

/** The types named by an instruction's modifiers, in order (`.u32`, `.f32` ...). */
export function typeModifiers(mods: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of mods) if (TYPES.has(m)) out.push(m);
  return out;
}

/** The instruction's (last) integer type; undefined when it is not an integer op. */
export function intTypeOf(mods: readonly string[]): IntType | undefined {
  const types = typeModifiers(mods);
  const t = types[types.length - 1];
  if (t === undefined) return undefined;
  const width = intWidth(t);
  return width === undefined ? undefined : { width, signed: t.startsWith('.s') };
}

/** An integer immediate operand, reduced modulo 2^w to its signed representative. */
export function immediate(e: A.Expression, w: number): number | undefined {
  const v = immediate64(e);
  return v === null || v === undefined ? undefined : wrapTo(v, w);
}

/** The first bracketed operand of a memory instruction (the `which`-th one when
 *  there are several, `cp.async [dst], [src]`), with a single element. */
export function addressOperand(node: A.Instruction, which = 0): A.Expression | undefined {
  let n = 0;
  for (const o of node.operands) {
    if (o.kind !== 'Address') continue;
    if (n++ === which) return o.elements.length === 1 ? o.elements[0] : undefined;
  }
  return undefined;
}

/** Bytes one thread moves: the data type's size times the vector width. */
export function accessBytes(node: A.Instruction): number | undefined {
  const types = typeModifiers(node.modifiers);
  const t = types[types.length - 1];
  const elem = t === undefined ? undefined : typeBytes(t);
  if (elem === undefined) return undefined;
  const v = node.modifiers.find((m) => m === '.v2' || m === '.v4' || m === '.v8');
  return elem * (v === undefined ? 1 : Number(v.slice(2)));
}

// ================================================================ compiled instructions

/** An operand resolved once per function (both analyses evaluate these). A register is its id (`fn.registers`):
 *  no object per register and function (one each was 7.6 MB that the facts of scan_reduce.ptx kept). */
export type Src =
  | number
  /** An integer immediate as its 64-bit signed value (undefined when not a safe integer). */
  | { readonly k: 'imm'; readonly value: number | undefined }
  /** `slot`: a dense number per function, for per-analysis caches. */
  | { readonly k: 'sreg'; readonly name: string; readonly component: string | undefined; readonly variance: SregVariance; readonly slot: number }
  | VarSrc
  /** `base ± constant` (`[%rd1+16]`, `[smem+4]`): base a register's id or a variable. */
  | { readonly k: 'sum'; readonly base: number | VarSrc; readonly offset: number }
  /** Anything else, evaluated from the syntax tree. */
  | { readonly k: 'expr'; readonly e: A.Expression }
  /** No value the analyses read: vectors, lists, bracketed operands (see `paramAddresses`), and names of labels
   *  or functions, unresolved names and float immediates (which both analyses evaluate to nothing). */
  | { readonly k: 'none' };

export interface VarSrc {
  readonly k: 'var';
  readonly variable: VariableSymbol;
  readonly slot: number;
}

/** Modifier flags of a compiled instruction. */
export const WIDE = 1;
export const HI = 2;
export const SAT = 4;
export const PRED = 8;
export const FLOAT = 16;
export const PARAM = 32;
export const CONST = 64;
/** The first operand is a register name (not a vector, pair or list). */
export const NAMED_DEST = 128;
/** The result is a pure function of the operands (for `uniform`). */
export const PURE_OP = 256;
/** Its guard is a register (its first use: the model lists the guard first among the uses). */
export const GUARDED = 1 << 16;
/** Its guard is negated (`@!%p`). */
export const NEGATED = 1 << 17;

/** What an instruction's opcode and modifiers say (its `types`, `ty`, and the flags of both): one object per
 *  opcode and modifier list, shared by the instructions that have them. */
export interface OpInfo {
  readonly opcode: string;
  /** The modifiers (the instructions' own list: the parser shares one per modifier set, and ops are per list). */
  readonly modifiers: readonly string[];
  /** Type modifiers in order (`cvt.u64.u32`: [".u64", ".u32"]). */
  readonly types: readonly string[];
  /** The last type, when an integer type. */
  readonly ty: IntType | undefined;
  readonly flags: number;
}

/** A function's instructions compiled, by instruction index: no object per instruction (one each, of seven
 *  fields, was 15 MB that the facts of scan_reduce.ptx kept, copied by each scavenge they lived through).
 *  Instruction i's registers are the effect table's (`fx`: uses `fx.useIds[fx.useStart[i], fx.useStart[i + 1])`,
 *  the guard first, defs likewise), its operands' sources `srcs[fx.operandStart[i], fx.operandStart[i + 1])`
 *  (see `srcOf`). */
export interface CompiledFunction {
  /** Per instruction, what its opcode and modifiers say. */
  readonly ops: readonly OpInfo[];
  /** Per instruction, its op's flags and its own (NAMED_DEST, GUARDED, NEGATED). */
  readonly flags: Int32Array;
  /** Every operand's source, in the order of the model's operand table (one list for the function). */
  readonly srcs: readonly Src[];
  /** The address (first bracketed operand, with one element) of each `.param` instruction, by instruction: the
   *  only addresses the analyses evaluate (`ld.param`). */
  readonly paramAddresses: ReadonlyMap<number, Src>;
  /** `.param` variables the function stores to (call arguments, return values). */
  readonly writtenParams: ReadonlySet<VariableSymbol>;
  /** How many `sreg`/`var` operand slots. */
  readonly slots: number;
  /** Integer and predicate registers live into some block: the entries of the block states. */
  readonly live: LiveIn;
  /** The model's registers and operands of each instruction, by id (see above). They also place each
   *  instruction's records (`recordAt`). */
  readonly fx: EffectTable;
  /** The function's registers by id. */
  readonly regs: readonly RegisterSymbol[];
  /** Per register id: the width of an integer scalar register, PRED_SCALAR for a predicate, 0 for any other (a
   *  vector, a float). The block states follow integer and predicate scalars. (Read once per function for both
   *  engines: the registers' objects lie scattered in memory, each read of one a cache miss.) */
  readonly scalars: Uint8Array;
}

export interface LiveIn {
  /** Register id → position in the block state, or -1. */
  readonly index: Int32Array;
  readonly regs: readonly RegisterSymbol[];
}

const NONE: Src = { k: 'none' };

const MODIFIER_FLAGS: ReadonlyMap<string, number> = new Map([
  ['.wide', WIDE], ['.hi', HI], ['.sat', SAT], ['.pred', PRED], ['.param', PARAM], ['.const', CONST],
  ...['.f16', '.f32', '.f64', '.bf16', '.f16x2', '.bf16x2', '.tf32'].map((m): [string, number] => [m, FLOAT]),
]);

function immediate64(e: A.Expression): number | undefined | null {
  let neg = false;
  let x = e;
  // (`kind` read once per node: see compileSrc.)
  let kind = x.kind;
  while (kind === 'Unary') {
    const op = (x as A.UnaryExpr).op;
    if (op !== '-' && op !== '+') return null;
    if (op === '-') neg = !neg;
    x = (x as A.UnaryExpr).arg;
    kind = x.kind;
  }
  if (kind !== 'Int') return null;
  const v = (x as A.IntExpr).value;
  // Most immediates are small and non-negative: read without BigInt arithmetic (which allocates).
  if (v >= 0n && v <= MAX_SAFE_BIG) {
    const n = Number(v);
    return neg && n !== 0 ? -n : n;
  }
  const n = Number(BigInt.asIntN(64, neg ? -v : v));
  return safe(n) ? n : undefined;
}

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);

/** Per-function compile state: operand objects shared between instructions. */
interface CompileState {
  n: number;
  /** One source per variable (and slot): what the analyses make of it depends on the variable only. */
  readonly vars: Map<VariableSymbol, VarSrc>;
  /** One source per special register and component (and slot). */
  readonly sregs: Map<string, Map<string | undefined, Src>>;
}

const IMMS = new Map<number | undefined, Src>();

function immSrc(value: number | undefined): Src {
  let s = IMMS.get(value);
  if (s === undefined) {
    s = { k: 'imm', value };
    if (IMMS.size < 4096) IMMS.set(value, s);
  }
  return s;
}

const TYPE_LISTS = new Map<string, readonly string[]>();
const INT_TYPES = new Map<string, IntType>();

/** A variable's one source object in the function (its `slot` shared: both analyses' value of it is the
 *  variable's, whatever the operand). */
function varSrc(variable: VariableSymbol, slots: CompileState): VarSrc {
  let v = slots.vars.get(variable);
  if (v === undefined) {
    v = { k: 'var', variable, slot: slots.n++ };
    slots.vars.set(variable, v);
  }
  return v;
}

/** A special register's one source object per component in the function (`%tid.x`: the symbol's key). */
function sregSrc(s: ModelSreg, component: string | undefined, slots: CompileState): Src {
  let byComponent = slots.sregs.get(s.name);
  if (byComponent === undefined) {
    byComponent = new Map();
    slots.sregs.set(s.name, byComponent);
  }
  let v = byComponent.get(component);
  if (v === undefined) {
    v = { k: 'sreg', name: s.name, component, variance: s.spec.variance, slot: slots.n++ };
    byComponent.set(component, v);
  }
  return v;
}

/** The source of operand `e`, whose `kind` the caller read. (An operand's `kind` is read once: operands come in a
 *  dozen shapes, so every read of it is a megamorphic property load, a stub-cache lookup as costly as the rest of
 *  compiling the operand; the compiler does not merge two of them.) */
function compileSrc(fn: FunctionModel, e: A.Expression, kind: A.Expression['kind'], reg: number, slots: CompileState): Src {
  switch (kind) {
    case 'Int': case 'Unary': {
      const imm = immediate64(e);
      return imm !== null ? immSrc(imm) : { k: 'expr', e };
    }
    case 'Name': {
      // A register, from the model's operand table: no lookup, and no read of the register's name. (The names
      // this reaches are the first its operand holds: the operand itself, the base of `base ± constant`, the
      // element of `[...]`.)
      if (reg >= 0) return reg;
      const name = e as A.NameExpr;
      const s = fn.resolve(name);
      if (s === undefined) return NONE;
      switch (s.kind) {
        case 'register': return s.id;
        case 'variable': return varSrc(s, slots);
        case 'sreg': return s.name === 'WARP_SZ' ? immSrc(32) : sregSrc(s, name.component, slots);
        // Labels (branch targets: one operand in ten) and functions: no value either analysis reads.
        default: return NONE;
      }
    }
    case 'Float': return NONE;
    case 'Binary': {
      const b = e as A.BinaryExpr;
      if (b.op !== '+' && b.op !== '-') return { k: 'expr', e };
      const off = immediate64(b.right);
      if (off === null || off === undefined) return { k: 'expr', e };
      const left = b.left;
      const base = compileSrc(fn, left, left.kind, reg, slots);
      return typeof base === 'number' || base.k === 'var' ? { k: 'sum', base, offset: b.op === '+' ? off : -off } : { k: 'expr', e };
    }
    default:
      return { k: 'expr', e };
  }
}

/** What an instruction's modifiers say: its types in order, its (last) integer type, its modifier flags. */
interface ModifierInfo {
  readonly types: readonly string[];
  readonly ty: IntType | undefined;
  readonly flags: number;
}

/** By modifier list: the fast parser gives instructions with the same modifiers one shared list. */
const MODIFIER_INFO = new WeakMap<readonly string[], ModifierInfo>();

function modifierInfoOf(mods: readonly string[]): ModifierInfo {
  const hit = MODIFIER_INFO.get(mods);
  if (hit !== undefined) return hit;
  let types: readonly string[] = typeModifiers(mods);
  if (types.length === 1) {
    const shared = TYPE_LISTS.get(types[0]!);
    if (shared !== undefined) types = shared;
    else TYPE_LISTS.set(types[0]!, types);
  }
  const last = types[types.length - 1];
  const width = last === undefined ? undefined : intWidth(last);
  let ty: IntType | undefined;
  if (width !== undefined) {
    ty = INT_TYPES.get(last!);
    if (ty === undefined) {
      ty = { width, signed: last!.startsWith('.s') };
      INT_TYPES.set(last!, ty);
    }
  }
  let flags = 0;
  for (const m of mods) flags |= MODIFIER_FLAGS.get(m) ?? 0;
  const info: ModifierInfo = { types, ty, flags };
  MODIFIER_INFO.set(mods, info);
  return info;
}

/** Per modifier list (see MODIFIER_INFO), per opcode. */
const OP_INFO = new WeakMap<readonly string[], Map<string, OpInfo>>();

/** Per opcode number (the model's, src/cfg/opcodes.ts), the last answer of `opInfo` for it: most instructions
 *  of an opcode share the modifiers of the one before them, and are answered without a lookup by the modifier
 *  list and the opcode's string. */
const LAST_OP: (OpInfo | undefined)[] = [];

function opInfo(opcode: string, id: number, mods: readonly string[]): OpInfo {
  const last = id < LAST_OP.length ? LAST_OP[id] : undefined;
  if (last !== undefined && last.modifiers === mods) return last;
  let byOpcode = OP_INFO.get(mods);
  if (byOpcode === undefined) {
    byOpcode = new Map();
    OP_INFO.set(mods, byOpcode);
  }
  let op = byOpcode.get(opcode);
  if (op === undefined) {
    op = makeOpInfo(opcode, mods);
    byOpcode.set(opcode, op);
  }
  if (id !== OTHER_OPCODE) {
    // (Filled up to id first: a list written past its end becomes a dictionary.)
    while (LAST_OP.length < id) LAST_OP.push(undefined);
    LAST_OP[id] = op;
  }
  return op;
}

function makeOpInfo(opcode: string, mods: readonly string[]): OpInfo {
  const m = modifierInfoOf(mods);
  let flags = m.flags;
  if (PURE.has(opcode) || (opcode === 'ld' && (flags & CONST) !== 0)) flags |= PURE_OP;
  return { opcode, modifiers: mods, types: m.types, ty: m.ty, flags };
}

/** `CompiledFunction.scalars` of a predicate register. */
export const PRED_SCALAR = 1;

/** A register's entry in `CompiledFunction.scalars`. */
function scalarOf(r: RegisterSymbol): number {
  return r.vector !== undefined ? 0 : intWidth(r.type) ?? (r.type === '.pred' ? PRED_SCALAR : 0);
}

function compile(fn: FunctionModel, cfg: Cfg): CompiledFunction {
  const writtenParams = new Set<VariableSymbol>();
  const paramAddresses = new Map<number, Src>();
  const fx = fn.effectTable;
  const registers = fn.registers;
  const slots: CompileState = { n: 0, vars: new Map(), sregs: new Map() };
  const list = fn.instructions;
  // The sources' list made at its length (one per operand) and filled by index: `push` was a call of the generic
  // builtin for every operand, a tenth of compiling. (Operand k of instruction n is `operandStart[n] + k`, as in
  // the model's operand table.)
  const srcs = new Array<Src>(fx.operandStart[list.length]!);
  const operandRegister = fx.operandRegister;
  const operandKind = fx.operandKind;
  let at = 0;
  // (Loops filling lists made at their length, not `map` with a closure.)
  const ops = new Array<OpInfo>(list.length);
  const flagsOf = new Int32Array(list.length);
  // The registers live into some block (read before being written in it; a guarded write reads the old value),
  // found in the same walk: blocks cover the instructions in order. Per register: -2 (not followed), -1 (not
  // live-in yet), else its position; `stamp`, the block that last wrote it.
  const nRegs = fn.registers.length;
  const scalars = new Uint8Array(nRegs);
  const index = new Int32Array(nRegs);
  for (let r = 0; r < nRegs; r++) {
    const s = scalarOf(registers[r]!);
    scalars[r] = s;
    index[r] = s !== 0 ? -1 : -2;
  }
  const stamp = new Int32Array(nRegs).fill(-1);
  const regs: RegisterSymbol[] = [];
  const blockOf = cfg.blockOf;
  for (let n = 0; n < list.length; n++) {
    const node = list[n]!.node;
    const u0 = fx.useStart[n]!;
    const u1 = fx.useStart[n + 1]!;
    const d0 = fx.defStart[n]!;
    const d1 = fx.defStart[n + 1]!;
    const op = opInfo(node.opcode, fx.opcode[n]!, node.modifiers);
    let flags = op.flags;
    const operands = node.operands;
    // The first bracketed operand (`addressOperand`), found in the same walk. (Dispatched on the model's operand
    // kinds, an operand's node read only when its kind does not say enough: 94.3-95.6 M instructions per compile
    // of block_warp.ptx under cachegrind before, 72.6-80.4 M after; the time on the development machine did not
    // move beyond its noise, which is why session 24 had measured the same dispatch as no faster.)
    let first: A.AddressExpr | undefined;
    let firstAt = 0;
    const end = fx.operandStart[n + 1]!;
    if (at < end && isNameKind(operandKind[at]!)) flags |= NAMED_DEST;
    for (let k = 0; at < end; k++, at++) {
      // By the model's operand kinds: a register's name (most operands) is its id, without a read of the node.
      const ok = operandKind[at]!;
      if (ok === OperandKind.Register) {
        srcs[at] = operandRegister[at]!;
      } else if (ok === OperandKind.Address) {
        if (first === undefined) {
          first = operands[k] as A.AddressExpr;
          firstAt = at;
        }
        srcs[at] = NONE;
      } else if (ok === OperandKind.Vector || ok === OperandKind.PredPair || ok === OperandKind.List || ok === OperandKind.Float) {
        srcs[at] = NONE;
      } else {
        const o = operands[k]!;
        srcs[at] = compileSrc(fn, o, o.kind, operandRegister[at]!, slots);
      }
    }
    // Only `.param` addresses are evaluated (`ld.param`) or looked at (`st.param`): no source for the others.
    if ((flags & PARAM) !== 0 && first !== undefined && first.elements.length === 1) {
      const only = first.elements[0]!;
      const address = compileSrc(fn, only, only.kind, operandRegister[firstAt]!, slots);
      paramAddresses.set(n, address);
      if (op.opcode === 'st') {
        const base = typeof address === 'number' ? address : address.k === 'sum' ? address.base : address;
        if (typeof base !== 'number' && base.k === 'var') writtenParams.add(base.variable);
      }
    }
    // A guard that is a register is the first use (the model lists it there and says so).
    const guard = node.guard;
    if (guard !== undefined) {
      if (fx.guarded[n] === 2) flags |= GUARDED;
      if (guard.negated) flags |= NEGATED;
    }
    ops[n] = op;
    flagsOf[n] = flags;
    const b = blockOf[n]!;
    for (let k = u0; k < u1; k++) {
      const id = fx.useIds[k]!;
      if (index[id] === -1 && stamp[id] !== b) {
        index[id] = regs.length;
        regs.push(registers[id]!);
      }
    }
    for (let k = d0; k < d1; k++) {
      const id = fx.defIds[k]!;
      if ((flags & GUARDED) !== 0 && stamp[id] !== b && index[id] === -1) {
        index[id] = regs.length;
        regs.push(registers[id]!);
      }
      stamp[id] = b;
    }
  }
  for (let r = 0; r < nRegs; r++) if (index[r]! < 0) index[r] = -1;
  return { ops, flags: flagsOf, srcs, paramAddresses, writtenParams, slots: slots.n, live: { index, regs }, fx, regs: registers, scalars };
}

/** Where `reg` (a register, a register's id, or a register's name) is among instruction i's uses (its defs with
 *  `defs`), or -1. (By id, reading no register but a match: they lie scattered in memory.) */
export function registerPosition(code: CompiledFunction, i: number, defs: boolean, reg: RegisterSymbol | string | number): number {
  const fx = code.fx;
  const ids = defs ? fx.defIds : fx.useIds;
  const from = defs ? fx.defStart[i]! : fx.useStart[i]!;
  const to = defs ? fx.defStart[i + 1]! : fx.useStart[i + 1]!;
  if (typeof reg === 'number') {
    for (let k = from; k < to; k++) if (ids[k] === reg) return k - from;
    return -1;
  }
  if (typeof reg === 'object') {
    const id = reg.id;
    for (let k = from; k < to; k++) if (ids[k] === id && code.regs[id] === reg) return k - from;
    return -1;
  }
  for (let k = from; k < to; k++) if (code.regs[ids[k]!]!.name === reg) return k - from;
  return -1;
}

/** Where instruction i's record starts in a flat per-function array of what the engines read and write: its
 *  uses, then its defs (the registers before it, counted in the effect table); `recordAt(code, n)` is the
 *  total. */
export function recordAt(code: CompiledFunction, i: number): number {
  return code.fx.useStart[i]! + code.fx.defStart[i]!;
}

/** The source of operand `k` of instruction i; undefined past its last operand. Read without the syntax tree:
 *  an instruction's sources lie in order in `srcs`, from the model's operand table. (The operand count from the
 *  tree's node was a cache miss per operand evaluated: a tenth of the range analysis's time in a profile.) */
export function srcOf(code: CompiledFunction, i: number, k: number): Src | undefined {
  const at = code.fx.operandStart[i]! + k;
  return at < code.fx.operandStart[i + 1]! ? code.srcs[at] : undefined;
}

/** Each instruction with its operands resolved (shared by the affine and range analyses). */
export const compiledFunction: FunctionAnalysis<CompiledFunction> = { name: 'affine/compiled', compute: (ctx, fn) => compile(fn, ctx.cfg(fn)) };

/** x reduced modulo 2^w to the signed representative (exact for any w ≤ 64 on safe integers). */
export function wrapTo(x: number, w: number): number {
  return w >= 64 ? x : wrapSigned(x, w);
}

// ================================================================ the block size

/** What the analyses know of the block's shape. */
export interface BlockBounds {
  /** An upper bound of each dimension of %ntid (so %tid.d < dims[d]). */
  readonly dims: readonly [number, number, number];
  /** The dimensions are the block's exact shape (`.reqntid`, or --block with
   *  no `.maxntid`); else they only bound it. */
  readonly exact: boolean;
}

/** `.reqntid` gives the shape; `.maxntid` only bounds the thread count (the
 *  product: a `.maxntid 256, 1, 1` kernel may run as 16×16), so each
 *  dimension is bounded by the product (and the hardware's 1024, 1024, 64);
 *  else the --block/config shape; else unknown (never assumed). */
export function blockBounds(ctx: AnalysisContext, fn: FunctionModel): BlockBounds | undefined {
  const dir = (name: string): readonly number[] | undefined => fn.decl.directives.find((d) => d.name === name)?.args;
  const req = dir('.reqntid');
  if (req !== undefined) return { dims: [req[0] ?? 1, req[1] ?? 1, req[2] ?? 1], exact: true };
  const max = dir('.maxntid');
  if (max !== undefined) {
    const p = (max[0] ?? 1) * (max[1] ?? 1) * (max[2] ?? 1);
    return { dims: [Math.min(p, 1024), Math.min(p, 1024), Math.min(p, 64)], exact: false };
  }
  const b = ctx.blockSize(fn);
  return b === undefined ? undefined : { dims: [b[0], b[1], b[2]], exact: true };
}

// ================================================================ the analysis

/** Hardware bounds of special registers, for `mayWrap` (not block-size facts). */
const HW_BOUNDS: Readonly<Record<string, readonly [number, number]>> = {
  '%tid.x': [0, 1023], '%tid.y': [0, 1023], '%tid.z': [0, 63], '%laneid': [0, 31],
  '%ntid.x': [1, 1024], '%ntid.y': [1, 1024], '%ntid.z': [1, 64],
  '%ctaid.x': [0, 2 ** 31 - 2], '%ctaid.y': [0, 65534], '%ctaid.z': [0, 65534],
  '%nctaid.x': [1, 2 ** 31 - 1], '%nctaid.y': [1, 65535], '%nctaid.z': [1, 65535],
  '%warpid': [0, 1023], '%nwarpid': [1, 1024],
};

type AffineFact = Fact<Val, undefined>;

/** The lane stride of an address: `addr(lane) = base + stride·lane` over the 32
 *  lanes of a warp, with `base ≡ rem (mod align)`. */
export interface LaneStride {
  /** Bytes (in the form's unit) between consecutive lanes. */
  readonly stride: number;
  /** A power of two (≤ 4096) the lane-0 address is known modulo. */
  readonly align: number;
  /** The lane-0 address modulo `align`. */
  readonly rem: number;
  /** What the result assumes (e.g. the block size is unknown, so blockDim.x is
   *  taken to be a multiple of 32; an induction variable is read in the same
   *  iteration by all lanes). Empty when nothing is assumed. */
  readonly assumptions: readonly string[];
}

/** F052's facts for one shared access. */
export interface BankConflict {
  readonly bytesPerAccess: number;
  readonly strideBytes: number;
  /** Lanes served together: 32 (≤ 4-byte), 16 (8-byte), 8 (16-byte). */
  readonly lanesPerPhase: number;
  /** Wavefronts the warp needs (summed over its phases). */
  readonly wavefronts: number;
  /** Wavefronts its width requires: max(1, 32·bytes / 128). */
  readonly required: number;
  /** wavefronts ÷ required; ≥ 2 is a conflict. */
  readonly degree: number;
  /** The smallest row padding that brings the degree to its minimum, when padding helps. */
  readonly padding?: {
    readonly padBytes: number;
    readonly rowBytes: number;
    /** rowBytes / 4 ("pad the row to 33 words"). */
    readonly rowWords: number;
    readonly degreeAfter: number;
  };
  /** An XOR swizzle that removes the conflict when the stride is a multiple of
   *  128 bytes: the column's `unitBytes` chunk index XOR (row mod `period`). */
  readonly swizzle?: { readonly unitBytes: number; readonly period: number };
  readonly assumptions: readonly string[];
}

/** F053's facts for one global access. */
export interface SectorCount {
  readonly bytesPerAccess: number;
  readonly strideBytes: number;
  /** Distinct 32-byte sectors the 32 lanes touch. */
  readonly sectors: number;
  /** Sectors the same bytes need at best: ceil(distinct bytes / 32). */
  readonly minimal: number;
  /** sectors ÷ minimal; F053 fails above 2. */
  readonly ratio: number;
  readonly assumptions: readonly string[];
}

/** One access for the overlap question: its address form and its size. */
export interface Access {
  readonly form: Form;
  readonly bytes: number;
}

export type Overlap =
  /** Two different threads can touch common bytes; `witness`: the thread-index
   *  unknowns of one solution (δ = first − second, or each thread's value). */
  | { readonly kind: 'cross-thread'; readonly witness: Readonly<Record<string, number>>; readonly assumedEqual: readonly AffineSymbol[] }
  /** Only a thread with itself. */
  | { readonly kind: 'same-thread-only'; readonly assumedEqual: readonly AffineSymbol[] }
  /** Never, for any two threads. */
  | { readonly kind: 'disjoint'; readonly assumedEqual: readonly AffineSymbol[] }
  | { readonly kind: 'unknown'; readonly reason: string };

export interface OverlapOptions {
  /** Range of a symbol that is equal across threads but whose coefficient
   *  differs between the two forms (e.g. from the ranges analysis). */
  readonly range?: (sym: AffineSymbol) => { readonly lo: number; readonly hi: number } | undefined;
  /** Symbols whose value may differ between the two accesses (e.g. an
   *  induction variable across a back edge): each access gets its own copy. */
  readonly independent?: (sym: AffineSymbol) => boolean;
  /** Inclusive bounds of %tid.x, %tid.y, %tid.z of the threads that execute
   *  each access (e.g. from the guards around them); default: the block. */
  readonly threads?: {
    readonly a: readonly (readonly [number, number])[];
    readonly b: readonly (readonly [number, number])[];
  };
}

export interface AffineFacts {
  readonly fn: FunctionModel;
  /** Every symbol, by id. */
  readonly symbols: readonly AffineSymbol[];
  /** The form of `reg` as `ins` reads it; undefined when `ins` does not read it,
   *  it is not an integer register, or the block is unreachable. */
  formAt(ins: number | FlatInstruction, reg: RegisterSymbol | string): Form | undefined;
  /** The form `ins` leaves in `reg` (a register it writes). */
  formAfter(ins: number | FlatInstruction, reg: RegisterSymbol | string): Form | undefined;
  /** The form of any operand expression evaluated at `ins`. */
  operand(ins: number | FlatInstruction, e: A.Expression): Form | undefined;
  /** The address of a memory instruction (`[reg+imm]`, `[var+imm]`, `[reg]`,
   *  `[imm]`); `which` picks among several bracketed operands. */
  addressOf(ins: number | FlatInstruction, which?: number): Form | undefined;
  /** `&smem + 4*%tid.x + 16`. */
  format(form: Form): string;
  /** The induction variables found. */
  inductionVariables(): readonly IvSymbol[];
  /** The variable whose address a form is based on (coefficient 1), and the rest. */
  baseOf(form: Form): { readonly base?: VarSymbol; readonly offset: Form };
  /** Per-lane decomposition over the 32 lanes of a warp (x fastest, warps of
   *  32 consecutive linear thread ids); undefined when some symbol's value
   *  across lanes is unknown. */
  laneStride(form: Form): LaneStride | undefined;
  /** Shared-memory wavefronts and conflict degree of a warp's access (F052). */
  bankConflictDegree(form: Form, bytesPerAccess: number): BankConflict | undefined;
  /** Global-memory sectors of a warp's access (F053). */
  sectorsPerRequest(form: Form, bytesPerAccess: number): SectorCount | undefined;
  /** Whether the two accesses can touch common bytes from different threads of a CTA. */
  crossThreadOverlap(a: Access, b: Access, options?: OverlapOptions): Overlap;
  /** true: same address for the same thread only (or never); false: different
   *  threads can collide; undefined: unknown. */
  sameAddressSameThreadOnly(a: Access, b: Access, options?: OverlapOptions): boolean | undefined;
}

/** The block walk's scratch, by register id: `stamp[r]` is the walk that last wrote r, whose value is `local[r]`.
 *  One pair for all engines, grown to the largest function (made per function, they were a tenth of what the
 *  engine allocated); stamps are numbered across engines, so one engine's never match another's walks. */
let WALK_STAMP = new Int32Array(0);
let WALK_LOCAL: (Val | undefined)[] = [];
let WALK = 0;

function walkScratch(n: number): { stamp: Int32Array; local: (Val | undefined)[] } {
  if (WALK_STAMP.length < n) {
    const size = Math.max(n, 2 * WALK_STAMP.length);
    WALK_STAMP = new Int32Array(size);
    WALK_LOCAL = new Array<Val | undefined>(size).fill(undefined);
  }
  return { stamp: WALK_STAMP, local: WALK_LOCAL };
}

/** Marks by state entry for `AffineEngine.carried` (all 0 between calls), grown to the largest function. */
let CARRIED_MARKS = new Uint8Array(0);

function carriedMarks(n: number): Uint8Array {
  if (CARRIED_MARKS.length < n) CARRIED_MARKS = new Uint8Array(Math.max(n, 2 * CARRIED_MARKS.length));
  return CARRIED_MARKS;
}

/** The positions `carried` marked, in the order marked. */
let CARRIED_LIST: Int32Array = new Int32Array(64);

/** The number of a new block walk over `stamp` (never 0, the stamp of no walk). */
function nextWalk(stamp: Int32Array): number {
  if (WALK === 0x7fffffff) {
    stamp.fill(0);
    WALK = 0;
  }
  return ++WALK;
}

// Symbols made in bulk, with names built only when asked for (from the function's model: its instruction's
// opcode and line, its def's register).
class DefSym implements DefSymbol {
  readonly kind = 'def';
  threadDependent = false;
  uniform: boolean | undefined = undefined;
  constructor(readonly id: number, private readonly fn: FunctionModel, readonly instruction: number, readonly element: number, readonly guarded: boolean) {}
  get name(): string {
    const fx = this.fn.effectTable;
    const i = this.instruction;
    const slot = fx.defStart[i]! + this.element;
    const reg = this.element === PRODUCT ? 'product' : slot < fx.defStart[i + 1]! ? this.fn.registers[fx.defIds[slot]!]!.name : undefined;
    const node = this.fn.instructions[i]!.node;
    return `${node.opcode}@L${node.range.line}${reg === undefined ? '' : `(${reg})`}`;
  }
}

class JoinSym implements JoinSymbol {
  readonly kind = 'join';
  threadDependent = false;
  uniform: boolean | undefined = undefined;
  constructor(readonly id: number, readonly block: number, readonly register: RegisterSymbol, readonly atEnd: boolean) {}
  get name(): string {
    return this.atEnd ? `join@end(B${this.block},${this.register.name})` : `join(B${this.block},${this.register.name})`;
  }
}

class ShrSym implements ShrSymbol {
  readonly kind = 'shr';
  threadDependent = false;
  uniform: boolean | undefined = undefined;
  constructor(readonly id: number, readonly of: Form, readonly shift: number, readonly signed: boolean, readonly width: number, private readonly engine: { format(f: Form): string }) {}
  get name(): string {
    return `(${this.engine.format(this.of)} >> ${this.shift})`;
  }
}

class AffineEngine {
  readonly symbols: AffineSymbol[] = [];
  /** Symbol ids a symbol's value derives from (for threadDependent/uniform). */
  /** Per symbol, META numbers from `META * id`: its kind (K_*) and whether pure (PURE_SYM), the instruction whose
   *  recorded reads it derives from (an opaque definition's value) or -1, and where its recorded dependencies
   *  (symbol ids) lie in `pool` (from, count). Numbers in one typed list, not a list each and a list of
   *  dependencies per symbol: the passes after the fixpoint read these, not `kind`, a load from eight shapes of
   *  symbol object. */
  private meta: Int32Array;
  private pool: Int32Array = new Int32Array(256);
  private poolUsed = 0;
  /** Marks of the loop whose header's joins `classify` looks at (for `invariantIn`). */
  private inside: Uint8Array | undefined;
  private readonly symForms: Form[] = [];
  private readonly keyed = new Map<string, number>();
  private readonly defKeyed = new Map<number, number>();
  /** By instruction, the id of its first element's unguarded def symbol, + 1 (0: none yet): most def symbols,
   *  without a map entry each. */
  private readonly firstDef: Int32Array;
  private readonly joinKeyed = new Map<number, number>();
  readonly joinsAt = new Map<number, number[]>();
  readonly cfg: Cfg;
  readonly loops: LoopForest;
  readonly code: CompiledFunction;
  readonly live: LiveIn;
  readonly empty: PVec<Val>;
  /** An exact block shape (`.reqntid`, --block): %ntid is then a constant. */
  readonly ntid: readonly number[] | undefined;
  /** Upper bounds of the block's dimensions (see blockBounds). */
  readonly block: readonly [number, number, number] | undefined;
  readonly blockExact: boolean;
  /** Entry values' forms by register id (few registers are read before a write). */
  private readonly initForms = new Map<number, Form>();
  private readonly slotForms: (Form | undefined)[];
  /** Whether the block states follow a register, by id: non-zero (`CompiledFunction.scalars`). */
  private readonly follows: Uint8Array;
  // Scratch for one block walk (shared by the engines: see `walkScratch`).
  private readonly stamp: Int32Array;
  private readonly local: (Val | undefined)[];
  private gen = 0;
  private input: PVec<Val>;
  /** Registers the walk wrote: `touched[0, nTouched)` (reset by the count: `length = 0` drops the storage). */
  private readonly touched: number[] = [];
  private nTouched = 0;
  private readonly nRegs: number;
  /** Per instruction (from `recordAt`): values of its uses, then of its defs, aligned with the effect table. */
  readonly records: (Val | undefined)[];
  /** Instructions recorded (reachable). */
  readonly reached: Uint8Array;
  result: DataflowResult<AffineFact> | undefined;

  constructor(ctx: AnalysisContext, readonly fn: FunctionModel) {
    this.cfg = ctx.cfg(fn);
    this.loops = ctx.loops(fn);
    this.code = ctx.get(fn, compiledFunction);
    this.nRegs = fn.registers.length;
    this.follows = this.code.scalars;
    this.live = this.code.live;
    this.empty = pvEmpty<Val>(this.live.regs.length);
    this.input = this.empty;
    const scratch = walkScratch(this.nRegs);
    this.stamp = scratch.stamp;
    this.local = scratch.local;
    this.records = new Array<Val | undefined>(recordAt(this.code, fn.instructions.length));
    this.slotForms = new Array<Form | undefined>(this.code.slots);
    this.carriedAt = new Array<{ idx: number[]; forms: Val[] } | null | undefined>(this.cfg.blocks.length);
    this.reached = new Uint8Array(fn.instructions.length);
    this.firstDef = new Int32Array(fn.instructions.length);
    // (Room for about one symbol per instruction: most functions need no more.)
    this.meta = new Int32Array(META * (fn.instructions.length + 16));
    const bounds = blockBounds(ctx, fn);
    this.block = bounds?.dims;
    this.blockExact = bounds?.exact ?? false;
    this.ntid = this.blockExact ? this.block : undefined;
  }

  // ------------------------------------------------------------ symbols

  private add(s: AffineSymbol, pure: boolean, kind: number, ins = -1): number {
    const id = s.id;
    this.symbols.push(s);
    if (this.meta.length < META * (id + 1)) this.meta = grown(this.meta, META * (id + 1));
    const m = META * id;
    this.meta[m] = kind | (pure ? PURE_SYM : 0);
    this.meta[m + 1] = ins;
    this.meta[m + 2] = 0;
    this.meta[m + 3] = 0;
    return id;
  }

  private kindOf(id: number): number {
    return this.meta[META * id]! & KIND_MASK;
  }

  /** `setDeps(id, [f])` without the list (one per shift symbol and product made). */
  private setDeps1(id: number, f: Val): void {
    this.setDeps3(id, f, undefined, undefined);
  }

  /** `setDeps(id, [a, b, c])` without the list. */
  private setDeps3(id: number, a: Val | undefined, b: Val | undefined, c: Val | undefined): void {
    const n = depCount(a) + depCount(b) + depCount(c);
    if (this.pool.length < this.poolUsed + n) this.pool = grown(this.pool, this.poolUsed + n);
    const from = this.poolUsed;
    let at = this.putDeps(from, a);
    at = this.putDeps(at, b);
    at = this.putDeps(at, c);
    this.poolUsed = at;
    this.meta[META * id + 2] = from;
    this.meta[META * id + 3] = at - from;
  }

  /** Writes f's symbols into the pool from `at`; returns where they end. */
  private putDeps(at: number, f: Val | undefined): number {
    if (f === undefined) return at;
    if (typeof f === 'number') {
      this.pool[at] = f;
      return at + 1;
    }
    const terms = f.terms;
    for (let t = 0; t < terms.length; t++) this.pool[at++] = terms[t]!.sym;
    return at;
  }

  /** Records the symbols of `forms[0, count)` (those other than `except`) as the dependencies of `id` (replacing any). */
  private setDeps(id: number, forms: readonly (Val | undefined)[], except: number, count: number): void {
    let n = 0;
    for (let k = 0; k < count; k++) n += depCount(forms[k]);
    if (this.pool.length < this.poolUsed + n) this.pool = grown(this.pool, this.poolUsed + n);
    const from = this.poolUsed;
    let at = from;
    for (let k = 0; k < count; k++) {
      const f = forms[k];
      if (f === undefined) continue;
      if (typeof f === 'number') {
        if (f !== except) this.pool[at++] = f;
        continue;
      }
      const terms = f.terms;
      for (let t = 0; t < terms.length; t++) if (terms[t]!.sym !== except) this.pool[at++] = terms[t]!.sym;
    }
    this.poolUsed = at;
    this.meta[META * id + 2] = from;
    this.meta[META * id + 3] = at - from;
  }

  /** The form of a value (made for a symbol id at the first question, then kept). */
  F(v: Val): Form {
    return typeof v === 'number' ? this.form(v) : v;
  }

  Fu(v: Val | undefined): Form | undefined {
    return v === undefined ? undefined : typeof v === 'number' ? this.form(v) : v;
  }

  form(id: number): Form {
    let f = this.symForms[id];
    if (f === undefined) {
      f = { c: 0, terms: [{ sym: id, coef: 1 }], mayWrap: false };
      this.symForms[id] = f;
    }
    return f;
  }

  private keyedSym(key: string, kind: number, make: (id: number) => AffineSymbol): number {
    let id = this.keyed.get(key);
    if (id === undefined) {
      id = this.add(make(this.symbols.length), false, kind);
      this.keyed.set(key, id);
    }
    return id;
  }

  // (Special-register and variable symbols need no cache in front of the keyed ones: the compiler gives each
  // special register and component, and each variable, one source object with one slot per function, whose
  // form `src` keeps in `slotForms`; only `evalExpr`'s rare operands ask again.)
  sregSym(name: string, component: string | undefined, variance: SregVariance): number {
    const full = component === undefined ? name : `${name}.${component}`;
    return this.keyedSym(`s:${full}`, K_SREG, (id) => ({
      kind: 'sreg', id, name: full, sreg: name, variance, threadDependent: false, uniform: undefined,
      ...(component !== undefined ? { component } : {}),
    }));
  }

  varSym(v: VariableSymbol): number {
    return this.keyedSym(`v:${v.global ? 'g' : 'l'}:${v.name}`, K_VAR, (id) => ({ kind: 'var', id, name: `&${v.name}`, variable: v, threadDependent: false, uniform: undefined }));
  }

  /** Parameter symbols by variable and offset, in front of the keyed ones (every `ld.param` visit asks; the key
   *  and the name are strings made per call). */
  private readonly paramIds = new Map<VariableSymbol, Map<number, number>>();

  paramSym(v: VariableSymbol, offset: number): number {
    let byOffset = this.paramIds.get(v);
    if (byOffset === undefined) {
      byOffset = new Map();
      this.paramIds.set(v, byOffset);
    }
    let id = byOffset.get(offset);
    if (id === undefined) {
      const name = offset === 0 ? `param(${v.name})` : `param(${v.name}+${offset})`;
      id = this.keyedSym(`p:${v.name}:${offset}`, K_PARAM, (n) => ({ kind: 'param', id: n, name, variable: v, offset, threadDependent: false, uniform: undefined }));
      byOffset.set(offset, id);
    }
    return id;
  }

  /** Shift symbols by a hash of their operands (see `shrHash`): an id, or the ids of several that collide. The
   *  key was a string made per visit (the form as text), most of what a shift cost; its symbols are equal when
   *  the constant, terms, shift, signedness and width are (not `mayWrap`: the form's text left it out). */
  private shrIds: Map<number, number | number[]> | undefined = new Map();

  shrSym(of: Form, shift: number, signed: boolean, width: number): number {
    const table = this.shrIds!;
    const h = shrHash(of, shift, signed, width);
    const hit = table.get(h);
    if (hit !== undefined) {
      if (typeof hit === 'number') {
        if (this.sameShr(hit, of, shift, signed, width)) return hit;
      } else {
        for (let k = 0; k < hit.length; k++) if (this.sameShr(hit[k]!, of, shift, signed, width)) return hit[k]!;
      }
    }
    // (Its dependencies listed only when it is made.)
    const id = this.add(new ShrSym(this.symbols.length, of, shift, signed, width, this), true, K_SHR);
    this.setDeps1(id, of);
    if (hit === undefined) table.set(h, id);
    else if (typeof hit === 'number') table.set(h, [hit, id]);
    else hit.push(id);
    return id;
  }

  private sameShr(id: number, of: Form, shift: number, signed: boolean, width: number): boolean {
    const s = this.symbols[id] as ShrSym;
    if (s.shift !== shift || s.signed !== signed || s.width !== width || s.of.c !== of.c) return false;
    const x = s.of.terms;
    const y = of.terms;
    if (x.length !== y.length) return false;
    for (let t = 0; t < x.length; t++) if (x[t]!.sym !== y[t]!.sym || x[t]!.coef !== y[t]!.coef) return false;
    return true;
  }

  defSym(i: number, element: number, guarded: boolean, pure: boolean): number {
    if (element === 0 && !guarded) {
      let id = this.firstDef[i]! - 1;
      if (id < 0) {
        id = this.add(new DefSym(this.symbols.length, this.fn, i, 0, false), pure, K_DEF, i);
        this.firstDef[i] = id + 1;
      }
      return id;
    }
    const key = i * 32 + element * 2 + (guarded ? 1 : 0);
    let id = this.defKeyed.get(key);
    if (id === undefined) {
      id = this.add(new DefSym(this.symbols.length, this.fn, i, element, guarded), pure, K_DEF, guarded || element === PRODUCT ? -1 : i);
      this.defKeyed.set(key, id);
    }
    return id;
  }

  joinSym(block: number, reg: RegisterSymbol, atEnd: boolean): number {
    const key = (block * this.nRegs + reg.id) * 2 + (atEnd ? 1 : 0);
    let id = this.joinKeyed.get(key);
    if (id === undefined) {
      id = this.add(new JoinSym(this.symbols.length, block, reg, atEnd), false, K_JOIN);
      this.joinKeyed.set(key, id);
      if (!atEnd) {
        const list = this.joinsAt.get(block);
        if (list === undefined) this.joinsAt.set(block, [id]);
        else list.push(id);
      }
    }
    return id;
  }

  initForm(r: RegisterSymbol): Form {
    let f = this.initForms.get(r.id);
    if (f === undefined) {
      const id = this.add({ kind: 'init', id: this.symbols.length, name: `init(${r.name})`, register: r, threadDependent: false, uniform: undefined }, false, K_INIT);
      f = this.form(id);
      this.initForms.set(r.id, f);
    }
    return f;
  }

  format(f: Form): string {
    const rank = (s: AffineSymbol): number =>
      s.kind === 'var' ? 0 : s.kind === 'param' ? 1 : s.kind === 'sreg' ? (s.sreg === '%tid' || s.sreg === '%laneid' ? 2 : 3) : 4;
    const terms = [...f.terms].sort((a, b) => rank(this.symbols[a.sym]!) - rank(this.symbols[b.sym]!) || a.sym - b.sym);
    let out = '';
    for (const t of terms) {
      const name = this.symbols[t.sym]!.name;
      const mag = Math.abs(t.coef);
      const body = mag === 1 ? name : `${mag}*${name}`;
      out += out === '' ? (t.coef < 0 ? `-${body}` : body) : t.coef < 0 ? ` - ${body}` : ` + ${body}`;
    }
    if (out === '') out = String(f.c);
    else if (f.c !== 0) out += f.c < 0 ? ` - ${-f.c}` : ` + ${f.c}`;
    return f.mayWrap ? `${out} (may wrap)` : out;
  }

  // ------------------------------------------------------------ bounds (for mayWrap)

  /** Bounds of a form from hardware bounds of its symbols; undefined when unbounded. */
  private bounds(f: Form): [number, number] | undefined {
    let lo = f.c;
    let hi = f.c;
    for (const t of f.terms) {
      const s = this.symbols[t.sym]!;
      let b: readonly [number, number] | undefined;
      if (s.kind === 'sreg') {
        b = HW_BOUNDS[s.name];
        const dim: number = s.component === 'x' ? 0 : s.component === 'y' ? 1 : s.component === 'z' ? 2 : -1;
        if (s.sreg === '%tid' && this.block !== undefined && dim >= 0) b = [0, this.block[dim]! - 1];
      } else if (s.kind === 'shr') {
        const inner = this.bounds(s.of);
        if (inner !== undefined && inner[0] >= 0 && inner[1] < pow2(s.width)) b = [Math.floor(inner[0] / pow2(s.shift)), Math.floor(inner[1] / pow2(s.shift))];
      }
      if (b === undefined) return undefined;
      if (t.coef > 0) {
        lo += t.coef * b[0];
        hi += t.coef * b[1];
      } else {
        lo += t.coef * b[1];
        hi += t.coef * b[0];
      }
    }
    return safe(lo) && safe(hi) ? [lo, hi] : undefined;
  }

  /** The form equals its `width`-bit value read as signed/unsigned (no wrap). */
  private fits(f: Form, signed: boolean, width: number): boolean {
    return this.fitBounds(f, signed, width) !== undefined;
  }

  /** The form's bounds when it fits (see `fits`), else undefined. */
  private fitBounds(f: Form, signed: boolean, width: number): [number, number] | undefined {
    if (f.mayWrap) return undefined;
    const b = this.bounds(f);
    if (b === undefined) return undefined;
    const inside = signed ? b[0] >= -pow2(width - 1) && b[1] < pow2(width - 1) : b[0] >= 0 && b[1] < pow2(width);
    return inside ? b : undefined;
  }

  /** `x` extended from `width` bits (zero or sign): the same form, marked when it may have wrapped. */
  private extend(x: Form, signed: boolean, width: number): Form {
    if (isConstant(x)) {
      if (width <= 32) return constForm(signed ? wrapSigned(x.c, width) : low(x.c, width));
      const v = signed ? Number(BigInt.asIntN(width, BigInt(x.c))) : Number(BigInt.asUintN(width, BigInt(x.c)));
      return constForm(v);
    }
    return withWrap(x, !this.fits(x, signed, width));
  }

  // ------------------------------------------------------------ the block walk

  /** The value of the register with id `id`. (By id: the registers' objects lie scattered in memory, each read
   *  of one a cache miss.) */
  private get(id: number): Val | undefined {
    if (this.stamp[id] === this.gen) return this.local[id];
    if (this.follows[id] === 0) return undefined;
    const k = this.live.index[id]!;
    return (k >= 0 ? pvGet(this.input, k) : undefined) ?? this.initForm(this.code.regs[id]!);
  }

  private set(id: number, f: Val | undefined): void {
    if (this.stamp[id] !== this.gen) {
      this.stamp[id] = this.gen;
      this.touched[this.nTouched++] = id;
    }
    this.local[id] = this.follows[id] !== 0 ? f : undefined;
  }

  /** The form of a compiled operand at width w (`read`: a register's value, by id). */
  src(s: Src, w: number, read: (id: number) => Val | undefined): Val | undefined {
    if (typeof s === 'number') return read(s);
    switch (s.k) {
      case 'imm': return s.value === undefined ? undefined : constForm(wrapTo(s.value, w));
      case 'sreg': case 'var': {
        let f = s.slot >= 0 ? this.slotForms[s.slot] : undefined;
        if (f === undefined) {
          f = this.leafForm(s);
          if (s.slot >= 0) this.slotForms[s.slot] = f;
        }
        return f;
      }
      case 'sum': {
        const b = this.src(s.base, w, read);
        return b === undefined ? undefined : addScaled(this.F(b), constForm(s.offset), 1);
      }
      case 'expr': return this.evalExpr(s.e, w, read);
      case 'none': return undefined;
    }
  }

  private leafForm(s: Extract<Src, { k: 'sreg' | 'var' }>): Form {
    if (s.k === 'var') return this.form(this.varSym(s.variable));
    const dim = s.component === 'x' ? 0 : s.component === 'y' ? 1 : s.component === 'z' ? 2 : -1;
    if (s.name === '%ntid' && this.ntid !== undefined && dim >= 0) return constForm(this.ntid[dim]!);
    return this.form(this.sregSym(s.name, s.component, s.variance));
  }

  /** The form of an operand expression (the slow path for unusual operands). */
  evalExpr(e: A.Expression, w: number, read: (id: number) => Val | undefined): Val | undefined {
    switch (e.kind) {
      case 'Int': case 'Unary': {
        const v = immediate64(e);
        if (v !== null) return v === undefined ? undefined : constForm(wrapTo(v, w));
        if (e.kind === 'Unary' && e.op === '~') {
          const a = this.evalExpr(e.arg, w, read);
          const n = a === undefined ? undefined : scaleForm(this.F(a), -1);
          return n === undefined ? undefined : addScaled(n, constForm(1), -1);
        }
        if (e.kind === 'Unary' && (e.op === '-' || e.op === '+')) {
          const a = this.evalExpr(e.arg, w, read);
          return a === undefined ? undefined : e.op === '-' ? scaleForm(this.F(a), -1) : a;
        }
        return undefined;
      }
      case 'Name': {
        const s = this.fn.resolve(e);
        if (s === undefined || s.kind === 'label' || s.kind === 'function') return undefined;
        if (s.kind === 'register') return read(s.id);
        if (s.kind === 'variable') return this.form(this.varSym(s));
        return this.src(s.name === 'WARP_SZ' ? { k: 'imm', value: 32 } : { k: 'sreg', name: s.name, component: e.component, variance: s.spec.variance, slot: -1 }, w, read);
      }
      case 'Binary': {
        const va = this.evalExpr(e.left, w, read);
        const vb = this.evalExpr(e.right, w, read);
        if (va === undefined || vb === undefined) return undefined;
        const a = this.F(va);
        const b = this.F(vb);
        switch (e.op) {
          case '+': return addScaled(a, b, 1);
          case '-': return addScaled(a, b, -1);
          case '*': return isConstant(a) ? scaleForm(b, a.c) : isConstant(b) ? scaleForm(a, b.c) : undefined;
          case '<<': return isConstant(b) && b.c >= 0 && b.c < 63 ? scaleForm(a, pow2(b.c)) : undefined;
          default: return undefined;
        }
      }
      case 'Cast': return this.evalExpr(e.arg, w, read);
      case 'List': return e.elements.length === 1 ? this.evalExpr(e.elements[0]!, w, read) : undefined;
      default: return undefined;
    }
  }

  private readonly read = (id: number): Val | undefined => this.get(id);

  /** Interprets one instruction, recording the forms it reads and writes
   *  (each visit overwrites the record: the last one is at the fixpoint). */
  private step(i: number): void {
    // (Its registers by id from the effect table: no list of them per instruction.)
    const { fx } = this.code;
    const u0 = fx.useStart[i]!;
    const d0 = fx.defStart[i]!;
    const nu = fx.useStart[i + 1]! - u0;
    const nd = fx.defStart[i + 1]! - d0;
    const rec = this.records;
    const at = u0 + d0;
    this.reached[i] = 1;
    for (let k = 0; k < nu; k++) rec[at + k] = this.get(fx.useIds[u0 + k]!);
    if (nd === 0) return;
    const flags = this.code.flags[i]!;
    const pure = (flags & PURE_OP) !== 0;
    this.srcAt = fx.operandStart[i]!;
    this.srcEnd = fx.operandStart[i + 1]!;
    const value = nd === 1 ? (this.follows[fx.defIds[d0]!] !== 0 ? this.rule(i, flags) : undefined) : undefined;
    const params = nd > 1 && (flags & PARAM) !== 0 && this.code.ops[i]!.opcode === 'ld' ? this.paramElements(i, nd) : undefined;
    const guard = (flags & GUARDED) !== 0 ? fx.useIds[u0]! : -1;
    for (let k = 0; k < nd; k++) {
      const d = fx.defIds[d0 + k]!;
      if (this.follows[d] === 0) {
        this.set(d, undefined);
        rec[at + nu + k] = undefined;
        continue;
      }
      let f = nd === 1 ? value : params?.[k];
      // (An opaque value is its symbol's id: its form is made only if some rule or fact reads it.)
      if (f === undefined) f = this.defSym(i, k, false, pure);
      if (guard >= 0) {
        const old = this.get(d)!;
        if (!valEquals(old, f)) {
          const id = this.defSym(i, k, true, pure);
          // The old value, the new one and the guard.
          this.setDeps3(id, old, f, this.get(guard));
          f = id;
        }
      }
      this.set(d, f);
      rec[at + nu + k] = f;
    }
  }

  /** `ld.param.v2` of a parameter: one parameter symbol per element. */
  private paramElements(i: number, nd: number): (Form | undefined)[] | undefined {
    const address = this.code.paramAddresses.get(i);
    const f = address === undefined ? undefined : this.src(address, 64, this.read);
    const p = f === undefined ? undefined : this.paramBase(this.F(f));
    const types = this.code.ops[i]!.types;
    const size = typeBytes(types[types.length - 1] ?? '') ?? 0;
    if (p === undefined || size === 0 || this.code.writtenParams.has(p.variable)) return undefined;
    const out = new Array<Form | undefined>(nd);
    for (let k = 0; k < nd; k++) out[k] = this.form(this.paramSym(p.variable, p.offset + k * size));
    return out;
  }

  /** `&param + c` where param is a parameter of this function. */
  private paramBase(f: Form): { variable: VariableSymbol; offset: number } | undefined {
    if (f.terms.length !== 1 || f.terms[0]!.coef !== 1) return undefined;
    const s = this.symbols[f.terms[0]!.sym]!;
    if (s.kind !== 'var' || !s.variable.isParam || s.variable.global) return undefined;
    return { variable: s.variable, offset: f.c };
  }

  /** Where the sources of the instruction `step` interprets start and end in `code.srcs` (see `srcOf`). */
  private srcAt = 0;
  private srcEnd = 0;

  /** Operand k's form (of the instruction `step` interprets). */
  private ev(k: number, w: number): Form | undefined {
    const at = this.srcAt + k;
    if (at >= this.srcEnd) return undefined;
    const v = this.src(this.code.srcs[at]!, w, this.read);
    return v === undefined ? undefined : typeof v === 'number' ? this.form(v) : v;
  }

  /** Operand k's value (for rules that pass it on as it is). */
  private evV(k: number, w: number): Val | undefined {
    const at = this.srcAt + k;
    return at < this.srcEnd ? this.src(this.code.srcs[at]!, w, this.read) : undefined;
  }

  /** The transfer rule of single-destination instruction i (its flags `flags`); undefined: opaque. */
  private rule(i: number, flags: number): Val | undefined {
    if ((flags & NAMED_DEST) === 0) return undefined; // vector or pair destinations are opaque
    const info = this.code.ops[i]!;
    const op = info.opcode;
    const ty = info.ty;
    const w = ty?.width ?? intWidth(this.code.regs[this.code.fx.defIds[this.code.fx.defStart[i]!]!]!.type) ?? 64;
    switch (op) {
      case 'mov': {
        if ((flags & FLOAT) !== 0) return undefined;
        // (A symbol's form `1·sym` is the same at every width.)
        const a = this.evV(1, w);
        return typeof a === 'number' ? a : norm(a, w);
      }
      case 'add': case 'sub': {
        if (ty === undefined || (flags & SAT) !== 0) return undefined;
        const a = this.ev(1, w);
        const b = a === undefined ? undefined : this.ev(2, w);
        return a === undefined || b === undefined ? undefined : norm(addScaled(a, b, op === 'add' ? 1 : -1), w);
      }
      case 'neg': case 'not': {
        if (ty === undefined) return undefined;
        const a = this.ev(1, w);
        const n = a === undefined ? undefined : scaleForm(a, -1);
        return n === undefined ? undefined : norm(op === 'neg' ? n : addScaled(n, constForm(1), -1), w);
      }
      case 'mul': case 'mad': {
        if (ty === undefined || (flags & (HI | SAT)) !== 0) return undefined;
        const wide = (flags & WIDE) !== 0;
        let a = this.ev(1, w);
        let b = this.ev(2, w);
        if (a === undefined || b === undefined) return undefined;
        if (!isConstant(a) && !isConstant(b)) {
          if (op === 'mul') return undefined;
          // mad of two values: an opaque product plus the addend.
          const width = wide ? 2 * ty.width : ty.width;
          const d = this.ev(3, width);
          if (d === undefined) return undefined;
          const id = this.defSym(i, PRODUCT, false, true);
          this.setDeps3(id, a, b, undefined);
          const r = addScaled(this.form(id), d, 1);
          return r === undefined ? undefined : norm(r, width);
        }
        if (wide) {
          a = this.extend(a, ty.signed, ty.width);
          b = this.extend(b, ty.signed, ty.width);
        }
        const p = isConstant(a) ? scaleForm(b, a.c) : scaleForm(a, b.c);
        if (p === undefined) return undefined;
        const width = wide ? 2 * ty.width : ty.width;
        if (op === 'mul') return norm(p, width);
        const d = this.ev(3, width);
        return d === undefined ? undefined : norm(addScaled(p, d, 1), width);
      }
      case 'shl': {
        const a = this.ev(1, w);
        const k = this.ev(2, 32);
        if (a === undefined || k === undefined || !isConstant(k) || k.c < 0) return undefined;
        return k.c >= w ? constForm(0) : norm(scaleForm(a, pow2(k.c)), w);
      }
      case 'shr': case 'div': {
        if (ty === undefined) return undefined;
        const a = this.ev(1, w);
        const kf = this.ev(2, w);
        if (a === undefined || kf === undefined || !isConstant(kf)) return undefined;
        let k = kf.c;
        if (op === 'div') {
          if (ty.signed || k <= 0 || k > 2 ** 30 || (k & (k - 1)) !== 0) return undefined;
          k = Math.log2(k);
        }
        return k < 0 ? undefined : this.shiftRight(a, k, ty.signed && op === 'shr', w);
      }
      case 'rem': {
        if (ty === undefined || ty.signed) return undefined;
        const a = this.ev(1, w);
        const m = this.ev(2, w);
        if (a === undefined || m === undefined || !isConstant(m) || m.c <= 0 || m.c > 2 ** 30 || (m.c & (m.c - 1)) !== 0) return undefined;
        return this.andMask(a, m.c - 1, w);
      }
      case 'and': {
        if (ty === undefined || (flags & PRED) !== 0) return undefined;
        const a = this.ev(1, w);
        const b = this.ev(2, w);
        if (a === undefined || b === undefined) return undefined;
        if (isConstant(a) && isConstant(b)) return constForm(w <= 32 ? wrapSigned(a.c & b.c, w) : Number(BigInt.asIntN(w, BigInt(a.c) & BigInt(b.c))));
        if (isConstant(b)) return this.andMask(a, b.c, w);
        if (isConstant(a)) return this.andMask(b, a.c, w);
        return undefined;
      }
      case 'or': case 'xor': {
        if (ty === undefined || (flags & PRED) !== 0) return undefined;
        const a = this.ev(1, w);
        const b = this.ev(2, w);
        if (a === undefined || b === undefined) return undefined;
        if (isConstant(a) && isConstant(b)) {
          if (w <= 32) return constForm(wrapSigned(op === 'or' ? a.c | b.c : a.c ^ b.c, w));
          const x = BigInt(a.c);
          const y = BigInt(b.c);
          return constForm(Number(BigInt.asIntN(w, op === 'or' ? x | y : x ^ y)));
        }
        const [f, m] = isConstant(b) ? [a, b.c] : isConstant(a) ? [b, a.c] : [undefined, 0];
        if (f === undefined || m < 0) return undefined;
        // Disjoint bits: m < 2^k and every bit of f below 2^k is provably zero.
        let p = 1;
        while (p <= m) p *= 2;
        if (f.c < 0 || f.c % p !== 0 || f.terms.some((t) => t.coef % p !== 0)) return undefined;
        return norm(addScaled(f, constForm(m), 1), w);
      }
      case 'cvt': {
        if (info.types.length !== 2 || (flags & SAT) !== 0) return undefined;
        const dw = intWidth(info.types[0]!);
        const sw = intWidth(info.types[1]!);
        if (dw === undefined || sw === undefined) return undefined;
        const a = this.ev(1, sw);
        if (a === undefined) return undefined;
        return dw > sw ? this.extend(normalize(a, sw), info.types[1]!.startsWith('.s'), sw) : normalize(a, dw);
      }
      case 'cvta': return this.evV(1, 64);
      case 'selp': {
        const a = this.evV(1, w);
        const b = this.evV(2, w);
        return a !== undefined && b !== undefined && valEquals(a, b) ? a : undefined;
      }
      case 'ld': {
        const address = (flags & PARAM) === 0 ? undefined : this.code.paramAddresses.get(i);
        if (address === undefined) return undefined;
        const f = this.src(address, 64, this.read);
        const p = f === undefined ? undefined : this.paramBase(this.F(f));
        // A `.param` the function also writes (call arguments, return values) is per site.
        if (p === undefined || this.code.writtenParams.has(p.variable)) return undefined;
        return this.form(this.paramSym(p.variable, p.offset));
      }
      default:
        return undefined;
    }
  }

  /** `a >> k` (floor division by 2^k of the w-bit value). */
  private shiftRight(a: Form, k: number, signed: boolean, w: number): Form | undefined {
    if (k === 0) return a;
    if (isConstant(a)) {
      // (Up to 32 bits without BigInts; the division is exact there, as `>>` is not for k = 32.)
      if (w <= 32) return constForm(Math.floor((signed ? wrapSigned(a.c, w) : low(a.c, w)) / pow2(Math.min(k, w))));
      const v = signed ? BigInt.asIntN(w, BigInt(a.c)) : BigInt.asUintN(w, BigInt(a.c));
      return constForm(Number(v >> BigInt(Math.min(k, w))));
    }
    if (k >= w) return signed ? undefined : constForm(0);
    const p = pow2(k);
    // (The bounds once, for both questions.)
    const b = this.fitBounds(a, signed, w);
    if (b !== undefined && a.c % p === 0 && a.terms.every((t) => t.coef % p === 0)) return scaleForm(a, 1 / p);
    // Every value in one window of 2^k (`(%tid.x + 32) >> 8` with tid.x < 224): a constant.
    if (b !== undefined && Math.floor(b[0] / p) === Math.floor(b[1] / p)) return constForm(Math.floor(b[0] / p));
    return this.form(this.shrSym(a, k, signed, w));
  }

  /** `a & m` for a constant mask: exact for all-ones, low masks (2^k − 1:
   *  `a − 2^k·(a >> k)`) and high masks (−2^k: `2^k·(a >> k)`); else opaque. */
  private andMask(a: Form, m: number, w: number): Form | undefined {
    // Low bits of `a` known to be 0 (below the largest power of two dividing its
    // constant and every coefficient) may join a mask that then becomes a low
    // mask: `(8·x) & 120` is `(8·x) & 127`.
    let z = pow2Factor(a.c);
    for (const t of a.terms) z = Math.min(z, pow2Factor(t.coef));
    if (w > 32) return this.andMaskWide(a, m, w, z);
    // (Up to 32 bits in numbers: the masks as BigInts were most of what an `and` allocated. `low` keeps the
    // low w bits, unsigned; ToInt32 is exact on the safe integers forms hold.)
    let mu = low(m, w);
    const widened = low(mu | (z - 1), w);
    if (isLowMask(widened)) mu = widened;
    const all = low(-1, w);
    if (mu === all) return a;
    if (mu === 0) return constForm(0);
    if (isLowMask(mu)) return this.lowMask(a, 32 - Math.clz32(mu), w);
    const highMask = low(all ^ mu, w);
    return isLowMask(highMask) ? this.highMask(a, 32 - Math.clz32(highMask), w) : undefined;
  }

  /** `andMask` above 32 bits (z: the power of two dividing `a`). */
  private andMaskWide(a: Form, m: number, w: number, z: number): Form | undefined {
    let mu = BigInt.asUintN(w, BigInt(m));
    const widened = BigInt.asUintN(w, mu | (BigInt(z) - 1n));
    if ((widened & (widened + 1n)) === 0n) mu = widened;
    const all = (1n << BigInt(w)) - 1n;
    if (mu === all) return a;
    if (mu === 0n) return constForm(0);
    const highMask = all ^ mu;
    if ((mu & (mu + 1n)) === 0n) return this.lowMask(a, mu.toString(2).length, w);
    if ((highMask & (highMask + 1n)) === 0n) return this.highMask(a, highMask.toString(2).length, w);
    return undefined;
  }

  /** `a & (2^k − 1)`: `a − 2^k·(a >> k)`. */
  private lowMask(a: Form, k: number, w: number): Form | undefined {
    const p = pow2(k);
    if (a.terms.every((t) => t.coef % p === 0)) return constForm(mod(a.c, p));
    const d = this.shiftRight(a, k, false, w);
    const r = d === undefined ? undefined : addScaled(a, d, -p);
    return r === undefined ? undefined : normalize(r, w);
  }

  /** `a & −2^k`: `2^k·(a >> k)`. */
  private highMask(a: Form, k: number, w: number): Form | undefined {
    const p = pow2(k);
    if (a.c % p === 0 && a.terms.every((t) => t.coef % p === 0)) return a;
    const d = this.shiftRight(a, k, false, w);
    return d === undefined ? undefined : scaleForm(d, p);
  }

  /** Runs a block from `input`; returns the state at its end. */
  runBlock(block: BasicBlock, input: PVec<Val>): PVec<Val> {
    this.gen = nextWalk(this.stamp);
    this.input = input;
    this.nTouched = 0;
    for (let i = block.start; i < block.end; i++) this.step(i);
    return pvSetTouched(input, this.touched, this.live.index, this.local, this.nTouched);
  }

  /** The block `joinEntry` merges at. */
  private mergeBlock = -1;

  /** One state entry where two predecessors' differ (one function per engine, not a closure per merge). */
  private readonly joinEntry = (k: number, x: Val | undefined, y: Val | undefined): Val | undefined => {
    const reg = this.live.regs[k]!;
    // A register not written yet on one path (reading it there is
    // undefined) takes the other path's value; a `.func` parameter's
    // entry value is a real value.
    if (!reg.isParam) {
      if (x === undefined) return y;
      if (y === undefined) return x;
    }
    const fx = x ?? this.initForm(reg);
    const fy = y ?? this.initForm(reg);
    return valEquals(fx, fy) ? x : this.joinSym(this.mergeBlock, reg, false);
  };

  /** The state at a block's start from its predecessors' outputs (the solver's input: one output or several). */
  merge(block: number, input: BlockOut<Val, undefined> | Parts<Val, undefined>): PVec<Val> {
    let acc: PVec<Val>;
    if (input.tag === 'out') {
      acc = input.vec;
    } else {
      const parts = input.parts;
      acc = parts[0]!.vec;
      this.mergeBlock = block;
      for (let p = 1; p < parts.length; p++) acc = pvMerge(acc, parts[p]!.vec, this.joinEntry);
    }
    // At a loop header, registers the loop writes are its join symbols from
    // the first visit on (the body then runs once with them, not twice).
    const carried = this.carried(block);
    return carried === undefined ? acc : pvSetMany(acc, carried.idx, carried.forms);
  }

  private readonly carriedAt: ({ idx: number[]; forms: Val[] } | null | undefined)[];
  /** By block, the first loop it heads + 1 (0: none); made at the first question. */
  private loopAt: Int32Array | undefined;

  /** A natural loop header's state entries the loop writes, and their join forms. */
  private carried(block: number): { idx: number[]; forms: Val[] } | undefined {
    let hit = this.carriedAt[block];
    if (hit === undefined) {
      hit = null;
      const loop = this.headedLoop(block);
      if (loop >= 0) {
        // The entries written, marked by position, then listed in order of position (and their join symbols
        // made in that order).
        // (The marks in a scratch list shared by the engines, cleared from the list of those set: a list of
        // every state entry per loop header, and a walk over it, in functions of hundreds of loops.)
        // (The positions sorted as numbers in a typed list: a list's sort copies it first.)
        const live = this.live.index;
        const mark = carriedMarks(this.live.regs.length);
        let marked: Int32Array = CARRIED_LIST;
        let n = 0;
        for (const b of this.loops.loops[loop]!.blocks) {
          const bb = this.cfg.blocks[b]!;
          for (let i = bb.start; i < bb.end; i++) {
            const fx = this.code.fx;
            for (let d = fx.defStart[i]!; d < fx.defStart[i + 1]!; d++) {
              const k = live[fx.defIds[d]!]!;
              if (k >= 0 && mark[k] === 0) {
                mark[k] = 1;
                if (n === marked.length) marked = CARRIED_LIST = grown(marked, n + 1);
                marked[n++] = k;
              }
            }
          }
        }
        marked.subarray(0, n).sort();
        const idx: number[] = [];
        const forms: Val[] = [];
        for (let j = 0; j < n; j++) {
          const k = marked[j]!;
          mark[k] = 0;
          idx.push(k);
          forms.push(this.joinSym(block, this.live.regs[k]!, false));
        }
        hit = { idx, forms };
      }
      this.carriedAt[block] = hit;
    }
    return hit ?? undefined;
  }

  /** The first loop (by index) that `block` heads; -1 when none. (A table, not a search of the loops at every
   *  block: functions with hundreds of loops and thousands of blocks.) */
  private headedLoop(block: number): number {
    let at = this.loopAt;
    if (this.loops.loops.length === 0) return -1;
    if (at === undefined) {
      at = new Int32Array(this.cfg.blocks.length);
      const loops = this.loops.loops;
      for (let l = 0; l < loops.length; l++) if (at[loops[l]!.header] === 0) at[loops[l]!.header] = l + 1;
      this.loopAt = at;
    }
    return at[block]! - 1;
  }

  run(): void {
    const problem = {
      // The sweep: symbols are numbered in visiting order (solver.ts).
      site: 'affine', direction: 'forward' as const, sweep: true,
      boundary: (): AffineFact => ({ tag: 'out', from: -1, vec: this.empty }),
      initial: (): AffineFact => UNREACHED,
      join: joinFacts<Val, undefined>,
      equals: (a: AffineFact, b: AffineFact): boolean => {
        if (a.tag !== 'out' || b.tag !== 'out') return a.tag === b.tag;
        return pvEquals(a.vec, b.vec, sameEntry);
      },
      transfer: (block: BasicBlock, input: AffineFact): AffineFact => {
        if (input.tag === 'bottom' || (input.tag === 'parts' && input.parts.length === 0)) return UNREACHED;
        return { tag: 'out', from: block.id, vec: this.runBlock(block, this.merge(block.id, input)) };
      },
      // A safety net: the per-(block, register) join symbols already bound
      // every chain; after many visits, entries that still change collapse.
      widen: (prev: AffineFact, next: AffineFact, visits: number): AffineFact => {
        if (visits < 64 || prev.tag !== 'out' || next.tag !== 'out') return next;
        const from = next.from;
        const vec = pvMerge(prev.vec, next.vec, (k, x, y) => (x !== undefined && y !== undefined && valEquals(x, y) ? x : this.joinSym(from, this.live.regs[k]!, true)));
        return { tag: 'out', from, vec };
      },
    };
    this.result = solve(this.cfg, problem);
    this.shrIds = undefined;
    // (The shared walk scratch lets go of this function's forms.)
    this.local.fill(undefined, 0, this.nRegs);
    this.classify();
    // The facts read the records only; the block states can go, and the tables only the walk and the passes
    // after it read (the facts keep the engine).
    this.result = undefined;
    this.defKeyed.clear();
    this.joinKeyed.clear();
    this.joinsAt.clear();
    this.carriedAt.length = 0;
    this.pool = NO_DEPS;
  }

  // ------------------------------------------------------------ after the fixpoint

  private classify(): void {
    const loops = this.loops.loops;
    // The last loop a block heads.
    const headerLoop = new Int32Array(this.cfg.blocks.length).fill(-1);
    for (let i = 0; i < loops.length; i++) headerLoop[loops[i]!.header] = i;
    // A loop's blocks, marked while its header's joins are classified (one list, not a set per header; read by
    // `invariantIn` too, instead of a search of the loop's blocks per symbol).
    const inside = new Uint8Array(this.cfg.blocks.length);
    this.inside = inside;
    // (The incoming forms and the entry marks of a header in scratch lists: a pair of lists per join symbol
    // was most of what classifying allocated.)
    const incoming: Form[] = [];
    const outside: boolean[] = [];
    for (const [block, ids] of this.joinsAt) {
      const parts = partsOf(this.result!.atStart[block]!);
      const n = parts.length;
      const loop = headerLoop[block]!;
      if (loop >= 0) {
        for (const b of loops[loop]!.blocks) inside[b] = 1;
        for (let p = 0; p < n; p++) outside[p] = parts[p]!.from === -1 || inside[parts[p]!.from] === 0;
      }
      for (const id of ids) {
        const s = this.symbols[id] as JoinSymbol;
        const k = this.live.index[s.register.id]!;
        for (let p = 0; p < n; p++) incoming[p] = this.F(pvGet(parts[p]!.vec, k) ?? this.initForm(s.register));
        this.setDeps(id, incoming, id, n);
        if (loop < 0) continue;
        const iv = this.inductionVariable(id, outside, incoming, n);
        if (iv !== undefined) {
          this.symbols[id] = {
            kind: 'iv', id, name: `iv(B${block},${s.register.name})`, block, loop, register: s.register, init: iv.init, step: iv.step,
            threadDependent: false, uniform: undefined, ...(isConstant(iv.step) ? { constStep: iv.step.c } : {}),
          };
          this.meta[META * id] = K_IV;
          this.setDeps3(id, iv.init, iv.step, undefined);
        }
      }
      if (loop >= 0) for (const b of loops[loop]!.blocks) inside[b] = 0;
    }
    incoming.length = 0;
    this.inside = undefined;
    this.propagateFlags();
  }

  /** incoming[0, n): the header's incoming forms of join symbol `id`, entries from outside the loop where
   *  `outside` says so. */
  private inductionVariable(id: number, outside: readonly boolean[], incoming: readonly Form[], n: number): { init: Form; step: Form } | undefined {
    let init: Form | undefined;
    let step: Form | undefined;
    for (let p = 0; p < n; p++) {
      const f = incoming[p]!;
      if (outside[p]) {
        if (coefOf(f, id) !== 0 || (init !== undefined && !formEquals(init, f))) return undefined;
        init = f;
      } else {
        if (coefOf(f, id) !== 1) return undefined;
        const d = addScaled(f, this.form(id), -1);
        if (d === undefined || (step !== undefined && !formEquals(step, d))) return undefined;
        step = d;
      }
    }
    if (init === undefined || step === undefined || (isConstant(step) && step.c === 0)) return undefined;
    if (!step.terms.every((t) => this.invariantIn(t.sym, 0))) return undefined;
    return { init, step };
  }

  /** Whether a symbol's value is fixed during one run of the loop whose blocks `inside` marks. */
  private invariantIn(sym: number, depth: number): boolean {
    const s = this.symbols[sym]!;
    const inside = this.inside!;
    switch (s.kind) {
      // (`!== 1`: an instruction of no block, or no block, is outside.)
      case 'def': return inside[this.cfg.blockOf[s.instruction]!] !== 1;
      case 'join': case 'iv': return inside[s.block] !== 1;
      case 'shr': return depth < 8 && s.of.terms.every((t) => this.invariantIn(t.sym, depth + 1));
      default: return true;
    }
  }

  /** Each symbol's dependencies as compressed rows (`deps[start[i], start[i + 1])`): an opaque definition
   *  derives from what its instruction read (its record); others from their recorded dependencies. */
  private dependencyRows(): { start: Int32Array; deps: Int32Array } {
    const n = this.symbols.length;
    const start = new Int32Array(n + 1);
    let deps: Int32Array = new Int32Array(2 * n + 16);
    let len = 0;
    const fx = this.code.fx;
    const records = this.records;
    for (let i = 0; i < n; i++) {
      start[i] = len;
      const at = this.meta[META * i + 1]!;
      if (at < 0) {
        const from = this.meta[META * i + 2]!;
        const count = this.meta[META * i + 3]!;
        if (len + count > deps.length) deps = grown(deps, len + count);
        for (let k = from; k < from + count; k++) deps[len++] = this.pool[k]!;
        continue;
      }
      if (this.reached[at] === 0) continue;
      // Its uses' records.
      const end = fx.useStart[at + 1]! + fx.defStart[at]!;
      for (let k = fx.useStart[at]! + fx.defStart[at]!; k < end; k++) {
        const form = records[k];
        if (form === undefined) continue;
        if (typeof form === 'number') {
          if (len + 1 > deps.length) deps = grown(deps, len + 1);
          deps[len++] = form;
          continue;
        }
        const terms = form.terms;
        if (len + terms.length > deps.length) deps = grown(deps, len + terms.length);
        for (let t = 0; t < terms.length; t++) deps[len++] = terms[t]!.sym;
      }
    }
    start[n] = len;
    return { start, deps };
  }

  /** threadDependent (least fixpoint from %tid/%laneid/%lanemask) and uniform
   *  (greatest fixpoint over pure definitions of uniform values). */
  private propagateFlags(): void {
    const n = this.symbols.length;
    const symbols = this.symbols;
    const { start: depStart, deps } = this.dependencyRows();
    // Users of each symbol, as compressed rows.
    const start = new Int32Array(n + 1);
    const nDeps = depStart[n]!;
    for (let k = 0; k < nDeps; k++) start[deps[k]! + 1]!++;
    for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, n);
    const users = new Int32Array(start[n]!);
    for (let i = 0; i < n; i++) for (let k = depStart[i]!; k < depStart[i + 1]!; k++) users[fill[deps[k]!]!++] = i;
    const td = new Uint8Array(n);
    const work: number[] = [];
    for (let i = 0; i < n; i++) {
      if (this.kindOf(i) === K_SREG && THREAD_SREGS.has((symbols[i] as SregSymbol).sreg)) {
        td[i] = 1;
        work.push(i);
      }
    }
    while (work.length > 0) {
      const i = work.pop()!;
      for (let u = start[i]!; u < start[i + 1]!; u++) {
        const j = users[u]!;
        if (td[j] === 0) {
          td[j] = 1;
          work.push(j);
        }
      }
    }
    // uniform: 1 yes, 0 unknown, -1 no.
    const uni = new Int8Array(n);
    const candidate: number[] = [];
    const isCandidate = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const kind = this.kindOf(i);
      if (td[i] === 1) uni[i] = -1;
      else if (kind === K_SREG) {
        const variance = (symbols[i] as SregSymbol).variance;
        uni[i] = variance === 'cta' || variance === 'grid' ? 1 : 0;
      } else if (kind === K_VAR) uni[i] = 1;
      else if (kind === K_PARAM) uni[i] = this.fn.isEntry ? 1 : 0;
      else if ((kind === K_DEF || kind === K_SHR) && (this.meta[META * i]! & PURE_SYM) !== 0) {
        uni[i] = 1;
        candidate.push(i);
        isCandidate[i] = 1;
      }
    }
    // The greatest fixpoint by a worklist over the users (sweeps of all candidates until none changed took as
    // many sweeps as the longest chain, dozens in long functions): a candidate that reads a value not known
    // uniform is not, nor any candidate that reads it.
    for (const i of candidate) {
      for (let k = depStart[i]!; k < depStart[i + 1]!; k++) {
        if (uni[deps[k]!] !== 1) {
          uni[i] = 0;
          work.push(i);
          break;
        }
      }
    }
    while (work.length > 0) {
      const i = work.pop()!;
      for (let u = start[i]!; u < start[i + 1]!; u++) {
        const j = users[u]!;
        if (uni[j] === 1 && isCandidate[j] === 1) {
          uni[j] = 0;
          work.push(j);
        }
      }
    }
    // (The stores by kind: one store site for all eight shapes of symbol is a lookup per store.)
    for (let i = 0; i < n; i++) {
      const threadDependent = td[i] === 1;
      const uniform = uni[i] === 1 ? true : uni[i] === -1 ? false : undefined;
      const kind = this.kindOf(i);
      if (kind === K_DEF) {
        const d = symbols[i] as DefSym;
        d.threadDependent = threadDependent;
        d.uniform = uniform;
      } else if (kind === K_JOIN) {
        const j = symbols[i] as JoinSym;
        j.threadDependent = threadDependent;
        j.uniform = uniform;
      } else {
        const m = symbols[i] as Mutable<AffineSymbol>;
        m.threadDependent = threadDependent;
        m.uniform = uniform;
      }
    }
  }
}

/** A hash of a shift symbol's operands (`AffineEngine.shrSym`): the constant and coefficients by their low and
 *  high 32 bits. */
function shrHash(of: Form, shift: number, signed: boolean, width: number): number {
  let h = Math.imul(shift * 2 + (signed ? 1 : 0), 0x9e3779b1) ^ width;
  h = mix(h, of.c);
  const terms = of.terms;
  for (let t = 0; t < terms.length; t++) h = mix(mix(h, terms[t]!.sym), terms[t]!.coef);
  return h;
}

function mix(h: number, x: number): number {
  h = Math.imul(h ^ (x | 0), 0x85ebca6b);
  h = Math.imul(h ^ ((x / 4294967296) | 0) ^ (h >>> 15), 0xc2b2ae35);
  return h ^ (h >>> 13);
}

/** Symbol kinds as numbers (`AffineEngine.kinds`). */
const K_SREG = 0;
const K_VAR = 1;
const K_PARAM = 2;
const K_INIT = 3;
const K_DEF = 4;
const K_JOIN = 5;
const K_IV = 6;
const K_SHR = 7;
const KIND_MASK = 7;
/** A symbol of a pure operation (for `uniform`). */
const PURE_SYM = 8;
/** Numbers per symbol in `AffineEngine.meta`. */
const META = 4;

const NO_DEPS = new Int32Array(0);

/** How many symbols a value lists as dependencies. */
function depCount(f: Val | undefined): number {
  return f === undefined ? 0 : typeof f === 'number' ? 1 : f.terms.length;
}

/** A copy of `a` with room for at least `n` entries. */
function grown(a: Int32Array, n: number): Int32Array {
  const b = new Int32Array(Math.max(n, 2 * a.length));
  b.set(a);
  return b;
}


/** A value of the engine: a form, or a symbol's id standing for its form `1·sym` (most opaque values are never
 *  read by a rule, and a form is four heap objects, 150 bytes without pointer compression). Equal symbol
 *  ids, equal values; an id and a form compare by content (`valEquals`). */
type Val = Form | number;

/** f is `1·sym` (as `formEquals(f, form(sym))`). */
function isUnitOf(f: Form, sym: number): boolean {
  return f.c === 0 && !f.mayWrap && f.terms.length === 1 && f.terms[0]!.sym === sym && f.terms[0]!.coef === 1;
}

function valEquals(a: Val, b: Val): boolean {
  if (a === b) return true;
  if (typeof a === 'number') return typeof b !== 'number' && isUnitOf(b, a);
  return typeof b === 'number' ? isUnitOf(a, b) : formEquals(a, b);
}

/** Equal state entries (the solver's comparison). */
function sameEntry(x: Val | undefined, y: Val | undefined): boolean {
  return x === y || (x !== undefined && y !== undefined && valEquals(x, y));
}
/** The `element` of a `mad`'s opaque product (its deps are the two factors);
 *  checks that read `DefSymbol.element` compare with this. */
export const PRODUCT = 15;

const norm = (f: Form | undefined, w: number): Form | undefined => (f === undefined ? undefined : normalize(f, w));

// ================================================================ the lane model

const MAX_ALIGN = 4096;

interface LaneDecomp {
  readonly stride: number;
  readonly align: number;
  readonly rem: number;
}

/** The same value in every lane. */
const INVARIANT_LANES: LaneDecomp = { stride: 0, align: 1, rem: 0 };

/** Per-lane views of symbols, for one function's block size. */
class LaneModel {
  private readonly memo = new Map<number, LaneDecomp | null>();
  readonly assumptions = new Set<string>();
  /** Warps are 32 consecutive tid.x values with one tid.y/tid.z. */
  private readonly rowWarps: boolean | undefined;

  constructor(private readonly symbols: readonly AffineSymbol[], block: readonly [number, number, number] | undefined, exact: boolean) {
    // Only an exact shape tells; `.maxntid` bounds the count, not the shape.
    if (block === undefined || !exact) this.rowWarps = undefined;
    else this.rowWarps = block[0] % 32 === 0 || (block[1] === 1 && block[2] === 1);
    this.bounded = block !== undefined;
  }

  private readonly bounded: boolean;

  private rows(): boolean {
    if (this.rowWarps === undefined) {
      this.assumptions.add(this.bounded ? 'block shape unknown (.maxntid bounds only the count): blockDim.x taken to be a multiple of 32'
        : 'block size unknown: blockDim.x taken to be a multiple of 32');
      return true;
    }
    return this.rowWarps;
  }

  sym(id: number, depth = 0): LaneDecomp | undefined {
    const hit = this.memo.get(id);
    if (hit !== undefined) return hit ?? undefined;
    const r = depth > 16 ? undefined : this.compute(this.symbols[id]!, depth);
    this.memo.set(id, r ?? null);
    return r;
  }

  private compute(s: AffineSymbol, depth: number): LaneDecomp | undefined {
    const invariant = INVARIANT_LANES;
    switch (s.kind) {
      case 'sreg':
        if (s.sreg === '%laneid') return { stride: 1, align: MAX_ALIGN, rem: 0 };
        if (s.sreg === '%tid') {
          if (!this.rows()) return undefined;
          return s.component === 'x' ? { stride: 1, align: 32, rem: 0 } : invariant;
        }
        return s.variance === 'thread' ? undefined : invariant;
      case 'var': {
        const a = s.variable.align ?? typeBytes(s.variable.type) ?? 1;
        return { stride: 0, align: Math.min(MAX_ALIGN, a), rem: 0 };
      }
      case 'param': return invariant;
      case 'iv': {
        const init = this.form(s.init, depth + 1);
        const step = this.form(s.step, depth + 1);
        if (init === undefined || step === undefined || step.stride !== 0) return undefined;
        this.assumptions.add(`${s.name}: all lanes in the same iteration`);
        const stepAlign = step.rem === 0 ? step.align : Math.min(step.align, pow2Factor(step.rem));
        const align = Math.min(init.align, stepAlign);
        return { stride: init.stride, align, rem: mod(init.rem, align) };
      }
      case 'shr': {
        const f = this.form(s.of, depth + 1);
        if (f === undefined) return undefined;
        if (f.stride === 0) return invariant;
        const p = pow2(s.shift);
        if (f.stride % p === 0) return { stride: f.stride / p, align: 1, rem: 0 };
        const a = Math.min(f.align, p);
        const r = mod(f.rem, a);
        const last = r + 31 * f.stride;
        return last >= 0 && last < a ? invariant : undefined;
      }
      default:
        return s.uniform === true ? invariant : undefined;
    }
  }

  form(f: Form, depth = 0): LaneDecomp | undefined {
    let stride = 0;
    let align = MAX_ALIGN;
    let rem = f.c;
    for (const t of f.terms) {
      const d = this.sym(t.sym, depth);
      if (d === undefined) return undefined;
      stride += t.coef * d.stride;
      align = Math.min(align, Math.min(MAX_ALIGN, pow2Factor(t.coef) * d.align));
      rem += t.coef * d.rem;
    }
    return safe(stride) && safe(rem) ? { stride, align, rem: mod(rem, align) } : undefined;
  }
}

/** Wavefronts a warp's shared access needs: per phase (32 lanes for ≤ 4-byte
 *  accesses, 16 for 8-byte, 8 for 16-byte), the largest number of distinct
 *  4-byte words any one of the 32 banks holds among the words the phase's
 *  lanes touch (lanes reading one word share it), summed over the phases.
 *  `addrs[l]` is lane l's byte address. */
export function sharedWavefronts(addrs: readonly number[], bytes: number): number {
  const perPhase = bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8;
  let total = 0;
  for (let p = 0; p < addrs.length; p += perPhase) {
    // The distinct words the phase's lanes touch (sorted, in a scratch array: this runs for every shared
    // access and lane-0 offset), then the most of them in one bank.
    let n = 0;
    for (let l = p; l < Math.min(addrs.length, p + perPhase); l++) {
      const a = addrs[l]!;
      for (let word = Math.floor(a / 4); word <= Math.floor((a + bytes - 1) / 4); word++) {
        if (n === words.length) words = grow(words);
        words[n++] = word;
      }
    }
    const sorted = words.subarray(0, n).sort();
    bankCounts.fill(0);
    let worst = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && sorted[i] === sorted[i - 1]) continue;
      const bank = mod(sorted[i]!, 32);
      worst = Math.max(worst, ++bankCounts[bank]!);
    }
    total += worst;
  }
  return total;
}

let words: Float64Array = new Float64Array(256);
const bankCounts = new Int32Array(32);
const grow = (a: Float64Array): Float64Array => {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
};

/** Wavefronts the access's width requires: max(1, 32·bytes / 128). */
export function requiredWavefronts(bytes: number): number {
  return Math.max(1, (32 * bytes) / 128);
}

/** Distinct 32-byte sectors the lanes' byte ranges touch. */
export function globalSectors(addrs: readonly number[], bytes: number): number {
  const sectors = new Set<number>();
  for (const a of addrs) for (let s = Math.floor(a / 32); s <= Math.floor((a + bytes - 1) / 32); s++) sectors.add(s);
  return sectors.size;
}

const laneAddrs = (base: number, stride: number): number[] => Array.from({ length: 32 }, (_x, l) => base + stride * l);

/** Wavefronts for a lane stride: the worst over the lane-0 offsets modulo 4
 *  that `align`/`rem` allow (a shift by whole words only renames banks). */
function wavefrontsFor(stride: number, bytes: number, align: number, rem: number): number {
  let worst = 0;
  for (let r = 0; r < 4; r++) {
    if (align >= 4 ? r !== mod(rem, 4) : mod(r, align) !== mod(rem, align)) continue;
    worst = Math.max(worst, sharedWavefronts(laneAddrs(r, stride), bytes));
  }
  return worst;
}

export function bankConflictFor(ls: LaneStride, bytes: number): BankConflict {
  const wavefronts = wavefrontsFor(ls.stride, bytes, ls.align, ls.rem);
  const required = requiredWavefronts(bytes);
  const degree = wavefronts / required;
  let padding: BankConflict['padding'];
  let swizzle: BankConflict['swizzle'];
  if (degree >= 2 && ls.stride !== 0) {
    const unit = Math.max(4, bytes);
    let best: { p: number; d: number } | undefined;
    for (let p = 1; p <= 32; p++) {
      const s = Math.abs(ls.stride) + p * unit;
      const d = wavefrontsFor(s, bytes, ls.align, ls.rem) / required;
      if (best === undefined || d < best.d) best = { p, d };
      if (d <= 1) break;
    }
    if (best !== undefined && best.d < degree) {
      const rowBytes = Math.abs(ls.stride) + best.p * unit;
      padding = { padBytes: best.p * unit, rowBytes, rowWords: rowBytes / 4, degreeAfter: best.d };
    }
    if (ls.stride % 128 === 0) swizzle = { unitBytes: Math.max(4, bytes), period: 128 / Math.max(4, bytes) };
  }
  return {
    bytesPerAccess: bytes, strideBytes: ls.stride, lanesPerPhase: bytes <= 4 ? 32 : bytes <= 8 ? 16 : 8, wavefronts, required, degree,
    ...(padding !== undefined ? { padding } : {}), ...(swizzle !== undefined ? { swizzle } : {}), assumptions: ls.assumptions,
  };
}

export function sectorsFor(ls: LaneStride, bytes: number): SectorCount {
  const assumptions = [...ls.assumptions];
  if (ls.align < 32) assumptions.push(`base known modulo ${ls.align} only: taken as ${ls.rem} modulo 32`);
  const base = mod(ls.rem, Math.min(32, ls.align));
  const sectors = globalSectors(laneAddrs(base, ls.stride), bytes);
  const s = Math.abs(ls.stride);
  const distinct = s === 0 ? bytes : s >= bytes ? 32 * bytes : 31 * s + bytes;
  const minimal = Math.max(1, Math.ceil(distinct / 32));
  return { bytesPerAccess: bytes, strideBytes: ls.stride, sectors, minimal, ratio: sectors / minimal, assumptions };
}

// ================================================================ cross-thread overlap

/** One integer unknown of the overlap equation. */
interface Var {
  readonly name: string;
  readonly coef: number;
  readonly lo: number;
  readonly hi: number;
  /** tid(first) − tid(second) in one dimension: nonzero means different threads. */
  readonly delta?: boolean;
  /** The second thread's value of a dimension whose first value is the previous variable. */
  readonly second?: boolean;
}

const BUDGET = 1 << 20;
/** Equal-across-threads symbols whose range is wider than this are treated as unbounded. */
const WIDE_RANGE = 4096;

/** Some assignment with L ≤ Σ coef·v ≤ H (only the last variable may be
 *  unbounded); `distinct`: some δ ≠ 0 or some (first, second) pair differs.
 *  Returns the assignment, null when none exists, or 'budget'. */
function search(vars: readonly Var[], L: number, H: number, distinct: boolean): number[] | null | 'budget' {
  if (vars.length === 0) return L <= 0 && 0 <= H && !distinct ? [] : null;
  let size = 1;
  for (let k = 0; k < vars.length - 1; k++) {
    const v = vars[k]!;
    if (!Number.isFinite(v.lo) || !Number.isFinite(v.hi)) return 'budget';
    size *= v.hi - v.lo + 1;
    if (size > BUDGET) return 'budget';
  }
  const vals = new Array<number>(vars.length).fill(0);
  const last = vars.length - 1;
  const differs = (upto: number): boolean => {
    for (let k = 0; k < upto; k++) {
      const v = vars[k]!;
      if (v.delta === true && vals[k] !== 0) return true;
      if (v.second === true && vals[k] !== vals[k - 1]) return true;
    }
    return false;
  };
  const solveLast = (sum: number): boolean => {
    const v = vars[last]!;
    const lo = L - sum;
    const hi = H - sum;
    let zlo: number;
    let zhi: number;
    if (v.coef === 0) {
      if (lo > 0 || hi < 0) return false;
      zlo = v.lo;
      zhi = v.hi;
    } else if (v.coef > 0) {
      zlo = Math.ceil(lo / v.coef);
      zhi = Math.floor(hi / v.coef);
    } else {
      zlo = Math.ceil(hi / v.coef);
      zhi = Math.floor(lo / v.coef);
    }
    zlo = Math.max(zlo, v.lo);
    zhi = Math.min(zhi, v.hi);
    if (zlo > zhi) return false;
    let forbidden: number | undefined;
    if (distinct && !differs(last)) {
      if (v.delta === true) forbidden = 0;
      else if (v.second === true) forbidden = vals[last - 1];
      else return false;
    }
    let z = Number.isFinite(zlo) ? zlo : Number.isFinite(zhi) ? zhi : 0;
    if (z === forbidden) {
      if (z + 1 <= zhi) z += 1;
      else if (z - 1 >= zlo) z -= 1;
      else return false;
    }
    vals[last] = z;
    return true;
  };
  const rec = (k: number, sum: number): boolean => {
    if (k === last) return solveLast(sum);
    const v = vars[k]!;
    for (let x = v.lo; x <= v.hi; x++) {
      vals[k] = x;
      if (rec(k + 1, sum + v.coef * x)) return true;
    }
    return false;
  };
  return rec(0, 0) ? vals : null;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Can access `a` by one thread and access `b` by another touch common bytes?
 *  Unknowns: the thread indices (one δ per dimension when both forms share
 *  the coefficient, else a value per thread), symbols equal across threads
 *  whose coefficients differ (bounded by `options.range`, else unbounded),
 *  and `options.independent` symbols (a value per access). Symbols with equal
 *  coefficients cancel when equal across threads (uniform, or lane-invariant
 *  induction variables and shifts: listed in `assumedEqual`); any other
 *  symbol makes the answer unknown. Bytes overlap iff −a.bytes < A − B < b.bytes. */
function crossThread(symbols: readonly AffineSymbol[], lanes: LaneModel, block: readonly [number, number, number] | undefined, a: Access, b: Access, options: OverlapOptions = {}): Overlap {
  const extents = block ?? [1024, 1024, 64];
  const dims = ['x', 'y', 'z'];
  const coefA = new Map<number, number>();
  const coefB = new Map<number, number>();
  for (const t of a.form.terms) coefA.set(t.sym, t.coef);
  for (const t of b.form.terms) coefB.set(t.sym, t.coef);
  const all = [...new Set([...coefA.keys(), ...coefB.keys()])].sort((x, y) => x - y);
  // Thread dimensions: x, y, z, and %laneid as a fourth (extent 32).
  const tidA = [0, 0, 0, 0];
  const tidB = [0, 0, 0, 0];
  const assumedEqual: AffineSymbol[] = [];
  const frees: Var[] = [];
  const range = (s: AffineSymbol): [number, number] => {
    const r = options.range?.(s);
    return r === undefined || r.hi - r.lo > WIDE_RANGE ? [-Infinity, Infinity] : [r.lo, r.hi];
  };
  for (const id of all) {
    const s = symbols[id]!;
    const ca = coefA.get(id) ?? 0;
    const cb = coefB.get(id) ?? 0;
    if (s.kind === 'sreg' && (s.sreg === '%tid' || s.sreg === '%laneid')) {
      const d = s.sreg === '%laneid' ? 3 : dims.indexOf(s.component ?? '');
      if (d < 0) return { kind: 'unknown', reason: `${s.name} is not a thread index` };
      tidA[d] = ca;
      tidB[d] = cb;
      continue;
    }
    if (options.independent?.(s) === true) {
      const [lo, hi] = range(s);
      if (ca !== 0) frees.push({ name: `${s.name}(first)`, coef: ca, lo, hi });
      if (cb !== 0) frees.push({ name: `${s.name}(second)`, coef: -cb, lo, hi });
      continue;
    }
    const equal = s.uniform === true || ((s.kind === 'iv' || s.kind === 'shr') && !s.threadDependent && lanes.sym(id)?.stride === 0);
    if (!equal) return { kind: 'unknown', reason: `${s.name} may differ between threads` };
    if (s.uniform !== true) assumedEqual.push(s);
    if (ca !== cb) {
      const [lo, hi] = range(s);
      frees.push({ name: s.name, coef: ca - cb, lo, hi });
    }
  }
  const usesLane = tidA[3] !== 0 || tidB[3] !== 0;
  if (usesLane && [0, 1, 2].some((d) => tidA[d] !== 0 || tidB[d] !== 0)) return { kind: 'unknown', reason: 'both %laneid and %tid in the addresses' };
  // Each access's threads: per dimension an inclusive box within the block
  // (%laneid, the fourth, is 0..31).
  const box = (which: 'a' | 'b', d: number): readonly [number, number] => {
    const n = d === 3 ? 32 : extents[d]!;
    const t = d === 3 ? undefined : options.threads?.[which][d];
    return t === undefined ? [0, n - 1] : [Math.max(0, t[0]), Math.min(n - 1, t[1])];
  };
  for (let d = 0; d < 3; d++) {
    if (box('a', d)[0] > box('a', d)[1] || box('b', d)[0] > box('b', d)[1]) return { kind: 'disjoint', assumedEqual };
  }
  const groups: Var[][] = [];
  const sameCoefs = tidA.every((c, d) => c === tidB[d]);
  for (let d = 0; d < 4; d++) {
    if (tidA[d] === 0 && tidB[d] === 0) continue;
    const name = d === 3 ? '%laneid' : `%tid.${dims[d]}`;
    const [alo, ahi] = box('a', d);
    const [blo, bhi] = box('b', d);
    if (sameCoefs) groups.push([{ name: `δ${name}`, coef: tidA[d]!, lo: alo - bhi, hi: ahi - blo, delta: true }]);
    else groups.push([{ name: `${name}(first)`, coef: tidA[d]!, lo: alo, hi: ahi }, { name: `${name}(second)`, coef: -tidB[d]!, lo: blo, hi: bhi, second: true }]);
  }
  // Different threads exist that agree on every index the addresses use.
  const threads = extents[0]! * extents[1]! * extents[2]!;
  const canDiffer = (d: number): boolean => {
    const [alo, ahi] = box('a', d);
    const [blo, bhi] = box('b', d);
    return !(alo === ahi && blo === bhi && alo === blo);
  };
  const hidden = usesLane ? block === undefined || threads > 32 : [0, 1, 2].some((d) => tidA[d] === 0 && tidB[d] === 0 && canDiffer(d));
  // One thread can run both accesses only if the boxes meet in every dimension.
  const meet = (d: number): readonly [number, number] => [Math.max(box('a', d)[0], box('b', d)[0]), Math.min(box('a', d)[1], box('b', d)[1])];
  const shared = [0, 1, 2].every((d) => meet(d)[0] <= meet(d)[1]);
  const bounded = frees.filter((v) => Number.isFinite(v.lo) && Number.isFinite(v.hi));
  const unbounded = frees.filter((v) => !Number.isFinite(v.lo) || !Number.isFinite(v.hi));
  let tail: Var[] = [];
  if (unbounded.length > 0) {
    // Unbounded terms together reach every multiple of the gcd of their coefficients.
    let g = 0;
    for (const v of unbounded) g = gcd(g, Math.abs(v.coef));
    tail = [{ name: unbounded.map((v) => v.name).join('+'), coef: g, lo: -Infinity, hi: Infinity }];
  }
  groups.sort((x, y) => (x[0]!.hi - x[0]!.lo) - (y[0]!.hi - y[0]!.lo));
  const dc = a.form.c - b.form.c;
  const L = 1 - a.bytes - dc;
  const H = b.bytes - 1 - dc;
  const vars = [...bounded, ...groups.flat(), ...tail];
  const witness = search(vars, L, H, !hidden);
  if (witness === 'budget') return { kind: 'unknown', reason: 'too many thread combinations to decide' };
  if (witness !== null) {
    const w: Record<string, number> = {};
    vars.forEach((v, k) => { if (v.delta === true || v.name.startsWith('%')) w[v.name] = witness[k]!; });
    return { kind: 'cross-thread', witness: w, assumedEqual };
  }
  // The same thread: every δ is 0, every pair takes one value (in both boxes).
  if (!shared) return { kind: 'disjoint', assumedEqual };
  const same: Var[] = [...bounded];
  for (const g of groups) {
    if (g.length !== 2) continue;
    const d = g[0]!.name.startsWith('%laneid') ? 3 : dims.indexOf(g[0]!.name.charAt(5));
    const [lo, hi] = d === 3 ? [0, 31] : meet(d);
    same.push({ name: g[0]!.name, coef: g[0]!.coef + g[1]!.coef, lo, hi });
  }
  same.push(...tail);
  const self = search(same, L, H, false);
  if (self === 'budget') return { kind: 'unknown', reason: 'too many thread combinations to decide' };
  return self !== null ? { kind: 'same-thread-only', assumedEqual } : { kind: 'disjoint', assumedEqual };
}

// ================================================================ the facts

function computeAffine(ctx: AnalysisContext, fn: FunctionModel): AffineFacts {
  const engine = new AffineEngine(ctx, fn);
  engine.run();
  const symbols = engine.symbols;
  const lanes = (): LaneModel => new LaneModel(symbols, engine.block, engine.blockExact);
  const laneStrides = new WeakMap<Form, LaneStride | null>();
  const indexOf = (ins: number | FlatInstruction): number => (typeof ins === 'number' ? ins : ins.index);
  /** An operand expression of instruction i, evaluated at width w (default: the instruction's integer type). */
  const evalAt = (i: number, e: A.Expression, w: number | undefined): Form | undefined => {
    const op = engine.code.ops[i];
    if (op === undefined || engine.reached[i] === 0) return undefined;
    const at = recordAt(engine.code, i);
    let missing = false;
    const f = engine.evalExpr(e, w ?? op.ty?.width ?? 64, (id) => {
      const k = registerPosition(engine.code, i, false, id);
      const hit = k < 0 ? undefined : engine.records[at + k];
      if (hit === undefined) missing = true;
      return hit;
    });
    return missing ? undefined : engine.Fu(f);
  };
  const facts: AffineFacts = {
    fn,
    symbols,
    formAt(ins, reg) {
      const i = indexOf(ins);
      const k = engine.reached[i] === 1 ? registerPosition(engine.code, i, false, reg) : -1;
      return k < 0 ? undefined : engine.Fu(engine.records[recordAt(engine.code, i) + k]);
    },
    formAfter(ins, reg) {
      const i = indexOf(ins);
      const code = engine.code;
      const k = code.ops[i] === undefined || engine.reached[i] === 0 ? -1 : registerPosition(code, i, true, reg);
      return k < 0 ? undefined : engine.Fu(engine.records[code.fx.useStart[i + 1]! + code.fx.defStart[i]! + k]);
    },
    operand(ins, e) {
      return evalAt(indexOf(ins), e, undefined);
    },
    addressOf(ins, which = 0) {
      const i = indexOf(ins);
      const e = addressOperand(fn.instructions[i]!.node, which);
      // Address arithmetic is at the address's width, not the data type's (`st.u8 [%r+128]`).
      return e === undefined ? undefined : evalAt(i, e, 64);
    },
    format: (f) => engine.format(f),
    inductionVariables: () => symbols.filter((s): s is IvSymbol => s.kind === 'iv'),
    baseOf(form) {
      for (const t of form.terms) {
        const s = symbols[t.sym]!;
        if (s.kind === 'var' && t.coef === 1) return { base: s, offset: addScaled(form, symForm(t.sym), -1)! };
      }
      return { offset: form };
    },
    laneStride(form) {
      // (Once per form: the memory checks and the race checks ask about the same accesses' forms, 36,000
      // times for 16,000 forms on the 2.8 MB bench module, each with a lane model of its own.)
      const hit = laneStrides.get(form);
      if (hit !== undefined) return hit ?? undefined;
      const m = lanes();
      const d = m.form(form);
      const ls = d === undefined ? undefined : { ...d, assumptions: [...m.assumptions] };
      laneStrides.set(form, ls ?? null);
      return ls;
    },
    bankConflictDegree(form, bytes) {
      const ls = facts.laneStride(form);
      return ls === undefined ? undefined : bankConflictFor(ls, bytes);
    },
    sectorsPerRequest(form, bytes) {
      const ls = facts.laneStride(form);
      return ls === undefined ? undefined : sectorsFor(ls, bytes);
    },
    crossThreadOverlap: (a, b, options) => crossThread(symbols, lanes(), engine.block, a, b, options),
    sameAddressSameThreadOnly(a, b, options) {
      const o = crossThread(symbols, lanes(), engine.block, a, b, options);
      return o.kind === 'unknown' ? undefined : o.kind !== 'cross-thread';
    },
  };
  return facts;
}

export const affineAnalysis: FunctionAnalysis<AffineFacts> = { name: 'affine', compute: computeAffine };
