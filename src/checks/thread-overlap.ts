// Whether two accesses, made by two different threads of a CTA, can touch
// common bytes: the overlap test of the race checks (F036–F038), over affine
// address forms (affine.ts), with the thread indices split into bit fields.
//
// The thread index of a dimension appears in addresses directly (`4*%tid.x`)
// and through shifts (`%tid.x >> 6`, and `%tid.x & 63` = `%tid.x - 64*(%tid.x >> 6)`,
// `%laneid` = `%tid.x & 31` in a block whose x extent is a multiple of 32). With
// the shifts k1 < k2 < ... of one dimension, its index is written in digits:
// tid = d0 + 2^k1·d1 + 2^k2·d2 + ..., d0 < 2^k1, d1 < 2^(k2−k1), ..., and every
// term is linear in the digits. Each thread has its own digits; the two
// threads are different when some digit differs, or when a dimension the
// addresses do not use has room for two threads.
//
// Other symbols: equal across the CTA (uniform, or a loop counter or shift of
// uniform values) cancel when both forms have the same coefficient, else they
// are an unknown within the range the caller gives; `independent` symbols (a
// loop counter when the two accesses may be in different iterations) get one
// value per access within their range. A symbol with no bounded range where it
// does not cancel, or a symbol that may differ between threads in another way
// (a loaded value), makes the answer "unknown": nothing is guessed.
//
// Bytes [A, A+a) and [B, B+b) overlap iff −a < A − B < b. The search
// enumerates all but the last unknown (a budget bounds it) and solves the last
// one by division.
import type { AffineSymbol, Form } from '../cfg/dataflow/affine.js';

/** Inclusive bounds of %tid.x, %tid.y, %tid.z. */
export interface Box {
  readonly x: readonly [number, number];
  readonly y: readonly [number, number];
  readonly z: readonly [number, number];
}

export interface OverlapSide {
  readonly form: Form;
  readonly bytes: number;
  /** The threads that may make this access. */
  readonly box: Box;
  /** The variable the address is based on (its symbol id) and its size in bytes: the access is
   *  assumed in bounds, which rules out threads whose address would fall outside. */
  readonly bound?: { readonly base: number; readonly size: number };
}

export interface OverlapContext {
  readonly symbols: readonly AffineSymbol[];
  /** The block's extents (x, y, z); the boxes lie inside them. */
  readonly extents: readonly [number, number, number];
  /** A symbol's range, when known and finite. */
  range(sym: AffineSymbol): { readonly lo: number; readonly hi: number } | undefined;
  /** A symbol that may take a different value for each access. */
  independent(sym: AffineSymbol): boolean;
  /** A value read from memory (a loaded index): it may differ per thread; within its range when known, else an
   *  address made of it and no thread index may be any element. */
  dataDependent?(sym: AffineSymbol): boolean;
  /** A symbol that is a linear combination of thread indices the affine facts keep opaque (the linear thread
   *  index of cooperative groups' `thread_rank()`), as `coef · %tid.dim` terms. */
  threadTerms?(sym: AffineSymbol): readonly { readonly dim: number; readonly coef: number }[] | undefined;
}

export type ThreadOverlap =
  /** Two different threads collide: their (x, y, z) indices. */
  | { readonly kind: 'cross-thread'; readonly first: readonly number[]; readonly second: readonly number[] }
  | { readonly kind: 'same-thread-only' }
  | { readonly kind: 'disjoint' }
  | { readonly kind: 'unknown'; readonly reason: string };

/** Search steps before giving up ("unknown"). */
const BUDGET = 1 << 20;
/** Ranges wider than this count as unbounded. */
const WIDE = 1 << 16;

interface Var {
  coef: number;
  lo: number;
  hi: number;
  /** δ = first − second of one digit (nonzero: the threads differ). */
  delta?: boolean;
  /** The second thread's digit; the previous variable is the first's. */
  second?: boolean;
}

/** A linear constraint lo ≤ c + Σ coefs[k]·vars[k] ≤ hi checked on every candidate. */
interface Constraint { coefs: number[]; c: number; lo: number; hi: number }

/** The search's state (a class, not closures made per search: threadOverlap runs thousands of times per
 *  function on large kernels). */
