// `ptx-debug analyze` end to end through the CLI: every exit code, several
// files, --min-score, a config that raises a check to critical, suppressions,
// and each output format.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOT_BUILT } from '../../src/checks/index.js';
import { main } from '../../src/cli/main.js';
import { reportSchema } from '../../src/report/schema.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['node', 'ptx-debug', ...args], { out: (s) => { out += `${s}\n`; }, err: (s) => { err += `${s}\n`; } });
  return { code, out, err };
}

const H = '.version 8.0\n.target sm_90\n.address_size 64\n';
const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-analyze-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const good = write('good.ptx', `${H}.visible .entry k()\n{\n\tret;\n}\n`);
const noEntry = write('lib.ptx', `${H}.func f()\n{\n\tret;\n}\n`);
const suppressed = write('suppressed.ptx', `// ptx-debug-disable F001 -- a helper module, linked later\n${H}.func f()\n{\n\tret;\n}\n`);
const broken = write('broken.ptx', `${H}.entry k()\n{\n\tmov.u32 %r1 %r2;\n}\n`);
const critical = join(dir, 'critical.json');
writeFileSync(critical, JSON.stringify({ checks: { F001: 'critical' } }));
const badConfig = join(dir, 'bad.json');
writeFileSync(badConfig, JSON.stringify({ minScore: 'high', checks: { F001: 'loud' } }));

describe('analyze exit codes', () => {
  it('0: every check passes', async () => {
    const r = await cli('analyze', good);
    expect(r.code).toBe(0);
    expect(r.out).toContain('exit 0: score 100.0 is at least 90');
  });

  it('1: below 90 but not below --min-score', async () => {
    // --only F001 makes the missing .entry the whole score (0), whatever else is built.
    const r = await cli('analyze', noEntry, '--only', 'F001', '--min-score', '0');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/exit 1: score \d+\.\d is below 90/);
  });

  it('2: below --min-score (default 70, or 90 for a CI gate)', async () => {
    expect((await cli('analyze', noEntry, '--only', 'F001')).code).toBe(2);
    const r = await cli('analyze', noEntry, '--only', 'F001', '--min-score', '90');
    expect(r.code).toBe(2);
    expect(r.out).toContain('is below --min-score 90');
  });

  it('3: an unsuppressed critical finding (a config raises F001 to critical)', async () => {
    const r = await cli('analyze', noEntry, '--config', critical);
    expect(r.code).toBe(3);
    expect(r.out).toContain('exit 3: an unsuppressed critical finding');
    expect(r.out).toMatch(/critical\s+F001/);
  });

  it('4: a syntax error, a missing file, a bad option or a bad config', async () => {
    const syntax = await cli('analyze', broken);
    expect(syntax.code).toBe(4);
    expect(syntax.out).toContain(`${broken}:6:14: expected ';' but found '%r2'`);
    expect((await cli('analyze', join(dir, 'nope.ptx'))).code).toBe(4);
    expect((await cli('analyze', good, '--only', 'F999')).code).toBe(4);
    expect((await cli('analyze', good, '--block', '0,1')).code).toBe(4);
    const cfg = await cli('analyze', good, '--config', badConfig);
    expect(cfg.code).toBe(4);
    expect(cfg.err).toContain('minScore: Expected number, received string');
    expect(cfg.err).toContain('checks.F001: Invalid enum value');
  });

  it('several files: the worst code wins and the summary gives lowest and mean', async () => {
    const r = await cli('analyze', good, noEntry, '--only', 'F001');
    expect(r.code).toBe(2);
    expect(r.out).toContain('2 files: lowest score 0.0, mean 50.0; exit 2');
    expect((await cli('analyze', good, noEntry, broken, '--only', 'F001')).code).toBe(4);
  });

  it('walks directories for *.ptx', async () => {
    const sub = join(dir, 'tree');
    mkdirSync(join(sub, 'a', 'b'), { recursive: true });
    writeFileSync(join(sub, 'a', 'b', 'x.ptx'), readFileSync(good));
    writeFileSync(join(sub, 'a', 'notes.txt'), 'not ptx');
    const r = await cli('analyze', sub, '--format', 'json');
    const json = reportSchema.parse(JSON.parse(r.out));
    expect(json.files.map((f) => f.file)).toEqual([join(sub, 'a', 'b', 'x.ptx')]);
  });
});

describe('analyze outputs', () => {
  it('an inline suppression keeps the finding but does not fail the check', async () => {
    const r = await cli('analyze', suppressed, '--falsify');
    expect(r.code).toBe(0);
    expect(r.out).toContain('(suppressed: a helper module, linked later)');
    expect(r.out).toMatch(/F001 missing-entry-point\s+1 pt {2}pass/);
  });

  it('--falsify prints every hypothesis and says how many checks are built (naming any that are not)', async () => {
    const r = await cli('analyze', good, '--falsify');
    expect(r.out).toContain('scorecard:');
    expect(r.out).toMatch(/F001 missing-entry-point\s+1 pt {2}pass/);
    expect(r.out).toContain(`${100 - NOT_BUILT.length} of 100 checks built`);
    if (NOT_BUILT.length > 0) expect(r.out).toMatch(/not built yet \(left out of the score\): F\d{3}/);
    else expect(r.out).not.toContain('not built yet');
  });

  it('--format json validates against the exported schema', async () => {
    const r = await cli('analyze', good, noEntry, broken, '--format', 'json');
    const json = reportSchema.parse(JSON.parse(r.out));
    expect(json.schemaVersion).toBe(1);
    expect(json.summary.exitCode).toBe(4);
    expect(json.files[1]!.findings[0]).toMatchObject({ id: 'F001', severity: 'medium', location: { line: 1 } });
    expect(json.files[2]!.error?.diagnostics[0]).toContain(':6:14:');
  });

  it('--format tsv gives one line per hypothesis per kernel', async () => {
    const r = await cli('analyze', good, '--format', 'tsv', '--only', 'F001');
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe('file\tkernel\tid\tstatus\tlines');
    expect(lines).toContain(`${good}\tk\tF001\tpass\t-`);
  });

  it('-o writes the report to a file', async () => {
    const out = join(dir, 'report.json');
    const r = await cli('analyze', good, '--format', 'json', '-o', out);
    expect(r.out).toBe('');
    expect(reportSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).files).toHaveLength(1);
  });
});

describe('analyze on a directory of many files', () => {
  it('reports progress and gives the same results as one file at a time', async () => {
    const many = join(dir, 'many');
    mkdirSync(many, { recursive: true });
    const names: string[] = [];
    for (let i = 0; i < 40; i++) {
      const name = join(many, `k${String(i).padStart(3, '0')}.ptx`);
      writeFileSync(name, i % 3 === 0 ? readFileSync(noEntry) : readFileSync(good));
      names.push(name);
    }
    const seen: number[] = [];
    let out = '';
    const code = await main(['node', 'ptx-debug', 'analyze', many, '--format', 'json', '--only', 'F001'], {
      out: (s) => { out += s; }, err: () => {}, progress: (done, total) => { seen.push(done); expect(total).toBe(40); },
    });
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const strip = (f: { timings: unknown }) => ({ ...f, timings: null });
    const together = reportSchema.parse(JSON.parse(out)).files.map(strip);
    const alone = [];
    for (const n of names) alone.push(...reportSchema.parse(JSON.parse((await cli('analyze', n, '--format', 'json', '--only', 'F001')).out)).files.map(strip));
    expect(together).toEqual(alone);
    expect(code).toBe(2);
  });
});
