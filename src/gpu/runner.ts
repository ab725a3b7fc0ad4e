// Builds the native runner on first use (system C compiler, cached by the
// source's hash) and runs a launch spec through it, optionally under
// compute-sanitizer. The PTX is given line information pointing at its own
// lines first, so the sanitizer's locations are the user's PTX lines.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { InputError } from '../input.js';
import { parsePtx } from '../parser/parse.js';
import { printModule } from '../parser/printer.js';
import type { LaunchSpec } from './launch-spec.js';
import { toPlan } from './plan.js';
import { findSanitizer, parseSanitizerReport, type SanitizerReport, type SanitizerTool } from './sanitizer.js';

const run = promisify(execFile);

/** A problem with the GPU tooling (no driver, no compiler): exit 4, one line. */
export class GpuUnavailable extends Error {
  override readonly name = 'GpuUnavailable';
}

export type RunStatus = 'ok' | 'kernel-failed' | 'launch-failed' | 'load-failed' | 'alloc-failed' | 'timeout' | 'no-driver' | 'no-device' | 'bad-plan';

export interface RunResult {
  readonly status: RunStatus;
  /** CUDA error name and code when something failed. */
  readonly error?: { readonly name: string; readonly code: number };
  readonly detail: string;
  /** Kernel time from CUDA events, in milliseconds. */
  readonly ms?: number;
  /** Argument name → file holding its captured contents. */
  readonly captures: ReadonlyMap<string, string>;
  readonly sanitizer?: SanitizerReport;
  readonly device?: string;
}

function runnerSourcePath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env['PTX_DEBUG_RUNNER_SOURCE'],
    join(here, '..', '..', 'src', 'gpu', 'native', 'runner.c'), // dist/gpu → src/gpu/native
    join(here, 'native', 'runner.c'), // running from src
    resolve('src', 'gpu', 'native', 'runner.c'),
  ].filter((p): p is string => p !== undefined);
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) throw new GpuUnavailable(`the native runner's source was not found (looked in ${candidates.join(', ')})`);
  return found;
}

function cacheDir(): string {
  const base = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  return join(base, 'ptx-debug');
}

/** The runner binary, built with the system C compiler on first use. */
export async function buildRunner(): Promise<string> {
  const source = readFileSync(runnerSourcePath(), 'utf8');
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  const dir = cacheDir();
  const binary = join(dir, `runner-${hash}`);
  if (existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const src = join(dir, `runner-${hash}.c`);
  writeFileSync(src, source);
  const cc = process.env['CC'] ?? 'cc';
  try {
    await run(cc, ['-O2', '-o', binary, src, '-ldl']);
  } catch (err) {
    const e = err as { code?: string; stderr?: string };
    const why = e.code === 'ENOENT' ? `no C compiler ('${cc}'; set CC)` : (e.stderr ?? String(err)).split('\n')[0];
    throw new GpuUnavailable(`the native runner could not be built: ${why}`);
  }
  return binary;
}

interface RunnerJson { status: RunStatus; code: number; error: string; detail: string; ms: number }

/** Runs `spec` on the PTX file through the runner (and the sanitizer, if asked). */
export async function runKernel(ptxFile: string, spec: LaunchSpec, options: { sanitizer?: SanitizerTool; outDir?: string } = {}): Promise<RunResult> {
  let text: string;
  try {
    text = readFileSync(ptxFile, 'utf8');
  } catch {
    throw new InputError(`cannot read '${ptxFile}': no such file`);
  }
  const parsed = parsePtx(text);
  if (parsed.errors.length > 0) throw new InputError(`${ptxFile}: ${parsed.errors.length} syntax error(s); run ptx-debug parse for details`);
  const outDir = options.outDir ?? mkdtempSync(join(tmpdir(), 'ptx-debug-run-'));
  mkdirSync(outDir, { recursive: true });
  const selfLoc = join(outDir, 'kernel.ptx');
  writeFileSync(selfLoc, printModule(parsed.module, { selfLoc: resolve(ptxFile) }));
  const plan = toPlan(spec, selfLoc, outDir);
  const planFile = join(outDir, 'plan.txt');
  writeFileSync(planFile, plan.text);
  const runner = await buildRunner();
  const timeoutMs = (spec.timeoutSeconds + 60) * 1000;
  let command = runner;
  let args = [planFile];
  if (options.sanitizer !== undefined) {
    const tool = findSanitizer();
    if (tool === undefined) {
      // Without a driver, say that first: it is the reason nothing can run.
      const probe = await run(runner, ['--probe']).then((r) => r.stdout, (e: { stdout?: string }) => e.stdout ?? '');
      const line = probe.split('\n').find((l) => l.startsWith('{"status"'));
      const j = line === undefined ? undefined : (JSON.parse(line) as RunnerJson);
      if (j?.status === 'no-driver') throw new GpuUnavailable(`no CUDA driver: ${j.detail}`);
      throw new GpuUnavailable('compute-sanitizer was not found (PATH, CUDA_HOME/bin, /usr/local/cuda/bin)');
    }
    command = tool;
    args = ['--tool', options.sanitizer, '--print-limit', '100', runner, planFile];
  }
  let stdout = '';
  let stderr = '';
  try {
    const r = await run(command, args, { timeout: timeoutMs, maxBuffer: 1 << 26 });
    stdout = r.stdout;
    stderr = r.stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number | string };
    stdout = e.stdout ?? '';
    stderr = e.stderr ?? '';
    if (e.code === 'ENOENT') throw new GpuUnavailable(`cannot run ${command}`);
  }
  const jsonLine = stdout.split('\n').reverse().find((l) => l.startsWith('{"status"'));
  if (jsonLine === undefined) throw new GpuUnavailable(`the runner gave no result: ${(stderr || stdout).split('\n').slice(-3).join(' ')}`);
  const j = JSON.parse(jsonLine) as RunnerJson;
  if (j.status === 'no-driver' || j.status === 'no-device') throw new GpuUnavailable(`no CUDA driver: ${j.detail}${j.code !== 0 ? ` (${j.error})` : ''}`);
  const device = /device: (.*), driver/.exec(stderr)?.[1];
  return {
    status: j.status,
    ...(j.code !== 0 ? { error: { name: j.error, code: j.code } } : {}),
    detail: j.detail,
    ...(j.status === 'ok' ? { ms: j.ms } : {}),
    captures: plan.captures,
    ...(options.sanitizer !== undefined ? { sanitizer: parseSanitizerReport(options.sanitizer, stdout) } : {}),
    ...(device !== undefined ? { device } : {}),
  };
}