class Search {
  readonly sufMin: number[];
  readonly sufMax: number[];
  readonly vals: number[];
  readonly last: number;
  steps = 0;

  constructor(readonly vars: readonly Var[], readonly L: number, readonly H: number, readonly distinct: boolean, readonly extra: readonly Constraint[]) {
    const n = vars.length;
    this.sufMin = new Array<number>(n + 1).fill(0);
    this.sufMax = new Array<number>(n + 1).fill(0);
    for (let k = n - 1; k >= 0; k--) {
      const v = vars[k]!;
      this.sufMin[k] = this.sufMin[k + 1]! + Math.min(v.coef * v.lo, v.coef * v.hi);
      this.sufMax[k] = this.sufMax[k + 1]! + Math.max(v.coef * v.lo, v.coef * v.hi);
    }
    this.vals = new Array<number>(n).fill(0);
    this.last = n - 1;
  }

  differs(upto: number): boolean {
    const { vars, vals } = this;
    for (let k = 0; k < upto; k++) {
      const v = vars[k]!;
      if (v.delta === true && vals[k] !== 0) return true;
      if (v.second === true && vals[k] !== vals[k - 1]) return true;
    }
    return false;
  }

  fits(): boolean {
    const { extra, vals } = this;
    for (const k of extra) {
      let x = k.c;
      for (let j = 0; j < vals.length; j++) x += k.coefs[j]! * vals[j]!;
      if (!(k.lo <= x && x <= k.hi)) return false;
    }
    return true;
  }

  solveLast(sum: number): boolean {
    const last = this.last;
    const v = this.vars[last]!;
    const lo = this.L - sum;
    const hi = this.H - sum;
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
    let forbidden: number | undefined;
    if (this.distinct && !this.differs(last)) {
      if (v.delta === true) forbidden = 0;
      else if (v.second === true) forbidden = this.vals[last - 1];
      else return false;
    }
    for (let z = zlo; z <= zhi; z++) {
      if (z === forbidden) continue;
      this.vals[last] = z;
      if (this.extra.length === 0 || this.fits()) return true;
      if (++this.steps > BUDGET) throw new Error('budget');
    }
    return false;
  }

  rec(k: number, sum: number): boolean {
    if (k === this.last) return this.solveLast(sum);
    if (sum + this.sufMin[k]! > this.H || sum + this.sufMax[k]! < this.L) return false;
    const v = this.vars[k]!;
    for (let x = v.lo; x <= v.hi; x++) {
      this.vals[k] = x;
      if (this.rec(k + 1, sum + v.coef * x)) return true;
    }
    return false;
  }
}

const NO_CONSTRAINTS: readonly Constraint[] = [];

function search(vars: readonly Var[], L: number, H: number, distinct: boolean, extra: readonly Constraint[] = NO_CONSTRAINTS): number[] | null | 'budget' {
  if (vars.length === 0) return L <= 0 && 0 <= H && !distinct && extra.every((k) => k.lo <= k.c && k.c <= k.hi) ? [] : null;
  // Branch and bound: the least and greatest Σ coef·value of vars k.. (a subtree whose partial sum cannot
  // reach [L, H] holds no solution, so skipping it changes no answer).
  let min = 0;
  let max = 0;
  for (let k = vars.length - 1; k >= 0; k--) {
    const v = vars[k]!;
    min += Math.min(v.coef * v.lo, v.coef * v.hi);
    max += Math.max(v.coef * v.lo, v.coef * v.hi);
  }
  if (min > H || max < L) return null;
  let size = 1;
  for (let k = 0; k < vars.length - 1; k++) {
    size *= vars[k]!.hi - vars[k]!.lo + 1;
    if (size > BUDGET) return 'budget';
  }
  const s = new Search(vars, L, H, distinct, extra);
  try {
    return s.rec(0, 0) ? s.vals : null;
  } catch {
    return 'budget';
  }
}

/** A thread-index term: `coef · (tid.dim >> shift)`. */
interface ThreadTerm { dim: number; shift: number; coef: number }

