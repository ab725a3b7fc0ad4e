// CUDA sources as input: compile with `nvcc -ptx -lineinfo` (nvcc from PATH or
// CUDA_HOME), so every finding maps through `.loc` to its `.cu` line.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { InputError } from './input.js';

const run = promisify(execFile);

export function findNvcc(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(':'), process.env['CUDA_HOME'] !== undefined ? join(process.env['CUDA_HOME'], 'bin') : '', '/usr/local/cuda/bin'];
  for (const d of dirs) {
    if (d === '') continue;
    const p = join(d, 'nvcc');
    if (existsSync(p)) return p;
  }
  return undefined;
}

export interface CudaOptions {
  /** `--arch sm_XX` / config `arch`; nvcc's default when absent. */
  readonly arch?: string;
  /** Extra flags after `--`. */
  readonly nvccFlags?: readonly string[];
}

/** Compiles a .cu file to PTX with line information; returns the PTX text. */
export async function compileCuda(file: string, options: CudaOptions = {}): Promise<string> {
  const nvcc = findNvcc();
  if (nvcc === undefined) throw new InputError(`${file}: nvcc was not found (PATH, CUDA_HOME/bin, /usr/local/cuda/bin); it is needed to analyze CUDA sources`);
  const out = join(mkdtempSync(join(tmpdir(), 'ptx-debug-nvcc-')), `${basename(file, '.cu')}.ptx`);
  const args = ['-ptx', '-lineinfo', ...(options.arch !== undefined ? [`-arch=${options.arch}`] : []), ...(options.nvccFlags ?? []), file, '-o', out];
  try {
    await run(nvcc, args, { maxBuffer: 1 << 26 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? String(err);
    const first = stderr.split('\n').find((l) => l.includes('error')) ?? stderr.split('\n')[0] ?? 'failed';
    throw new InputError(`${file}: nvcc failed: ${first.trim()}`);
  }
  return readFileSync(out, 'utf8');
}
