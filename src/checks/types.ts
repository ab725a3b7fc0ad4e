// The check contract: each check is one module with `meta` and `run(ctx)`.
// A check passes (no findings), fails (findings, each located), or is n/a
// (what it is about is absent, or a fact it needs is unknown) with a reason.
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type { Module, SourceRange } from '../parser/ast.js';

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export const SEVERITY_ORDER: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

export type Category =
  | 'module' | 'types' | 'address-spaces' | 'synchronization' | 'memory'
  | 'control-flow' | 'data-flow' | 'known-patterns' | 'performance' | 'instrumentation';

/** A check id: F001 .. F100. */
export type CheckId = `F${number}`;

export interface CheckMeta {
  readonly id: CheckId;
  readonly name: string;
  readonly category: Category;
  readonly severity: Severity;
  readonly points: number;
  /** One sentence: the hypothesis's failure condition, as the catalog states it (made precise). */
  readonly description: string;
  /** Why it matters. */
  readonly rationale: string;
  /** How to fix what it finds. */
  readonly remedy: string;
  /** The precise rule where the catalog's is loose, and where it departs from it and why. */
  readonly notes?: string;
  /** Minimal PTX that fails the check, and PTX that passes it (run by the tests). */
  readonly examples: { readonly fails: string; readonly passes: string };
}

/** A position in the analyzed file, and where `.loc` maps it in the source. */
export interface Location {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  /** The source position `.loc` maps it to (e.g. the `.cu` line). */
  readonly source?: { readonly file: string; readonly line: number; readonly column: number };
}

/** One step of a dataflow chain: `cvta.shared` at 12 → `add.u64` at 13 → `st.u32` at 15. */
export interface ChainStep {
  readonly location: Location;
  /** What happens at this step, e.g. "cvta.shared". */
  readonly what: string;
}

/** What running the kernel said about a finding (`analyze --confirm`). */
export interface Confirmation {
  readonly status: 'confirmed' | 'not-reproduced' | 'inconclusive' | 'not-run';
  /** racecheck, synccheck, memcheck, initcheck, or "plain run". */
  readonly tool?: string;
  readonly device?: string;
  /** The sanitizer line, or why nothing could be said. */
  readonly evidence: string;
}

export interface Finding {
  readonly id: CheckId;
  readonly severity: Severity;
  readonly message: string;
  readonly location: Location;
  /** The function the finding is in; absent for module-level findings. */
  readonly function?: string;
  readonly related?: readonly { readonly location: Location; readonly message: string }[];
  readonly chain?: readonly ChainStep[];
  /** Set by the runner when a config, an inline comment or a baseline suppresses the finding. */
  readonly suppressed?: { readonly by: 'config' | 'comment' | 'baseline'; readonly reason?: string };
  /** Stable identity across line shifts and unrelated edits (baselines, SARIF). */
  readonly fingerprint?: string;
  /** Set by `analyze --confirm`. */
  readonly confirmation?: Confirmation;
}

/** What a check sees: the module, its text, and the analyses. */
export interface CheckContext {
  readonly module: Module;
  readonly text: string;
  readonly analysis: AnalysisContext;
  /** The functions with bodies (the kernels, and device functions). */
  readonly functions: readonly FunctionModel[];
  /** Builds a Location from a source range, mapping it through `.loc` when it is an instruction's. */
  locate(range: SourceRange, fn?: FunctionModel, instructionIndex?: number): Location;
  /** What `ptxas -v` reported (`--ptxas`); absent when not requested. */
  readonly resources?: ResourceUsage;
}

/** One function's resources as `ptxas -v` prints them. */
export interface FunctionResources {
  readonly name: string;
  readonly kind: 'entry' | 'function';
  /** Registers per thread (entries only). */
  readonly registers?: number;
  readonly spillStores: number;
  readonly spillLoads: number;
  readonly stackFrame: number;
  /** Static shared memory in bytes (entries only). */
  readonly sharedBytes?: number;
  readonly barriers?: number;
  /** Constant bank 0 (parameters) in bytes. */
  readonly constBytes?: number;
}

/** The module's resource usage from `ptxas -v`, or why there is none. */
export type ResourceUsage =
  | { readonly status: 'ok'; readonly arch: string; readonly tool: string; readonly functions: Readonly<Record<string, FunctionResources>> }
  | { readonly status: 'unavailable'; readonly reason: string };

export type CheckResult =
  | { readonly status: 'ran'; readonly findings: readonly Omit<Finding, 'id' | 'severity'>[] }
  | { readonly status: 'na'; readonly reason: string };

export interface Check {
  readonly meta: CheckMeta;
  run(ctx: CheckContext): CheckResult;
  /** A module-level check, split so that a module checked part by part needs no whole tree (`SplitCheck`);
   *  its `run` is `runWhole(split, ctx)`. Checks without it look at one function at a time. */
  readonly split?: SplitCheck<unknown>;
}

/**
 * A check that relates functions to each other or judges module-level statements, split in two so that a
 * large module's parts can be checked apart (in worker threads that hold one part's tree each):
 * `part` on each part, `join` once on the summaries. On a module checked whole, `run` is
 * `join(ctx, [part(ctx)])`, so both ways give the same result by construction.
 */
export interface SplitCheck<S> {
  /**
   * A summary of one part: its functions are `ctx.functions`; the tree holds their bodies and their callees'
   * (transitively), and every module-level statement. It must look at no other body (in a part thread
   * there is none), and return plain data (it is copied between threads).
   */
  part(ctx: CheckContext): S;
  /**
   * The result from every part's summary, in module order, and the module-level statements: `ctx.module`
   * may hold no function body at all (`ctx.functions` may be empty), so it must look at none.
   */
  join(ctx: CheckContext, parts: readonly S[]): CheckResult;
}

/** A split check that judges module-level statements only: nothing to summarize per part. */
export function declarationsOnly(judge: (ctx: CheckContext) => CheckResult): SplitCheck<null> {
  return { part: () => null, join: (ctx) => judge(ctx) };
}

/** A split check's result on a module checked whole. */
export function runWhole<S>(split: SplitCheck<S>, ctx: CheckContext): CheckResult {
  return split.join(ctx, [split.part(ctx)]);
}

/** Helpers for check modules. */
export const pass = (): CheckResult => ({ status: 'ran', findings: [] });
export const na = (reason: string): CheckResult => ({ status: 'na', reason });
export const found = (findings: readonly Omit<Finding, 'id' | 'severity'>[]): CheckResult => ({ status: 'ran', findings });
