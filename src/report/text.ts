// The terminal report: per file, findings by line with severity, message, an
// excerpt with a caret, the source line `.loc` maps to, and dataflow chains;
// with --falsify the whole scorecard; then the score, band and exit reason.
import { Chalk, type ChalkInstance } from 'chalk';
import type { AnalysisResult, FileAnalysis } from '../analyze.js';
import type { CheckOutcome } from '../checks/run.js';
import { DEFAULT_MIN_SCORE, formatScore, PASS_SCORE } from '../checks/score.js';
import type { Finding, Location, Severity } from '../checks/types.js';
import { textOfLine } from '../parser/ranges.js';

export interface TextOptions {
  /** Reads mapped source lines (the `.cu` or `.py` line a finding maps to). */
  readonly source?: SourceReader;
  readonly falsify: boolean;
  readonly color: boolean;
  readonly minScore?: number;
  readonly quiet?: boolean;
}

function paint(c: ChalkInstance, sev: Severity): (s: string) => string {
  switch (sev) {
    case 'critical': return (s) => c.bold.red(s);
    case 'high': return (s) => c.red(s);
    case 'medium': return (s) => c.yellow(s);
    case 'low': return (s) => c.cyan(s);
    case 'info': return (s) => c.gray(s);
  }
}

function sourceNote(l: Location): string {
  return l.source === undefined ? '' : ` [${l.source.file}:${l.source.line}]`;
}

function excerpt(lines: string[], text: string, l: Location): void {
  const src = textOfLine(text, l.line);
  if (src.length > 300) return;
  const pad = src.slice(0, l.column - 1).replace(/[^\t]/g, ' ');
  const width = l.endLine === l.line ? Math.max(1, l.endColumn - l.column) : Math.max(1, src.length - l.column + 1);
  lines.push(`      ${src}`, `      ${pad}${'^'.repeat(width)}`);
}

export interface SourceReader {
  (file: string, line: number): string | undefined;
}

/** Appends a finding's lines to `lines` (the report's own list: a module may have 30,000 findings). */
function renderFinding(lines: string[], c: ChalkInstance, f: Finding, text: string | undefined, source?: SourceReader, fromCuda = false): void {
  // For a CUDA source the .cu line leads and the PTX position stands beside it.
  const src0 = f.location.source;
  const where = fromCuda && src0 !== undefined ? `${src0.file.split('/').pop()}:${src0.line}` : `${f.location.line}:${f.location.column}`.padEnd(8);
  const ptxBeside = fromCuda && src0 !== undefined ? c.gray(` (PTX ${f.location.line}:${f.location.column})`) : '';
  const sev = paint(c, f.severity)(f.severity.padEnd(8));
  const sup = f.suppressed === undefined ? '' : c.gray(` (suppressed${f.suppressed.reason !== undefined ? `: ${f.suppressed.reason}` : ''})`);
  lines.push(`  ${where} ${sev} ${c.bold(f.id)} ${f.message}${fromCuda ? ptxBeside : c.gray(sourceNote(f.location))}${sup}`);
  if (text !== undefined) excerpt(lines, text, f.location);
  const src = f.location.source;
  const srcText = src === undefined ? undefined : source?.(src.file, src.line);
  if (src !== undefined && srcText !== undefined) lines.push(`      ${c.gray(`${src.file}:${src.line} |`)} ${srcText.trim()}`);
  if (f.chain !== undefined && f.chain.length > 0) {
    lines.push(`      ${c.gray('chain:')} ${f.chain.map((s) => `${s.what} at ${s.location.line}${sourceNote(s.location)}`).join(' → ')}`);
  }
  if (f.confirmation !== undefined) {
    const k = f.confirmation;
    const color = k.status === 'confirmed' ? c.red : k.status === 'not-reproduced' ? c.green : c.gray;
    lines.push(`      ${c.gray('runtime:')} ${color(k.status === 'not-run' ? k.evidence : k.status)}${k.tool !== undefined ? ` by ${k.tool}` : ''}${k.device !== undefined ? ` on ${k.device}` : ''}${k.status !== 'not-run' ? ` — ${k.evidence}` : ''}`);
  }
  for (const r of f.related ?? []) lines.push(`      ${c.gray('see')} ${r.location.line}:${r.location.column}${sourceNote(r.location)} ${r.message}`);
}

