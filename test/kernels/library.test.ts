// The kernel library: every clean kernel for every target it supports is
// accepted by ptxas, parses with no error and draws no finding from the built
// checks beyond the ones its docs explain, scores at least 95 with no critical
// finding (docs/kernels.md shows both); every defect builds, differs from
// the clean kernel and names a catalog check; launch specs validate.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import { CATALOG_BY_ID } from '../../src/checks/catalog.js';
import { generateInputs } from '../../src/kernels/inputs.js';
import { launchSpecSchema } from '../../src/kernels/launch-spec.js';
import { resolveSizes } from '../../src/kernels/library/common.js';
import { renderKernelsDoc } from '../../src/kernels/docs.js';
import { KERNELS } from '../../src/kernels/library/index.js';
import { parsePtx } from '../../src/parser/parse.js';
import { PTXAS, pool, ptxasRejects, toolMissing } from '../helpers/toolchain.js';

const ISSUE_KERNELS = [
  'vector_add', 'relu', 'gemm_naive', 'gemm_tiled', 'gemm_tiled_padded', 'gemm_swizzled', 'gemm_wmma_f16',
  'softmax_warp', 'softmax_shared', 'layernorm', 'rmsnorm', 'flash_attention', 'q4k_gemv', 'q5k_gemv', 'q6k_gemv',
  'lz4_compress', 'lz4_decompress', 'persistent_decoder',
];

const CLEAN = KERNELS.flatMap((k) => k.archs.map((arch) => ({ kernel: k, arch, text: k.build({ arch }) })));
const DEFECTS = KERNELS.flatMap((k) => k.defects.map((d) => ({ kernel: k, defect: d, text: k.build({ arch: 'sm_90', defect: d.name }) })));

