// The labelled CUDA corpus of F051–F060 and F091–F095 (fixtures/checks/memory):
// each kernel pair is compiled by nvcc -lineinfo for sm_90, and the findings,
// mapped through `.loc` to the `.cu` lines (kernel-level ones to the kernel's
// declaration; code inlined from device functions and CUDA headers to its call
// site), must be exactly the lines marked `// expect: F0xx`. A file's
// `// analyze:` line gives its options (`--block X,Y,Z`, `--ptxas`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import { listFiles } from '../helpers/corpus.js';
import { compileCuda, NVCC, PTXAS, toolMissing } from '../helpers/toolchain.js';

const IDS = ['F051', 'F052', 'F053', 'F054', 'F055', 'F056', 'F057', 'F058', 'F059', 'F060', 'F091', 'F092', 'F093', 'F094', 'F095'];
const FILES = listFiles('fixtures/checks/memory', '.cu');

/** `line id` for every `// expect: F0xx` marker. */
function markers(src: string): string[] {
  return src.split('\n').flatMap((l, i) => [...l.matchAll(/expect: (F\d{3})/g)].map((m) => `${i + 1} ${m[1]!}`));
}

/**
 * The `.cu` line a PTX line comes from: the nearest `.loc` at or before it
 * that names the `.cu` file, through `inlined_at` (the call site) when the
 * code was inlined from a device function or a CUDA header, following the
 * chain of call sites (`.loc 6 60 3 ... inlined_at 13 215 7`, whose own `.loc`
 * is inlined at `1 86 5`) up to the `.cu` file.
 */
function cuLine(ptx: readonly string[], line: number, cuFile: number): number | undefined {
  const LOC = /^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:.*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?/;
  /** Where position `at` (itself inlined) was inlined: the nearest `.loc` of that position before line `i`. */
  const outer = (at: readonly string[], i: number): string[] | undefined => {
    for (let k = i; k >= 0; k--) {
      const m = LOC.exec(ptx[k]!);
      if (m?.[4] !== undefined && m[1] === at[0] && m[2] === at[1] && m[3] === at[2]) return [m[4], m[5]!, m[6]!];
    }
    return undefined;
  };
  for (let i = line - 1; i >= 0; i--) {
    const m = LOC.exec(ptx[i]!);
    if (m === null) continue;
    if (m[4] === undefined) {
      if (Number(m[1]) === cuFile) return Number(m[2]);
      continue;
    }
    let at: string[] | undefined = [m[4], m[5]!, m[6]!];
    for (let hops = 0; at !== undefined && hops < 16; hops++) {
      if (Number(at[0]) === cuFile) return Number(at[1]);
      at = outer(at, i);
    }
  }
  return undefined;
}

function options(src: string): { block?: [number, number, number]; ptxas?: boolean } {
  const line = src.split('\n').find((l) => l.startsWith('// analyze:')) ?? '';
  const block = /--block (\d+),(\d+),(\d+)/.exec(line);
  return { ...(block !== null ? { block: [Number(block[1]), Number(block[2]), Number(block[3])] } : {}), ...(line.includes('--ptxas') ? { ptxas: true } : {}) };
}

const nvcc = toolMissing(NVCC);
describe.skipIf(nvcc !== undefined)(`labelled CUDA kernels (${nvcc ?? 'nvcc'})`, () => {
  it('has at least three failing and three passing kernels per file', () => {
    for (const f of FILES) {
      const src = readFileSync(f, 'utf8');
      const kernels = src.split('\n').filter((l) => l.includes('__global__')).length;
      const failing = new Set(src.split('\n').map((l, i) => [l, i] as const).filter(([l]) => l.includes('expect:')).map(([, i]) => i)).size;
      expect(kernels, f).toBeGreaterThanOrEqual(3);
      expect(failing, f).toBeGreaterThanOrEqual(2);
    }
  });

  // Per check: kernels with a mark of it, and kernels written as its passing twin
  // (a `// passes: F0xx` line above the kernel), which must carry no mark of it.
  it('has at least three failing and three passing kernels for every check', () => {
    const fails = new Map<string, Set<string>>();
    const passes = new Map<string, Set<string>>();
    for (const f of FILES) {
      let kernel = '';
      let twinOf: string[] = [];
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        const k = /__global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(/.exec(line);
        if (k !== null) {
          kernel = `${f}:${k[1]!}`;
          for (const id of twinOf) passes.set(id, (passes.get(id) ?? new Set()).add(kernel));
          twinOf = [];
        }
        const p = /^\/\/ passes: (.*)$/.exec(line);
        if (p !== null) twinOf = p[1]!.trim().split(/\s+/);
        for (const m of line.matchAll(/expect: (F\d{3})/g)) fails.set(m[1]!, (fails.get(m[1]!) ?? new Set()).add(kernel));
      }
    }
    for (const id of IDS) {
      expect(fails.get(id)?.size ?? 0, `${id} failing kernels`).toBeGreaterThanOrEqual(3);
      expect(passes.get(id)?.size ?? 0, `${id} passing kernels`).toBeGreaterThanOrEqual(3);
      for (const k of passes.get(id) ?? []) expect(fails.get(id)?.has(k) ?? false, `${k} is marked ${id} and written to pass it`).toBe(false);
    }
  });

  it.each(FILES.map((f) => [f] as const))('%s', async (file) => {
    const src = readFileSync(file, 'utf8');
    const opts = options(src);
    if (opts.ptxas === true && toolMissing(PTXAS) !== undefined) return;
    const ptx = await compileCuda(file, 'sm_90');
    const r = analyzeText(ptx, file, { only: IDS, ...opts });
    expect(r.error).toBeUndefined();
    const lines = src.split('\n');
    const got = new Set<string>();
    const ptxLines = ptx.split('\n');
    const cuFile = Number(/^\s*\.file\s+(\d+)\s+"[^"]*\.cu"/m.exec(ptx)?.[1] ?? 1);
    for (const f of r.report!.findings) {
      let line = f.location.source === undefined ? undefined : cuLine(ptxLines, f.location.line, cuFile);
      if (line === undefined && f.function !== undefined) line = lines.findIndex((l) => l.includes(`void ${f.function}(`) || l.includes(` ${f.function}(`)) + 1;
      got.add(`${line ?? '?'} ${f.id}`);
    }
    const byLine = (a: string, b: string): number => Number(a.split(' ')[0]) - Number(b.split(' ')[0]) || a.localeCompare(b);
    expect([...got].sort(byLine), r.report!.findings.map((f) => `${f.location.source?.line ?? f.function ?? '?'} ${f.id}: ${f.message}`).join('\n'))
      .toEqual([...new Set(markers(src))].sort(byLine));
  }, 120_000);
});
