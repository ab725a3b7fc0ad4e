// F054: a thread-indexed `.shared` access that can fall outside its variable
// for thread ids within the known block size.
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { affineAnalysis, formKey, subForms, type AffineFacts, type AffineSymbol, type Form } from '../cfg/dataflow/affine.js';
import { isUnknown, rangeAnalysis, type RangeFacts } from '../cfg/dataflow/ranges.js';
import { ENTRY, reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { assumptionsAndSilencing, memoryAccesses, opText } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** `D cmp 0` for an affine D: a branch condition that holds where the access runs. */
interface Constraint {
  readonly d: Form;
  readonly cmp: 'lt' | 'le' | 'gt' | 'ge' | 'eq';
}

const NEGATE: Readonly<Record<string, Constraint['cmp'] | undefined>> = { lt: 'ge', le: 'gt', gt: 'le', ge: 'lt', ne: 'eq', eq: undefined };
const CMP: Readonly<Record<string, string>> = { '.lt': 'lt', '.le': 'le', '.gt': 'gt', '.ge': 'ge', '.eq': 'eq', '.ne': 'ne', '.lo': 'lt', '.ls': 'le', '.hi': 'gt', '.hs': 'ge' };

function holds(v: number, cmp: Constraint['cmp']): boolean {
  switch (cmp) {
    case 'lt': return v < 0;
    case 'le': return v <= 0;
    case 'gt': return v > 0;
    case 'ge': return v >= 0;
    default: return v === 0;
  }
}

/** The condition `setp` computed into predicate `p` as read by instruction `at`, if affine. */
function condition(ctx: AnalysisContext, fn: FunctionModel, af: AffineFacts, at: number, guard: A.Guard, negated: boolean): Constraint | undefined {
  const reg = fn.resolveGuard(guard);
  if (reg?.kind !== 'register') return undefined;
  const defs = ctx.get(fn, reachingDefinitionsAnalysis).reaching(at, reg);
  if (defs.length !== 1 || defs[0] === ENTRY) return undefined;
  const node = fn.instructions[defs[0]!]!.node;
  if (node.opcode !== 'setp' || node.guard !== undefined || node.operands.length !== 3 || node.operands[0]!.kind !== 'Name') return undefined;
  const cmp = node.modifiers.map((m) => CMP[m]).find((c) => c !== undefined);
  if (cmp === undefined || node.modifiers.some((m) => m.startsWith('.f') || m.startsWith('.bf'))) return undefined;
  const a = af.operand(defs[0]!, node.operands[1]!);
  const b = af.operand(defs[0]!, node.operands[2]!);
  const d = a === undefined || b === undefined ? undefined : subForms(a, b);
  if (d === undefined) return undefined;
  const c = negated ? NEGATE[cmp] : cmp === 'ne' ? undefined : cmp as Constraint['cmp'];
  return c === undefined ? undefined : { d, cmp: c };
}

/** Conditions that hold wherever instruction `index` runs: its guard, and the
 *  branch edges into single-predecessor blocks on its dominator chain (memoized per block in `memo`). */
function constraintsAt(ctx: AnalysisContext, fn: FunctionModel, af: AffineFacts, index: number, memo: Map<number, Constraint[]>): Constraint[] {
  const out: Constraint[] = [];
  const g = fn.instructions[index]!.node.guard;
  if (g !== undefined) {
    const c = condition(ctx, fn, af, index, g, g.negated);
    if (c !== undefined) out.push(c);
  }
  return [...out, ...blockConstraints(ctx, fn, af, ctx.cfg(fn).blockOf[index]!, memo)];
}

function blockConstraints(ctx: AnalysisContext, fn: FunctionModel, af: AffineFacts, start: number, memo: Map<number, Constraint[]>): Constraint[] {
  const cfg = ctx.cfg(fn);
  const dom = ctx.dominators(fn);
  // The chain up to the first block already known.
  const chain: number[] = [];
  let x = start;
  while (x !== dom.root && x >= 0 && !memo.has(x) && chain.length < 4096) {
    chain.push(x);
    x = dom.idom[x]!;
  }
  let acc = memo.get(x) ?? [];
  for (let k = chain.length - 1; k >= 0; k--) {
    const b = chain[k]!;
    const block = cfg.blocks[b]!;
    const own: Constraint[] = [];
    if (block.preds.length === 1) {
      const p = cfg.blocks[block.preds[0]!]!;
      const last = p.end > p.start ? fn.instructions[p.end - 1]! : undefined;
      const bra = last?.node;
      if (bra !== undefined && bra.opcode === 'bra' && bra.guard !== undefined && p.succs.length === 2) {
        const target = bra.operands[0];
        const taken = target?.kind === 'Name' && block.labels.includes(target.name);
        const c = condition(ctx, fn, af, last!.index, bra.guard, taken ? bra.guard.negated : !bra.guard.negated);
        if (c !== undefined) own.push(c);
      }
    }
    acc = own.length > 0 ? [...own, ...acc] : acc;
    memo.set(b, acc);
  }
  return acc;
}

/** Per-thread values of the symbols that depend on the thread index only, for one block shape. */
class Threads {
  private readonly memo = new Map<number, boolean>();
  private readonly values = new Map<number, Float64Array>();
  private readonly forms = new Map<string, Float64Array>();
  /** Thread t (x fastest) has tid (xs[t], ys[t], zs[t]). */
  readonly count: number;
  constructor(private readonly af: AffineFacts, readonly block: readonly [number, number, number]) {
    this.count = block[0] * block[1] * block[2];
  }

  tid(t: number): [number, number, number] {
    return [t % this.block[0], Math.floor(t / this.block[0]) % this.block[1], Math.floor(t / (this.block[0] * this.block[1]))];
  }

  /** Whether a symbol's value is a function of the thread index alone. */
  isThread(s: AffineSymbol): boolean {
    const hit = this.memo.get(s.id);
    if (hit !== undefined) return hit;
    this.memo.set(s.id, false);
    let r = false;
    if (s.kind === 'sreg') r = (s.sreg === '%tid' && s.component !== undefined) || s.sreg === '%laneid';
    else if (s.kind === 'shr') r = s.of.terms.every((t) => this.isThread(this.af.symbols[t.sym]!));
    this.memo.set(s.id, r);
    return r;
  }

  /** The symbol's value for every thread. */
  of(sym: number): Float64Array {
    let v = this.values.get(sym);
    if (v !== undefined) return v;
    const s = this.af.symbols[sym]!;
    v = new Float64Array(this.count);
    if (s.kind === 'sreg') {
      for (let t = 0; t < this.count; t++) v[t] = s.sreg === '%laneid' ? t % 32 : this.tid(t)[s.component === 'x' ? 0 : s.component === 'y' ? 1 : 2]!;
    } else if (s.kind === 'shr') {
      const inner = this.all(s.of);
      const m = 2 ** s.width;
      for (let t = 0; t < this.count; t++) {
        const wrapped = ((inner[t]! % m) + m) % m;
        const signed = s.signed && wrapped >= m / 2 ? wrapped - m : wrapped;
        v[t] = Math.floor(signed / 2 ** s.shift);
      }
    } else v.fill(NaN);
    this.values.set(sym, v);
    return v;
  }

  /** A thread-only form's value for every thread (not to be written: the same forms recur across a
   *  function's accesses and conditions, and each is evaluated once). */
  all(f: Form): Float64Array {
    const key = formKey(f);
    let out = this.forms.get(key);
    if (out !== undefined) return out;
    out = new Float64Array(this.count).fill(f.c);
    for (const term of f.terms) {
      const v = this.of(term.sym);
      for (let t = 0; t < this.count; t++) out[t] += term.coef * v[t]!;
    }
    this.forms.set(key, out);
    return out;
  }
}

interface Violation {
  /** The first thread (x fastest) out of range, the worst value and the thread reaching it. */
  readonly first: readonly [number, number, number];
  readonly firstValue: number;
  readonly worst: number;
  readonly worstAt: readonly [number, number, number];
  readonly count: number;
}

/** A condition on threads and coupled counters: its threads' part for every thread (computed once per
 *  access), the rest (the counters' part, fixed for each combination of their values). */
interface ThreadCondition {
  readonly threads: Float64Array;
  readonly rest: Form;
  readonly cmp: Constraint['cmp'];
}

function satisfied(conds: readonly ThreadCondition[], shifts: readonly number[], t: number): boolean {
  for (let i = 0; i < conds.length; i++) if (!holds(conds[i]!.threads[t]! + shifts[i]!, conds[i]!.cmp)) return false;
  return true;
}

/** The threads (that satisfy the conditions, their counters' parts `shifts`) whose thread part lies outside [lo, hi]. */
function outside(threads: Threads, part: Float64Array, conds: readonly ThreadCondition[], shifts: readonly number[], lo: number, hi: number, above: boolean): Violation | undefined {
  let v: { first: number; firstValue: number; worst: number; worstAt: number; count: number } | undefined;
  for (let t = 0; t < threads.count; t++) {
    const value = part[t]!;
    if (above ? value <= hi : value >= lo) continue;
    if (!satisfied(conds, shifts, t)) continue;
    if (v === undefined) v = { first: t, firstValue: value, worst: value, worstAt: t, count: 1 };
    else {
      v.count++;
      if (above ? value > v.worst : value < v.worst) {
        v.worst = value;
        v.worstAt = t;
      }
    }
  }
  return v === undefined ? undefined : { first: threads.tid(v.first), firstValue: v.firstValue, worst: v.worst, worstAt: threads.tid(v.worstAt), count: v.count };
}

/** A symbol's range from the ranges analysis, narrowed by single-symbol conditions k·s + c ⋚ 0. */
function symbolRange(af: AffineFacts, rf: RangeFacts, sym: number, conds: readonly Constraint[]): { lo: number; hi: number } {
  const r = rf.symbolRange(af.symbols[sym]!);
  let lo = r === undefined || isUnknown(r) ? -Infinity : r.lo;
  let hi = r === undefined || isUnknown(r) ? Infinity : r.hi;
  for (const c of conds) {
    if (c.d.terms.length !== 1 || c.d.terms[0]!.sym !== sym) continue;
    const k = c.d.terms[0]!.coef;
    const bound = -c.d.c / k;
    const upper = (k > 0) === (c.cmp === 'lt' || c.cmp === 'le');
    const strict = c.cmp === 'lt' || c.cmp === 'gt';
    if (c.cmp === 'eq') {
      if (Number.isInteger(bound)) {
        lo = Math.max(lo, bound);
        hi = Math.min(hi, bound);
      }
    } else if (upper) hi = Math.min(hi, strict ? Math.ceil(bound) - 1 : Math.floor(bound));
    else lo = Math.max(lo, strict ? Math.floor(bound) + 1 : Math.ceil(bound));
  }
  return { lo, hi };
}

/** Σ coef·s over `terms` at each symbol's most favorable value: [lowest sum, highest sum]. */
function extremes(af: AffineFacts, rf: RangeFacts, terms: Form['terms'], conds: readonly Constraint[]): { lo: number; hi: number } {
  let lo = 0;
  let hi = 0;
  for (const t of terms) {
    const r = symbolRange(af, rf, t.sym, conds);
    lo += t.coef > 0 ? t.coef * r.lo : t.coef * r.hi;
    hi += t.coef > 0 ? t.coef * r.hi : t.coef * r.lo;
  }
  return { lo: Number.isNaN(lo) ? -Infinity : lo, hi: Number.isNaN(hi) ? Infinity : hi };
}

/** Substitutes fixed values for some symbols of a form. */
function substitute(f: Form, values: ReadonlyMap<number, number>): Form {
  let c = f.c;
  const terms = f.terms.filter((t) => {
    const v = values.get(t.sym);
    if (v === undefined) return true;
    c += t.coef * v;
    return false;
  });
  return { c, terms, mayWrap: f.mayWrap };
}

const tidText = (t: readonly [number, number, number]): string => `(${t[0]}, ${t[1]}, ${t[2]})`;
const MAX_THREADS = 1024;
/** Combinations of coupled counter values × threads evaluated per access at most. */
const BUDGET = 1 << 21;

export const F054: Check = {
  meta: {
    id: 'F054',
    name: 'shared-dynamic-oob',
    category: 'memory',
    severity: 'critical',
    points: 3,
    description: 'A thread-indexed `.shared` access can fall outside its variable for thread ids within the known block size.',
    rationale: 'Shared memory is not bounds-checked: an index past the end of a tile reads or overwrites the neighbouring variable (or faults past the allocation), silently corrupting other warps\' data.',
    remedy: 'Size the shared array for the block (`__shared__ float s[BLOCK]` with the block the kernel is launched with), guard the access (`if (tid < N)`), or declare the block size with `__launch_bounds__`/`.reqntid` so that the index is provably in range.',
    notes: 'Precise rule: for every `ld`/`st`/`atom`/`red` whose state space is `.shared` (named, or a generic address whose provenance is shared only) '
      + 'and whose affine address is &V + offset for a non-extern `.shared` variable V of known size, where the offset depends on %tid or %laneid. '
      + 'The offset splits into a thread part (terms in %tid.x/y/z, %laneid and shifts of those) and the rest. The thread part is evaluated '
      + 'exactly for every thread of the block (`.reqntid`, else `.maxntid` taken per dimension, else `--block`) that satisfies the conditions '
      + 'under which the access runs: its guard and the branch edges into the single-predecessor blocks on its dominator chain, where the '
      + 'predicate is a `setp` of two affine values. A condition coupling the thread with a bounded counter (`tid < stride` in a tree '
      + 'reduction) is evaluated for each value of the counter in its range, from the highest down; one on an unbounded value (`tid < n`) '
      + 'cannot restrict the threads and is dropped. The rest of the offset is taken at its most favorable value (its lowest for the upper '
      + 'bound, its highest for the lower one) from the ranges analysis, narrowed by single-symbol conditions (loop counters by their exit '
      + 'test). The access fails '
      + 'when some thread reaches past size − access bytes, or below 0, even then; the finding names that thread. So an out-of-range index '
      + 'caused by a loop counter, a parameter or a loaded value is not reported (only the thread ids\' part is), and kernels with no known '
      + 'block size are not judged (n/a when none is). Extern (dynamic) shared memory has no size here and is not judged.'
      + assumptionsAndSilencing('F054', 'the block size comes from `.reqntid`/`.maxntid` (`__launch_bounds__`) or `--block`; without one the kernel is not judged (1024 is never assumed).'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .f32 s[128];\n.entry k()\n.reqntid 256, 1, 1\n{\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<2>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n\tadd.s32 %r4, %r3, %r2;\n\tld.shared.f32 %f1, [%r4];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .f32 s[256];\n.entry k()\n.reqntid 256, 1, 1\n{\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<2>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, s;\n\tadd.s32 %r4, %r3, %r2;\n\tld.shared.f32 %f1, [%r4];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let indexed = 0;
    let judged = 0;
    for (const fn of ctx.functions) {
      const accesses = memoryAccesses(ctx.analysis, fn).filter((a) => a.space === 'shared' && a.form !== undefined && a.bytes !== undefined);
      if (accesses.length === 0) continue;
      const af = ctx.analysis.get(fn, affineAnalysis);
      const block = ctx.analysis.blockSize(fn);
      const threads = block === undefined ? undefined : new Threads(af, block);
      const memo = new Map<number, Constraint[]>();
      for (const a of accesses) {
        const { base, offset } = af.baseOf(a.form!);
        const v = base?.variable;
        if (base === undefined || v === undefined || v.space !== '.shared' || v.size === undefined || v.decl.linkage.includes('.extern')) continue;
        if (!offset.terms.some((t) => af.symbols[t.sym]!.threadDependent)) continue;
        indexed++;
        if (block === undefined || threads === undefined || threads.count > MAX_THREADS) continue;
        const threadTerms = offset.terms.filter((t) => threads.isThread(af.symbols[t.sym]!));
        if (threadTerms.length === 0) continue;
        const part = threads.all({ c: 0, terms: threadTerms, mayWrap: false });
        let partLo = Infinity;
        let partHi = -Infinity;
        for (let t = 0; t < part.length; t++) {
          partLo = Math.min(partLo, part[t]!);
          partHi = Math.max(partHi, part[t]!);
        }
        const rest: Form = { c: offset.c, terms: offset.terms.filter((t) => !threads.isThread(af.symbols[t.sym]!)), mayWrap: false };
        const conds = constraintsAt(ctx.analysis, fn, af, a.index, memo);
        const isThread = (sym: number): boolean => threads.isThread(af.symbols[sym]!);
        const rf = ctx.analysis.get(fn, rangeAnalysis);
        const bounded = (sym: number): boolean => {
          const r = symbolRange(af, rf, sym, conds);
          return Number.isFinite(r.lo) && Number.isFinite(r.hi);
        };
        // Conditions on thread ids alone filter the threads; conditions that couple thread ids with
        // bounded symbols (`tid < stride`) are evaluated for each value of those symbols; conditions
        // on unbounded ones (`tid < n`) cannot restrict the threads and are dropped.
        const coupled = new Set<number>();
        const usable: Constraint[] = [];
        for (const c of conds) {
          if (c.d.terms.every((t) => isThread(t.sym))) usable.push(c);
          else if (c.d.terms.some((t) => isThread(t.sym)) && c.d.terms.every((t) => isThread(t.sym) || bounded(t.sym))) {
            usable.push(c);
            for (const t of c.d.terms) if (!isThread(t.sym)) coupled.add(t.sym);
          }
        }
        const coupledList = [...coupled];
        const ranges = coupledList.map((sym) => symbolRange(af, rf, sym, conds));
        let combos = 1;
        for (const r of ranges) combos *= Number.isFinite(r.lo) && Number.isFinite(r.hi) ? r.hi - r.lo + 1 : Infinity;
        if (!(combos * block[0] * block[1] * block[2] <= BUDGET)) continue;
        judged++;
        const free = extremes(af, rf, rest.terms.filter((t) => !coupled.has(t.sym)), conds);
        const bytes = a.bytes!;
        const size = v.size;
        let what: string | undefined;
        const values = new Map<number, number>();
        const conditions: ThreadCondition[] = usable.map((c) => ({
          threads: threads.all({ c: 0, terms: c.d.terms.filter((t) => isThread(t.sym)), mayWrap: false }),
          rest: { c: c.d.c, terms: c.d.terms.filter((t) => !isThread(t.sym)), mayWrap: c.d.mayWrap },
          cmp: c.cmp,
        }));
        const visit = (k: number): void => {
          if (what !== undefined) return;
          if (k < coupledList.length) {
            for (let v = ranges[k]!.hi; v >= ranges[k]!.lo && what === undefined; v--) {
              values.set(coupledList[k]!, v);
              visit(k + 1);
            }
            return;
          }
          // (Every counter a condition names is coupled: substituted, it leaves a constant.)
          const shifts = conditions.map((c) => substitute(c.rest, values).c);
          const fixed = substitute({ c: rest.c, terms: rest.terms.filter((t) => coupled.has(t.sym)), mayWrap: false }, values).c;
          // (Spelled only for a finding: this runs for every combination of the counters' values.)
          const at = (): string => (coupledList.length > 0 ? ` with ${coupledList.map((sym) => `${af.symbols[sym]!.name} = ${values.get(sym)!}`).join(', ')}` : '');
          if (Number.isFinite(free.lo)) {
            const base = fixed + free.lo;
            const hi = partHi + base + bytes <= size ? undefined : outside(threads, part, conditions, shifts, 0, size - bytes - base, true);
            if (hi !== undefined) {
              const span = (x: number): string => `bytes ${x + base}..${x + base + bytes - 1}`;
              what = `thread ${tidText(hi.first)} reaches ${span(hi.firstValue)}${at()}`
                + (hi.count > 1 ? ` (${hi.count} threads in all; thread ${tidText(hi.worstAt)} reaches ${span(hi.worst)})` : '');
              return;
            }
          }
          if (Number.isFinite(free.hi)) {
            const base = fixed + free.hi;
            const lo = partLo + base >= 0 ? undefined : outside(threads, part, conditions, shifts, -base, 0, false);
            if (lo !== undefined) what = `thread ${tidText(lo.first)} reaches byte ${lo.firstValue + base}${at()}${lo.count > 1 ? ` (${lo.count} threads in all)` : ''}`;
          }
        };
        visit(0);
        if (what === undefined) continue;
        out.push({
          message: `${opText(a.ins)} at ${af.format(a.form!)} can fall outside ${v.name} (${v.size} bytes): ${what} `
            + `within the block ${block[0]}×${block[1]}×${block[2]}${rest.terms.some((t) => !coupled.has(t.sym)) ? ', with the rest of the offset at its most favorable value' : ''}`,
          location: ctx.locate(a.ins.node.range, fn, a.index),
          function: fn.name,
        });
      }
    }
    if (indexed === 0) return na('no thread-indexed access to a sized .shared variable');
    if (judged === 0) return na('no thread-indexed shared access could be bounded (no block size known: give .reqntid, .maxntid or --block)');
    return found(out);
  },
};
