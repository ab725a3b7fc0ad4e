// Runs the registered checks on one parsed module: applies --only/--disable,
// the profile and config severities, inline suppressions, then scores the file.
import { AnalysisBudgetExceeded } from '../cfg/budget.js';
import { AnalysisContext } from '../cfg/context.js';
import { releaseCompiled } from '../cfg/keep-compiled.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type { Module, SourceRange } from '../parser/ast.js';
import { CATALOG } from './catalog.js';
import { SEEDS_PROFILE } from './catalog.js';
import { CHECKS } from './index.js';
import { band, DEFAULT_MIN_SCORE, exitCodeOf, scoreChecks, type Band, type Score, type Status } from './score.js';
import { byPosition, fingerprints } from './fingerprint.js';
import { outline, type ModuleOutline } from './outline.js';
import type { Check, CheckContext, CheckId, CheckResult, Finding, Location, ResourceUsage, Severity } from './types.js';

export interface RunOptions {
  readonly only?: readonly string[];
  readonly disable?: readonly string[];
  readonly profile?: 'default' | 'seeds';
  /** Per-check overrides from the config: a severity, or 'off'. */
  readonly overrides?: Readonly<Record<string, Severity | 'off'>>;
  readonly minScore?: number;
  readonly block?: readonly [number, number, number];
  /** Bytes of function bodies per part when a large module is checked part by part (default `chunkBytesFor`). */
  readonly chunkBytes?: number;
  /** Only this kernel's findings (module-level findings stay). */
  readonly kernel?: string;
  /** Fingerprints of known findings (a baseline): reported as known, left out of the score. */
  readonly baseline?: ReadonlySet<string>;
  /** The file name fingerprints are computed with. */
  readonly file?: string;
  /** Text of a mapped source file's line, for fingerprints (undefined when unreadable). */
  readonly sourceLine?: (file: string, line: number) => string | undefined;
  /** `ptxas -v` resource usage (`--ptxas`), for F091/F092. */
  readonly resources?: ResourceUsage;
}

export interface CheckOutcome {
  readonly id: CheckId;
  readonly name: string;
  readonly severity: Severity;
  readonly points: number;
  readonly status: Status;
  /** Why n/a, off or not built; on a pass or fail, the part of a large module the check could not analyze. */
  readonly reason?: string;
  /** Every finding, suppressed ones included (they do not fail the check). */
  readonly findings: readonly Finding[];
}

export interface KernelOutcome {
  readonly name: string;
  readonly isEntry: boolean;
  readonly line: number;
  /** Per check: pass, fail (a finding in this function) or the file-level status. */
  readonly results: readonly { readonly id: CheckId; readonly status: Status; readonly findings: number }[];
}

export interface FileReport {
  readonly outcomes: readonly CheckOutcome[];
  /** Unsuppressed and suppressed findings, sorted by line. */
  readonly findings: readonly Finding[];
  readonly kernels: readonly KernelOutcome[];
  readonly score: Score;
  readonly band: Band;
  readonly exitCode: number;
}

function effectiveSeverity(check: Check, options: RunOptions): Severity | 'off' {
  const override = options.overrides?.[check.meta.id];
  if (override !== undefined) return override;
  if (options.profile === 'seeds') return SEEDS_PROFILE[check.meta.id] ?? check.meta.severity;
  return check.meta.severity;
}

function makeLocate(analysis: AnalysisContext): CheckContext['locate'] {
  return (range: SourceRange, fn?: FunctionModel, index?: number): Location => {
    const base = { line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn };
    if (fn === undefined || index === undefined) return base;
    const source = analysis.sourceOf(fn, index);
    return source === undefined ? base : { ...base, source };
  };
}

/** Bytes of function bodies per part when a module is checked part by part (see `runSelected`): about
 *  5,000 instructions of nvcc output (38 to 48 bytes each on the bench corpus). Parts are measured in bytes,
 *  not instructions, so that the part threads can be given their parts before the module is parsed
 *  (`scanFunctionBodies`), the same parts as a run on one thread. */
