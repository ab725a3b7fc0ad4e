// Which barriers some threads bypass, for F038 (barrier divergence and early
// exits before an exchange), F041 (barriers in loops threads leave at
// different times) and F049 (full-CTA barriers in one warp role), computed
// once per function so that the more specific check can claim a barrier first
// (F038 before F041 and F049).
//
// Terms:
// - a branch B "decides" a barrier X when X's block is (transitively)
//   control-dependent on B; B is varying at the barrier's level: the CTA for a
//   CTA-wide barrier (no thread count, or the block size), the warp for one
//   with another count;
// - the bypassing threads "rejoin" when B's immediate post-dominator P is a
//   block with work in it; when P is the virtual exit or a block that only
//   returns, the two sides never meet again (an exit-only bypass: exited
//   threads are not waited for);
// - a bypass path: a path from B to P that passes no barrier of the same kind
//   (if/else arms that both synchronize are fine).
import type { AnalysisContext, FunctionAnalysis } from '../cfg/context.js';
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { effects } from '../cfg/dataflow/effects.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { CTA, WARP } from '../cfg/dataflow/uniformity.js';
import { sharedRacesAnalysis, type SharedAccess } from './shared-races.js';
import { syncFactsAnalysis, type BarrierInfo, type SyncFacts, type ThreadBox } from './sync-facts.js';

/** F038 (a): a barrier that live threads skip. */
export interface DivergentBarrier {
  readonly barrier: BarrierInfo;
  /** The deciding branch block, or -1 when the barrier's own guard varies. */
  readonly branch: number;
  /** Where the bypassing threads rejoin (a block), or -1 for a guard. */
  readonly rejoin: number;
  readonly level: number;
}

/** F038 (b): threads exit before a barrier-protected exchange whose stores they skip. */
export interface EarlyExit {
  /** The branch block whose one side exits. */
  readonly branch: number;
  readonly exitSucc: number;
  readonly barrier: number;
  readonly store: SharedAccess;
  readonly load: SharedAccess;
  readonly exitBox: ThreadBox | undefined;
}

/** F041: a CTA-wide barrier in a loop whose exit is thread-varying and leads to more work. */
export interface LoopBarrier {
  readonly barrier: BarrierInfo;
  /** Index in `ctx.loops(fn).loops`. */
  readonly loop: number;
  /** The exit edge [from, to] taken by some threads only. */
  readonly exit: readonly [number, number];
}

/** F049: a full-CTA barrier in a branch some warps take while the others stay busy in another role. */
export interface RoleBarrier {
  readonly barrier: BarrierInfo;
  readonly branch: number;
  /** An instruction showing the other warps stay live (a loop's branch or a synchronizing instruction). */
  readonly busy: number;
}

export interface BarrierDivergence {
  readonly divergent: readonly DivergentBarrier[];
  readonly earlyExits: readonly EarlyExit[];
  readonly loops: readonly LoopBarrier[];
  readonly roles: readonly RoleBarrier[];
}

/** The register a guard or branch predicate names, at instruction `i`. */
export function guardRegister(fn: FunctionModel, i: number): RegisterSymbol | undefined {
  const g = fn.instructions[i]!.node.guard;
  if (g === undefined) return undefined;
  const s = fn.resolveGuard(g);
  return s?.kind === 'register' ? s : undefined;
}

/** Max store × load pairs F038 (b) tests per exit branch. */
const MAX_EXCHANGE_PAIRS = 4000;