describe('the kernel library', () => {
  it('has the issue\'s kernels, each for sm_75, sm_80, sm_90 and sm_90a', () => {
    expect(KERNELS.map((k) => k.name)).toEqual(ISSUE_KERNELS);
    for (const k of KERNELS) expect(k.archs).toEqual(['sm_75', 'sm_80', 'sm_90', 'sm_90a']);
  });

  it('has the defects the issue names, each naming a catalog check', () => {
    const names = new Set(DEFECTS.map((d) => `${d.kernel.name} ${d.defect.name}`));
    for (const want of [
      'gemm_tiled early-exit', 'gemm_tiled no-trailing-barrier', 'gemm_tiled no-barrier',
      'q4k_gemv generic-shared', 'q4k_gemv u64-shared', 'q4k_gemv f16-load', 'q4k_gemv widening-round',
      'lz4_compress loaded-value-store', 'lz4_compress computed-address',
      'softmax_warp divergent-shuffle', 'softmax_warp legacy-shuffle',
      'gemm_wmma_f16 layout-mismatch', 'persistent_decoder u32-pointer-param',
    ]) expect(names).toContain(want);
    for (const { defect } of DEFECTS) expect(CATALOG_BY_ID.has(defect.check), `${defect.name} names ${defect.check}`).toBe(true);
  });

  it.each(CLEAN.map((c) => [`${c.kernel.name} ${c.arch}`, c] as const))('%s parses with no error and is printable ASCII', (_, c) => {
    expect(parsePtx(c.text).errors).toEqual([]);
    expect(c.text).toMatch(/^[\x20-\x7e\t\n]*$/);
    expect(c.text).toContain(`.target ${c.arch}\n`);
  });

  it.each(KERNELS.map((k) => [k.name, k] as const))('%s draws no finding from the built checks beyond its documented ones', (_, k) => {
    for (const arch of k.archs) {
      const r = analyzeText(k.build({ arch }), `${k.name}.ptx`);
      expect(r.error).toBeUndefined();
      const unexplained = r.report!.findings
        .filter((f) => f.severity !== 'info' && !(f.id in (k.expectedFindings ?? {})))
        .map((f) => `${arch} ${f.id} line ${f.location.line}: ${f.message}`);
      expect(unexplained).toEqual([]);
      expect(r.report!.findings.filter((f) => f.severity === 'critical')).toEqual([]);
      expect(r.report!.score.score, `${k.name} ${arch}`).toBeGreaterThanOrEqual(95);
    }
  });

  it('docs/kernels.md is what `npm run docs` writes (scores and every finding explained)', () => {
    const doc = renderKernelsDoc(KERNELS);
    expect(doc).not.toContain('UNEXPLAINED');
    expect(readFileSync('docs/kernels.md', 'utf8')).toBe(doc);
  }, 120_000);

  it.each(DEFECTS.map((d) => [`${d.kernel.name} --defect ${d.defect.name}`, d] as const))('%s parses and differs from the clean kernel', (_, d) => {
    expect(parsePtx(d.text).errors).toEqual([]);
    const clean = d.kernel.build({ arch: 'sm_90' });
    const body = (t: string): string => t.slice(t.indexOf('.version'));
    expect(body(d.text)).not.toEqual(body(clean));
    expect(d.text).toContain(`DEFECT ${d.defect.name} (`);
  });

  it('refuses unknown defects and bad sizes', () => {
    const k = KERNELS[0]!;
    expect(() => k.build({ arch: 'sm_90', defect: 'nope' })).toThrow(/has no defect 'nope'/);
    expect(() => resolveSizes('q4k_gemv', KERNELS.find((x) => x.name === 'q4k_gemv')!.sizes, { K: 300 })).toThrow(/multiple of 256/);
    expect(() => resolveSizes('vector_add', k.sizes, { m: 3 })).toThrow(/no size parameter 'm'/);
    expect(() => resolveSizes('flash_attention', KERNELS.find((x) => x.name === 'flash_attention')!.sizes, { head_dim: 65 })).toThrow(/at most 64/);
  });

  it.each(KERNELS.map((k) => [k.name, k] as const))('%s makes valid launch specs whose inputs match their counts', (_, k) => {
    expect(k.testSizes.length).toBeGreaterThanOrEqual(2);
    for (const given of [{}, ...k.testSizes]) {
      const sizes = resolveSizes(k.name, k.sizes, given);
      const spec = k.launch(sizes);
      expect(launchSpecSchema.parse(spec)).toEqual(spec);
      expect(spec.kernel).toBe(k.name);
      const reqntid = /\.reqntid (\d+), (\d+), (\d+)/.exec(k.build({ arch: 'sm_90' }));
      expect(reqntid?.slice(1).map(Number)).toEqual(spec.block);
      if (given === k.testSizes[0]) {
        const inputs = generateInputs(spec);
        for (const a of spec.args) if (a.kind === 'buffer') expect(inputs[a.name]?.length).toBe(a.count);
        const out = k.reference(sizes, inputs);
        for (const a of spec.args) if (a.kind === 'buffer' && a.role !== 'input') expect(out[a.name]?.length, a.name).toBe(a.count);
      }
    }
  });
});

const missing = toolMissing(PTXAS);
describe.skipIf(missing !== undefined)(`ptxas (${missing ?? PTXAS})`, () => {
  it('accepts every clean kernel for every target it supports', async () => {
    const rejected = await pool(CLEAN, async (c) => {
      const why = await ptxasRejects(c.text, c.arch);
      return why === undefined ? undefined : `${c.kernel.name} ${c.arch}: ${why}`;
    });
    expect(rejected.filter((r) => r !== undefined)).toEqual([]);
  }, 120_000);

  it('accepts exactly the defects documented as assembling', async () => {
    const verdicts = await pool(DEFECTS, async (d) => `${d.kernel.name} ${d.defect.name}: ${(await ptxasRejects(d.text, 'sm_90')) === undefined}`);
    expect(verdicts).toEqual(DEFECTS.map((d) => `${d.kernel.name} ${d.defect.name}: ${d.defect.ptxasAccepts}`));
  }, 120_000);
});
