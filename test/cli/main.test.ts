// The CLI shell: --help/--version exit 0; unknown options, unknown commands,
// missing files and syntax errors give clear lines and exit 4.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['node', 'ptx-debug', ...args], { out: (s) => { out += s.endsWith('\n') ? s : `${s}\n`; }, err: (s) => { err += s.endsWith('\n') ? s : `${s}\n`; } });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-cli-'));
const bad = join(dir, 'bad.ptx');
writeFileSync(bad, '.version 8.5\n.target sm_90\n.entry k()\n{\n  mov.u32 %r1 %r2;\n  add.u32 %r1, , 3;\n}\n');

describe('ptx-debug', () => {
  it('prints help and its version with exit 0', async () => {
    expect(await cli('--help')).toMatchObject({ code: 0, out: expect.stringContaining('Usage: ptx-debug') });
    expect((await cli('--version')).out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect((await cli('--version')).code).toBe(0);
    expect((await cli('parse', '--help')).code).toBe(0);
  });

  it('rejects unknown options and commands with one line and exit 4', async () => {
    const r = await cli('parse', '--bogus', 'examples/block-reduce.ptx');
    expect(r.code).toBe(4);
    expect(r.err.trim()).toBe("error: unknown option '--bogus'");
    expect((await cli('frobnicate')).code).toBe(4);
  });

  it('names a missing file in one line and exits 4', async () => {
    const r = await cli('parse', join(dir, 'missing.ptx'));
    expect(r).toMatchObject({ code: 4, out: '' });
    expect(r.err.trim()).toBe(`ptx-debug: cannot read '${join(dir, 'missing.ptx')}': no such file`);
  });

  it('summarizes a module', async () => {
    const r = await cli('parse', 'examples/block-reduce.ptx');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/examples\/block-reduce.ptx: PTX \d+\.\d+, target sm_90, address size 64/);
    expect(r.out).toMatch(/\.entry \S+ \(line \d+\): \d+ param\(s\), \d+ instruction\(s\)/);
  });

  it('prints the syntax tree as JSON', async () => {
    const r = await cli('parse', '--json', 'examples/block-reduce.ptx');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { module: { kind: string; statements: { kind: string }[] } };
    expect(json.module.kind).toBe('Module');
    expect(json.module.statements.some((s) => s.kind === 'Function')).toBe(true);
  });

  it('prints each function\'s CFG as Graphviz dot, or one function\'s', async () => {
    const all = await cli('parse', 'fixtures/cfg/scopes-and-calls.ptx', '--cfg', 'dot');
    expect(all.code).toBe(0);
    expect(all.out.match(/^digraph /gm)).toHaveLength(3);
    const one = await cli('parse', 'fixtures/cfg/if-else.ptx', '--cfg', 'dot', '--function', 'k');
    expect(one.out).toContain('digraph "k" {');
    expect(one.out).toContain('B0 -> B2 [label="br"];');
    expect(one.out).toContain('B2 [label="B2 $ELSE\\nline 17"];');
    const missing = await cli('parse', 'fixtures/cfg/if-else.ptx', '--cfg', 'dot', '--function', 'nope');
    expect(missing).toMatchObject({ code: 4, err: "ptx-debug: no function 'nope' with a body (functions: k)\n" });
  });

  it('prints every syntax error with file:line:col and a caret, and exits 4', async () => {
    const r = await cli('parse', bad);
    expect(r.code).toBe(4);
    expect(r.err).toContain(`${bad}:5:15: expected ';' but found '%r2'\n    mov.u32 %r1 %r2;\n                ^^^`);
    expect(r.err).toContain(`${bad}:6:16: unexpected ','; expected an operand`);
    expect(r.err).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it.skipIf(!existsSync('dist/cli/main.js'))('runs as a program and sets the exit code', () => {
    const run = (...args: string[]): number => {
      try {
        execFileSync(process.execPath, ['bin/ptx-debug.js', ...args], { stdio: 'pipe' });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(run('--version')).toBe(0);
    expect(run('parse', 'examples/block-reduce.ptx')).toBe(0);
    expect(run('parse', bad)).toBe(4);
    expect(run('parse', '--nope')).toBe(4);
  });

  it.skipIf(!existsSync('dist/cli/main.js'))('writes a timeline of its phases when PTX_DEBUG_TIMELINE names a file, nothing otherwise', () => {
    const timeline = join(dir, 'timeline.txt');
    // A module over a MB: its parts go to worker threads, which mark theirs too.
    const big = join(dir, 'big.ptx');
    const kernel = (k: number): string => `.visible .entry k${k}()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n`
      + Array.from({ length: 12_000 }, (_, i) => `\tadd.u32 %r1, %r1, ${i};`).join('\n') + '\n\tret;\n}\n';
    writeFileSync(big, `.version 8.0\n.target sm_90\n.address_size 64\n${Array.from({ length: 6 }, (_, k) => kernel(k)).join('')}`);
    execFileSync(process.execPath, ['bin/ptx-debug.js', 'analyze', big, '--jobs', '2'], { stdio: 'pipe', env: { ...process.env, PTX_DEBUG_TIMELINE: timeline } });
    const lines = readFileSync(timeline, 'utf8').trim().split('\n').map((l) => l.split(' '));
    const labels = lines.map((l) => l.slice(4).join(' '));
    expect(labels).toEqual(expect.arrayContaining(['command', 'read', 'parts given', 'parsed', 'parts done', 'report assembled', 'report written', 'thread loaded', 'part 0 start', 'part 0 end']));
    expect(lines.every((l) => /^\d+$/.test(l[0]!) && /^\d+\.\d+$/.test(l[1]!) && /^\d+$/.test(l[2]!) && /^\d+$/.test(l[3]!))).toBe(true);
    const times = lines.map((l) => Number(l[0]));
    expect(times.indexOf(Math.min(...times))).toBe(0);
    execFileSync(process.execPath, ['bin/ptx-debug.js', 'analyze', 'examples/block-reduce.ptx'], { stdio: 'pipe', env: { ...process.env, PTX_DEBUG_TIMELINE: '' } });
    expect(readFileSync(timeline, 'utf8').trim().split('\n')).toHaveLength(lines.length);
  });
});
