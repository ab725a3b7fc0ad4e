// Runs the registered checks on one parsed module: applies --only/--disable,
// the profile and config severities, inline suppressions, then scores the file.
import { AnalysisBudgetExceeded } from '../cfg/budget.js';
import { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type { Module, SourceRange } from '../parser/ast.js';
import { CATALOG } from './catalog.js';
import { SEEDS_PROFILE } from './catalog.js';
import { CHECKS } from './index.js';
import { band, DEFAULT_MIN_SCORE, exitCodeOf, scoreChecks, type Band, type Score, type Status } from './score.js';
import { collectSuppressions } from './suppressions.js';
import { fingerprints } from './fingerprint.js';
import type { Check, CheckContext, CheckId, Finding, Location, ResourceUsage, Severity } from './types.js';

export interface RunOptions {
  readonly only?: readonly string[];
  readonly disable?: readonly string[];
  readonly profile?: 'default' | 'seeds';
  /** Per-check overrides from the config: a severity, or 'off'. */
  readonly overrides?: Readonly<Record<string, Severity | 'off'>>;
  readonly minScore?: number;
  readonly block?: readonly [number, number, number];
  /** Instructions per part when a large module is checked part by part (default CHUNK_INSTRUCTIONS). */
  readonly chunkInstructions?: number;
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
    const at = analysis.locate(fn, index);
    return at.source === undefined ? base : { ...base, source: at.source };
  };
}

/** Instructions per part when a module is checked part by part (see `runSelected`). */
export const CHUNK_INSTRUCTIONS = 20_000;

/**
 * Checks that need the whole module at once: they relate functions to each other (calls, recursion,
 * shared memory declared in one function and used in another, resources of a kernel with its callees),
 * or look at module-level statements (F008's and F087's directives: judged on every part, they were
 * reported once per part). Every other check looks at one function at a time.
 */
export const MODULE_LEVEL: ReadonlySet<string> = new Set([
  'F001', 'F002', 'F003', 'F004', 'F005', 'F008', 'F010', 'F031', 'F032', 'F034', 'F035', 'F040', 'F064', 'F066', 'F087', 'F092',
]);

type RawResult = { status: 'na'; reason: string } | { status: 'ran'; findings: Omit<Finding, 'id' | 'severity'>[]; caveat?: string };

