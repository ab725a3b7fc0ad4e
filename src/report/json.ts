// `--format json`: the versioned report (schema in schema.ts).
import type { AnalysisResult } from '../analyze.js';
import type { Finding, Location } from '../checks/types.js';
import { JSON_SCHEMA_VERSION, type JsonReport } from './schema.js';

type JsonFinding = JsonReport['files'][number]['findings'][number];
type JsonLocation = JsonFinding['location'];

function locationJson(l: Location): JsonLocation {
  return { line: l.line, column: l.column, endLine: l.endLine, endColumn: l.endColumn, ...(l.source !== undefined ? { source: { ...l.source } } : {}) };
}

function findingJson(x: Finding): JsonFinding {
  return {
    id: x.id, severity: x.severity, message: x.message, location: locationJson(x.location),
    ...(x.function !== undefined ? { function: x.function } : {}),
    ...(x.related !== undefined ? { related: x.related.map((r) => ({ location: locationJson(r.location), message: r.message })) } : {}),
    ...(x.chain !== undefined ? { chain: x.chain.map((c) => ({ location: locationJson(c.location), what: c.what })) } : {}),
    ...(x.suppressed !== undefined ? { suppressed: { ...x.suppressed } } : {}),
    ...(x.fingerprint !== undefined ? { fingerprint: x.fingerprint } : {}),
    ...(x.confirmation !== undefined ? { confirmation: { ...x.confirmation } } : {}),
  };
}

export function toJsonReport(result: AnalysisResult, version: string): JsonReport {
  return {
    schemaVersion: JSON_SCHEMA_VERSION,
    tool: { name: 'ptx-debug', version },
    files: result.files.map((f) => ({
      file: f.file,
      exitCode: f.exitCode,
      ...(f.error !== undefined ? { error: { message: f.error.message, diagnostics: [...f.error.diagnostics] } } : {}),
      ...(f.report !== undefined ? { score: f.report.score.score, band: f.report.band } : {}),
      ...(f.report?.score.note !== undefined ? { scoreNote: f.report.score.note } : {}),
      findings: (f.report?.findings ?? []).map(findingJson),
      checks: (f.report?.outcomes ?? []).map((o) => ({
        id: o.id, name: o.name, severity: o.severity, points: o.points, status: o.status,
        ...(o.reason !== undefined ? { reason: o.reason } : {}),
        findings: o.findings.filter((x) => x.suppressed === undefined).length,
      })),
      kernels: (f.report?.kernels ?? []).map((k) => ({
        name: k.name, isEntry: k.isEntry, line: k.line,
        failing: k.results.filter((r) => r.status === 'fail').map((r) => r.id),
      })),
      timings: { ...f.timings },
    })),
    summary: { ...result.summary },
    notBuilt: [...result.notBuilt],
  };
}

export function formatJson(result: AnalysisResult, version: string): string {
  return JSON.stringify(toJsonReport(result, version), null, 2);
}
