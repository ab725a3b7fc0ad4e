// Shared-memory accesses and the race pairs among them, for F036 (read after
// write), F037 (write after read), F038 (exchanges across a barrier) and F043
// (which defers to F036/F037 for the same pair). Computed once per function.
//
// An access is an `ld`/`st`/`atom`/`red`/`ldmatrix`/`stmatrix`/`cp.async`
// (non-bulk) whose affine address is a `.shared` variable plus an offset
// (`.shared` or generic: a `cvta.shared` pointer keeps the variable's form).
// All `.extern .shared` arrays share one region (they alias). Accesses whose
// address has no shared-variable base are left out: nothing is claimed about
// them.
//
// A pair (earlier, later) races when a path runs from one to the other with no
// cut between them, and the two may touch common bytes from different threads:
// - cuts: `bar.sync`/`barrier.sync`/`bar.red`/`barrier.red` (any id and count:
//   the named barrier is assumed to include both threads), `bar.arrive` and
//   `mbarrier.arrive` (a producer–consumer protocol: the thread that waits on
//   the matching barrier is ordered after the arriving one; F040 checks the
//   pairing), `mbarrier.try_wait`/`test_wait`, `barrier.cluster.wait`;
//   `bar.warp.sync` orders only the lanes of one warp: a pair whose paths pass
//   warp syncs but no other cut races when two threads of different warps
//   collide and one of the two addresses is a per-warp slot (equal across the
//   lanes of a warp: `part[warp]`, `s[0]`), the shape of `__syncwarp` where
//   `__syncthreads` was meant; lane-indexed exchanges across a warp sync are
//   assumed to stay within the warp (or the tile of a `tiled_partition`,
//   whose `thread_rank()` guards the thread boxes do not model);
// - overlap: the thread-overlap test (thread-overlap.ts) on the two affine
//   address forms and widths, each access's threads bounded by the `%tid`
//   comparisons that guard it (so code only thread 0 runs cannot race with
//   itself), each access assumed in bounds of its variable. With no declared
//   block size, %tid.y/%tid.z are one thread wide unless a shared address uses
//   them, and an access every thread runs bounds the extents. An induction
//   variable is one value for both accesses unless its loop has a cycle with
//   no cut (threads may then be in different iterations) or the path wraps
//   around a back edge: then each access has its own value, within the range
//   the ranges analysis gives. A loaded value in an address differs per
//   thread within its range. Any other symbol that does not cancel between
//   the two forms needs a bounded range; otherwise the pair is unknown and not
//   reported (no guessing).
// - two atomics never race with each other.
import type { AnalysisContext, FunctionAnalysis } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { accessBytes, addScaled, formKey, PRODUCT, symForm, type AffineFacts, type AffineSymbol, type Form } from '../cfg/dataflow/affine.js';
import { rangeAnalysis, type RangeFacts } from '../cfg/dataflow/ranges.js';
import { constValue, cutFreeReach, syncFactsAnalysis, type SyncFacts, type ThreadBox } from './sync-facts.js';
import { threadOverlap, type OverlapContext, type OverlapSide, type ThreadOverlap } from './thread-overlap.js';
import { keepCompiled } from '../cfg/keep-compiled.js';

export interface SharedAccess {
  readonly index: number;
  readonly kind: 'load' | 'store';
  /** `atom`/`red`: races with plain accesses only. */
  readonly atomic: boolean;
  /** A `cp.async` destination (written asynchronously). */
  readonly async: boolean;
  readonly volatile: boolean;
  /** The address, with every `.extern .shared` variable rewritten to one of them. */
  readonly form: Form;
  readonly bytes: number;
  /** The shared variable (or `extern`) the address is based on. */
  readonly region: string;
  /** `ld.shared.f32`. */
  readonly mnemonic: string;
  /** The variable's symbol and size, when known: accesses are assumed in bounds. */
  readonly bound?: { readonly base: number; readonly size: number };
}

export interface RacePair {
  /** The second access on the path (where a barrier is missing before it). */
  readonly later: number;
  /** The first access. */
  readonly earlier: number;
  /** One colliding pair of threads: the (x, y, z) indices of the earlier access's thread and the later one's. */
  readonly first: readonly number[];
  readonly second: readonly number[];
  /** Every unordered path passes a `bar.warp.sync`, and the two threads are in different warps. */
  readonly acrossWarps?: boolean;
}