/** Per-digit bounds covering every value in [lo, hi] (exact for a single value). */
function digitBounds(lo: number, hi: number, shifts: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  let same = true;
  for (let j = shifts.length - 1; j >= 0; j--) {
    const s = shifts[j]!;
    const width = j + 1 < shifts.length ? shifts[j + 1]! - s : 31 - s;
    const mask = width >= 31 ? 0x7fffffff : (1 << width) - 1;
    const dl = (lo >>> s) & mask;
    const dh = (hi >>> s) & mask;
    if (same) {
      out[j] = [dl, dh];
      same = dl === dh;
    } else out[j] = [0, j + 1 < shifts.length ? mask : dh];
  }
  return out;
}

/** Adds a shift to an ascending list of distinct shifts. */
function addShift(shifts: number[], shift: number): void {
  let k = 0;
  while (k < shifts.length && shifts[k]! < shift) k++;
  if (shifts[k] !== shift) shifts.splice(k, 0, shift);
}

/** The coefficient of digit `shift` of dimension `dim`: every term of that dimension at or below it, scaled. */
function digitCoef(terms: readonly ThreadTerm[], dim: number, shift: number): number {
  let c = 0;
  for (const t of terms) if (t.dim === dim && t.shift <= shift) c += t.coef * 2 ** (shift - t.shift);
  return c;
}

type Span = readonly [number, number];

/** A box's (x, y, z) ranges within the block's extents; undefined when one is empty. */
function clipped(box: Box, extents: readonly [number, number, number]): Span[] | undefined {
  const x: Span = [Math.max(0, box.x[0]), Math.min(extents[0] - 1, box.x[1])];
  const y: Span = [Math.max(0, box.y[0]), Math.min(extents[1] - 1, box.y[1])];
  const z: Span = [Math.max(0, box.z[0]), Math.min(extents[2] - 1, box.z[1])];
  return x[0] > x[1] || y[0] > y[1] || z[0] > z[1] ? undefined : [x, y, z];
}

/** A symbol's range when finite and not wider than WIDE. */
function bounded(ctx: OverlapContext, s: AffineSymbol): { lo: number; hi: number } | undefined {
  const r = ctx.range(s);
  return r === undefined || !Number.isFinite(r.lo) || !Number.isFinite(r.hi) || r.hi - r.lo > WIDE ? undefined : r;
}

/** `crossWarp`: the two threads must be in different warps (the accesses are ordered by a `bar.warp.sync`,
 *  which only orders the lanes of one warp). Warps are 32 consecutive x indices of one (y, z) row; a block
 *  whose x extent is not a multiple of 32 and that has more than one row is not modelled ("unknown"). */
