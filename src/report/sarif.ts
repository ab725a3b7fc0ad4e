// `--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it. One rule
// descriptor per built check (help = the check's docs), one result per
// finding with a relative URI and region (the `.cu` line when `.loc` maps the
// finding there, the PTX line as a related location), a line-hash
// fingerprint, `codeFlows` for dataflow chains, `results: []` when clean, and
// a tool notification for each file that could not be analyzed.
import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { AnalysisResult, FileAnalysis } from '../analyze.js';
import { CHECKS } from '../checks/index.js';
import { renderCheckDoc } from '../checks/docs.js';
import type { CheckMeta, Finding, Location, Severity } from '../checks/types.js';
import { textOfLine } from '../parser/ranges.js';

export interface SarifOptions {
  /** The tool version written to `tool.driver.version`. */
  readonly version: string;
  /** Paths are made relative to this directory (default: the working directory). */
  readonly root?: string;
}

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** GitHub's three levels: errors block, warnings warn, notes inform. */
export function sarifLevel(severity: Severity): Sarif.Result.level {
  switch (severity) {
    case 'critical':
    case 'high': return 'error';
    case 'medium': return 'warning';
    case 'low':
    case 'info': return 'note';
  }
}

const PROBLEM_SEVERITY: Record<Sarif.Result.level, string> = { error: 'error', warning: 'warning', note: 'recommendation', none: 'recommendation' };

/** A file path (relative to the working directory, or absolute) as a URI
 *  reference relative to `root`, each segment percent-encoded; a path outside
 *  the root stays absolute, as a `file:` URI. */
export function toUri(path: string, root: string): { uri: string; relative: boolean } {
  const abs = resolve(path);
  const rel = relative(root, abs);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { uri: pathToFileURL(abs).href, relative: false };
  return { uri: rel.split(sep).map(encodeURIComponent).join('/'), relative: true };
}

function artifact(path: string, root: string): Sarif.ArtifactLocation {
  const u = toUri(path, root);
  return u.relative ? { uri: u.uri, uriBaseId: '%SRCROOT%' } : { uri: u.uri };
}

function ptxRegion(l: Location): Sarif.Region {
  const region: Sarif.Region = { startLine: l.line, startColumn: Math.max(1, l.column) };
  if (l.endLine >= l.line) {
    region.endLine = l.endLine;
    if (l.endLine > l.line || l.endColumn > l.column) region.endColumn = Math.max(1, l.endColumn);
  }
  return region;
}

function ptxLocation(file: string, l: Location, root: string): Sarif.PhysicalLocation {
  return { artifactLocation: artifact(file, root), region: ptxRegion(l) };
}

/** Where code scanning shows a finding: the `.cu` line `.loc` maps it to,
 *  else the PTX line; for PTX that nvcc made from a `.cu` input (not a file
 *  anyone committed), the `.cu` file as a whole. */
function primaryLocation(file: FileAnalysis, l: Location, root: string): Sarif.PhysicalLocation {
  if (l.source === undefined || l.source.line < 1) {
    return file.compiledFrom === 'cuda' ? { artifactLocation: artifact(file.file, root) } : ptxLocation(file.file, l, root);
  }
  const region: Sarif.Region = { startLine: l.source.line };
  if (l.source.column >= 1) region.startColumn = l.source.column;
  return { artifactLocation: artifact(l.source.file, root), region };
}

/** `primaryLocationLineHash`: the finding's own fingerprint (checks/fingerprint.ts)
 *  when the runner set one; else the rule, the function and the flagged PTX line
 *  with whitespace collapsed, plus an occurrence count. Either way an alert
 *  survives lines moving above it. */
function fingerprint(f: Finding, text: string | undefined, seen: Map<string, number>): string {
  if (f.fingerprint !== undefined) return f.fingerprint;
  const content = (text === undefined ? '' : textOfLine(text, f.location.line)).replace(/\s+/g, ' ').trim();
  const hash = createHash('sha256').update(`${f.id}\0${f.function ?? ''}\0${content}`).digest('hex').slice(0, 16);
  const n = (seen.get(hash) ?? 0) + 1;
  seen.set(hash, n);
  return `${hash}:${n}`;
}

function ruleDescriptor(meta: CheckMeta): Sarif.ReportingDescriptor {
  const doc = renderCheckDoc(meta);
  const level = sarifLevel(meta.severity);
  return {
    id: meta.id,
    name: meta.name,
    shortDescription: { text: `${meta.id} ${meta.name}: ${meta.description}` },
    fullDescription: { text: `${meta.description} ${meta.rationale}` },
    help: { text: doc, markdown: doc },
    defaultConfiguration: { level },
    properties: {
      tags: ['ptx', 'cuda', meta.category],
      precision: 'high',
      'problem.severity': PROBLEM_SEVERITY[level],
      category: meta.category,
      severity: meta.severity,
      points: meta.points,
    },
  };
}

