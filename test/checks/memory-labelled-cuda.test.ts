// The labelled CUDA corpus of F051–F060 and F091–F095 (fixtures/checks/memory):
// each kernel pair is compiled by nvcc -lineinfo for sm_90, and the findings,
// mapped through `.loc` to the `.cu` lines (kernel-level ones to the kernel's
// declaration; code inlined from device functions and CUDA headers to its call
// site), must be exactly the lines marked `// expect: F0xx`. A file's
// `// analyze:` line gives its options (`--block X,Y,Z`, `--ptxas`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expectedMarks, fixtureFindings, fixtureOptions } from '../../src/accuracy-cuda.js';
import { listFiles } from '../helpers/corpus.js';
import { compileCuda, NVCC, PTXAS, toolMissing } from '../helpers/toolchain.js';

const IDS = ['F051', 'F052', 'F053', 'F054', 'F055', 'F056', 'F057', 'F058', 'F059', 'F060', 'F091', 'F092', 'F093', 'F094', 'F095'];
const FILES = listFiles('fixtures/checks/memory', '.cu');

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
    if (fixtureOptions(src).ptxas === true && toolMissing(PTXAS) !== undefined) return;
    const got = fixtureFindings(await compileCuda(file, 'sm_90'), file, src, IDS);
    expect([...got.keys()].sort(), [...got].map(([m, message]) => `${m} ${message}`).join('\n')).toEqual(expectedMarks(src));
  }, 120_000);
});