export function threadOverlap(ctx: OverlapContext, a: OverlapSide, b: OverlapSide, crossWarp = false): ThreadOverlap {
  if (crossWarp && ctx.extents[0] % 32 !== 0 && ctx.extents[1] * ctx.extents[2] > 1) return { kind: 'unknown', reason: 'warps span rows of the block' };
  const boxA = clipped(a.box, ctx.extents);
  const boxB = clipped(b.box, ctx.extents);
  if (boxA === undefined || boxB === undefined) return { kind: 'disjoint' };

  const termsA: ThreadTerm[] = [];
  const termsB: ThreadTerm[] = [];
  const frees: Var[] = [];
  let dc = a.form.c - b.form.c;
  // Each symbol's coefficient in A and in B, in the order A's terms then B's others (a form has at most
  // MAX_TERMS terms: lists, not a map).
  const ids: number[] = [];
  const cas: number[] = [];
  const cbs: number[] = [];
  for (const t of a.form.terms) {
    const k = ids.indexOf(t.sym);
    if (k < 0) { ids.push(t.sym); cas.push(t.coef); cbs.push(0); } else { cas[k] = t.coef; cbs[k] = 0; }
  }
  for (const t of b.form.terms) {
    const k = ids.indexOf(t.sym);
    if (k < 0) { ids.push(t.sym); cas.push(0); cbs.push(t.coef); } else cbs[k] = t.coef;
  }
  let dataA = false;
  let dataB = false;
  for (let k = 0; k < ids.length; k++) {
    const ca = cas[k]!;
    const cb = cbs[k]!;
    const s = ctx.symbols[ids[k]!]!;
    if (ctx.dataDependent?.(s) === true) {
      // A loaded value: each access has its own, within its range when the ranges analysis bounds it.
      const r = bounded(ctx, s);
      if (r === undefined) {
        dataA ||= ca !== 0;
        dataB ||= cb !== 0;
      } else {
        if (ca !== 0) frees.push({ coef: ca, lo: r.lo, hi: r.hi });
        if (cb !== 0) frees.push({ coef: -cb, lo: r.lo, hi: r.hi });
      }
      continue;
    }
    const linear = ctx.threadTerms?.(s);
    if (linear !== undefined) {
      for (const t of linear) {
        if (ca !== 0) termsA.push({ dim: t.dim, shift: 0, coef: ca * t.coef });
        if (cb !== 0) termsB.push({ dim: t.dim, shift: 0, coef: cb * t.coef });
      }
      continue;
    }
    const tt = threadTermOf(ctx, s);
    if (tt === 'lane') {
      // %laneid = tid.x − 32·(tid.x >> 5) (warps are 32 consecutive x indices).
      if (ca !== 0) termsA.push({ dim: 0, shift: 0, coef: ca }, { dim: 0, shift: 5, coef: -32 * ca });
      if (cb !== 0) termsB.push({ dim: 0, shift: 0, coef: cb }, { dim: 0, shift: 5, coef: -32 * cb });
      continue;
    }
    if (tt !== undefined) {
      if (ca !== 0) termsA.push({ dim: tt.dim, shift: tt.shift, coef: ca });
      if (cb !== 0) termsB.push({ dim: tt.dim, shift: tt.shift, coef: cb });
      continue;
    }
    if (s.threadDependent) return { kind: 'unknown', reason: `${s.name} depends on the thread in a way the test does not model` };
    if (ctx.independent(s)) {
      const r = bounded(ctx, s);
      if (r === undefined) return { kind: 'unknown', reason: `${s.name} has no known range` };
      if (ca !== 0) frees.push({ coef: ca, lo: r.lo, hi: r.hi });
      if (cb !== 0) frees.push({ coef: -cb, lo: r.lo, hi: r.hi });
      continue;
    }
    const equal = s.uniform === true || s.kind === 'iv' || s.kind === 'shr';
    if (!equal) return { kind: 'unknown', reason: `${s.name} may differ between threads` };
    if (ca === cb) continue;
    const r = bounded(ctx, s);
    if (r === undefined) return { kind: 'unknown', reason: `${s.name} has no known range` };
    if (r.lo === r.hi) dc += (ca - cb) * r.lo;
    else frees.push({ coef: ca - cb, lo: r.lo, hi: r.hi });
  }

  const boundA = boundedSide(ctx, a);
  const boundB = boundedSide(ctx, b);
  const pairs = boundA || boundB;
  // A data-dependent address with no thread index (`h[in[i]]`) may be any element: two different threads
  // collide when there are two. With a thread index in it as well, the answer is unknown.
  if (dataA || dataB) {
    if ((dataA && termsA.length > 0) || (dataB && termsB.length > 0)) return { kind: 'unknown', reason: 'a loaded value and a thread index in one address' };
    const one = boxA.every(([lo, hi], d) => lo === hi && boxB[d]![0] === lo && boxB[d]![1] === hi);
    if (one) return { kind: 'same-thread-only' };
    const first = boxA.map(([lo]) => lo);
    if (crossWarp) {
      // A thread of B in another warp than A's first thread: another row, or x in another block of 32.
      const w = first[0]! >> 5;
      const [xlo, xhi] = boxB[0]!;
      const other = xlo < w * 32 ? xlo : xhi >= (w + 1) * 32 ? Math.max(xlo, (w + 1) * 32) : undefined;
      if (other !== undefined) return { kind: 'cross-thread', first, second: [other, boxB[1]![0], boxB[2]![0]] };
      for (const d of [1, 2]) {
        const [lo, hi] = boxB[d]!;
        const v = lo !== first[d] ? lo : lo + 1 <= hi ? lo + 1 : undefined;
        if (v !== undefined) return { kind: 'cross-thread', first, second: boxB.map(([l], k) => (k === d ? v : k === 0 ? xlo : l)) };
      }
      return { kind: 'same-thread-only' };
    }
    const second = boxB.map(([lo, hi], d) => (lo !== first[d] ? lo : Math.min(hi, lo + 1)));
    return { kind: 'cross-thread', first, second };
  }
  // Digits per dimension.
  const groups: Var[][] = [];
  const digitInfo: { dim: number; shift: number; group: number; alo: number; blo: number; cA: number; cB: number }[] = [];
  let hidden = false;
  const hiddenDigits: { dim: number; shift: number; lo: number; hi: number; alo: number; bhi: number }[] = [];
  for (let d = 0; d < 3; d++) {
    const shifts = [0];
    if (crossWarp && d === 0) addShift(shifts, 5);
    for (const t of termsA) if (t.dim === d) addShift(shifts, t.shift);
    for (const t of termsB) if (t.dim === d) addShift(shifts, t.shift);
    const ba = digitBounds(boxA[d]![0], boxA[d]![1], shifts);
    const bb = digitBounds(boxB[d]![0], boxB[d]![1], shifts);
    for (let j = 0; j < shifts.length; j++) {
      const s = shifts[j]!;
      const cA = digitCoef(termsA, d, s);
      const cB = digitCoef(termsB, d, s);
      const [alo, ahi] = ba[j]!;
      const [blo, bhi] = bb[j]!;
      // Only digits that name the warp tell two threads apart when they must be in different warps.
      const tells = !crossWarp || d > 0 || s >= 5;
      if (cA === 0 && cB === 0) {
        // A digit no address uses: two threads differing only here collide if both can take two values.
        if (tells && !(alo === ahi && blo === bhi && alo === blo)) {
          hidden = true;
          hiddenDigits.push({ dim: d, shift: s, lo: Math.max(alo, blo), hi: Math.min(ahi, bhi), alo, bhi });
        }
        continue;
      }
      digitInfo.push({ dim: d, shift: s, group: groups.length, alo, blo, cA, cB });
      if (cA === cB && !pairs) groups.push([tells ? { coef: cA, lo: alo - bhi, hi: ahi - blo, delta: true } : { coef: cA, lo: alo - bhi, hi: ahi - blo }]);
      else groups.push([{ coef: cA, lo: alo, hi: ahi }, tells ? { coef: -cB, lo: blo, hi: bhi, second: true } : { coef: -cB, lo: blo, hi: bhi }]);
    }
  }
  const originalGroups = groups.slice();
  // In-bounds: 0 ≤ c + Σ digit terms ≤ size − bytes, for the first thread (A) and the second (B),
  // as (variable, coefficient) lists; they also narrow each digit's range before the search.
  const bounds: { terms: [Var, number][]; c: number; lo: number; hi: number }[] = [];
  for (const [side, isA] of [[a, true], [b, false]] as const) {
    if (!(isA ? boundA : boundB)) continue;
    const terms: [Var, number][] = [];
    for (const info of digitInfo) {
      const grp = originalGroups[info.group]!;
      terms.push([isA ? grp[0]! : grp[1]!, isA ? info.cA : info.cB]);
    }
    bounds.push({ terms, c: side.form.c, lo: 0, hi: side.bound!.size - side.bytes });
  }
  for (let round = 0; round < 3; round++) {
    for (const k of bounds) {
      for (const [v, a0] of k.terms) {
        if (a0 === 0) continue;
        let min = k.c;
        let max = k.c;
        for (const [w0, a1] of k.terms) {
          if (w0 === v) continue;
          min += Math.min(a1 * w0.lo, a1 * w0.hi);
          max += Math.max(a1 * w0.lo, a1 * w0.hi);
        }
        // lo ≤ min + a0·v and max + a0·v ≤ hi bound v when the rest is at its extreme.
        const lo = (k.lo - max) / a0;
        const hi = (k.hi - min) / a0;
        v.lo = Math.max(v.lo, Math.ceil(Math.min(lo, hi)));
        v.hi = Math.min(v.hi, Math.floor(Math.max(lo, hi)));
      }
    }
  }
  if (groups.some((g) => g.some((v) => v.lo > v.hi))) return { kind: 'disjoint' };
  groups.sort((x, y) => (x[0]!.hi - x[0]!.lo) * (x.length === 2 ? x[1]!.hi - x[1]!.lo + 1 : 1) - (y[0]!.hi - y[0]!.lo) * (y.length === 2 ? y[1]!.hi - y[1]!.lo + 1 : 1));
  const order = groups.flat();
  const vars = [...frees, ...order];
  const L = 1 - a.bytes - dc;
  const H = b.bytes - 1 - dc;
  const extra: Constraint[] = bounds.map((k) => {
    const coefs = new Array<number>(vars.length).fill(0);
    for (const [v, a0] of k.terms) coefs[vars.indexOf(v)] = a0;
    return { coefs, c: k.c, lo: k.lo, hi: k.hi };
  });
  const w = search(vars, L, H, !hidden, extra);
  if (w === 'budget') return { kind: 'unknown', reason: 'too many thread combinations to decide' };
  if (w !== null) {
    // Each thread's indices from its digits (for a δ digit, the lowest second digit that fits both boxes).
    const valueOf = new Map<Var, number>();
    order.forEach((v, k) => valueOf.set(v, w[frees.length + k]!));
    const first = [0, 0, 0];
    const second = [0, 0, 0];
    for (const info of digitInfo) {
      const grp = originalGroups[info.group]!;
      const scale = 2 ** info.shift;
      if (grp.length === 1) {
        const delta = valueOf.get(grp[0]!)!;
        const sd = Math.max(info.blo, info.alo - delta);
        first[info.dim]! += (sd + delta) * scale;
        second[info.dim]! += sd * scale;
      } else {
        first[info.dim]! += valueOf.get(grp[0]!)! * scale;
        second[info.dim]! += valueOf.get(grp[1]!)! * scale;
      }
    }
    // Threads that differ only in a digit no address uses: make the witness show it.
    const sameWarp = (): boolean => (first[0]! >> 5) === (second[0]! >> 5) && first[1] === second[1] && first[2] === second[2];
    if (first.every((v, d) => v === second[d]) || (crossWarp && sameWarp())) {
      const h = hiddenDigits[0];
      if (h !== undefined) {
        const scale = 2 ** h.shift;
        const fd = Math.floor(first[h.dim]! / scale) % (2 ** 30);
        const sd = fd + 1 <= h.bhi ? fd + 1 : h.alo;
        second[h.dim]! += (sd - fd) * scale;
      }
    }
    return { kind: 'cross-thread', first, second };
  }
  // The same thread: every δ is 0, every pair one value.
  const same: Var[] = [...frees];
  for (const g of groups) {
    if (g.length === 2) {
      const lo = Math.max(g[0]!.lo, g[1]!.lo);
      const hi = Math.min(g[0]!.hi, g[1]!.hi);
      if (lo > hi) return { kind: 'disjoint' };
      same.push({ coef: g[0]!.coef + g[1]!.coef, lo, hi });
    }
  }
  const self = search(same, L, H, false);
  if (self === 'budget') return { kind: 'unknown', reason: 'too many thread combinations to decide' };
  return self !== null ? { kind: 'same-thread-only' } : { kind: 'disjoint' };
}

