// SARIF output: every fixture's report validates against the official SARIF
// 2.1.0 schema (the rtm.5 JSON schema as published, shipped by Microsoft's
// @microsoft/jest-sarif package, checked with ajv), and the parts GitHub code
// scanning reads are there: rules from check metadata, relative URIs, the
// `.cu` region with the PTX as a related location, fingerprints, codeFlows
// for chains, `results: []` when clean, notifications for broken files.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import addFormatsModule from 'ajv-formats';
import type * as Sarif from 'sarif';
import { describe, expect, it } from 'vitest';
import { analyzeFiles, analyzeText } from '../../src/analyze.js';
import { renderCheckDoc } from '../../src/checks/docs.js';
import { CHECKS } from '../../src/checks/index.js';
import { formatSarif, toSarif, toUri } from '../../src/report/sarif.js';
import { FIXTURES, HEADER, RACE_FINDING, raceResult, resultOf, textResult } from './helpers.js';

const require = createRequire(import.meta.url);
const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as Record<string, unknown>;
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false }) // the schema's language pattern is not valid with the u flag;
addFormatsModule.default(ajv);
const validate = ajv.compile(schema);

function expectValid(log: Sarif.Log): void {
  const ok = validate(log);
  expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toEqual([]);
  expect(ok).toBe(true);
}

const options = { version: '0.1.0' };

/** The .ptx files under these directories (CUDA sources would each cost an nvcc run). */
function ptxFiles(dirs: readonly string[]): string[] {
  return dirs.flatMap((d) => readdirSync(d, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith('.ptx')).map((p) => join(d, p))).sort();
}

describe('SARIF schema', () => {
  it('is the official 2.1.0 schema', () => {
    expect(schema['title']).toMatch(/SARIF\) Version 2\.1\.0/);
    expect(JSON.stringify(schema)).toContain('"2.1.0"');
  });

  it('rejects a log that breaks it (the validator is live)', () => {
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
  });

  it('every PTX fixture and example validates', { timeout: 120_000 }, async () => {
    const result = await analyzeFiles(ptxFiles(['fixtures', 'examples', FIXTURES]));
    expect(result.files.length).toBeGreaterThan(10);
    const log = toSarif(result, options);
    expectValid(log);
    // One result per finding, across every file.
    const findings = result.files.reduce((n, f) => n + (f.report?.findings.length ?? 0), 0);
    expect(log.runs[0]!.results).toHaveLength(findings);
    // And each file on its own.
    for (const f of result.files) expectValid(toSarif(resultOf(f), options));
  });
});

// Clean for every check: a kernel with line information (F100 wants .loc).
const CLEAN = `${HEADER}.file 1 "k.cu"\n.visible .entry k()\n{\n\t.loc 1 1 1\n\tret;\n}\n`;

