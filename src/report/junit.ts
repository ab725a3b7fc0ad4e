// `--format junit`: JUnit XML for CI test views. One <testsuite> per file and
// one <testcase> per hypothesis: pass is a plain case, fail carries the
// findings in a <failure>, n/a, off and not-built are <skipped> with the
// reason. A file that could not be analyzed is one case with an <error>.
// Every piece of text is escaped for XML, and characters XML 1.0 cannot hold
// are replaced, so names and comments from the input cannot break the file.
import type { AnalysisResult, FileAnalysis } from '../analyze.js';
import type { CheckOutcome } from '../checks/run.js';
import { formatScore } from '../checks/score.js';
import type { Finding, Location } from '../checks/types.js';

/** Characters XML 1.0 allows: tab, newline, carriage return, and the rest minus surrogates and U+FFFE/U+FFFF. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Escapes text for an XML attribute or element (both quote kinds, so it fits either). */
export function xmlEscape(s: string): string {
  return s.replace(NOT_XML_CHAR, '\uFFFD').replace(/[&<>"']/g, (c) => {
    switch (c) {
      case '&': return '&amp;';
      case '<': return '&lt;';
      case '>': return '&gt;';
      case '"': return '&quot;';
      default: return '&apos;';
    }
  });
}

/** Attribute values also keep their line breaks and tabs through attribute normalization. */
function attr(s: string): string {
  return xmlEscape(s).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function where(file: string, l: Location): string {
  return `${file}:${l.line}:${l.column}${l.source !== undefined ? ` [${l.source.file}:${l.source.line}]` : ''}`;
}

function findingText(file: string, f: Finding): string {
  const lines = [`${where(file, f.location)} ${f.severity} ${f.id} ${f.message}${f.function !== undefined ? ` (in ${f.function})` : ''}`];
  if (f.chain !== undefined && f.chain.length > 0) lines.push(`  chain: ${f.chain.map((s) => `${s.what} at ${s.location.line}`).join(' → ')}`);
  for (const r of f.related ?? []) lines.push(`  see ${where(file, r.location)} ${r.message}`);
  return lines.join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

function testcase(file: string, o: CheckOutcome): string {
  const name = `${o.id} ${o.name}`;
  const open = `    <testcase classname="${attr(`ptx-debug.${file}`)}" name="${attr(name)}" file="${attr(file)}"`;
  const suppressed = o.findings.filter((f) => f.suppressed !== undefined);
  const out = suppressed.length === 0 ? []
    : [`      <system-out>${xmlEscape(suppressed.map((f) => `suppressed${f.suppressed?.reason !== undefined ? ` (${f.suppressed.reason})` : ''}: ${findingText(file, f)}`).join('\n'))}</system-out>`];
  const body = (lines: string[]): string => (lines.length === 0 ? `${open}/>` : [`${open}>`, ...lines, '    </testcase>'].join('\n'));
  switch (o.status) {
    case 'pass': return body(out);
    case 'fail': {
      const failing = o.findings.filter((f) => f.suppressed === undefined);
      const message = `${failing.length} finding(s): ${failing[0]?.message ?? ''}`;
      return body([`      <failure message="${attr(message)}" type="${attr(`${o.id}/${o.severity}`)}">${xmlEscape(failing.map((f) => findingText(file, f)).join('\n'))}</failure>`, ...out]);
    }
    case 'na':
    case 'off':
    case 'not-built': {
      const why = o.status === 'na' ? `n/a: ${o.reason ?? ''}` : o.status === 'off' ? `off: ${o.reason ?? ''}` : 'not built yet';
      return body([`      <skipped message="${attr(why)}"/>`]);
    }
  }
}

function suite(f: FileAnalysis): { xml: string; tests: number; failures: number; errors: number; skipped: number } {
  const time = seconds(f.timings.parseMs + f.timings.checksMs);
  if (f.report === undefined) {
    const details = f.error?.diagnostics.join('\n') ?? '';
    const xml = [
      `  <testsuite name="${attr(f.file)}" tests="1" failures="0" errors="1" skipped="0" time="${time}">`,
      `    <testcase classname="${attr(`ptx-debug.${f.file}`)}" name="analyze" file="${attr(f.file)}">`,
      `      <error message="${attr(f.error?.message ?? 'not analyzed')}" type="input">${xmlEscape(details)}</error>`,
      '    </testcase>',
      '  </testsuite>',
    ].join('\n');
    return { xml, tests: 1, failures: 0, errors: 1, skipped: 0 };
  }
  const r = f.report;
  const failures = r.outcomes.filter((o) => o.status === 'fail').length;
  const skipped = r.outcomes.filter((o) => o.status !== 'pass' && o.status !== 'fail').length;
  const props = [
    ['score', formatScore(r.score.score)],
    ['band', r.band],
    ['exitCode', String(r.exitCode)],
  ].map(([k, v]) => `      <property name="${k}" value="${attr(v ?? '')}"/>`);
  const xml = [
    `  <testsuite name="${attr(f.file)}" tests="${r.outcomes.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}">`,
    '    <properties>',
    ...props,
    '    </properties>',
    ...r.outcomes.map((o) => testcase(f.file, o)),
    '  </testsuite>',
  ].join('\n');
  return { xml, tests: r.outcomes.length, failures, errors: 0, skipped };
}

export function formatJunit(result: AnalysisResult): string {
  const suites = result.files.map(suite);
  const sum = (k: 'tests' | 'failures' | 'errors' | 'skipped'): number => suites.reduce((a, s) => a + s[k], 0);
  const time = seconds(result.files.reduce((a, f) => a + f.timings.parseMs + f.timings.checksMs, 0));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ptx-debug" tests="${sum('tests')}" failures="${sum('failures')}" errors="${sum('errors')}" skipped="${sum('skipped')}" time="${time}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
  ].join('\n');
}