/** A symbol as a thread-index term: %tid.d (shift 0), `%tid.d >> k`, or %laneid. */
/** Whether the in-bounds constraint applies to an access: its address is its variable plus thread terms only.
 *  (A top-level function, not a closure made per pair: see src/cfg/keep-compiled.ts.) */
function boundedSide(ctx: OverlapContext, side: OverlapSide): boolean {
  return side.bound !== undefined && side.form.terms.every((t) =>
    (t.sym === side.bound!.base && t.coef === 1) || threadTermOf(ctx, ctx.symbols[t.sym]!) !== undefined);
}

function threadTermOf(ctx: OverlapContext, s: AffineSymbol): { dim: number; shift: number } | 'lane' | undefined {
  if (s.kind === 'sreg') {
    if (s.sreg === '%laneid') return 'lane';
    if (s.sreg === '%tid') {
      const d = ['x', 'y', 'z'].indexOf(s.component ?? 'x');
      return d < 0 ? undefined : { dim: d, shift: 0 };
    }
    return undefined;
  }
  if (s.kind === 'shr' && s.shift < 31 && s.of.c === 0 && s.of.terms.length === 1 && s.of.terms[0]!.coef === 1) {
    const inner = ctx.symbols[s.of.terms[0]!.sym]!;
    if (inner.kind === 'sreg' && inner.sreg === '%tid') {
      const d = ['x', 'y', 'z'].indexOf(inner.component ?? 'x');
      return d < 0 ? undefined : { dim: d, shift: s.shift };
    }
  }
  return undefined;
}