describe('SARIF content', () => {
  it('a clean file has results: [] and the rules of every built check', () => {
    const log = toSarif(textResult(CLEAN), options);
    expectValid(log);
    const run = log.runs[0]!;
    expect(run.results).toEqual([]);
    expect(JSON.parse(formatSarif(textResult(CLEAN), options)).runs[0].results).toEqual([]);
    const rules = run.tool.driver.rules!;
    expect(rules.map((r) => r.id)).toEqual(CHECKS.map((c) => c.meta.id).sort());
    for (const rule of rules) {
      const meta = CHECKS.find((c) => c.meta.id === rule.id)!.meta;
      expect(rule.shortDescription?.text).toContain(meta.name);
      expect(rule.fullDescription?.text).toContain(meta.description);
      expect(rule.help?.markdown).toBe(renderCheckDoc(meta));
      expect(rule.defaultConfiguration?.level).toMatch(/^(error|warning|note)$/);
      expect(rule.properties?.tags).toContain(meta.category);
    }
  });

  it('a dataflow finding has a codeFlows entry whose steps are the chain', () => {
    const log = toSarif(raceResult(), options);
    expectValid(log);
    const result = log.runs[0]!.results!.find((r) => r.message.text === RACE_FINDING.message)!;
    expect(result.codeFlows).toHaveLength(1);
    const steps = result.codeFlows![0]!.threadFlows[0]!.locations;
    expect(steps.map((s) => s.location?.message?.text)).toEqual(RACE_FINDING.chain!.map((c) => c.what));
    expect(steps.map((s) => s.location?.physicalLocation?.region?.startLine)).toEqual([10, 11, 12]);
    expect(steps.map((s) => s.executionOrder)).toEqual([1, 2, 3]);
  });

  it('a finding that .loc maps is shown on the .cu line, with the PTX line related', () => {
    const log = toSarif(raceResult(), options);
    const result = log.runs[0]!.results!.find((r) => r.message.text === RACE_FINDING.message)!;
    expect(result.ruleId).toBe('F001');
    expect(result.level).toBe('error');
    const primary = result.locations![0]!;
    expect(primary.physicalLocation?.artifactLocation?.uri).toBe('src/race.cu');
    expect(primary.physicalLocation?.region).toEqual({ startLine: 11, startColumn: 3 });
    expect(primary.logicalLocations?.[0]?.name).toBe('race');
    const ptx = result.relatedLocations!.find((l) => l.physicalLocation?.artifactLocation?.uri === 'race.ptx')!;
    expect(ptx.physicalLocation?.region?.startLine).toBe(18);
    expect(result.relatedLocations!.some((l) => l.message?.text === RACE_FINDING.related![0]!.message)).toBe(true);
  });

  it('real findings mapped through .loc point at the committed .cu source, relative to the root', async () => {
    const result = await analyzeFiles([join(FIXTURES, 'block-reduce-defects.ptx')]);
    const log = toSarif(result, { version: '0.1.0', root: resolve('.') });
    expectValid(log);
    const results = log.runs[0]!.results!;
    // Findings at instructions map through .loc to the .cu file, with the PTX
    // as a related location; findings about a whole function stay in the PTX.
    const mapped = results.filter((r) => r.locations![0]!.physicalLocation?.artifactLocation?.uri?.endsWith('.cu'));
    expect(mapped.length).toBeGreaterThan(0);
    for (const r of mapped) {
      // Relative when the checkout is where the fixture's .file says (its path is absolute); a file URI elsewhere.
      expect(r.locations![0]!.physicalLocation?.artifactLocation?.uri).toMatch(/(^|\/)fixtures\/corpus\/cuda\/04-block-reduce-shared\.cu$/);
      expect(r.relatedLocations![0]!.physicalLocation?.artifactLocation?.uri).toBe('test/report/fixtures/block-reduce-defects.ptx');
    }
    for (const r of results.filter((x) => !mapped.includes(x))) {
      expect(r.locations![0]!.physicalLocation?.artifactLocation?.uri).toBe('test/report/fixtures/block-reduce-defects.ptx');
    }
  });

  it('fingerprints survive lines moving and tell repeated findings apart', () => {
    const a = toSarif(raceResult(), options).runs[0]!.results!;
    const hash = (rs: Sarif.Result[]): string[] => rs.map((r) => r.partialFingerprints!['primaryLocationLineHash']!);
    // The runner's fingerprint where it set one, else the report's own line hash.
    expect(hash(a).every((h) => /^[0-9a-f]{32}$|^[0-9a-f]{16}:\d+$/.test(h))).toBe(true);
    const text = `${HEADER}.func f()\n{\n\tret;\n}\n`;
    const shifted = `// a comment that moves every line\n${text}`;
    const one = hash(toSarif(textResult(text), options).runs[0]!.results!);
    const two = hash(toSarif(textResult(shifted), options).runs[0]!.results!);
    expect(one.length).toBeGreaterThan(0);
    expect(two).toEqual(one);
    const repeated = `${HEADER}.func f()\n{\n\tld.shraed.u32 %r1, [%rd1];\n\tld.shraed.u32 %r1, [%rd1];\n\tret;\n}\n`;
    const same = hash(toSarif(textResult(repeated), options).runs[0]!.results!.filter((r) => r.ruleId === 'F009'));
    expect(same).toHaveLength(2);
    expect(new Set(same).size).toBe(2);
  });

  it('findings in PTX that nvcc made from a .cu input point at the .cu, never at generated PTX lines', () => {
    const compiled = { ...raceResult('src/race.cu').files[0]!, compiledFrom: 'cuda' as const };
    const log = toSarif(resultOf(compiled), options);
    expectValid(log);
    const result = log.runs[0]!.results!.find((r) => r.message.text === RACE_FINDING.message)!;
    expect(result.locations![0]!.physicalLocation?.artifactLocation?.uri).toBe('src/race.cu');
    expect(result.locations![0]!.physicalLocation?.region?.startLine).toBe(11);
    expect(result.relatedLocations!.map((l) => l.message?.text)).toEqual([RACE_FINDING.related![0]!.message]);
    const unmapped = { ...RACE_FINDING, location: { ...RACE_FINDING.location, source: undefined }, chain: undefined, related: undefined, message: 'unmapped' };
    const log2 = toSarif(resultOf({ ...compiled, report: { ...compiled.report!, findings: [unmapped] } }), options);
    expectValid(log2);
    expect(log2.runs[0]!.results![0]!.locations![0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'src/race.cu', uriBaseId: '%SRCROOT%' } });
  });

  it('a file that could not be analyzed is a tool notification', async () => {
    const broken = analyzeText(`${HEADER}.entry k()\n{\n\tmov.u32 %r1 %r2;\n}\n`, 'broken.ptx');
    const log = toSarif(resultOf(broken), options);
    expectValid(log);
    const inv = log.runs[0]!.invocations![0]!;
    expect(inv.toolExecutionNotifications).toHaveLength(1);
    expect(inv.toolExecutionNotifications![0]!.level).toBe('error');
    expect(inv.toolExecutionNotifications![0]!.message.text).toContain('broken.ptx');
    expect(inv.toolExecutionNotifications![0]!.locations![0]!.physicalLocation?.artifactLocation?.uri).toBe('broken.ptx');
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('suppressed findings carry an inSource suppression with the reason', () => {
    const text = `// ptx-debug-disable F001 -- a helper module, linked later\n${HEADER}.func f()\n{\n\tret;\n}\n`;
    const log = toSarif(textResult(text), options);
    expectValid(log);
    const r = log.runs[0]!.results!.find((x) => x.ruleId === 'F001')!;
    expect(r.suppressions).toEqual([{ kind: 'inSource', status: 'accepted', justification: 'a helper module, linked later' }]);
  });

  it('URIs are relative to the root and percent-encoded; paths outside it stay absolute', () => {
    const root = resolve('/work/project');
    expect(toUri('/work/project/src/a b#1.cu', root)).toEqual({ uri: 'src/a%20b%231.cu', relative: true });
    expect(toUri('/usr/include/x.h', root)).toEqual({ uri: 'file:///usr/include/x.h', relative: false });
    const hostile = toSarif(resultOf(analyzeText(readFileSync(join(FIXTURES, 'hostile.ptx'), 'utf8'), 'dir/<b>&.ptx')), options);
    expectValid(hostile);
    const uris = JSON.stringify(hostile.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation?.artifactLocation?.uri));
    expect(uris).not.toMatch(/[<>]/);
  });
});