function compute(ctx: AnalysisContext, fn: FunctionModel): BarrierDivergence {
  const facts: SyncFacts = ctx.get(fn, syncFactsAnalysis);
  const cfg = facts.cfg;
  const divergent: DivergentBarrier[] = [];
  const earlyExits: EarlyExit[] = [];
  const loopsOut: LoopBarrier[] = [];
  const roles: RoleBarrier[] = [];
  const syncs = facts.barriers.filter((b) => b.op === 'barrier');
  if (syncs.length === 0) return { divergent, earlyExits, loops: loopsOut, roles };
  const u = facts.uniformity();
  const forest = ctx.loops(fn);
  const rd = ctx.get(fn, reachingDefinitionsAnalysis);

  const blockHas = (b: number, pred: (i: number) => boolean): boolean => {
    const blk = cfg.blocks[b]!;
    for (let i = blk.start; i < blk.end; i++) if (pred(i)) return true;
    return false;
  };
  const ctaBarrierAt = (i: number): boolean => facts.ops[i] === 'barrier' && facts.barriers.some((x) => x.index === i && x.ctaWide);
  const barrierInfoAt = new Map(facts.barriers.map((b) => [b.index, b] as const));
  /** Instruction i counts as an arrival at `bar`: a barrier or arrive with the same id (or an unknown one). */
  const arrivesAt = (bar: BarrierInfo) => (i: number): boolean => {
    const b = barrierInfoAt.get(i);
    return b !== undefined && (b.idValue === undefined || bar.idValue === undefined || b.idValue === bar.idValue);
  };
  /** A path from a successor of B to P passing no block that synchronizes like `sync`. */
  const bypass = (B: number, P: number, sync: (i: number) => boolean): boolean => {
    const seen = new Set<number>();
    const stack = [...cfg.blocks[B]!.succs];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x === P) return true;
      if (x === cfg.exit || seen.has(x)) continue;
      seen.add(x);
      if (blockHas(x, sync)) continue;
      stack.push(...cfg.blocks[x]!.succs);
    }
    return false;
  };
  const decidesLoopExit = (B: number, bx: number): boolean =>
    facts.loopsOf(bx).some((l) => forest.loops[l]!.blocks.includes(B) ? facts.exitsLoop(B, l) : zeroTripGuard(B, l));
  /** The registers the `setp` deciding a branch compares. */
  const setpRegisters = (B: number): Set<number> => {
    const out = new Set<number>();
    const blk = cfg.blocks[B]!;
    const g = blk.end > blk.start ? guardRegister(fn, blk.end - 1) : undefined;
    if (g === undefined) return out;
    for (const d of rd.reaching(blk.end - 1, g)) {
      if (d < 0 || fn.instructions[d]!.node.opcode !== 'setp') continue;
      for (const r of effects(fn, fn.instructions[d]!).uses) out.add(r.id);
    }
    return out;
  };
  /** A branch before loop l that skips it when its trip count is zero (a rotated loop's entry test): it
   *  dominates the header, its bypass meets the loop's exits, and it compares a register the loop's own exit
   *  test compares (`n < 1` before `i < n`). F041 judges it with the loop. */
  const zeroTripGuard = (B: number, l: number): boolean => {
    const loop = forest.loops[l]!;
    if (!ctx.dominators(fn).dominates(B, loop.header)) return false;
    const P = facts.ipdom(B);
    if (!loop.exits.every(([, to]) => to === cfg.exit || facts.reaches(to, P))) return false;
    const mine = setpRegisters(B);
    if (mine.size > 0 && loop.exits.some(([from]) => [...setpRegisters(from)].some((r) => mine.has(r)))) return true;
    // nvcc's unrolled loops test other registers; a guard in front of a loop that itself exits on a
    // varying condition is part of that loop's trip count.
    return loopExitEdge(l) !== undefined;
  };
  /** An exit edge of loop l taken on a CTA-varying decision, to a block with work in it (F041's condition). */
  const loopExitMemo = new Map<number, readonly [number, number] | null>();
  const loopExitEdge = (l: number): readonly [number, number] | undefined => {
    const hit = loopExitMemo.get(l);
    if (hit !== undefined) return hit ?? undefined;
    const loop = forest.loops[l]!;
    const inLoop = new Set(loop.blocks);
    const varying = (b: number): boolean => facts.branchSplitsCta(b) || facts.controlDeps(b).some((c) => inLoop.has(c) && facts.branchSplitsCta(c));
    const edge = loop.exits.find(([from, to]) => to !== cfg.exit && !facts.exitOnly(to) && varying(from));
    loopExitMemo.set(l, edge ?? null);
    return edge;
  };

  // ---------------------------------------------------------------- (a) and F049
  for (const bar of syncs) {
    const level = bar.ctaWide ? CTA : WARP;
    const bx = cfg.blockOf[bar.index]!;
    const g = guardRegister(fn, bar.index);
    const guardVaries = g !== undefined && (level === WARP ? facts.guardSplitsWarp(bar.index) : facts.guardSplitsCta(bar.index));
    if (guardVaries) {
      divergent.push({ barrier: bar, branch: -1, rejoin: -1, level });
      continue;
    }
    const sameKind = arrivesAt(bar);
    let claimed = false;
    for (const B of facts.controlDeps(bx)) {
      const f = u.branchOf(B);
      if (f === undefined || !(level === WARP ? facts.branchSplitsWarp(B) : facts.branchSplitsCta(B))) continue;
      if (decidesLoopExit(B, bx)) continue;
      const P = facts.ipdom(B);
      if (!bypass(B, P, sameKind)) continue;
      if (!facts.exitOnly(P)) {
        divergent.push({ barrier: bar, branch: B, rejoin: P, level });
        claimed = true;
        break;
      }
    }
    if (claimed || !bar.ctaWide) continue;
    // F049: a warp-uniform (CTA-varying) branch whose other side keeps its warps busy.
    for (const B of facts.controlDeps(bx)) {
      const f = u.branchOf(B);
      if (f === undefined || !facts.branchSplitsCta(B) || facts.branchSplitsWarp(B)) continue;
      if (decidesLoopExit(B, bx)) continue;
      for (const S of cfg.blocks[B]!.succs) {
        if (S === cfg.exit || facts.reaches(S, bx)) continue;
        const busy = busyInstruction(S, bx, arrivesAt(bar));
        if (busy !== undefined) {
          roles.push({ barrier: bar, branch: B, busy });
          claimed = true;
          break;
        }
      }
      if (claimed) break;
    }
  }

  /** In the region reachable from S (not through the barrier's block), an instruction showing live warps:
   *  a synchronizing one, or the branch of a back edge. */
  function busyInstruction(S: number, bx: number, arrives: (i: number) => boolean): number | undefined {
    const seen = new Set<number>();
    const stack = [S];
    let busy: number | undefined;
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x === cfg.exit || x === bx || seen.has(x)) continue;
      seen.add(x);
      const blk = cfg.blocks[x]!;
      for (let i = blk.start; i < blk.end; i++) {
        // The other warps arrive at this barrier (same id) on their side: not a role split.
        if (arrives(i)) return undefined;
        const op = facts.ops[i];
        if (op === 'barrier' || op === 'arrive' || op === 'mbarrier-wait' || op === 'async-wait' || op === 'bulk-wait') busy ??= i;
      }
      for (const s of blk.succs) {
        if (s !== cfg.exit && ctx.dominators(fn).dominates(s, x) && blk.end > blk.start) busy ??= blk.end - 1;
        stack.push(s);
      }
    }
    return busy;
  }

  // ---------------------------------------------------------------- F041
  const claimedA = new Set([...divergent.map((d) => d.barrier.index), ...roles.map((r) => r.barrier.index)]);
  for (const bar of syncs) {
    if (!bar.ctaWide || claimedA.has(bar.index)) continue;
    const bx = cfg.blockOf[bar.index]!;
    for (const li of facts.loopsOf(bx)) {
      const edge = loopExitEdge(li);
      if (edge !== undefined) {
        loopsOut.push({ barrier: bar, loop: li, exit: edge });
        break;
      }
    }
  }

  // ---------------------------------------------------------------- (b) early exits before an exchange
  const races = ctx.get(fn, sharedRacesAnalysis);
  const stores = races.accesses.filter((a) => a.kind === 'store' && !a.atomic);
  const loads = races.accesses.filter((a) => a.kind === 'load');
  if (stores.length > 0 && loads.length > 0) {
    const after = (i: number, j: number): boolean => {
      const bi = cfg.blockOf[i]!;
      const bj = cfg.blockOf[j]!;
      if (bi === bj && j > i) return true;
      return cfg.blocks[bi]!.succs.some((x) => x !== cfg.exit && facts.reaches(x, bj));
    };
    const reachesCtaBarrier = (S: number): number | undefined => {
      if (S === cfg.exit) return undefined;
      const seen = new Set<number>();
      const stack = [S];
      while (stack.length > 0) {
        const x = stack.pop()!;
        if (x === cfg.exit || seen.has(x)) continue;
        seen.add(x);
        const blk = cfg.blocks[x]!;
        for (let i = blk.start; i < blk.end; i++) if (ctaBarrierAt(i)) return i;
        stack.push(...blk.succs);
      }
      return undefined;
    };
    for (const f of u.branches) {
      const B = f.block;
      if (!facts.branchSplitsCta(B)) continue;
      if (!facts.exitOnly(facts.ipdom(B))) continue;
      const succs = cfg.blocks[B]!.succs;
      if (succs.length !== 2) continue;
      const bars = succs.map(reachesCtaBarrier);
      const k = bars.findIndex((x) => x !== undefined);
      if (k < 0 || bars[1 - k] !== undefined) continue;
      const S = succs[k]!;
      const exitSucc = succs[1 - k]!;
      const barrier = bars[k]!;
      const exitBox = facts.edgeBox(B, exitSucc);
      const inRegion = (a: SharedAccess): boolean => facts.reaches(S, cfg.blockOf[a.index]!);
      // Stores that can precede the barrier, loads that can follow it.
      const st = stores.filter((a) => inRegion(a) && after(a.index, barrier));
      const ld = loads.filter((a) => inRegion(a) && after(barrier, a.index));
      let tests = 0;
      let hit: EarlyExit | undefined;
      for (const s of st) {
        for (const l of ld) {
          if (s.region !== l.region) continue;
          if (++tests > MAX_EXCHANGE_PAIRS) break;
          const o = races.overlap(s, l, exitBox === undefined ? undefined : { a: exitBox });
          if (o.kind === 'cross-thread') {
            hit = { branch: B, exitSucc, barrier, store: s, load: l, exitBox };
            break;
          }
        }
        if (hit !== undefined || tests > MAX_EXCHANGE_PAIRS) break;
      }
      if (hit !== undefined) earlyExits.push(hit);
    }
  }
  return { divergent, earlyExits, loops: loopsOut, roles };
}

/** `ctx.analysis.get(fn, barrierDivergenceAnalysis)`. */
export const barrierDivergenceAnalysis: FunctionAnalysis<BarrierDivergence> = { name: 'checks/barrier-divergence', compute };
