// The CI example's analyze command, exactly as the workflow runs it (with
// KERNELS set to the bundled examples): exit code and every report it writes.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

const workflow = readFileSync('examples/ci/ptx-debug.yml', 'utf8');
const step = workflow.split('\n').find((l) => l.trim().startsWith('run: ptx-debug analyze'));
const kernels = /KERNELS: (\S+)/.exec(workflow)?.[1];

/** Splits the workflow's shell line into arguments (it uses only plain words and "$KERNELS"). */
function argsOf(line: string, env: Record<string, string>): string[] {
  return line.trim().replace(/^run: ptx-debug /, '').split(/\s+/).map((w) => w.replace(/^"\$(\w+)"$/, (_m, v: string) => env[v] ?? ''));
}

describe('the CI example', () => {
  it('names the analyze command and the kernels directory', () => {
    expect(step).toBeDefined();
    expect(kernels).toBe('examples');
  });

  it('passes the gate on the bundled examples and writes SARIF, HTML and JUnit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-ci-'));
    const args = argsOf(step!, { KERNELS: kernels! }).map((a) => (a.startsWith('ptx-debug.') ? join(dir, a) : a));
    expect(args.slice(0, 2)).toEqual(['analyze', 'examples']);
    let out = '';
    const code = await main(['node', 'ptx-debug', ...args], { out: (s) => { out += s; }, err: () => {} });
    expect(code, out).toBe(0);
    const sarif = JSON.parse(readFileSync(join(dir, 'ptx-debug.sarif'), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(sarif.version).toBe('2.1.0');
    expect(Array.isArray(sarif.runs[0]!.results)).toBe(true);
    expect(readFileSync(join(dir, 'ptx-debug.html'), 'utf8')).toContain('<!DOCTYPE html>');
    expect(readFileSync(join(dir, 'ptx-debug.xml'), 'utf8')).toContain('<testsuites');
  }, 120_000);
});
