// `--format html`: one self-contained page (inline CSS and script, a CSP that
// forbids every request) built from the handlebars templates in templates/:
// per file the score gauge and band, the exit reason, the scorecard by
// category, each finding with its explanation, remedy and dataflow chain, the
// PTX source with findings marked on their lines, and each function's CFG as
// SVG (html-cfg.ts). Text from the input only reaches the page through `{{ }}`,
// which escapes it.
import Handlebars from 'handlebars';
import type { AnalysisResult, FileAnalysis } from '../analyze.js';
import { CATALOG_BY_ID } from '../checks/catalog.js';
import { renderCheckDoc } from '../checks/docs.js';
import { CHECKS } from '../checks/index.js';
import type { CheckOutcome } from '../checks/run.js';
import { DEFAULT_MIN_SCORE, formatScore, PASS_SCORE } from '../checks/score.js';
import { SEVERITY_ORDER, type Category, type CheckMeta, type Finding, type Location, type Severity } from '../checks/types.js';
import { functionGraphs, type FunctionGraph } from './html-cfg.js';
import { FILE, FINDING, PAGE } from './templates/report.js';
import { SCRIPT } from './templates/script.js';
import { STYLE } from './templates/style.js';

export interface HtmlOptions {
  readonly version: string;
  readonly minScore?: number;
}

const hb = Handlebars.create();
hb.registerPartial('file', FILE);
hb.registerPartial('finding', FINDING);
const page = hb.compile(PAGE);

const { escapeExpression: esc } = Handlebars.Utils;
const safe = (html: string): Handlebars.SafeString => new Handlebars.SafeString(html);

/** Inline markdown: `code` spans; every piece of text is escaped. */
function inline(text: string): string {
  return text.split(/(`[^`\n]+`)/).map((part) => (part.length > 2 && part.startsWith('`') && part.endsWith('`')
    ? `<code>${esc(part.slice(1, -1))}</code>` : esc(part))).join('');
}

/** The check docs (renderCheckDoc's markdown: headings, paragraphs, fenced
 *  code) as HTML. Every line is escaped before any tag is added. */
export function markdownToHtml(md: string): string {
  const out: string[] = [];
  let para: string[] = [];
  let code: string[] | undefined;
  const flush = (): void => {
    if (para.length > 0) out.push(`<p>${inline(para.join(' '))}</p>`);
    para = [];
  };
  for (const line of md.split('\n')) {
    if (code !== undefined) {
      if (line.startsWith('```')) {
        out.push(`<pre><code>${esc(code.join('\n'))}</code></pre>`);
        code = undefined;
      } else code.push(line);
      continue;
    }
    if (line.startsWith('```')) {
      flush();
      code = [];
    } else if (/^#{1,6} /.test(line)) {
      flush();
      const level = line.indexOf(' ');
      out.push(level === 1 ? `<h4>${inline(line.slice(2))}</h4>` : `<h5>${inline(line.slice(level + 1))}</h5>`);
    } else if (line.trim() === '') flush();
    else para.push(line);
  }
  if (code !== undefined) out.push(`<pre><code>${esc(code.join('\n'))}</code></pre>`);
  flush();
  return out.join('\n');
}

const CATEGORY_TITLE: Readonly<Record<Category, string>> = {
  module: 'Module', types: 'Types', 'address-spaces': 'Address spaces', synchronization: 'Synchronization', memory: 'Memory',
  'control-flow': 'Control flow', 'data-flow': 'Data flow', 'known-patterns': 'Known patterns', performance: 'Performance', instrumentation: 'Instrumentation',
};

const STATUS_LABEL: Readonly<Record<CheckOutcome['status'], string>> = { pass: 'pass', fail: 'fail', na: 'n/a', off: 'off', 'not-built': 'not built' };

