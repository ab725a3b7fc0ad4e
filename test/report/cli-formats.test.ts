// `ptx-debug analyze --format sarif|html|junit` and `--sarif/--html/--junit
// FILE` through the CLI: each writes its format, and the exit code stays the
// gate's.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FIXTURES } from './helpers.js';

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(['node', 'ptx-debug', ...args], { out: (s) => { out += `${s}\n`; }, err: () => {} });
  return { code, out };
}

const input = relative(process.cwd(), join(FIXTURES, 'block-reduce-defects.ptx'));
const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-formats-'));

describe('analyze report formats', () => {
  it('--format sarif prints a SARIF log', async () => {
    const r = await cli('analyze', input, '--format', 'sarif');
    const log = JSON.parse(r.out) as { version: string; runs: { results: { ruleId: string }[] }[] };
    expect(log.version).toBe('2.1.0');
    expect(log.runs[0]!.results.map((x) => x.ruleId)).toEqual(expect.arrayContaining(['F005', 'F009']));
    expect(r.code).toBe((await cli('analyze', input)).code);
  });

  it('--format html prints a page; --format junit prints XML', async () => {
    const html = await cli('analyze', input, '--format', 'html');
    expect(html.out).toMatch(/^<!DOCTYPE html>/);
    expect(html.out).toContain('<figure class="cfg">');
    const junit = await cli('analyze', input, '--format', 'junit');
    expect(junit.out).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="ptx-debug" tests="100" failures="[1-9]\d*"/);
  });

  it('--sarif, --html and --junit write files beside the printed report', async () => {
    const sarif = join(dir, 'out.sarif');
    const html = join(dir, 'out.html');
    const junit = join(dir, 'out.xml');
    const r = await cli('analyze', input, '--sarif', sarif, '--html', html, '--junit', junit, '--no-color');
    expect(r.out).toMatch(/exit [0-3]:/);
    expect(r.out).toContain('F005');
    expect(JSON.parse(readFileSync(sarif, 'utf8')).version).toBe('2.1.0');
    expect(readFileSync(html, 'utf8')).toContain('<div class="gauge">');
    expect(readFileSync(junit, 'utf8')).toContain('<testsuite name="test/report/fixtures/block-reduce-defects.ptx"');
  });
});