function runOne(check: Check, ctx: CheckContext): RawResult {
  try {
    const r = check.run(ctx);
    return r.status === 'na' ? { status: 'na', reason: r.reason } : { status: r.status, findings: [...r.findings] };
  } catch (err) {
    return err instanceof AnalysisBudgetExceeded
      ? { status: 'na', reason: `not analyzed: ${err.message}` }
      : { status: 'na', reason: `the check failed on this input: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * Runs the checks. A large module is checked part by part: the functions are split into parts of about
 * `chunk` instructions, each part gets its own analysis context (facts computed for it and dropped after
 * it), and every per-function check runs on each part; the results are the union (a check that is n/a on
 * every part is n/a; one that crashes on a part is n/a, as it would be on the whole). Peak memory is then
 * one part's facts, not the whole module's. The module-level checks run once on the whole module.
 */
function runSelected(checks: readonly Check[], ctx: CheckContext, chunk: number): Map<string, RawResult> {
  const out = new Map<string, RawResult>();
  const parts: FunctionModel[][] = [];
  let size = Infinity;
  for (const fn of ctx.functions) {
    if (size >= chunk) {
      parts.push([]);
      size = 0;
    }
    parts[parts.length - 1]!.push(fn);
    size += fn.instructions.length;
  }
  const whole = parts.length <= 1 ? checks : checks.filter((c) => MODULE_LEVEL.has(c.meta.id));
  const partwise = parts.length <= 1 ? [] : checks.filter((c) => !MODULE_LEVEL.has(c.meta.id));
  const reasons = new Map<string, Set<string>>();
  // Parts a check could not analyze (a work budget exceeded): the check's result covers the other parts.
  const unanalyzed = new Map<string, { reason: string; parts: number }>();
  for (const part of partwise.length > 0 ? parts : []) {
    const analysis = new AnalysisContext(ctx.module, ctx.analysis.options, { model: ctx.analysis.model, functions: part });
    const partCtx: CheckContext = { ...ctx, analysis, functions: part, locate: makeLocate(analysis) };
    for (const check of partwise) {
      const id = check.meta.id;
      const prev = out.get(id);
      if (prev !== undefined && prev.status === 'na' && prev.reason.startsWith('the check failed')) continue;
      const r = runOne(check, partCtx);
      if (r.status === 'na') {
        const seen = reasons.get(id) ?? new Set<string>();
        if (seen.size < 2) seen.add(r.reason);
        reasons.set(id, seen);
        if (r.reason.startsWith('not analyzed')) {
          const u = unanalyzed.get(id);
          unanalyzed.set(id, { reason: u?.reason ?? r.reason, parts: (u?.parts ?? 0) + 1 });
        }
      }
      if (prev === undefined || (r.status === 'na' && r.reason.startsWith('the check failed'))) out.set(id, r);
      else if (r.status !== 'na') out.set(id, prev.status === 'na' ? r : { status: 'ran', findings: [...prev.findings, ...r.findings] });
    }
    analysis.dispose();
  }
  // A check n/a on every part for different reasons is asked again on the whole module, for the module's
  // reason (a part of device functions alone has "no kernel"); n/a checks decide that from its shape.
  // Checked whole, such a check would be n/a for the module; part by part it judged the rest, and says so.
  for (const [id, u] of unanalyzed) {
    const r = out.get(id);
    if (r?.status === 'ran') {
      out.set(id, { ...r, caveat: `judged on the parts of the module that could be analyzed; ${u.parts} part(s) ${u.reason}` });
    }
  }
  const again = partwise.filter((c) => out.get(c.meta.id)?.status === 'na' && reasons.get(c.meta.id)?.size === 2);
  for (const check of [...whole, ...again]) out.set(check.meta.id, runOne(check, ctx));
  return out;
}

export function runChecks(module: Module, text: string, options: RunOptions = {}, analysis?: AnalysisContext): FileReport {
  const ctxAnalysis = analysis ?? new AnalysisContext(module, options.block !== undefined ? { block: options.block } : {});
  const ctx: CheckContext = {
    module, text, analysis: ctxAnalysis, functions: ctxAnalysis.functions, locate: makeLocate(ctxAnalysis),
    ...(options.resources !== undefined ? { resources: options.resources } : {}),
  };
  const suppressions = collectSuppressions(module.comments);
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
  const results = runSelected(selected.map((x) => x.check), ctx, options.chunkInstructions ?? CHUNK_INSTRUCTIONS);
  const chosen = new Map(selected.map((x) => [x.entry.id as string, x]));

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
    const sorted: Finding[] = result.findings
      .filter((f) => options.kernel === undefined || f.function === undefined || f.function === options.kernel)
      .map((f) => ({ ...f, id, severity }))
      .sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column);
    const prints = fingerprints(options.file ?? '', module, text, sorted, options.sourceLine);
    const findings: Finding[] = sorted.map((f, i) => {
      const withPrint: Finding = { ...f, fingerprint: prints[i]! };
      const s = suppressions.lookup(id, f.location.line);
      if (s !== undefined) return { ...withPrint, suppressed: { by: 'comment' as const, ...s } };
      if (options.baseline?.has(prints[i]!) === true) return { ...withPrint, suppressed: { by: 'baseline' as const, reason: 'known (baseline)' } };
      return withPrint;
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
    .sort((a, b2) => a.location.line - b2.location.line || a.location.column - b2.location.column || a.id.localeCompare(b2.id));
  const kernels: KernelOutcome[] = ctxAnalysis.functions
    .filter((f) => options.kernel === undefined || f.name === options.kernel)
    .map((f) => ({
      name: f.name, isEntry: f.isEntry, line: f.decl.range.line,
      results: outcomes.map((o) => {
        const mine = o.findings.filter((x) => x.function === f.name && x.suppressed === undefined).length;
        const status: Status = o.status === 'fail' ? (mine > 0 ? 'fail' : 'pass') : o.status;
        return { id: o.id, status, findings: mine };
      }),
    }));
  return { outcomes, findings, kernels, score, band: b, exitCode: exitCodeOf(b) };
}