export const CHUNK_BYTES = 200_000;

/** Smaller modules are checked on one thread (src/checks/parallel.ts). Measured on the bench host (three runs
 *  each): 0.7 MB, one thread 1.9 to 2.4 s, two 1.8 to 2.0 s for 1.8 times the memory; 1.2 MB, one thread 2.6
 *  to 3.6 s, four 2.0 to 2.5 s (2.6 times the memory). */
export const MIN_PART_THREAD_BYTES = 1_000_000;

/** Modules with part threads are cut into about PARTS_PER_MODULE parts, of at least MIN_CHUNK_BYTES of body. */
const PARTS_PER_MODULE = 144;
const MIN_CHUNK_BYTES = 50_000;

/**
 * Bytes of function bodies per part for a module of `textLength` characters (`RunOptions.chunkBytes` overrides
 * it): CHUNK_BYTES, but a module large enough for part threads gets about PARTS_PER_MODULE parts
 * (sixteen per thread of nine), so that the threads end together and each holds one small part's facts at a
 * time. A thread's first part takes several times its later ones (it compiles the checks as it goes): on the
 * bench host (docs/performance.md, session 8) the 2.8 MB module's thirteen parts of 200 kB left nine threads
 * ending 1.5 or 2.1 s after the start, as they had checked one part or two. Since a part's text no longer
 * holds the module's declarations (session 11), small parts cost little: 144 parts against 48 peaked 10 to 50
 * MB lower with 9 and 10 threads, in the same time or less. A function is never cut, so modules of large
 * functions get fewer. The text's length decides, so that a run on one thread and the part threads (which
 * cut before the module is parsed) cut the same parts.
 */
export function chunkBytesFor(textLength: number): number {
  if (textLength < MIN_PART_THREAD_BYTES) return CHUNK_BYTES;
  return Math.max(MIN_CHUNK_BYTES, Math.min(CHUNK_BYTES, Math.round(textLength / PARTS_PER_MODULE)));
}

/** What one check gave on a module or a part: n/a with a reason, or its findings. */
export type RawResult = { status: 'na'; reason: string } | { status: 'ran'; findings: Omit<Finding, 'id' | 'severity'>[]; caveat?: string };

/** What a check that threw gives: n/a, "not analyzed" when an analysis gave up (a work budget). */
function thrown(err: unknown): RawResult & { status: 'na' } {
  return err instanceof AnalysisBudgetExceeded
    ? { status: 'na', reason: `not analyzed: ${err.message}` }
    : { status: 'na', reason: `the check failed on this input: ${err instanceof Error ? err.message : String(err)}` };
}

function runOne(check: Check, ctx: CheckContext, run: (ctx: CheckContext) => CheckResult = (c) => check.run(c)): RawResult {
  try {
    const r = run(ctx);
    return r.status === 'na' ? { status: 'na', reason: r.reason } : { status: r.status, findings: [...r.findings] };
  } catch (err) {
    return thrown(err);
  }
}

/** A split check's summary of one part (`SplitCheck.part`), or what it gave when it threw. */
export type PartSummary = { readonly ok: unknown } | { readonly failed: RawResult & { status: 'na' } };

function summarize(check: Check, ctx: CheckContext): PartSummary {
  try {
    return { ok: check.split!.part(ctx) };
  } catch (err) {
    return { failed: thrown(err) };
  }
}

/** A split check's result from its parts' summaries (in module order): what the first failed part gave
 *  (as a throw on the whole module would), else the join's. */
export function joinSplit(check: Check, ctx: CheckContext, parts: readonly PartSummary[]): RawResult {
  const summaries: unknown[] = [];
  for (const p of parts) {
    if ('failed' in p) return p.failed;
    summaries.push(p.ok);
  }
  return runOne(check, ctx, (c) => check.split!.join(c, summaries));
}