function renderScorecard(c: ChalkInstance, outcomes: readonly CheckOutcome[]): string[] {
  const lines = ['  scorecard:'];
  const notBuilt = outcomes.filter((o) => o.status === 'not-built').map((o) => o.id);
  for (const o of outcomes) {
    if (o.status === 'not-built') continue;
    const count = o.findings.filter((f) => f.suppressed === undefined).length;
    const status = o.status === 'pass' ? c.green('pass') : o.status === 'fail' ? c.red(`FAIL (${count})`) : o.status === 'na' ? c.gray('n/a') : c.gray('off');
    const why = o.reason !== undefined ? c.gray(` ${o.reason}`) : '';
    lines.push(`    ${o.id} ${o.name.padEnd(30)} ${String(o.points).padStart(2)} pt  ${status}${why}`);
  }
  if (notBuilt.length > 0) lines.push(c.gray(`    not built yet (left out of the score): ${compressIds(notBuilt)}`));
  return lines;
}

/** F021 F022 F023 F030 → "F021–F023, F030". */
export function compressIds(ids: readonly string[]): string {
  const nums = ids.map((i) => Number(i.slice(1))).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < nums.length;) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    const f = (n: number): string => `F${String(n).padStart(3, '0')}`;
    parts.push(i === j ? f(nums[i]!) : `${f(nums[i]!)}–${f(nums[j]!)}`);
    i = j + 1;
  }
  return parts.join(', ');
}

function exitReason(f: FileAnalysis, minScore: number): string {
  const r = f.report;
  if (r === undefined) return `exit 4: ${f.error?.message ?? 'not analyzed'}`;
  const s = formatScore(r.score.score);
  switch (r.band) {
    case 'critical': return 'exit 3: an unsuppressed critical finding';
    case 'block': return `exit 2: score ${s} is below --min-score ${minScore}`;
    case 'warn': return `exit 1: score ${s} is below ${PASS_SCORE}`;
    case 'pass': return `exit 0: score ${s} is at least ${PASS_SCORE}`;
  }
}

export function formatText(result: AnalysisResult, options: TextOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const out: string[] = [];
  for (const f of result.files) {
    out.push(c.bold(f.file) + (f.label !== undefined ? ` ${c.gray(f.label)}` : ''));
    if (f.report === undefined) {
      out.push(...(f.error?.diagnostics.length ? f.error.diagnostics.map((d) => `  ${d.split('\n').join('\n  ')}`) : [`  ${f.error?.message ?? 'not analyzed'}`]));
      out.push(`  ${exitReason(f, minScore)}`);
      continue;
    }
    const r = f.report;
    if (!options.quiet) for (const finding of r.findings) renderFinding(out, c, finding, f.text, options.source, f.compiledFrom === 'cuda');
    if (options.falsify) out.push(...renderScorecard(c, r.outcomes));
    const open = r.findings.filter((x) => x.suppressed === undefined).length;
    const suppressed = r.findings.length - open;
    const bandColor = r.band === 'pass' ? c.green : r.band === 'warn' ? c.yellow : c.red;
    const built = r.outcomes.filter((o) => o.status !== 'not-built').length;
    out.push(`  score ${bandColor(formatScore(r.score.score))} (${bandColor(r.band)}): ${r.score.passingPoints}/${r.score.applicablePoints} points, ` +
      `${open} finding(s)${suppressed > 0 ? `, ${suppressed} suppressed` : ''}; ${built} of 100 checks built` +
      (r.score.note !== undefined ? ` (${r.score.note})` : ''));
    out.push(`  ${exitReason(f, minScore)}`);
  }
  if (result.baseline !== undefined) {
    const b = result.baseline;
    out.push(`baseline: ${b.matched} known finding(s) matched (left out of the score), ${b.fixed} fixed since, ${b.new} new`);
  }
  if (result.files.length > 1 && result.summary.lowestScore !== undefined) {
    out.push(`${result.summary.files} files: lowest score ${formatScore(result.summary.lowestScore)}, mean ${formatScore(result.summary.meanScore ?? 0)}; exit ${result.summary.exitCode}`);
  }
  return out.join('\n');
}