function toResult(file: FileAnalysis, f: Finding, ruleIndex: number | undefined, root: string, seen: Map<string, number>): Sarif.Result {
  const primary = primaryLocation(file, f.location, root);
  const location: Sarif.Location = { physicalLocation: primary };
  if (f.function !== undefined) location.logicalLocations = [{ name: f.function, fullyQualifiedName: f.function, kind: 'function' }];
  const related: Sarif.Location[] = [];
  if (f.location.source !== undefined && file.compiledFrom !== 'cuda') {
    related.push({ id: related.length + 1, physicalLocation: ptxLocation(file.file, f.location, root), message: { text: `the PTX instruction (${file.file}:${f.location.line})` } });
  }
  for (const r of f.related ?? []) {
    related.push({ id: related.length + 1, physicalLocation: primaryLocation(file, r.location, root), message: { text: r.message } });
  }
  const result: Sarif.Result = {
    ruleId: f.id,
    ...(ruleIndex !== undefined ? { ruleIndex } : {}),
    level: sarifLevel(f.severity),
    message: { text: f.message },
    locations: [location],
    partialFingerprints: { primaryLocationLineHash: fingerprint(f, file.text, seen) },
    properties: {
      severity: f.severity,
      ptx: { file: file.file, line: f.location.line, column: f.location.column, ...(file.compiledFrom === 'cuda' ? { compiledFrom: 'cuda' } : {}) },
      ...(f.function !== undefined ? { function: f.function } : {}),
      ...(f.confirmation !== undefined ? { confirmation: { ...f.confirmation } } : {}),
    },
  };
  if (related.length > 0) result.relatedLocations = related;
  if (f.chain !== undefined && f.chain.length > 0) {
    result.codeFlows = [{
      message: { text: f.chain.map((s) => s.what).join(' → ') },
      threadFlows: [{
        locations: f.chain.map((step, i): Sarif.ThreadFlowLocation => ({
          executionOrder: i + 1,
          location: { physicalLocation: primaryLocation(file, step.location, root), message: { text: step.what } },
          ...(step.location.source !== undefined ? { properties: { ptx: { file: file.file, line: step.location.line, column: step.location.column } } } : {}),
        })),
      }],
    }];
  }
  if (f.suppressed !== undefined) {
    result.suppressions = [{
      kind: f.suppressed.by === 'comment' ? 'inSource' : 'external',
      status: 'accepted',
      ...(f.suppressed.reason !== undefined ? { justification: f.suppressed.reason } : {}),
    }];
  }
  return result;
}

function notification(file: FileAnalysis, root: string): Sarif.Notification {
  const detail = file.error?.diagnostics[0]?.split('\n')[0];
  return {
    level: 'error',
    descriptor: { id: 'input' },
    message: { text: `${file.file} could not be analyzed: ${file.error?.message ?? 'unknown error'}${detail !== undefined ? ` (${detail})` : ''}` },
    locations: [{ physicalLocation: { artifactLocation: artifact(file.file, root) } }],
  };
}

export function toSarif(result: AnalysisResult, options: SarifOptions): Sarif.Log {
  const root = resolve(options.root ?? process.cwd());
  const metas = [...CHECKS].map((c) => c.meta).sort((a, b) => a.id.localeCompare(b.id));
  const ruleIndex = new Map(metas.map((m, i) => [m.id as string, i]));
  const results: Sarif.Result[] = [];
  for (const file of result.files) {
    const seen = new Map<string, number>();
    for (const f of file.report?.findings ?? []) results.push(toResult(file, f, ruleIndex.get(f.id), root, seen));
  }
  const failed = result.files.filter((f) => f.report === undefined);
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'ptx-debug',
          version: options.version,
          semanticVersion: options.version,
          rules: metas.map(ruleDescriptor),
        },
      },
      invocations: [{
        executionSuccessful: true,
        exitCode: result.summary.exitCode,
        toolExecutionNotifications: failed.map((f) => notification(f, root)),
      }],
      columnKind: 'utf16CodeUnits',
      results,
      properties: {
        files: result.files.map((f) => ({
          file: f.file,
          exitCode: f.exitCode,
          ...(f.report !== undefined ? { score: f.report.score.score, band: f.report.band } : {}),
        })),
        notBuilt: [...result.notBuilt],
      },
    }],
  };
}

export function formatSarif(result: AnalysisResult, options: SarifOptions): string {
  return JSON.stringify(toSarif(result, options), null, 2);
}