/** Items split into parts of about `chunk` in `size`, in order: a part ends once it reaches `chunk`. */
export function partition<T>(items: readonly T[], size: (item: T) => number, chunk: number): T[][] {
  const parts: T[][] = [];
  let filled = Infinity;
  for (const item of items) {
    if (filled >= chunk) {
      parts.push([]);
      filled = 0;
    }
    parts[parts.length - 1]!.push(item);
    filled += size(item);
  }
  return parts;
}

const bodyBytes = (fn: FunctionModel): number => fn.decl.body!.range.endOffset - fn.decl.body!.range.offset;

/** The functions split into parts of about `chunk` bytes of body, in module order. */
export function splitParts(functions: readonly FunctionModel[], chunk: number): FunctionModel[][] {
  return partition(functions, bodyBytes, chunk);
}

/** Which checks run on the whole module (all of them, for a module of one part), which part by part, and
 *  which are split (module-level checks on a module of several parts: a summary per part, then a join). */
export function planChecks(checks: readonly Check[], parts: number): { whole: readonly Check[]; partwise: readonly Check[]; split: readonly Check[] } {
  return parts <= 1
    ? { whole: checks, partwise: [], split: [] }
    : { whole: [], partwise: checks.filter((c) => c.split === undefined), split: checks.filter((c) => c.split !== undefined) };
}

const failed = (r: RawResult | undefined): boolean => r?.status === 'na' && r.reason.startsWith('the check failed');

/**
 * The union of the parts' results, taken in part order: a check n/a on every part is n/a; one that crashes
 * on a part is n/a, as it would be on the whole; a part whose analysis gave up (a work budget) leaves a
 * caveat on the result of the others.
 */
export class PartResults {
  readonly out = new Map<string, RawResult>();
  private readonly reasons = new Map<string, Set<string>>();
  private readonly unanalyzed = new Map<string, { reason: string; parts: number }>();

  /** Whether a check still runs on the next part. */
  wants(id: string): boolean {
    return !failed(this.out.get(id));
  }

  add(id: string, r: RawResult): void {
    const prev = this.out.get(id);
    if (failed(prev)) return;
    if (r.status === 'na') {
      const seen = this.reasons.get(id) ?? new Set<string>();
      if (seen.size < 2) seen.add(r.reason);
      this.reasons.set(id, seen);
      if (r.reason.startsWith('not analyzed')) {
        const u = this.unanalyzed.get(id);
        this.unanalyzed.set(id, { reason: u?.reason ?? r.reason, parts: (u?.parts ?? 0) + 1 });
      }
    }
    if (prev === undefined || failed(r)) this.out.set(id, r);
    else if (r.status !== 'na') {
      // (Appended in place: copying the list for every part was quadratic in parts × findings.)
      if (prev.status === 'na') this.out.set(id, r);
      else for (const f of r.findings) prev.findings.push(f);
    }
  }

  /**
   * Adds the caveats, and returns the part-by-part checks to ask again on the whole module: those n/a on
   * every part for different reasons, for the module's reason (a part of device functions alone has "no
   * kernel"); n/a checks decide that from its shape.
   */
  finish(partwise: readonly Check[]): Check[] {
    // Checked whole, such a check would be n/a for the module; part by part it judged the rest, and says so.
    for (const [id, u] of this.unanalyzed) {
      const r = this.out.get(id);
      if (r?.status === 'ran') {
        this.out.set(id, { ...r, caveat: `judged on the parts of the module that could be analyzed; ${u.parts} part(s) ${u.reason}` });
      }
    }
    return partwise.filter((c) => this.out.get(c.meta.id)?.status === 'na' && this.reasons.get(c.meta.id)?.size === 2);
  }
}

/** What one part gave: the part-by-part checks' results, the split checks' summaries. */
export interface PartOutcome {
  readonly results: Map<string, RawResult>;
  readonly summaries: Map<string, PartSummary>;
}

/** Runs the part-by-part checks, and the split checks' `part`, on one part, in a context of its own whose
 *  facts are dropped after it. */
