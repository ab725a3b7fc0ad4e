// The kernel library's defect variants that name a control-flow, data-flow,
// known-pattern or instrumentation check (F061–F079, F084–F089, F096–F100)
// fail that check, and the clean kernel passes it; the clean kernels also
// leave no finding of those checks at low severity or above beyond the ones
// their docs accept (`expectedFindings`).
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import { CHECKS } from '../../src/checks/index.js';
import { SEVERITY_ORDER } from '../../src/checks/types.js';
import { KERNELS } from '../../src/kernels/library/index.js';
import { parsePtx } from '../../src/parser/parse.js';

const MINE = new Set([
  ...Array.from({ length: 19 }, (_, i) => `F0${61 + i}`),
  'F084', 'F085', 'F086', 'F087', 'F088', 'F089', 'F096', 'F097', 'F098', 'F099', 'F100',
]);
const ids = CHECKS.map((c) => c.meta.id).filter((id) => MINE.has(id));
const DEFECTS = KERNELS.flatMap((k) => k.defects.filter((d) => MINE.has(d.check)).map((d) => ({ kernel: k, defect: d })));

function outcome(text: string, id: string) {
  const parsed = parsePtx(text);
  expect(parsed.errors).toEqual([]);
  return runChecks(parsed.module, text, { only: [id] }).outcomes.find((o) => o.id === id)!;
}

describe('emitter defects of F061–F100 checks', () => {
  it('the library has defects naming these checks (u32-pointer-param → F075, layout-mismatch → F088)', () => {
    const names = DEFECTS.map((d) => `${d.defect.name}→${d.defect.check}`);
    expect(names).toEqual(expect.arrayContaining(['u32-pointer-param→F075', 'layout-mismatch→F088']));
  });

  it.each(DEFECTS.map((d) => [`${d.kernel.name} --defect ${d.defect.name} fails ${d.defect.check}`, d] as const))('%s', (_n, d) => {
    const bad = outcome(d.kernel.build({ arch: 'sm_90', defect: d.defect.name }), d.defect.check);
    expect(bad.status, JSON.stringify(bad.findings.map((f) => f.message))).toBe('fail');
    const clean = outcome(d.kernel.build({ arch: 'sm_90' }), d.defect.check);
    expect(clean.status, JSON.stringify(clean.findings.map((f) => `${f.location.line}: ${f.message}`))).not.toBe('fail');
  });

  it.each(KERNELS.map((k) => [k.name, k] as const))('clean %s: no finding at low or above beyond its accepted ones', (_n, k) => {
    const text = k.build({ arch: 'sm_90' });
    const parsed = parsePtx(text);
    const report = runChecks(parsed.module, text, { only: ids });
    const low = SEVERITY_ORDER.indexOf('low');
    const found = report.findings
      .filter((f) => MINE.has(f.id) && SEVERITY_ORDER.indexOf(f.severity) <= low && k.expectedFindings?.[f.id] === undefined)
      .map((f) => `${f.id} line ${f.location.line}: ${f.message}`);
    expect(found).toEqual([]);
  });
});
