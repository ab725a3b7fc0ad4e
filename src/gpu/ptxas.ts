// ptxas resource usage (`analyze --ptxas`): run `ptxas -v` (through execa) on a
// module for the target it declares, parse what it prints per function
// (registers, spill stores and loads, stack frame, shared memory, barriers,
// constant bank 0), and cache the result by content hash, in memory and on
// disk, so that an analysis costs a compile only once per module text.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execaSync } from 'execa';
import type { FunctionResources, ResourceUsage } from '../checks/types.js';
import type * as A from '../parser/ast.js';

/** `ptxas info    : Compiling entry function '_Z4kernPf' for 'sm_90'` */
const COMPILING = /Compiling (entry )?function '([^']+)' for '([^']+)'/;
/** `ptxas info    : Function properties for _Z4kernPf` */
const PROPERTIES = /Function properties for (\S+)/;
/** `    8288 bytes stack frame, 14804 bytes spill stores, 19284 bytes spill loads` */
const FRAME = /(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads/;
/** `ptxas info    : Used 32 registers, used 1 barriers, 4096 bytes smem, 364 bytes cmem[0]` */
const USED = /Used (\d+) registers/;
/** Older form: `ptxas warning : Registers are spilled to local memory in function 'f', 8 bytes spill stores, 8 bytes spill loads` */
const SPILLED = /spilled to local memory in function '([^']+)', (\d+) bytes spill stores, (\d+) bytes spill loads/;

interface Mutable {
  name: string;
  kind: 'entry' | 'function';
  registers?: number;
  spillStores: number;
  spillLoads: number;
  stackFrame: number;
  sharedBytes?: number;
  barriers?: number;
  constBytes?: number;
}

/** Per-function resources from the text `ptxas -v` prints (its standard error). */
export function parsePtxasVerbose(text: string): Record<string, FunctionResources> {
  const out: Record<string, Mutable> = {};
  const get = (name: string): Mutable => (out[name] ??= { name, kind: 'function', spillStores: 0, spillLoads: 0, stackFrame: 0 });
  let entry: string | undefined;
  let properties: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const c = COMPILING.exec(line);
    if (c !== null) {
      const f = get(c[2]!);
      if (c[1] !== undefined) f.kind = 'entry';
      entry = c[2]!;
      properties = undefined;
      continue;
    }
    const p = PROPERTIES.exec(line);
    if (p !== null) {
      properties = p[1]!;
      get(properties);
      continue;
    }
    const fr = FRAME.exec(line);
    if (fr !== null && properties !== undefined) {
      const f = get(properties);
      f.stackFrame = Number(fr[1]);
      f.spillStores = Number(fr[2]);
      f.spillLoads = Number(fr[3]);
      continue;
    }
    const s = SPILLED.exec(line);
    if (s !== null) {
      const f = get(s[1]!);
      f.spillStores = Math.max(f.spillStores, Number(s[2]));
      f.spillLoads = Math.max(f.spillLoads, Number(s[3]));
      continue;
    }
    const u = USED.exec(line);
    if (u !== null && entry !== undefined) {
      const f = get(entry);
      f.registers = Number(u[1]);
      for (const part of line.slice(u.index).split(',')) {
        const smem = /(\d+) bytes smem/.exec(part);
        if (smem !== null) f.sharedBytes = Number(smem[1]);
        const bar = /used (\d+) barriers/.exec(part);
        if (bar !== null) f.barriers = Number(bar[1]);
        const cmem = /(\d+) bytes cmem\[0\]/.exec(part);
        if (cmem !== null) f.constBytes = Number(cmem[1]);
      }
      f.sharedBytes ??= 0;
    }
  }
  const result: Record<string, FunctionResources> = {};
  for (const [k, v] of Object.entries(out)) result[k] = { ...v };
  return result;
}

