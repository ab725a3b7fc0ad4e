// F091 on real compiler output through a real `ptxas -v` (analyze --ptxas):
// nvcc kernels compiled normally report no spills; the same tiled GEMM held
// to 16 registers by `.maxnreg` spills, and F091 says so.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import { compileCuda, toolMissing, NVCC, PTXAS } from '../helpers/toolchain.js';

const missing = toolMissing(PTXAS) ?? toolMissing(NVCC);
if (missing !== undefined) console.warn(`[F091] real ptxas tests skipped: ${missing}`);

const f091 = (text: string, name: string) =>
  analyzeText(text, name, { ptxas: true, only: ['F091'] }).report!.outcomes.find((o) => o.id === 'F091')!;

describe.skipIf(missing !== undefined)('F091 with a real ptxas -v', () => {
  it('passes nvcc output that does not spill', async () => {
    expect(f091(readFileSync('examples/block-reduce.ptx', 'utf8'), 'block-reduce.ptx').status).toBe('pass');
    const gemm = await compileCuda('fixtures/corpus/cuda/05-tiled-gemm-shared.cu', 'sm_90');
    expect(f091(gemm, 'gemm.ptx').status).toBe('pass');
  }, 120_000);

  it('fails the same kernel held to 16 registers, naming it', async () => {
    const gemm = await compileCuda('fixtures/corpus/cuda/05-tiled-gemm-shared.cu', 'sm_90');
    // `.maxnreg 16` after every kernel's parameter list forces ptxas to spill.
    const squeezed = gemm.split('\n').map((l) => (l.startsWith(')') ? `${l}\n.maxnreg 16` : l)).join('\n');
    const o = f091(squeezed, 'gemm-maxnreg16.ptx');
    expect(o.status).toBe('fail');
    expect(o.findings.length).toBeGreaterThan(0);
    for (const f of o.findings) expect(f.message).toMatch(/spill/);
  }, 120_000);
});