export interface SharedRaces {
  readonly accesses: readonly SharedAccess[];
  readonly accessAt: ReadonlyMap<number, SharedAccess>;
  /** Read-after-write: earlier is a store, later a load. One pair per later access. */
  readonly raw: readonly RacePair[];
  /** Write-after-read: earlier is a load, later a store. One pair per later access. */
  readonly war: readonly RacePair[];
  /** Pair tests were cut short on a huge function. */
  readonly truncated: boolean;
  /** Whether a cut orders the two accesses on every path (instruction `i` is a cut). */
  isCut(i: number): boolean;
  /** `isCut` for threads of different warps (a `bar.warp.sync` is no cut for them). */
  isCtaCut(i: number): boolean;
  /** Whether two accesses may touch common bytes from different threads, with
   *  optional thread boxes replacing each one's own. */
  overlap(a: SharedAccess, b: SharedAccess, boxes?: { a?: ThreadBox; b?: ThreadBox }, independentLoops?: ReadonlySet<number>, crossWarp?: boolean): ThreadOverlap;
}

/** Pair tests per function before giving up (each is cheap, but pairs grow quadratically). */
export const MAX_PAIR_TESTS = 20000;

const LOADS = new Set(['ld', 'ldu', 'atom']);
const CUT_OPS = new Set(['barrier', 'arrive', 'warp-sync', 'mbarrier-wait', 'mbarrier-arrive', 'cluster-wait']);

function sharedSpace(mods: readonly string[]): 'shared' | 'cluster' | 'other' | 'generic' {
  for (const m of mods) {
    if (m === '.shared' || m === '.shared::cta') return 'shared';
    if (m === '.shared::cluster') return 'cluster';
    if (m === '.global' || m === '.local' || m === '.const' || m === '.param' || m.startsWith('.param::')) return 'other';
  }
  return 'generic';
}

function collectAccesses(fn: FunctionModel, af: AffineFacts): SharedAccess[] {
  const out: SharedAccess[] = [];
  let externSym: number | undefined;
  for (const ins of fn.instructions) {
    const node = ins.node;
    const op = node.opcode;
    let kind: 'load' | 'store' | undefined;
    let atomic = false;
    let isAsync = false;
    let bytes: number | undefined;
    const m = node.modifiers;
    if (op === 'ld' || op === 'ldu') {
      kind = 'load';
      bytes = accessBytes(node);
    } else if (op === 'st') {
      if (m.includes('.async') || m.includes('.bulk')) continue;
      kind = 'store';
      bytes = accessBytes(node);
    } else if (op === 'atom' || op === 'red') {
      kind = 'store';
      atomic = true;
      bytes = accessBytes(node);
    } else if (op === 'ldmatrix' || op === 'stmatrix') {
      kind = op === 'ldmatrix' ? 'load' : 'store';
      bytes = 16;
    } else if (op === 'cp' && m.includes('.async') && !m.includes('.bulk') && m.includes('.shared') && node.operands.length >= 3) {
      kind = 'store';
      isAsync = true;
      bytes = constValue(node.operands[2]);
    }
    if (kind === undefined || bytes === undefined) continue;
    const space = isAsync ? 'shared' : sharedSpace(m);
    if (space === 'cluster' || space === 'other') continue;
    let form = af.addressOf(ins.index);
    if (form === undefined) continue;
    const { base } = af.baseOf(form);
    if (base === undefined || (base.variable.space !== '.shared')) continue;
    let region = base.variable.name;
    if (base.variable.decl.linkage.includes('.extern')) {
      region = 'extern';
      if (externSym === undefined) externSym = base.id;
      else if (externSym !== base.id) {
        const moved = addScaled(addScaled(form, symForm(base.id), -1) ?? form, symForm(externSym), 1);
        if (moved === undefined) continue;
        form = moved;
      }
    }
    const size = region === 'extern' ? undefined : base.variable.size;
    out.push({
      index: ins.index, kind, atomic, async: isAsync, volatile: m.includes('.volatile'), form, bytes, region,
      mnemonic: `${op}${m.join('')}`,
      ...(size !== undefined ? { bound: { base: base.id, size } } : {}),
    });
  }
  return out;
}

/** Small integers for structurally equal values, so a memo key is a few digits, not the forms' text. */
class Interner<T extends object> {
  private readonly ids = new WeakMap<T, number>();
  private readonly byText = new Map<string, number>();
  constructor(private readonly text: (x: T) => string) {}
  id(x: T): number {
    let id = this.ids.get(x);
    if (id === undefined) {
      const t = this.text(x);
      id = this.byText.get(t);
      if (id === undefined) this.byText.set(t, id = this.byText.size);
      this.ids.set(x, id);
    }
    return id;
  }
}
const boxText = (b: ThreadBox): string => `${b.x.join('..')}/${b.y.join('..')}/${b.z.join('..')}`;

