// The part worker runs its bundled code from V8's code cache (src/part-worker-entry.ts): made by the first
// part thread of a run that found none, taken by later runs with the same Node and V8 flags, refused by V8
// under other flags (the code then compiles as before), and never read from a folder another user could
// write. The threads' reports are the same with and without it.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { codeCacheDir, codeCacheFile, KEPT_CODE_CACHES, ownedPrivately, pruneCodeCaches, runBody, writeCodeCache } from '../../src/part-worker-entry.js';

const DIR = join(tmpdir(), `ptx-debug-code-cache-test-${process.pid}`);
mkdirSync(DIR, { recursive: true, mode: 0o700 });
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

const BODY = join(DIR, 'body.cjs');
writeFileSync(BODY, 'const { sep } = require("node:path");\nfunction triangle(n) { let s = 0; for (let i = 1; i <= n; i++) s += i; return s; }\n'
  + 'module.exports = { value: triangle(100), sep, file: __filename };\n');

/** Runs the body in a fresh Node with `flags`, after writing its cache there when `write`; what came back. */
function inChild(cacheFile: string, flags: string[], write: boolean): { cache: string; value: number; written?: boolean } {
  const entry = pathToFileURL(resolve('dist/part-worker-entry.js')).href;
  const code = `const m = await import(${JSON.stringify(entry)});\n`
    + `const r = m.runBody(${JSON.stringify(BODY)}, ${JSON.stringify(cacheFile)});\n`
    + `const written = ${write} ? m.writeCodeCache(r.script, ${JSON.stringify(cacheFile)}) : undefined;\n`
    + `console.log(JSON.stringify({ cache: r.cache, value: r.exports.value, written }));`;
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', code], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { cache: string; value: number; written?: boolean };
}

describe.skipIf(!existsSync('dist/part-worker-entry.js'))('the part worker\'s code cache', () => {
  it('is made once, then taken by a process with the same flags and refused under other flags', () => {
    const dir = join(DIR, 'cache');
    const file = codeCacheFile(BODY, dir);
    expect(inChild(file, [], true)).toEqual({ cache: 'none', value: 5050, written: true });
    expect(existsSync(file)).toBe(true);
    expect(inChild(file, [], false)).toEqual({ cache: 'used', value: 5050 });
    // Heap sizes are among the flags V8 checks: refused, and the code runs all the same.
    expect(inChild(file, ['--max-old-space-size=1234'], false)).toEqual({ cache: 'rejected', value: 5050 });
  });

  it('runs the body as CommonJS, with its own require and file name, and with no cache at all', () => {
    const r = runBody(BODY, undefined);
    expect(r.cache).toBe('off');
    expect(r.exports).toEqual({ value: 5050, sep: '/', file: BODY });
  });

  it('is never read from, nor written to, a folder others can write', () => {
    const open = join(DIR, 'open');
    mkdirSync(open, { recursive: true });
    chmodSync(open, 0o777);
    const file = codeCacheFile(BODY, open);
    writeFileSync(file, 'not a code cache');
    expect(ownedPrivately(open)).toBe(false);
    expect(runBody(BODY, file).cache).toBe('none');
    expect(writeCodeCache(runBody(BODY, undefined).script, file)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('not a code cache');
  });

  it('is written by one thread: not while another writes it, nor once written since the run began', () => {
    const dir = join(DIR, 'one');
    const file = codeCacheFile(BODY, dir);
    const { script } = runBody(BODY, undefined);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(`${file}.partial`, '');
    expect(writeCodeCache(script, file)).toBe(false);
    // A partial file a stopped thread left a while ago is taken over.
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${file}.partial`, old, old);
    expect(writeCodeCache(script, file)).toBe(true);
    expect(writeCodeCache(script, file, Date.now() - 60_000)).toBe(false);
  });

  it('keeps the most recent caches only (each build, Node and set of flags makes its own)', () => {
    const dir = join(DIR, 'many');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (let i = 0; i < KEPT_CODE_CACHES + 3; i++) {
      const f = join(dir, `part-worker-${i}.cache`);
      writeFileSync(f, '');
      const at = new Date(Date.now() - (100 - i) * 1000);
      utimesSync(f, at, at);
    }
    writeFileSync(join(dir, 'other.txt'), '');
    pruneCodeCaches(dir);
    const left = readdirSync(dir).sort();
    expect(left).toContain('other.txt');
    expect(left.filter((f) => f.endsWith('.cache'))).toEqual(Array.from({ length: KEPT_CODE_CACHES }, (_, k) => `part-worker-${k + 3}.cache`).sort());
  });

  it('lives in PTX_DEBUG_CODE_CACHE_DIR, else the XDG cache folder, else ~/.cache, one file per body and flags', () => {
    expect(codeCacheDir({ PTX_DEBUG_CODE_CACHE_DIR: '/x/y' })).toBe('/x/y');
    expect(codeCacheDir({ XDG_CACHE_HOME: '/c' })).toBe('/c/ptx-debug');
    expect(codeCacheDir({})).toMatch(/\.cache\/ptx-debug$/);
    const a = codeCacheFile(BODY, '/d');
    expect(codeCacheFile(BODY, '/d')).toBe(a);
    expect(codeCacheFile(BODY, '/d', { NODE_OPTIONS: '--max-old-space-size=99' })).not.toBe(a);
  });
});

const BUILT = existsSync('dist/bundle/part-worker.cjs') && existsSync('dist/analyze.js');

describe.skipIf(!BUILT)('part threads with the code cache', () => {
  it('make it on the first run, take it on the next, with the same report', () => {
    const dir = join(DIR, 'threads');
    const timeline = join(DIR, 'timeline.txt');
    const run = (): { report: string; marks: string[] } => {
      rmSync(timeline, { force: true });
      // A module of 1 MB or more is checked by part threads (forty kernels, two threads).
      const r = spawnSync(process.execPath, ['bin/ptx-debug.js', 'analyze', MODULE, '--falsify', '--jobs', '2', '--format', 'json'], {
        encoding: 'utf8', env: { ...process.env, PTX_DEBUG_CODE_CACHE_DIR: dir, PTX_DEBUG_TIMELINE: timeline },
      });
      const marks = readFileSync(timeline, 'utf8').split('\n').filter((l) => l.includes('code cache')).map((l) => l.split(' ').slice(4).join(' '));
      return { report: JSON.stringify(JSON.parse(r.stdout), (k, v: unknown) => (k.endsWith('Ms') ? undefined : v)), marks };
    };
    const first = run();
    expect(first.marks.filter((m) => m === 'code cache none')).toHaveLength(2);
    expect(first.marks.filter((m) => m === 'code cache written')).toHaveLength(1);
    const second = run();
    expect(second.marks).toEqual(['code cache used', 'code cache used']);
    expect(second.report).toBe(first.report);
  });
});

const MODULE = join(DIR, 'forty.ptx');
const kernel = (k: number): string => `.visible .entry k${k}()\n{\n\t.reg .b32 %r<4>;\n\tmov.u32 %r1, %tid.x;\n`
  + Array.from({ length: 1_300 }, (_, i) => `\tadd.u32 %r1, %r1, ${i};`).join('\n') + '\n\tret;\n}\n';
writeFileSync(MODULE, `.version 8.0\n.target sm_90\n.address_size 64\n${Array.from({ length: 40 }, (_, k) => kernel(k)).join('')}`);
