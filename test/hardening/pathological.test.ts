// Pathological inputs stay bounded (issue 13): each of these finishes, or
// fails with a clean one-line "not analyzed"/syntax error, within 30 s and
// 2 GB of peak memory, through the real command line (`analyze --falsify
// --format json`, worker thread and all), with no crash or stack trace.
// The inputs are generated here; sizes are the issue's.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const DIR = join(tmpdir(), `ptx-debug-pathological-${process.pid}`);
const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';
const LIMIT_S = 30;
const LIMIT_KB = 2 * 1024 * 1024;

/** Deterministic bytes (a linear congruential generator), so a failure reproduces. */
function garbage(n: number): Buffer {
  const b = Buffer.alloc(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    b[i] = x >>> 24;
  }
  return b;
}

const INPUTS: Record<string, () => string | Buffer> = {
  // 100,000 guarded branches: 200,001 basic blocks in one function, every add of %r1 reaching every later block.
  '100k-blocks': () => {
    const body: string[] = ['.visible .entry blocks(.param .u64 p)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<4>;\nmov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 7;\n'];
    for (let i = 0; i < 100_000; i++) body.push(`@%p1 bra L${i};\nadd.u32 %r1, %r1, 1;\nL${i}:\n`);
    return `${HEADER}${body.join('')}ret;\n}\n`;
  },
  // 100,000 nested { } scopes (the parser stops at 256 levels with a located error).
  'deep-scopes': () => `${HEADER}.visible .entry nest()\n{\n${'{\n'.repeat(100_000)}ret;\n${'}\n'.repeat(100_000)}}\n`,
  // A million registers declared, 200,000 of them written in a chain.
  'million-registers': () => {
    const body: string[] = ['.visible .entry regs(.param .u64 p)\n{\n.reg .b32 %r<1000001>;\nmov.u32 %r0, %tid.x;\n'];
    for (let i = 1; i <= 200_000; i++) body.push(`add.u32 %r${i}, %r${i - 1}, ${i};\n`);
    return `${HEADER}${body.join('')}ret;\n}\n`;
  },
  // A 50 MB single line of valid PTX: 2.5 million instructions in one function.
  '50mb-line': () => `.version 8.0 .target sm_90 .address_size 64 .visible .entry line(.param .u64 p) { .reg .b32 %r<3>; mov.u32 %r1, %tid.x; ${'add.u32 %r1, %r1, 1; '.repeat(Math.ceil(50 * 1024 * 1024 / 21))}ret; }`,
  // 50 MB of one character on one line.
  '50mb-garbage-line': () => 'x'.repeat(50 * 1024 * 1024),
  // 5 MB of random bytes.
  'binary': () => garbage(5 * 1024 * 1024),
  // A real module cut in the middle of an instruction.
  'truncated': () => {
    const text = readFileSync('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx', 'utf8');
    return text.slice(0, Math.floor(text.length * 0.6));
  },
};

describe('pathological inputs finish or fail cleanly within 30 s and 2 GB', () => {
  mkdirSync(DIR, { recursive: true });
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));
  it.each(Object.keys(INPUTS))('%s', async (name) => {
    const file = join(DIR, `${name}.ptx`);
    writeFileSync(file, INPUTS[name]!());
    const t0 = performance.now();
    // Asynchronously: a blocked event loop would starve vitest's worker RPC.
    const r = await new Promise<{ status: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, ['test/hardening/measured-cli.mjs', 'analyze', file, '--falsify', '--format', 'json'],
        { encoding: 'utf8', maxBuffer: 1 << 28, timeout: 120_000 }, (_err, stdout, stderr) => {
          resolve({ status: child.exitCode, signal: child.signalCode, stdout, stderr });
        });
    });
    const seconds = (performance.now() - t0) / 1000;
    const peak = Number(/PEAK_RSS_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN);
    const summary = `${name}: exit ${r.status} in ${seconds.toFixed(1)} s, peak ${(peak / 1024).toFixed(0)} MB`;
    console.log(summary);
    // Finished (0–3) or refused cleanly as input (4); never killed, never a stack trace.
    expect(r.signal, summary).toBeNull();
    expect([0, 1, 2, 3, 4], summary).toContain(r.status);
    expect(r.stderr.replace(/\nPEAK_RSS_KB \d+\n/, '')).not.toMatch(/\n\s+at |FATAL|Error:/);
    const json = JSON.parse(r.stdout) as { files: { exitCode: number; error?: { message: string; diagnostics: string[] } }[] };
    expect(json.files).toHaveLength(1);
    const f = json.files[0]!;
    if (f.exitCode === 4) expect(f.error?.message, summary).toMatch(/syntax error|not analyzed/);
    expect(seconds, summary).toBeLessThan(LIMIT_S);
    expect(peak, summary).toBeLessThan(LIMIT_KB);
  }, 150_000);
});