type RankTerms = readonly { readonly dim: number; readonly coef: number }[];

/** The overlap test's view of a function's facts (`OverlapContext`): made once per function, not per pair. */
class RaceOverlapContext implements OverlapContext {
  /** The loops whose counters take a value of their own for each access of the pair being tested. */
  loops: ReadonlySet<number> | undefined;

  constructor(private readonly fn: FunctionModel, private readonly facts: SyncFacts, readonly symbols: readonly AffineSymbol[],
    readonly extents: readonly [number, number, number], private readonly ranges: RangeFacts,
    private readonly drifting: () => ReadonlySet<number>, private readonly rankTerms: RankTerms | undefined) {}

  range(s: AffineSymbol): { readonly lo: number; readonly hi: number } | undefined {
    return this.ranges.symbolRange(s);
  }

  independent(s: AffineSymbol): boolean {
    if (s.kind !== 'iv') return false;
    return this.drifting().has(s.loop) || (this.loops?.has(s.loop) ?? false);
  }

  dataDependent(s: AffineSymbol): boolean {
    return s.kind === 'def' && LOADS.has(this.fn.instructions[s.instruction]!.node.opcode);
  }

  threadTerms(s: AffineSymbol): RankTerms | undefined {
    const rank = this.rankTerms;
    if (s.kind !== 'def' || rank === undefined || !this.facts.linearRank(s.instruction)) return undefined;
    return s.element === 0 ? rank : s.element === PRODUCT ? rank.slice(1) : undefined;
  }
}

/** An access as one side of the overlap test, with the threads that make it. */
function sideOf(x: SharedAccess, box: ThreadBox): OverlapSide {
  return x.bound !== undefined ? { form: x.form, bytes: x.bytes, box, bound: x.bound } : { form: x.form, bytes: x.bytes, box };
}