/** Why the file exits with its code, as the text report says it. */
export function exitReason(f: FileAnalysis, minScore: number): string {
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

/** The score as a ring: numbers only, no input text. */
function gauge(score: number, band: string): string {
  const r = 44;
  const c = 2 * Math.PI * r;
  const filled = (Math.max(0, Math.min(100, score)) / 100) * c;
  return `<svg width="112" height="112" viewBox="0 0 112 112" role="img" aria-label="score ${formatScore(score)}">` +
    `<circle class="track" cx="56" cy="56" r="${r}" fill="none" stroke-width="11"/>` +
    `<circle class="value stroke-${band}" cx="56" cy="56" r="${r}" fill="none" stroke-width="11" stroke-linecap="round" ` +
    `stroke-dasharray="${filled.toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 56 56)"/>` +
    `<text x="56" y="62" text-anchor="middle" font-size="22">${formatScore(score)}</text></svg>`;
}

function sourceText(l: Location): string | undefined {
  return l.source === undefined ? undefined : `${l.source.file}:${l.source.line}`;
}

function compressIds(ids: readonly string[]): string {
  const nums = ids.map((i) => Number(i.slice(1))).sort((a, b) => a - b);
  const f = (n: number): string => `F${String(n).padStart(3, '0')}`;
  const parts: string[] = [];
  for (let i = 0; i < nums.length;) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
    parts.push(i === j ? f(nums[i]!) : `${f(nums[i]!)}–${f(nums[j]!)}`);
    i = j + 1;
  }
  return parts.join(', ');
}

const metaById = new Map<string, CheckMeta>(CHECKS.map((c) => [c.meta.id, c.meta]));

function findingView(f: Finding, index: number, prefix: string) {
  const meta = metaById.get(f.id);
  const lineAnchor = (line: number): string => `${prefix}-L${line}`;
  return {
    anchor: `${prefix}-x${index}`,
    id: f.id,
    name: meta?.name ?? CATALOG_BY_ID.get(f.id)?.name ?? '',
    severity: f.severity,
    message: f.message,
    line: f.location.line,
    column: f.location.column,
    lineAnchor: lineAnchor(f.location.line),
    source: sourceText(f.location),
    function: f.function,
    suppressed: f.suppressed?.by,
    suppressedReason: f.suppressed?.reason,
    confirmation: f.confirmation === undefined ? undefined : `${f.confirmation.status}${f.confirmation.tool !== undefined ? ` by ${f.confirmation.tool}` : ''}${f.confirmation.device !== undefined ? ` on ${f.confirmation.device}` : ''}: ${f.confirmation.evidence}`,
    explanation: safe(meta === undefined ? inline(CATALOG_BY_ID.get(f.id)?.rule ?? '') : `${inline(meta.description)} ${inline(meta.rationale)}`),
    remedy: safe(meta === undefined ? '' : inline(meta.remedy)),
    chain: (f.chain ?? []).map((s) => ({ what: s.what, line: s.location.line, anchor: lineAnchor(s.location.line), source: sourceText(s.location) })),
    related: (f.related ?? []).map((r) => ({ message: r.message, line: r.location.line, anchor: lineAnchor(r.location.line), source: sourceText(r.location) })),
    doc: meta === undefined ? undefined : safe(markdownToHtml(renderCheckDoc(meta))),
  };
}

function worst(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || SEVERITY_ORDER.indexOf(b) < SEVERITY_ORDER.indexOf(a) ? b : a;
}

function listingView(text: string, findings: readonly Finding[], prefix: string) {
  const marks = new Map<number, { id: string; severity: Severity; target: string; title: string }[]>();
  const sev = new Map<number, Severity>();
  const onChain = new Set<number>();
  findings.forEach((f, i) => {
    for (const s of f.chain ?? []) onChain.add(s.location.line);
    if (f.suppressed !== undefined) return;
    const list = marks.get(f.location.line) ?? [];
    list.push({ id: f.id, severity: f.severity, target: `${prefix}-x${i}`, title: `${f.id} ${f.severity}: ${f.message}` });
    marks.set(f.location.line, list);
    sev.set(f.location.line, worst(sev.get(f.location.line), f.severity));
  });
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((raw, i) => {
    const n = i + 1;
    const s = sev.get(n);
    const cls = [...(s !== undefined ? ['hit', `hit-${s}`] : []), ...(onChain.has(n) ? ['on-chain'] : [])].join(' ');
    return { n, anchor: `${prefix}-L${n}`, text: raw.replace(/\r$/, ''), cls, marks: marks.get(n) ?? [] };
  });
}

