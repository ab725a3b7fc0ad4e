// Emitter defects of the kernel library (src/kernels/library) whose named
// check is an address-space or loaded-value check: each defect variant fails
// that check, and the clean kernel does not (for every target the kernel
// supports). A check the clean kernel documents as expected must report more
// on the defect than on the clean kernel.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import type { CheckId } from '../../src/checks/types.js';
import { KERNELS } from '../../src/kernels/library/index.js';
import { parsePtx } from '../../src/parser/parse.js';

const MINE = new Set([
  'F021', 'F022', 'F023', 'F024', 'F025', 'F026', 'F027', 'F028', 'F029', 'F030', 'F031', 'F032', 'F033', 'F034', 'F035',
  'F081', 'F082', 'F083', 'F090',
]);

const DEFECTS = KERNELS.flatMap((k) => k.defects.filter((d) => MINE.has(d.check)).map((d) => ({ kernel: k, defect: d })));

function findings(ptx: string, id: string): { status: string; lines: number[]; chains: number } {
  const parsed = parsePtx(ptx);
  expect(parsed.errors).toEqual([]);
  const o = runChecks(parsed.module, ptx, { only: [id] }).outcomes.find((x) => x.id === (id as CheckId))!;
  return { status: o.status, lines: o.findings.map((f) => f.location.line), chains: o.findings.filter((f) => (f.chain ?? []).length > 1).length };
}

describe('emitter defects of the address-space and loaded-value checks', () => {
  it('include the defects the issue names', () => {
    const names = DEFECTS.map((d) => `${d.kernel.name} ${d.defect.name} ${d.defect.check}`);
    for (const want of [
      'q4k_gemv generic-shared F021', 'q4k_gemv u64-shared F022', 'q4k_gemv f16-load F090',
      'lz4_compress loaded-value-store F081', 'lz4_compress computed-address F082',
    ]) expect(names).toContain(want);
  });

  it.each(DEFECTS.map((d) => [`${d.kernel.name} --defect ${d.defect.name} trips ${d.defect.check}`, d] as const))('%s', (_name, { kernel, defect }) => {
    for (const arch of kernel.archs) {
      const bad = findings(kernel.build({ arch, defect: defect.name }), defect.check);
      const clean = findings(kernel.build({ arch }), defect.check);
      expect(bad.status, `${arch}: the defect`).toBe('fail');
      if (defect.check in (kernel.expectedFindings ?? {})) {
        expect(bad.lines.length, `${arch}: more findings than the clean kernel's documented ones`).toBeGreaterThan(clean.lines.length);
      } else {
        expect(clean.lines, `${arch}: the clean kernel`).toEqual([]);
      }
      // Dataflow checks explain themselves.
      if (['F021', 'F081', 'F082'].includes(defect.check)) expect(bad.chains).toBe(bad.lines.length);
    }
  });
});