export function checkPart(checks: readonly Check[], ctx: CheckContext, part: readonly FunctionModel[], wants: (id: string) => boolean = () => true,
  split: readonly Check[] = []): PartOutcome {
  const analysis = new AnalysisContext(ctx.module, ctx.analysis.options, { model: ctx.analysis.model, functions: part });
  const partCtx: CheckContext = { ...ctx, analysis, functions: part, locate: makeLocate(analysis) };
  const results = new Map<string, RawResult>();
  for (const check of checks) if (wants(check.meta.id)) results.set(check.meta.id, runOne(check, partCtx));
  const summaries = new Map<string, PartSummary>();
  for (const check of split) summaries.set(check.meta.id, summarize(check, partCtx));
  analysis.dispose();
  return { results, summaries };
}

/** The split checks' summaries, part by part. */
export class PartSummaries {
  private readonly byCheck = new Map<string, PartSummary[]>();

  add(summaries: Iterable<readonly [string, PartSummary]>): void {
    for (const [id, s] of summaries) {
      const list = this.byCheck.get(id);
      if (list === undefined) this.byCheck.set(id, [s]);
      else list.push(s);
    }
  }

  /** Joins each split check's summaries (`joinSplit`) into `out`. */
  join(split: readonly Check[], ctx: CheckContext, out: Map<string, RawResult>): void {
    for (const check of split) out.set(check.meta.id, joinSplit(check, ctx, this.byCheck.get(check.meta.id) ?? []));
  }
}

/** Runs checks on the whole module (the module-level ones, and those asked again). */
export function checkWhole(checks: readonly Check[], ctx: CheckContext, out: Map<string, RawResult>): void {
  for (const check of checks) out.set(check.meta.id, runOne(check, ctx));
}

/**
 * Runs the checks. A large module is checked part by part: the functions are split into parts of about
 * `chunk` bytes of function bodies, each part gets its own analysis context (facts computed for it and dropped after
 * it), and every per-function check runs on each part; the results are their union (`PartResults`). Peak
 * memory is then one part's facts, not the whole module's. The module-level checks are split
 * (`SplitCheck`): a summary of each part, joined once.
 */
export function runSelected(checks: readonly Check[], ctx: CheckContext, chunk: number): Map<string, RawResult> {
  const parts = splitParts(ctx.functions, chunk);
  const { whole, partwise, split } = planChecks(checks, parts.length);
  const results = new PartResults();
  const summaries = new PartSummaries();
  for (const part of partwise.length + split.length > 0 ? parts : []) {
    const outcome = checkPart(partwise, ctx, part, (id) => results.wants(id), split);
    for (const [id, r] of outcome.results) results.add(id, r);
    summaries.add(outcome.summaries);
  }
  const again = results.finish(partwise);
  summaries.join(split, ctx, results.out);
  checkWhole([...whole, ...again], ctx, results.out);
  // The analyses' kept closures hold the last facts, and through them the tree.
  releaseCompiled();
  return results.out;
}

/** A run prepared: its context, the checks selected, and how their raw results become the file's report. */
export interface PreparedRun {
  readonly ctx: CheckContext;
  readonly checks: readonly Check[];
  readonly chunk: number;
  /** The report; `outline`, what it needs of the module when the run's tree lacks the bodies (`partsOutline`). */
  finish(results: ReadonlyMap<string, RawResult>, outline?: ModuleOutline): FileReport;
  /**
   * Keeps what `finish` needs of the module (its functions' names and lines, suppression comments, what
   * stands on each line) and lets go of the syntax tree and the analysis context; `ctx` is unusable after.
   */
  release(): void;
}

/** The context checks see, over every function of `analysis`. */
export function checkContext(module: Module, text: string, analysis: AnalysisContext, resources?: ResourceUsage): CheckContext {
  return {
    module, text, analysis, functions: analysis.functions, locate: makeLocate(analysis),
    ...(resources !== undefined ? { resources } : {}),
  };
}

