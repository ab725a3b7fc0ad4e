// What an FKR (falsification) test file freezes: every hypothesis's current
// outcome on one PTX file (status, and the unsuppressed findings' ids and
// lines), the score band, and for the Rust output the same verdicts as
// `analyze --format tsv` shows them.
import type { FileAnalysis } from '../analyze.js';
import type { Band, Status } from '../checks/score.js';
import { formatTsv } from '../report/tsv.js';

export interface FkrFinding {
  readonly id: string;
  readonly line: number;
}

export interface FkrHypothesis {
  readonly id: string;
  readonly name: string;
  readonly status: Status;
  /** Why n/a, off or not built (one line). */
  readonly reason?: string;
  /** Unsuppressed findings, sorted by line (a line may repeat). */
  readonly findings: readonly FkrFinding[];
}

export interface FkrModel {
  readonly hypotheses: readonly FkrHypothesis[];
  readonly band: Band;
  /** The score as reports print it (one decimal), for the header only. */
  readonly score: string;
}

/** The verdicts of one analyzed file; throws when the file could not be analyzed. */
export function fkrModel(analysis: FileAnalysis): FkrModel {
  const report = analysis.report;
  if (report === undefined) {
    const why = analysis.error === undefined ? 'it could not be analyzed' : [analysis.error.message, ...analysis.error.diagnostics].join('\n');
    throw new Error(`${analysis.file}: no verdicts to freeze: ${why}`);
  }
  const hypotheses = report.outcomes.map((o): FkrHypothesis => {
    const findings = o.findings
      .filter((f) => f.suppressed === undefined)
      .map((f) => ({ id: f.id, line: f.location.line }))
      .sort((a, b) => a.line - b.line);
    const reason = o.reason === undefined ? undefined : oneLine(o.reason);
    return { id: o.id, name: o.name, status: o.status, ...(reason !== undefined ? { reason } : {}), findings };
  });
  return { hypotheses, band: report.band, score: (Math.floor(report.score.score * 10 + 1e-9) / 10).toFixed(1) };
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** One hypothesis as the Rust output asserts it: aggregated over the TSV rows. */
export interface TsvVerdict {
  readonly id: string;
  readonly status: string;
  readonly lines: readonly number[];
}

/**
 * The verdicts `analyze --format tsv` prints for one file, aggregated per
 * hypothesis exactly as the generated Rust code does: `fail` when any row
 * fails, else the rows' common status (else `mixed`); the lines of every row,
 * sorted.
 */
export function tsvVerdicts(analysis: FileAnalysis): TsvVerdict[] {
  const tsv = formatTsv({ files: [analysis], summary: { files: 1, analyzed: 1, exitCode: analysis.exitCode }, notBuilt: [] });
  return aggregateTsv(tsv);
}

/** The aggregation of TSV rows (the Rust output's `verdicts` does the same). */
export function aggregateTsv(tsv: string): TsvVerdict[] {
  const byId = new Map<string, { statuses: string[]; lines: number[] }>();
  for (const row of tsv.split('\n').slice(1)) {
    const cols = row.split('\t');
    if (cols.length < 5 || cols[2] === '-') continue;
    const id = cols[2]!;
    const entry = byId.get(id) ?? { statuses: [], lines: [] };
    entry.statuses.push(cols[3]!);
    if (cols[4] !== '-') entry.lines.push(...cols[4]!.split(',').map(Number));
    byId.set(id, entry);
  }
  return [...byId.entries()].map(([id, e]) => {
    const status = e.statuses.includes('fail') ? 'fail' : e.statuses.every((s) => s === e.statuses[0]) ? e.statuses[0]! : 'mixed';
    return { id, status, lines: [...e.lines].sort((a, b) => a - b) };
  });
}
