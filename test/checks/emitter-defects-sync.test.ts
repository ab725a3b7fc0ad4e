// Every defect variant of the kernel library that names a check of the
// synchronization family (F036–F050) fails that check, for every target the
// kernel supports, and the clean kernel passes it (or the check is n/a there).
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import { KERNELS } from '../../src/kernels/library/index.js';
import { parsePtx } from '../../src/parser/parse.js';
import { SYNC_IDS } from './labelled-cuda.js';

const PAIRS = KERNELS.flatMap((k) => k.defects.filter((d) => SYNC_IDS.includes(d.check)).flatMap((d) =>
  k.archs.map((arch) => ({ kernel: k, defect: d, arch }))));

function outcome(ptx: string, id: string) {
  const parsed = parsePtx(ptx);
  expect(parsed.errors).toEqual([]);
  return runChecks(parsed.module, ptx, { only: [id] }).outcomes.find((o) => o.id === id)!;
}

describe('emitter defects of the synchronization family', () => {
  it('covers the defects the issue names (early-exit, no-trailing-barrier, no-barrier, divergent-shuffle, legacy-shuffle)', () => {
    const names = new Set(PAIRS.map((p) => `${p.kernel.name} ${p.defect.name} ${p.defect.check}`));
    for (const want of [
      'gemm_tiled early-exit F038', 'gemm_tiled no-trailing-barrier F037', 'gemm_tiled no-barrier F036',
      'softmax_shared no-barrier F036', 'flash_attention early-exit F038',
      'softmax_warp divergent-shuffle F042', 'softmax_warp legacy-shuffle F043',
    ]) expect(names).toContain(want);
  });

  it.each(PAIRS.map((p) => [`${p.kernel.name} --defect ${p.defect.name} (${p.arch}) fails ${p.defect.check}`, p] as const))('%s', (_, p) => {
    const bad = outcome(p.kernel.build({ arch: p.arch, defect: p.defect.name }), p.defect.check);
    expect(bad.status).toBe('fail');
    const clean = outcome(p.kernel.build({ arch: p.arch }), p.defect.check);
    expect(['pass', 'na'], clean.findings.map((f) => `${f.location.line}: ${f.message}`).join('\n')).toContain(clean.status);
  });
});