/** The checks that run (--only, --disable, profile, config), in catalog order, and the outcomes of those that do not. */
export function selectChecks(options: RunOptions): { checks: readonly Check[]; skipped: ReadonlyMap<string, CheckOutcome>; chosen: Chosen } {
  const only = options.only === undefined ? undefined : new Set(options.only);
  const disabled = new Set(options.disable ?? []);
  const built = new Map(CHECKS.map((c) => [c.meta.id as string, c]));
  // Which checks run, at which severity (in catalog order).
  const selected: { entry: (typeof CATALOG)[number]; check: Check; severity: Severity }[] = [];
  const skipped = new Map<string, CheckOutcome>();
  for (const entry of CATALOG) {
    const id = entry.id as CheckId;
    const check = built.get(id);
    const base = { id, name: entry.name, points: entry.points };
    if (check === undefined) {
      skipped.set(id, { ...base, severity: entry.severity, status: 'not-built', reason: 'not built yet', findings: [] });
      continue;
    }
    const severity = effectiveSeverity(check, options);
    if ((only !== undefined && !only.has(id)) || disabled.has(id) || severity === 'off') {
      const why = severity === 'off' ? 'turned off by the config' : disabled.has(id) ? 'turned off by --disable' : 'not selected by --only';
      skipped.set(id, { ...base, severity: check.meta.severity, status: 'off', reason: why, findings: [] });
      continue;
    }
    selected.push({ entry, check, severity: severity as Severity });
  }
  return { checks: selected.map((x) => x.check), skipped, chosen: new Map(selected.map((x) => [x.entry.id as string, x])) };
}

/** Selects the checks (`selectChecks`) and sets up their context. */
export function prepareRun(module: Module, text: string, options: RunOptions = {}, analysis?: AnalysisContext): PreparedRun {
  const ctx = checkContext(module, text, analysis ?? new AnalysisContext(module, options.block !== undefined ? { block: options.block } : {}), options.resources);
  const { checks, skipped, chosen } = selectChecks(options);
  return new Run(ctx, checks, options, skipped, chosen);
}

/** A prepared run (the closures of `prepareRun` would keep the tree alive after `release`). */
class Run implements PreparedRun {
  private current: CheckContext | undefined;
  private kept: ModuleOutline | undefined;
  readonly chunk: number;

  private readonly text: string;

  constructor(ctx: CheckContext, readonly checks: readonly Check[], private readonly options: RunOptions,
    private readonly skipped: ReadonlyMap<string, CheckOutcome>, private readonly chosen: Chosen) {
    this.current = ctx;
    this.text = ctx.text;
    this.chunk = options.chunkBytes ?? chunkBytesFor(ctx.text.length);
  }

  get ctx(): CheckContext {
    if (this.current === undefined) throw new Error('the run\'s module was released');
    return this.current;
  }

  finish(results: ReadonlyMap<string, RawResult>, given?: ModuleOutline): FileReport {
    const module = given ?? this.kept ?? outline(this.ctx.module, this.ctx.text, this.ctx.analysis, false);
    return assemble(this.text, this.options, module, this.skipped, this.chosen, results);
  }

  release(): void {
    this.kept ??= outline(this.ctx.module, this.ctx.text, this.ctx.analysis, true);
    this.current = undefined;
  }
}

export function runChecks(module: Module, text: string, options: RunOptions = {}, analysis?: AnalysisContext): FileReport {
  const run = prepareRun(module, text, options, analysis);
  return run.finish(runSelected(run.checks, run.ctx, run.chunk));
}

type Chosen = ReadonlyMap<string, { readonly severity: Severity }>;

/** A check's finding as the report holds it: made in one step with its fields named (spreading the raw
 *  findings, which come from the part threads by structured clone, took a third of the report's assembly
 *  for a module's 30,000 findings). */
