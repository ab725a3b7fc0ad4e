// THE GATE for F036–F050: on correct code (the nvcc-compiled CUDA corpus for
// sm_75/80/90/90a and its -G sample, llc output of the LLVM corpus, the
// committed corpus PTX: hand-written forms, Triton, llc; the examples; the
// fixed GPU fixtures; the emitter's clean kernels), no check of the
// synchronization family has a finding. A rule that fires here is a bug in
// the rule. The hand-written syntax fixtures exercise forms, not correct
// protocols: the few real bugs they contain are listed below with the reason.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus, type CorpusInput } from '../helpers/corpus.js';
import { SYNC_IDS } from './labelled-cuda.js';

/** Findings that are real bugs of syntax fixtures (file → `F0xx line`), each with why. */
const KNOWN: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'fixtures/corpus/handwritten/control_sreg_misc_sm80.ptx': {
    'F040 66': 'bar.arrive 4 shows the syntax; nothing waits on barrier 4',
    'F040 67': 'barrier.arrive 5 shows the syntax; nothing waits on barrier 5',
  },
  'fixtures/corpus/handwritten/mbarrier_sm90.ptx': {
    'F047 52': 'expect_tx shows the syntax; no bulk copy completes on that mbarrier',
  },
  'fixtures/corpus/handwritten/mma_ldmatrix_sm90.ptx': {
    'F037 59': 'stmatrix overwrites what ldmatrix read, indexed by %laneid only: warps collide (a real race with more than one warp)',
  },
};

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
    const known = KNOWN[name] ?? {};
    const found = report.findings.map((f) => `${f.id} ${f.location.line}`);
    const unexpected = report.findings.filter((f) => known[`${f.id} ${f.location.line}`] === undefined)
      .map((f) => `${f.id} line ${f.location.line}: ${f.message}`);
    expect(unexpected).toEqual([]);
    expect(found.sort()).toEqual(Object.keys(known).sort());
    const crashed = report.outcomes.filter((o) => o.status === 'na' && (o.reason ?? '').startsWith('the check failed'));
    expect(crashed.map((o) => `${o.id}: ${o.reason ?? ''}`)).toEqual([]);
  });
});
