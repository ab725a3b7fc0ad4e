// Warp collectives that some lanes of the warp skip, for F042 (a lane named
// in a full mask skips the collective) and F050 (a shuffle after lanes have
// exited). Computed once per function.
import type { AnalysisContext, FunctionAnalysis } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { WARP } from '../cfg/dataflow/uniformity.js';
import { collectiveOf, FULL_MASK, syncFactsAnalysis, type CollectiveInfo } from './sync-facts.js';

export interface SkippedCollective {
  readonly collective: CollectiveInfo;
  /** The lane-varying branch block, or -1 for the collective's own guard. */
  readonly branch: number;
  /** The bypassing lanes exit (they do not rejoin). */
  readonly exits: boolean;
}

export interface WarpDivergence {
  /** F042: full-mask collectives some named lanes skip. */
  readonly skipped: readonly SkippedCollective[];
  /** F050: shuffles (not F042's) after lanes may have exited. */
  readonly afterExit: readonly SkippedCollective[];
}

function compute(ctx: AnalysisContext, fn: FunctionModel): WarpDivergence {
  const facts = ctx.get(fn, syncFactsAnalysis);
  const skipped: SkippedCollective[] = [];
  const afterExit: SkippedCollective[] = [];
  if (facts.collectives.length === 0) return { skipped, afterExit };
  const cfg = facts.cfg;
  const ins = fn.instructions;
  const matches = (c: CollectiveInfo) => (i: number): boolean => {
    const o = collectiveOf(ins[i]!);
    return o !== undefined && o.family === c.family && c.maskValue !== undefined && maskOf(o) === c.maskValue;
  };
  /** A path from a successor of B to P (or to an exit-only block) through no block holding a matching collective. */
  const bypass = (B: number, P: number, match: (i: number) => boolean): boolean => {
    const seen = new Set<number>();
    const stack = [...cfg.blocks[B]!.succs];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x === P || facts.exitOnly(x)) return true;
      if (seen.has(x)) continue;
      seen.add(x);
      const blk = cfg.blocks[x]!;
      let has = false;
      for (let i = blk.start; i < blk.end && !has; i++) has = match(i);
      if (!has) stack.push(...blk.succs);
    }
    return false;
  };
  /** up/down/bfly read another lane; idx reads the lane its operand names: a broadcast from a
   *  warp-uniform lane (a leader the code chose, e.g. from a ballot) is taken to be live. */
  const readsNeighbour = (i: number): boolean => {
    const node = ins[i]!.node;
    if (!node.modifiers.includes('.idx')) return true;
    const lane = node.operands[2];
    return lane !== undefined && (facts.uniformity().operandVariance(i, lane) & WARP) !== 0;
  };
  /** The mask as a constant: an immediate, or a register holding one (nvcc: `mov.b32 %r, -1`). */
  const maskOf = (c: CollectiveInfo): number | undefined => {
    if (c.maskValue !== undefined || c.mask === undefined) return c.maskValue;
    const f = facts.affine().operand(c.index, c.mask);
    return f !== undefined && f.terms.length === 0 ? f.c >>> 0 : undefined;
  };
  for (const c0 of facts.collectives) {
    const mask = maskOf(c0);
    const c: CollectiveInfo = mask === undefined ? c0 : { ...c0, maskValue: mask };
    const i = c.index;
    const full = c.maskValue === FULL_MASK;
    if (facts.guardSplitsWarp(i)) {
      if (full) skipped.push({ collective: c, branch: -1, exits: false });
      continue;
    }
    const bx = cfg.blockOf[i]!;
    for (const B of facts.controlDeps(bx)) {
      if (!facts.branchSplitsWarp(B)) continue;
      const P = facts.ipdom(B);
      const exits = facts.exitOnly(P);
      if (full) {
        // Exited lanes are excluded from votes, match, redux and bar.warp.sync (an H200 ballots 0xffff after
        // lanes 16-31 returned); a shuffle reading them gets undefined values.
        if (exits && c.family !== 'shfl') continue;
        if (!bypass(B, P, matches(c))) continue;
        skipped.push({ collective: c, branch: B, exits });
        break;
      }
      if (c.family === 'shfl' && exits && readsNeighbour(i)) {
        afterExit.push({ collective: c, branch: B, exits });
        break;
      }
    }
  }
  return { skipped, afterExit };
}

/** `ctx.analysis.get(fn, warpDivergenceAnalysis)`. */
export const warpDivergenceAnalysis: FunctionAnalysis<WarpDivergence> = { name: 'checks/warp-divergence', compute };
