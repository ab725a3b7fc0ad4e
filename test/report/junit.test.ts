// JUnit XML: well-formed (parsed with saxes, a strict XML 1.0 parser that
// throws on any well-formedness error), one <testcase> per hypothesis per
// file, failures carrying the findings, and input text with XML
// metacharacters (in file names, comments, `.file` paths, messages) carried
// through escaped, so the parsed text equals the original.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { analyzeFiles, analyzeText } from '../../src/analyze.js';
import { CATALOG } from '../../src/checks/catalog.js';
import type { Finding } from '../../src/checks/types.js';
import { formatJunit, xmlEscape } from '../../src/report/junit.js';
import { FIXTURES, HEADER, RACE_FINDING, raceResult, resultOf } from './helpers.js';

interface XmlNode {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlNode[];
  text: string;
}

/** A small DOM from saxes events; throws on any well-formedness error. */
function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser();
  const root: XmlNode = { name: '#document', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  parser.on('error', (e) => { throw e; });
  parser.on('opentag', (tag) => {
    const node: XmlNode = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => { stack.pop(); });
  parser.on('text', (t) => { stack[stack.length - 1]!.text += t; });
  parser.write(xml).close();
  return root.children[0]!;
}

const all = (n: XmlNode, name: string): XmlNode[] => [...n.children.filter((c) => c.name === name), ...n.children.flatMap((c) => all(c, name))];

describe('JUnit XML', () => {
  it('has one test case per hypothesis per file, and a well-formed document', async () => {
    const result = await analyzeFiles(['examples', join(FIXTURES, 'block-reduce-defects.ptx')]);
    const doc = parseXml(formatJunit(result));
    expect(doc.name).toBe('testsuites');
    const suites = all(doc, 'testsuite');
    expect(suites.map((s) => s.attrs['name'])).toEqual(result.files.map((f) => f.file));
    for (const s of suites) {
      const cases = all(s, 'testcase');
      expect(cases).toHaveLength(CATALOG.length);
      expect(cases.map((c) => c.attrs['name']!.split(' ')[0])).toEqual(CATALOG.map((c) => c.id));
      expect(Number(s.attrs['tests'])).toBe(cases.length);
      expect(Number(s.attrs['failures'])).toBe(cases.filter((c) => all(c, 'failure').length > 0).length);
      expect(Number(s.attrs['skipped'])).toBe(cases.filter((c) => all(c, 'skipped').length > 0).length);
    }
    expect(Number(doc.attrs['tests'])).toBe(CATALOG.length * result.files.length);
  });

  it('a failing hypothesis carries its findings; not-built ones are skipped with the reason', async () => {
    const result = await analyzeFiles([join(FIXTURES, 'block-reduce-defects.ptx')]);
    const report = result.files[0]!.report!;
    const failing = report.outcomes.filter((o) => o.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    const cases = all(parseXml(formatJunit(result)), 'testcase');
    for (const o of failing) {
      const c = cases.find((x) => x.attrs['name'] === `${o.id} ${o.name}`)!;
      const failure = all(c, 'failure')[0]!;
      for (const f of o.findings) {
        expect(failure.text).toContain(f.message);
        expect(failure.text).toContain(`:${f.location.line}:${f.location.column}`);
        if (f.location.source !== undefined) expect(failure.text).toContain(`04-block-reduce-shared.cu:${f.location.source.line}`);
      }
    }
    for (const o of report.outcomes.filter((x) => x.status === 'not-built')) {
      const c = cases.find((x) => x.attrs['name'] === `${o.id} ${o.name}`)!;
      expect(all(c, 'skipped')[0]!.attrs['message']).toBe('not built yet');
    }
  });

  it('a dataflow finding shows its chain', () => {
    const cases = all(parseXml(formatJunit(raceResult())), 'testcase');
    const failure = all(cases.find((c) => c.attrs['name']!.startsWith(RACE_FINDING.id))!, 'failure')[0]!;
    expect(failure.text).toContain('chain: st.shared.f32 at 16 → ld.shared.f32 at 18 → st.global.f32 at 21');
  });

  it('stays well-formed with XML metacharacters in names, comments, paths and messages', () => {
    const name = `dir/a&b<c>"d'e]]>.ptx`;
    const hostile = analyzeText(readFileSync(join(FIXTURES, 'hostile.ptx'), 'utf8'), name);
    const report = hostile.report!;
    const message = 'a <message> with & and ]]> and "quotes" and \'apos\' and a control \u0001 char and a lone \uD800 surrogate';
    const extra: Finding = { ...RACE_FINDING, id: 'F001', severity: 'high', message, chain: [], related: [] };
    const withExtra = {
      ...hostile,
      report: { ...report, outcomes: report.outcomes.map((o) => (o.id === 'F001' ? { ...o, status: 'fail' as const, findings: [extra] } : o)) },
    };
    const broken = analyzeText(`${HEADER}.entry k()\n{\n\tmov.u32 %r1 %r2; // <bad> & ]]>\n}\n`, '<broken>&.ptx');
    const xml = formatJunit(resultOf(withExtra, broken));
    const doc = parseXml(xml);
    const suites = all(doc, 'testsuite');
    expect(suites.map((s) => s.attrs['name'])).toEqual([name, '<broken>&.ptx']);
    const cases = all(suites[0]!, 'testcase');
    expect(cases).toHaveLength(CATALOG.length);
    expect(cases[0]!.attrs['classname']).toBe(`ptx-debug.${name}`);
    // The `.file` path with markup reaches the failure text intact.
    const f009 = all(cases.find((c) => c.attrs['name']!.startsWith('F009'))!, 'failure')[0]!;
    expect(f009.text).toContain('/tmp/<img src=x onerror=window.__pwned=2>&<b>.cu:3');
    // The suppression reason from a comment is carried (the suppressed finding is listed, not failed).
    expect(xml).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned = 4;&lt;/script&gt; &amp; &lt;i&gt;]]&gt;');
    // A message with characters XML cannot hold: they are replaced, the rest is intact.
    const f001 = all(cases.find((c) => c.attrs['name']!.startsWith('F001'))!, 'failure')[0]!;
    expect(f001.text).toContain('a <message> with & and ]]> and "quotes" and \'apos\' and a control \uFFFD char and a lone \uFFFD surrogate');
    expect(f001.attrs['message']).toContain('a <message> with & and ]]>');
    // The broken file is one error case.
    const err = all(suites[1]!, 'error');
    expect(err).toHaveLength(1);
    expect(err[0]!.text).toContain('<broken>&.ptx');
  });

  it('escapes every metacharacter', () => {
    expect(xmlEscape(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(xmlEscape('\u0000\u0008\t\n\r\uFFFE\uD83D\uDE00')).toBe('\uFFFD\uFFFD\t\n\r\uFFFD\uD83D\uDE00');
  });
});
