// THE GATE for F036–F050: on correct code (the nvcc-compiled CUDA corpus for
// sm_75/80/90/90a and its -G sample, llc output of the LLVM corpus, the
// committed corpus PTX: hand-written forms, Triton, llc; the examples; the
// fixed GPU fixtures; the emitter's clean kernels), no check of the
// synchronization family has a finding. A rule that fires here is a bug in
// the rule. The hand-written syntax fixtures exercise forms, not correct
// protocols: the few real bugs they contain are listed with the reason in
// fixtures/known-findings.json.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus, type CorpusInput } from '../helpers/corpus.js';
import { knownGate } from '../helpers/known.js';
import { SYNC_IDS } from './labelled-cuda.js';

const known = knownGate(SYNC_IDS);

const kernelsDir = join('test', 'fkr-suite', 'kernels');
/** The emitter's clean kernels: `name.ptx`, not `name.defect.ptx`. */
const cleanKernels: CorpusInput[] = readdirSync(kernelsDir).filter((f) => f.endsWith('.ptx') && f.split('.').length === 2)
  .flatMap((f) => committedPtx(kernelsDir).filter((c) => c.name.endsWith(`/${f}`)));

const compiled = await compiledCorpus();
for (const why of compiled.skipped) console.warn(`[sync corpus] ${why}`);
const inputs: CorpusInput[] = [
  ...committedPtx(join('fixtures', 'corpus')),
  ...committedPtx('examples'),
  ...committedPtx(join('fixtures', 'gpu')).filter((c) => c.name.endsWith('-fixed.ptx')),
  ...cleanKernels,
  ...compiled.inputs,
];

describe('sync corpus: F036–F050 find nothing in correct compiler output', () => {
  it('covers nvcc, llc and Triton output, the examples and the clean emitter kernels', () => {
    expect(inputs.some((i) => i.name.startsWith('examples/'))).toBe(true);
    expect(inputs.some((i) => i.name.includes('/triton/'))).toBe(true);
    expect(cleanKernels.length).toBeGreaterThanOrEqual(10);
    if (compiled.skipped.length === 0) {
      expect(compiled.inputs.filter((i) => i.name.startsWith('cuda/')).length).toBeGreaterThanOrEqual(25 * 4);
      expect(compiled.inputs.filter((i) => i.name.startsWith('llvm/')).length).toBeGreaterThanOrEqual(5 * 3);
    }
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (name, input) => {
    const parsed = parsePtx(input.text);
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, input.text, { only: SYNC_IDS });
    const unexpected = report.findings.filter((f) => !known.allowed(f.id, name, f.location.line))
      .map((f) => `${f.id} line ${f.location.line}: ${f.message}`);
    expect(unexpected).toEqual([]);
    const crashed = report.outcomes.filter((o) => o.status === 'na' && (o.reason ?? '').startsWith('the check failed'));
    expect(crashed.map((o) => `${o.id}: ${o.reason ?? ''}`)).toEqual([]);
  });

  it('every listed true finding still occurs (fixtures/known-findings.json stays tight)', () => {
    expect(known.stale(inputs.map((i) => i.name))).toEqual([]);
  });
});
