// THE GATE for F001–F020: on every PTX that ptxas accepts (nvcc output of the
// CUDA corpus for sm_75/80/90/90a, llc output of the LLVM corpus for
// sm_75/80/86, every committed fixture and example), no built check among
// F001–F020 has a finding. F001 is excepted for modules with no `.entry`
// (device-function libraries and fixtures that only exercise `.func`).
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';

const compiled = await compiledCorpus();
for (const why of compiled.skipped) console.warn(`[valid corpus] ${why}`);
const inputs = [...committedPtx(), ...committedPtx('examples'), ...compiled.inputs];
const ids = CHECKS.map((c) => c.meta.id).filter((id) => id <= 'F020');

describe('valid corpus: F001–F020 find nothing in ptxas-accepted PTX', () => {
  it('covers the compiled corpus, the fixtures and the examples', () => {
    expect(ids.length).toBeGreaterThanOrEqual(10);
    expect(inputs.some((i) => i.name.startsWith('examples/'))).toBe(true);
    if (compiled.skipped.length === 0) {
      expect(compiled.inputs.filter((i) => i.name.startsWith('cuda/')).length).toBeGreaterThanOrEqual(25 * 4);
      expect(compiled.inputs.filter((i) => i.name.startsWith('llvm/')).length).toBeGreaterThanOrEqual(5 * 3);
    }
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
    const parsed = parsePtx(input.text);
    expect(parsed.errors).toEqual([]);
    const hasEntry = parsed.module.statements.some((s) => s.kind === 'Function' && s.isEntry);
    const report = runChecks(parsed.module, input.text, { only: ids });
    const findings = report.outcomes
      .filter((o) => ids.includes(o.id) && !(o.id === 'F001' && !hasEntry))
      .flatMap((o) => o.findings.map((f) => `${o.id} line ${f.location.line}: ${f.message}`));
    expect(findings).toEqual([]);
    const crashed = report.outcomes.filter((o) => o.status === 'na' && (o.reason ?? '').startsWith('the check failed'));
    expect(crashed.map((o) => `${o.id}: ${o.reason ?? ''}`)).toEqual([]);
  });
});
