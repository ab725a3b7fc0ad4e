// The labelled CUDA of fixtures/defects/cuda: nvcc output of each file fails
// the check in its name exactly in the kernels named `bad_*`, and passes it in
// the `good_*` ones (sm_80 and sm_90).
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { listFiles } from '../helpers/corpus.js';
import { compileCuda, NVCC, pool, toolMissing } from '../helpers/toolchain.js';

const missing = toolMissing(NVCC);
const FILES = listFiles('fixtures/defects/cuda', '.cu');
const jobs = missing !== undefined ? [] : FILES.flatMap((f) => ['sm_80', 'sm_90'].map((arch) => ({ f, arch })));
const compiled = await pool(jobs, async (j) => ({ ...j, text: await compileCuda(j.f, j.arch) }));

describe('labelled CUDA defects', () => {
  if (missing !== undefined) it.skip(`nvcc missing: ${missing}`, () => undefined);

  it.each(compiled.map((c) => [`${basename(c.f)}@${c.arch}`, c] as const))('%s', (_n, c) => {
    const id = basename(c.f).slice(0, 4);
    expect(CHECKS.some((x) => x.meta.id === id)).toBe(true);
    const parsed = parsePtx(c.text);
    expect(parsed.errors).toEqual([]);
    const kernels = parsed.module.statements.flatMap((s) => (s.kind === 'Function' && s.isEntry ? [s.name] : []));
    expect(kernels.filter((k) => k.startsWith('good_')).length).toBeGreaterThanOrEqual(3);
    const report = runChecks(parsed.module, c.text, { only: [id] });
    const failing = [...new Set(report.findings.filter((f) => f.id === id).map((f) => f.function ?? '?'))].sort();
    expect(failing).toEqual(kernels.filter((k) => k.startsWith('bad_')).sort());
  });
});
