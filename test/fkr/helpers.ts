// Running generated FKR files for real: a scratch directory outside the
// repository that still resolves `vitest` (node_modules linked in), vitest
// run in a child process with the JSON reporter, and a fake native runner
// (no GPU needed) for the runtime tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { onTestFinished } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '..', '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

/** A temporary directory, removed when the current test finishes (kept with FKR_KEEP_SCRATCH=1). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ptx-debug-fkr-${prefix}-`));
  if (process.env['FKR_KEEP_SCRATCH'] !== '1') onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A temporary directory with the repository's node_modules linked in. */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The `--import` a file in `dir` uses to reach the repository's API. */
export function apiImport(dir: string): string {
  return relative(dir, join(ROOT, 'src', 'api.js')).split(sep).join('/');
}

export interface TestResult {
  readonly title: string;
  readonly fullName: string;
  readonly status: string;
  readonly failureMessages: readonly string[];
}

interface JsonReport {
  testResults: { name: string; message?: string; assertionResults: TestResult[] }[];
}

/** Runs vitest on the test files in `dir`; every test's result, and the output. */
export function runVitest(dir: string, env: Record<string, string> = {}): Promise<{ tests: TestResult[]; output: string; fileErrors: string[] }> {
  const out = join(dir, 'vitest-report.json');
  const childEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('VITEST') && k !== 'NODE_OPTIONS') childEnv[k] = v;
  return new Promise((resolvePromise, reject) => {
    execFile(process.execPath, [VITEST, 'run', '--root', dir, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], {
      cwd: dir, env: { ...childEnv, ...env, NO_COLOR: '1' }, maxBuffer: 1 << 26, timeout: 120_000,
    }, (err, stdout, stderr) => {
      let report: JsonReport;
      try {
        report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
      } catch {
        reject(new Error(`vitest wrote no report (${err?.message ?? 'no error'}): ${stderr}`));
        return;
      }
      resolvePromise({
        tests: report.testResults.flatMap((f) => f.assertionResults),
        output: `${stdout}\n${stderr}`,
        fileErrors: report.testResults.flatMap((f) => (f.message !== undefined && f.message !== '' ? [`${f.name}: ${f.message}`] : [])),
      });
    });
  });
}

/** Why a program cannot be run (undefined when it can). */
export function missingTool(tool: string, args: readonly string[] = ['--version']): string | undefined {
  try {
    execFileSync(tool, [...args], { stdio: 'ignore' });
    return undefined;
  } catch {
    return `${tool} not found`;
  }
}

/**
 * A stand-in for the native runner (src/gpu/native/runner.c) that needs no
 * GPU: it fills every captured buffer with bytes (7·i + 3) mod 256 and
 * reports success, as the real runner does.
 */
export const FAKE_RUNNER_C = `#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  char line[4096];
  FILE *plan = argc > 1 ? fopen(argv[1], "r") : NULL;
  if (plan == NULL) return 2;
  while (fgets(line, sizeof line, plan) != NULL) {
    long bytes;
    if (sscanf(line, "buffer %ld", &bytes) != 1) continue;
    line[strcspn(line, "\\n")] = 0;
    const char *path = strrchr(line, ' ') + 1;
    if (strcmp(path, "-") == 0) continue;
    FILE *out = fopen(path, "wb");
    if (out == NULL) return 2;
    for (long i = 0; i < bytes; i++) fputc((int)((7 * i + 3) & 255), out);
    fclose(out);
  }
  fclose(plan);
  printf("{\\"status\\":\\"ok\\",\\"code\\":0,\\"error\\":\\"\\",\\"detail\\":\\"fake runner\\",\\"ms\\":0.5}\\n");
  return 0;
}
`;

/** Environment that makes runKernel build and use the fake runner (cached under `dir`). */
export function fakeRunnerEnv(dir: string): Record<string, string> {
  const src = join(dir, 'fake-runner', 'runner.c');
  mkdirSync(join(dir, 'fake-runner'), { recursive: true });
  writeFileSync(src, FAKE_RUNNER_C);
  return { PTX_DEBUG_RUNNER_SOURCE: src, XDG_CACHE_HOME: join(dir, 'fake-runner', 'cache') };
}

/** What the fake runner captures for a buffer of `bytes` bytes. */
export function fakeCapture(bytes: number): Buffer {
  return Buffer.from(Array.from({ length: bytes }, (_, i) => (7 * i + 3) & 255));
}
