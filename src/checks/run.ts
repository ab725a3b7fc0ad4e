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
  /** Why n/a, off or not built. */
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
  const outcomes: CheckOutcome[] = [];
  for (const entry of CATALOG) {
    const id = entry.id as CheckId;
    const check = built.get(id);
    const base = { id, name: entry.name, points: entry.points };
    if (check === undefined) {
      outcomes.push({ ...base, severity: entry.severity, status: 'not-built', reason: 'not built yet', findings: [] });
      continue;
    }
    const severity = effectiveSeverity(check, options);
    if ((only !== undefined && !only.has(id)) || disabled.has(id) || severity === 'off') {
      const why = severity === 'off' ? 'turned off by the config' : disabled.has(id) ? 'turned off by --disable' : 'not selected by --only';
      outcomes.push({ ...base, severity: check.meta.severity, status: 'off', reason: why, findings: [] });
      continue;
    }
    let result;
    try {
      result = check.run(ctx);
    } catch (err) {
      result = err instanceof AnalysisBudgetExceeded
        ? { status: 'na' as const, reason: `not analyzed: ${err.message}` }
        : { status: 'na' as const, reason: `the check failed on this input: ${err instanceof Error ? err.message : String(err)}` };
    }
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
    outcomes.push({ ...base, severity, status: failing ? 'fail' : 'pass', findings });
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
