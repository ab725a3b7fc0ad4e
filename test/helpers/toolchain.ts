// The real compilers the tests use: nvcc, llc and ptxas, run concurrently with
// a small pool, outputs cached by content hash under node_modules/.cache.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parsePtx } from '../../src/parser/parse.js';

const run = promisify(execFile);

export const NVCC = process.env['NVCC'] ?? 'nvcc';
export const LLC = process.env['LLC'] ?? '/usr/bin/llc';
export const PTXAS = process.env['PTXAS'] ?? 'ptxas';

/** Whether a tool runs at all; the reason when it does not. */
export function toolMissing(tool: string): string | undefined {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return `${tool} not found`;
  }
}

const CACHE = existsSync('node_modules') ? join('node_modules', '.cache', 'ptx-debug-tests') : join(tmpdir(), 'ptx-debug-tests');

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, limit = Math.max(2, cpus().length)): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Compiles once per key; the output appears atomically (test files run in
 *  parallel and may ask for the same compilation). */
function cached(key: string, produce: (out: string) => Promise<void>): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const out = join(CACHE, `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.ptx`);
  if (existsSync(out)) return Promise.resolve(readFileSync(out, 'utf8'));
  const tmp = `${out}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp.ptx`;
  return produce(tmp).then(() => {
    renameSync(tmp, out);
    return readFileSync(out, 'utf8');
  });
}

/** `nvcc -ptx -lineinfo -arch=<arch>` (or with `debug`, `-G`: full debug
 *  sections) of a CUDA file; returns the PTX text. */
export function compileCuda(file: string, arch: string, debug = false): Promise<string> {
  const src = readFileSync(file, 'utf8');
  const info = debug ? '-G' : '-lineinfo';
  // The path is part of the key: the PTX's `.file` names it, and line mapping matches on it.
  return cached(`nvcc|${arch}|${info}|${file}|${src}`, async (out) => {
    await run(NVCC, ['-ptx', info, `-arch=${arch}`, file, '-o', out], { maxBuffer: 1 << 26 });
  });
}

/** `llc -march=nvptx64 -mcpu=<arch>` of an LLVM IR file; returns the PTX text. */
export function compileLlvm(file: string, arch: string): Promise<string> {
  const src = readFileSync(file, 'utf8');
  return cached(`llc|${arch}|${src}`, async (out) => {
    await run(LLC, ['-march=nvptx64', `-mcpu=${arch}`, '-dwarf-directory=false', file, '-o', out], { maxBuffer: 1 << 26 });
  });
}

/** Runs ptxas on PTX text; undefined when it accepts, else its first error lines. */
export async function ptxasRejects(text: string, arch: string): Promise<string | undefined> {
  mkdirSync(CACHE, { recursive: true });
  const file = join(CACHE, `check-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.ptx`);
  writeFileSync(file, text);
  try {
    await run(PTXAS, [`-arch=${arch}`, file, '-o', '/dev/null'], { maxBuffer: 1 << 26 });
    return undefined;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return (e.stderr ?? e.message).split('\n').filter((l) => l.includes('error')).slice(0, 3).join('\n') || e.message;
  }
}

/** The `// ptxas-arch: sm_XX` header of a committed PTX fixture, else its
 *  first `.target`, else the fallback. */
export function fixtureArch(text: string, fallback = 'sm_90'): string {
  const first = text.slice(0, 200).split('\n')[0] ?? '';
  const m = /ptxas-arch:\s*(sm_\w+)/.exec(first);
  if (m?.[1] !== undefined) return m[1];
  const target = parsePtx(text).module.statements.find((s) => s.kind === 'Target');
  const sm = target?.kind === 'Target' ? target.targets.find((t) => t.startsWith('sm_')) : undefined;
  return sm ?? fallback;
}

/** Whether this machine has a CUDA driver (GPU tests skip without one, and say so). */
export function hasCudaDriver(): boolean {
  try {
    execFileSync('sh', ['-c', 'ldconfig -p | grep -q libcuda.so.1']);
    return true;
  } catch {
    return false;
  }
}