/** ptxas from $PTXAS, PATH, CUDA_HOME/bin or /usr/local/cuda/bin. */
export function findPtxas(): string | undefined {
  const env = process.env['PTXAS'];
  if (env !== undefined && env !== '') return env;
  const dirs = [...(process.env['PATH'] ?? '').split(':'), process.env['CUDA_HOME'] !== undefined ? join(process.env['CUDA_HOME'], 'bin') : '', '/usr/local/cuda/bin'];
  for (const d of dirs) {
    if (d === '') continue;
    const p = join(d, 'ptxas');
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** The first `sm_` target a module declares. */
export function moduleTarget(module: A.Module): string | undefined {
  for (const s of module.statements) {
    if (s.kind === 'Target') return s.targets.find((t) => t.startsWith('sm_'));
  }
  return undefined;
}

export interface PtxasOptions {
  /** The ptxas to run (default: `findPtxas()`). */
  readonly ptxas?: string;
  /** Where results are cached on disk (default: the system temp directory); null: memory only. */
  readonly cacheDir?: string | null;
  /** Kill ptxas after this long (default 120 s). */
  readonly timeoutMs?: number;
}

const memory = new Map<string, ResourceUsage>();

function toolKey(ptxas: string): string {
  try {
    const s = statSync(ptxas);
    return `${ptxas}|${s.size}|${s.mtimeMs}`;
  } catch {
    return ptxas;
  }
}

/**
 * Resources per function of `text` compiled by `ptxas -v -arch=<arch>`;
 * `unavailable` (with the reason) when there is no target, no ptxas, or
 * ptxas rejects the module. Cached by the hash of ptxas, target and text.
 */
export function ptxasResources(text: string, arch: string | undefined, options: PtxasOptions = {}): ResourceUsage {
  if (arch === undefined) return { status: 'unavailable', reason: 'the module declares no sm_ target for ptxas' };
  const ptxas = options.ptxas ?? findPtxas();
  if (ptxas === undefined) return { status: 'unavailable', reason: 'ptxas was not found (PTXAS, PATH, CUDA_HOME/bin, /usr/local/cuda/bin)' };
  const key = createHash('sha256').update(toolKey(ptxas)).update('\0').update(arch).update('\0').update(text).digest('hex');
  const hit = memory.get(key);
  if (hit !== undefined) return hit;
  const dir = options.cacheDir === null ? undefined : options.cacheDir ?? join(tmpdir(), 'ptx-debug-ptxas');
  const file = dir === undefined ? undefined : join(dir, `${key.slice(0, 32)}.json`);
  if (file !== undefined && existsSync(file)) {
    try {
      const cached = JSON.parse(readFileSync(file, 'utf8')) as ResourceUsage;
      memory.set(key, cached);
      return cached;
    } catch {
      // a torn or foreign file: compile again
    }
  }
  const work = mkdtempSync(join(tmpdir(), 'ptx-debug-ptxas-'));
  let usage: ResourceUsage;
  try {
    const input = join(work, 'module.ptx');
    writeFileSync(input, text);
    const r = execaSync(ptxas, ['-v', `-arch=${arch}`, input, '-o', join(work, 'module.cubin')], {
      reject: false, timeout: options.timeoutMs ?? 120_000, maxBuffer: 1 << 26, stripFinalNewline: false,
    });
    const output = `${String(r.stdout)}\n${String(r.stderr)}`;
    if (r.timedOut === true) usage = { status: 'unavailable', reason: `ptxas took longer than ${(options.timeoutMs ?? 120_000) / 1000} s` };
    else if (r.exitCode !== 0) {
      const first = output.split('\n').find((l) => l.includes('error') || l.includes('fatal')) ?? `exit code ${String(r.exitCode)}`;
      usage = { status: 'unavailable', reason: `ptxas -arch=${arch} rejected the module: ${first.trim()}` };
    } else usage = { status: 'ok', arch, tool: ptxas, functions: parsePtxasVerbose(output) };
  } catch (err) {
    usage = { status: 'unavailable', reason: `ptxas could not run: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  memory.set(key, usage);
  if (file !== undefined && dir !== undefined && usage.status === 'ok') {
    try {
      mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(usage));
      renameSync(tmp, file);
    } catch {
      // the cache is an optimization
    }
  }
  return usage;
}