function finished(f: Omit<Finding, 'id' | 'severity'>, id: CheckId, severity: Severity, fingerprint: string, suppressed: Finding['suppressed']): Finding {
  return {
    id, severity, message: f.message, location: f.location,
    ...(f.function !== undefined ? { function: f.function } : {}),
    ...(f.related !== undefined ? { related: f.related } : {}),
    ...(f.chain !== undefined ? { chain: f.chain } : {}),
    ...(suppressed !== undefined ? { suppressed } : {}),
    fingerprint,
    ...(f.confirmation !== undefined ? { confirmation: f.confirmation } : {}),
  };
}

/** The file's report from the checks' raw results: findings sorted and fingerprinted, suppressions, the score. */
function assemble(text: string, options: RunOptions, module: ModuleOutline, skipped: ReadonlyMap<string, CheckOutcome>,
  chosen: Chosen, results: ReadonlyMap<string, RawResult>): FileReport {
  const { suppressions } = module;

  const outcomes: CheckOutcome[] = [];
  for (const entry of CATALOG) {
    const id = entry.id as CheckId;
    const skip = skipped.get(id);
    if (skip !== undefined) {
      outcomes.push(skip);
      continue;
    }
    const { severity } = chosen.get(id)!;
    const base = { id, name: entry.name, points: entry.points };
    const result = results.get(id)!;
    if (result.status === 'na') {
      outcomes.push({ ...base, severity, status: 'na', reason: result.reason, findings: [] });
      continue;
    }
    const sorted = result.findings
      .filter((f) => options.kernel === undefined || f.function === undefined || f.function === options.kernel)
      .sort(byPosition);
    const prints = fingerprints(options.file ?? '', module.lines, text, id, sorted, options.sourceLine, module.known);
    const findings: Finding[] = sorted.map((f, i) => {
      const s = suppressions.lookup(id, f.location.line);
      const suppressed = s !== undefined ? { by: 'comment' as const, ...s }
        : options.baseline?.has(prints[i]!) === true ? { by: 'baseline' as const, reason: 'known (baseline)' } : f.suppressed;
      return finished(f, id, severity, prints[i]!, suppressed);
    });
    const failing = findings.some((f) => f.suppressed === undefined);
    outcomes.push({ ...base, severity, status: failing ? 'fail' : 'pass', ...(result.caveat !== undefined ? { reason: result.caveat } : {}), findings });
  }
  const score = scoreChecks(outcomes.map((o) => ({
    status: o.status, points: o.points,
    unsuppressed: o.findings.filter((f) => f.suppressed === undefined).map((f) => f.severity),
  })));
  const hasCritical = outcomes.some((o) => o.findings.some((f) => f.suppressed === undefined && f.severity === 'critical'));
  const b = band(score.score, options.minScore ?? DEFAULT_MIN_SCORE, hasCritical);
  const findings = outcomes.flatMap((o) => o.findings)
    // (Ids are F and three digits: code-unit order is `localeCompare`'s, without its cost on 30,000 findings.)
    .sort((a, b2) => a.location.line - b2.location.line || a.location.column - b2.location.column || (a.id < b2.id ? -1 : a.id > b2.id ? 1 : 0));
  // Each check's unsuppressed findings counted per function in one pass (not a pass per function and check:
  // 300 functions × 30,000 findings on a large module).
  const perFunction = outcomes.map((o) => {
    const counts = new Map<string, number>();
    for (const x of o.findings) {
      if (x.suppressed === undefined && x.function !== undefined) counts.set(x.function, (counts.get(x.function) ?? 0) + 1);
    }
    return counts;
  });
  const kernels: KernelOutcome[] = module.functions
    .filter((f) => options.kernel === undefined || f.name === options.kernel)
    .map((f) => ({
      name: f.name, isEntry: f.isEntry, line: f.line,
      results: outcomes.map((o, i) => {
        const mine = perFunction[i]!.get(f.name) ?? 0;
        const status: Status = o.status === 'fail' ? (mine > 0 ? 'fail' : 'pass') : o.status;
        return { id: o.id, status, findings: mine };
      }),
    }));
  return { outcomes, findings, kernels, score, band: b, exitCode: exitCodeOf(b) };
}