function computeRaces(ctx: AnalysisContext, fn: FunctionModel): SharedRaces {
  const facts: SyncFacts = ctx.get(fn, syncFactsAnalysis);
  const cfg = facts.cfg;
  const isCut = (i: number): boolean => {
    const op = facts.ops[i];
    return op !== undefined && CUT_OPS.has(op);
  };
  const isCtaCut = (i: number): boolean => {
    const op = facts.ops[i];
    return op !== undefined && op !== 'warp-sync' && CUT_OPS.has(op);
  };
  const hasStores = fn.instructions.some((i) => i.node.opcode === 'st' || i.node.opcode === 'atom' || i.node.opcode === 'red'
    || i.node.opcode === 'stmatrix' || (i.node.opcode === 'cp' && i.node.modifiers.includes('.async')));
  const accesses = hasStores ? collectAccesses(fn, facts.affine()) : [];
  const accessAt = new Map(accesses.map((a) => [a.index, a] as const));

  // Loops whose iterations threads may run out of step (a cycle through the header with no cut).
  const forest = ctx.loops(fn);
  let driftMemo: Set<number> | undefined;
  const drifting = (): Set<number> => {
    if (driftMemo !== undefined) return driftMemo;
    driftMemo = new Set();
    forest.loops.forEach((loop, li) => {
      const inLoop = new Set(loop.blocks);
      const clean = (b: number): boolean => {
        const blk = cfg.blocks[b]!;
        for (let i = blk.start; i < blk.end; i++) if (isCut(i)) return false;
        return true;
      };
      if (!clean(loop.header)) return;
      const seen = new Set<number>();
      const stack = [...cfg.blocks[loop.header]!.succs];
      while (stack.length > 0) {
        const b = stack.pop()!;
        if (b === loop.header) { driftMemo!.add(li); return; }
        if (seen.has(b) || !inLoop.has(b) || !clean(b)) continue;
        seen.add(b);
        stack.push(...cfg.blocks[b]!.succs);
      }
    });
    return driftMemo;
  };

  // With no known block size, %tid.y / %tid.z count as one thread wide unless some shared
  // address uses them (a kernel whose shared layout ignores y is written for 1-D blocks).
  const size = ctx.blockSize(fn);
  let extents: readonly [number, number, number] = size ?? [1024, 1024, 64];
  if (size === undefined) {
    const wide = new Set<string>();
    const af = accesses.length > 0 ? facts.affine() : undefined;
    for (const a of accesses) for (const t of a.form.terms) {
      const s = af!.symbols[t.sym]!;
      const inner = s.kind === 'shr' && s.of.terms.length === 1 ? af!.symbols[s.of.terms[0]!.sym]! : s;
      if (inner.kind === 'sreg' && inner.sreg === '%tid') wide.add(inner.component ?? 'x');
    }
    extents = [1024, wide.has('y') ? 1024 : 1, wide.has('z') ? 64 : 1];
  }
  // Accesses every thread runs (no guard, no control dependence) are in bounds for every thread:
  // the first x index that would put one out of its variable bounds the block's x extent.
  if (size === undefined && accesses.length > 0) {
    const af = facts.affine();
    let limit = extents[0];
    let considered = 0;
    for (const a of accesses) {
      if (a.bound === undefined || considered >= 256) continue;
      const node = fn.instructions[a.index]!.node;
      // Every thread that reaches the kernel runs it: no guard, and only CTA-uniform branches decide its block.
      if (node.guard !== undefined || facts.controlDeps(cfg.blockOf[a.index]!).some((b) => facts.branchSplitsCta(b))) continue;
      const terms: { coef: number; shift: number; lane: boolean }[] = [];
      let ok = true;
      for (const t of a.form.terms) {
        if (t.sym === a.bound.base && t.coef === 1) continue;
        const s = af.symbols[t.sym]!;
        if (s.kind === 'sreg' && s.sreg === '%tid' && (s.component ?? 'x') === 'x') terms.push({ coef: t.coef, shift: 0, lane: false });
        else if (s.kind === 'sreg' && s.sreg === '%laneid') terms.push({ coef: t.coef, shift: 0, lane: true });
        else if (s.kind === 'shr' && s.of.c === 0 && s.of.terms.length === 1 && s.of.terms[0]!.coef === 1) {
          const inner = af.symbols[s.of.terms[0]!.sym]!;
          if (inner.kind === 'sreg' && inner.sreg === '%tid' && (inner.component ?? 'x') === 'x') terms.push({ coef: t.coef, shift: s.shift, lane: false });
          else ok = false;
        } else ok = false;
      }
      if (!ok || terms.length === 0) continue;
      considered++;
      for (let x = 0; x < limit; x++) {
        let off = a.form.c;
        for (const t of terms) off += t.coef * (t.lane ? x & 31 : Math.floor(x / 2 ** t.shift));
        if (off < 0 || off > a.bound.size - a.bytes) {
          limit = x;
          break;
        }
      }
    }
    if (limit >= 1 && limit < extents[0]) extents = [limit, extents[1], extents[2]];
    // Linear in %tid.x/y/z with non-negative coefficients: each dimension at its largest, the others at 0,
    // must stay in bounds.
    const ext = [...extents];
    for (const a of accesses) {
      if (a.bound === undefined) continue;
      const node = fn.instructions[a.index]!.node;
      if (node.guard !== undefined || facts.controlDeps(cfg.blockOf[a.index]!).some((b) => facts.branchSplitsCta(b))) continue;
      const coef = [0, 0, 0];
      let ok = true;
      for (const t of a.form.terms) {
        if (t.sym === a.bound.base && t.coef === 1) continue;
        const s: AffineSymbol = af.symbols[t.sym]!;
        const d = s.kind === 'sreg' && s.sreg === '%tid' ? ['x', 'y', 'z'].indexOf(s.component ?? 'x') : -1;
        if (d < 0 || t.coef < 0) { ok = false; break; }
        coef[d] = t.coef;
      }
      if (!ok || a.form.c < 0) continue;
      for (let d = 0; d < 3; d++) {
        if (coef[d] === 0) continue;
        const most = Math.floor((a.bound.size - a.bytes - a.form.c) / coef[d]!) + 1;
        if (most >= 1 && most < ext[d]!) ext[d] = most;
      }
    }
    extents = [ext[0]!, ext[1]!, ext[2]!];
  }

  // The linear thread index (`thread_rank()`): x + X·y + X·Y·z with the block's extents; with no declared block
  // size, y and z are one thread wide (as above) and it is %tid.x. The affine facts keep its `mad` as an opaque
  // product (X·y + X·Y·z) plus %tid.x, or as one opaque value.
  const rankTerms = size !== undefined ? [{ dim: 0, coef: 1 }, { dim: 1, coef: size[0] }, { dim: 2, coef: size[0] * size[1] }]
    : extents[1] === 1 && extents[2] === 1 ? [{ dim: 0, coef: 1 }] : undefined;

  const memo = new Map<string, ThreadOverlap>();
  const forms = new Interner<Form>(formKey);
  const boxIds = new Interner<ThreadBox>(boxText);
  // One overlap context per function (made at the first pair tested), told each pair's loops.
  let oc: RaceOverlapContext | undefined;
  const overlap = (a: SharedAccess, b: SharedAccess, boxes?: { a?: ThreadBox; b?: ThreadBox }, independentLoops?: ReadonlySet<number>,
    crossWarp = false): ThreadOverlap => {
    const boxA = boxes?.a ?? facts.threadBox(a.index);
    const boxB = boxes?.b ?? facts.threadBox(b.index);
    const loopsKey = independentLoops === undefined || independentLoops.size === 0 ? '' : [...independentLoops].join(',');
    const key = `${forms.id(a.form)}:${a.bytes}|${forms.id(b.form)}:${b.bytes}|${boxIds.id(boxA)}|${boxIds.id(boxB)}|${loopsKey}${crossWarp ? '|w' : ''}`;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    oc ??= new RaceOverlapContext(fn, facts, facts.affine().symbols, extents, ctx.get(fn, rangeAnalysis), drifting, rankTerms);
    oc.loops = independentLoops;
    const result = threadOverlap(oc, sideOf(a, boxA), sideOf(b, boxB), crossWarp);
    if (memo.size < 100000) memo.set(key, result);
    return result;
  };

  const raw: RacePair[] = [];
  const war: RacePair[] = [];
  let truncated = false;
  if (accesses.length > 0) {
    const loads = accesses.filter((a) => a.kind === 'load');
    const stores = accesses.filter((a) => a.kind === 'store');
    let tests = 0;
    const loopsContaining = (i: number): readonly number[] => facts.loopsOf(cfg.blockOf[i]!);
    const perWarpSlot = (a: SharedAccess): boolean => facts.affine().laneStride(a.form)?.stride === 0;
    const findPairs = (sources: readonly SharedAccess[], targets: readonly SharedAccess[], out: RacePair[], crossWarp = false): void => {
      if (sources.length === 0 || targets.length === 0) return;
      const reported = new Set(out.map((p) => p.later));
      const reach = cutFreeReach(cfg, crossWarp ? isCtaCut : isCut, sources.map((s) => s.index), targets.map((t) => t.index));
      // Per later access, its earlier partners.
      const partners = new Map<number, number[]>();
      for (const [s, ts] of reach) for (const t of ts) {
        const list = partners.get(t);
        if (list === undefined) partners.set(t, [s]);
        else list.push(s);
      }
      for (const t of [...partners.keys()].sort((x, y) => x - y)) {
        if (reported.has(t)) continue;
        const later = accessAt.get(t)!;
        for (const s of partners.get(t)!.sort((x, y) => x - y)) {
          const earlier = accessAt.get(s)!;
          if (earlier.region !== later.region || (earlier.atomic && later.atomic)) continue;
          if (crossWarp && !perWarpSlot(earlier) && !perWarpSlot(later)) continue;
          if (tests++ >= MAX_PAIR_TESTS) { truncated = true; return; }
          // A path that wraps around a loop's back edge sees two iterations.
          let wrap: Set<number> | undefined;
          if (t <= s) {
            const inner = new Set(loopsContaining(t));
            wrap = new Set(loopsContaining(s).filter((l) => inner.has(l)));
          }
          const o = overlap(earlier, later, undefined, wrap, crossWarp);
          if (o.kind === 'cross-thread') {
            out.push({ later: t, earlier: s, first: o.first, second: o.second, ...(crossWarp ? { acrossWarps: true } : {}) });
            break;
          }
        }
      }
    };
    findPairs(stores, loads, raw);
    findPairs(loads, stores, war);
    if (facts.has('warp-sync')) {
      findPairs(stores, loads, raw, true);
      findPairs(loads, stores, war, true);
      raw.sort((x, y) => x.later - y.later);
      war.sort((x, y) => x.later - y.later);
    }
    keepCompiled('shared-races/pairs', findPairs, perWarpSlot, loopsContaining);
  }
  keepCompiled('shared-races', overlap, isCut, isCtaCut, drifting);
  return { accesses, accessAt, raw, war, truncated, isCut, isCtaCut, overlap };
}

/** `ctx.analysis.get(fn, sharedRacesAnalysis)`. */
export const sharedRacesAnalysis: FunctionAnalysis<SharedRaces> = { name: 'checks/shared-races', compute: computeRaces };

/** "threads (1, 0, 0) and (0, 0, 0)" → "threads with %tid.x = 1 and 0": the indices of a colliding pair, for messages. */
export function describeThreads(first: readonly number[], second: readonly number[]): string {
  const parts: string[] = [];
  ['x', 'y', 'z'].forEach((d, k) => {
    if (first[k] !== second[k] || first[k] !== 0) parts.push(`%tid.${d} = ${first[k]!} and ${second[k]!}`);
  });
  return parts.length === 0 ? 'two different threads' : `e.g. threads with ${parts.join(', ')}`;
}
