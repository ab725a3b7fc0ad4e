// The emitter's defect variants that name a memory or performance check
// (F051–F060, F091–F095): each defect fails the check it names, and the clean
// kernel does not. The list is explicit, so a new defect must be added here.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { KERNELS } from '../../src/kernels/library/index.js';
import { outcomeOf } from './harness.js';

const MINE = new Set(['F051', 'F052', 'F053', 'F054', 'F055', 'F056', 'F057', 'F058', 'F059', 'F060', 'F091', 'F092', 'F093', 'F094', 'F095']);

/** `kernel defect check` for every such defect (none yet: the library's defects are races, barriers and address spaces). */
const ENUMERATED: readonly string[] = [];

const DEFECTS = KERNELS.flatMap((k) => k.defects.filter((d) => MINE.has(d.check)).map((d) => ({ kernel: k, defect: d })));

describe('emitter defects naming F051–F060, F091–F095', () => {
  it('are exactly the enumerated ones', () => {
    expect(DEFECTS.map((d) => `${d.kernel.name} ${d.defect.name} ${d.defect.check}`)).toEqual(ENUMERATED);
  });

  it.each(DEFECTS.map((d) => [`${d.kernel.name} --defect ${d.defect.name}`, d] as const))('%s fails its check; the clean kernel does not', (_, d) => {
    const check = CHECKS.find((c) => c.meta.id === d.defect.check)!;
    expect(outcomeOf(check, d.kernel.build({ arch: 'sm_90', defect: d.defect.name })).status).toBe('fail');
    expect(outcomeOf(check, d.kernel.build({ arch: 'sm_90' })).status).not.toBe('fail');
  });

  it('the designed bank conflict: F052 fails gemm_tiled and passes its padded and swizzled variants', () => {
    const f052 = CHECKS.find((c) => c.meta.id === 'F052')!;
    // The four unrolled stores of the transposed A tile are one pattern: one finding, the other copies related.
    const findings = outcomeOf(f052, KERNELS.find((k) => k.name === 'gemm_tiled')!.build({ arch: 'sm_90' })).findings;
    expect(findings.map((f) => f.message.split('-way')[0])).toEqual(['32']);
    expect(findings[0]!.related?.length).toBe(3);
    for (const name of ['gemm_tiled_padded', 'gemm_swizzled']) expect(outcomeOf(f052, KERNELS.find((k) => k.name === name)!.build({ arch: 'sm_90' })).status).toBe('pass');
    expect(KERNELS.find((k) => k.name === 'gemm_tiled')!.expectedFindings).toHaveProperty('F052');
  });
});