function scorecardView(outcomes: readonly CheckOutcome[]) {
  const byCategory = new Map<Category, CheckOutcome[]>();
  for (const o of outcomes) {
    if (o.status === 'not-built') continue;
    const cat = metaById.get(o.id)?.category ?? CATALOG_BY_ID.get(o.id)?.category ?? 'module';
    byCategory.set(cat, [...(byCategory.get(cat) ?? []), o]);
  }
  return [...byCategory.entries()].map(([cat, list]) => ({
    name: CATEGORY_TITLE[cat],
    pass: list.filter((o) => o.status === 'pass').length,
    fail: list.filter((o) => o.status === 'fail').length,
    na: list.filter((o) => o.status === 'na' || o.status === 'off').length,
    rows: list.map((o) => ({
      id: o.id, name: o.name, points: o.points, status: o.status, statusLabel: STATUS_LABEL[o.status],
      reason: o.status === 'fail'
        ? `${o.findings.filter((f) => f.suppressed === undefined).length} finding(s)${o.reason !== undefined ? `; ${o.reason}` : ''}` : o.reason,
    })),
  }));
}

async function fileView(f: FileAnalysis, index: number, minScore: number) {
  const prefix = `f${index}`;
  const base = {
    anchor: `file-${index}`, file: f.file, label: f.label, compiledFromCuda: f.compiledFrom === 'cuda',
    exitCode: f.exitCode, exitReason: exitReason(f, minScore),
  };
  const r = f.report;
  if (r === undefined) {
    return { ...base, analyzed: false, band: 'error', bandLabel: 'error', findingCount: 0, diagnostics: f.error?.diagnostics ?? [] };
  }
  const open = r.findings.filter((x) => x.suppressed === undefined).length;
  const graphs: (FunctionGraph & { kind: string })[] = f.text === undefined ? []
    : (await functionGraphs(f.text, r.findings, prefix, (line) => `${prefix}-L${line}`)).map((g) => ({ ...g, kind: g.isEntry ? '.entry' : '.func' }));
  return {
    ...base,
    analyzed: true,
    score: formatScore(r.score.score),
    band: r.band,
    bandLabel: r.band,
    gauge: safe(gauge(r.score.score, r.band)),
    points: `${r.score.passingPoints}/${r.score.applicablePoints}`,
    scoreNote: r.score.note,
    findingCount: open,
    suppressedCount: r.findings.length - open,
    functionCount: r.kernels.length,
    findings: r.findings.map((x, i) => findingView(x, i, prefix)),
    categories: scorecardView(r.outcomes),
    notBuilt: compressIds(r.outcomes.filter((o) => o.status === 'not-built').map((o) => o.id)),
    listing: f.text === undefined ? [] : listingView(f.text, r.findings, prefix),
    graphs,
  };
}

export async function formatHtml(result: AnalysisResult, options: HtmlOptions): Promise<string> {
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const files = [];
  for (const [i, f] of result.files.entries()) files.push(await fileView(f, i, minScore));
  const title = result.files.length === 1 ? `ptx-debug: ${result.files[0]!.file}` : `ptx-debug: ${result.files.length} files`;
  return page({
    title,
    version: options.version,
    style: safe(STYLE),
    script: safe(SCRIPT),
    fileCount: result.files.length,
    builtCount: CHECKS.length,
    multiple: result.files.length > 1,
    lowestScore: result.summary.lowestScore === undefined ? '–' : formatScore(result.summary.lowestScore),
    meanScore: result.summary.meanScore === undefined ? '–' : formatScore(result.summary.meanScore),
    exitCode: result.summary.exitCode,
    files,
  });
}
