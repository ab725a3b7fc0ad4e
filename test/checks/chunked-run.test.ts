// A large module is checked part by part (runChecks: per-function checks run
// on parts of about CHUNK_BYTES bytes of function bodies, each part with its own
// facts, dropped after it). That must change nothing: on every module of the
// corpus with more than one function, checking each function as its own part
// gives exactly the outcomes of checking the module whole; and a module-level
// statement is judged once, not once per part.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import type { CheckOutcome } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';

const compiled = await compiledCorpus();
const inputs = [...committedPtx(), ...committedPtx('examples'), ...compiled.inputs].filter((i) => {
  const p = parsePtx(i.text);
  return p.errors.length === 0 && p.module.statements.filter((s) => s.kind === 'Function' && s.body !== null).length > 1;
});

const signature = (o: CheckOutcome): string => `${o.id} ${o.status} ${o.reason ?? ''} `
  + o.findings.map((f) => `${f.location.line}:${f.location.column} ${f.message} ${f.fingerprint ?? ''}`).join(' | ');

// Three kernels, one part each at one instruction a part: a deprecated function directive (F087) and one
// newer than the .version (F008). Both were once reported once per part.
const directives = `.version 7.0
.target sm_90
.address_size 64
.visible .entry k()
.maxnctapersm 2
{
\tret;
}
.visible .entry j()
{
\tret;
}
.visible .entry m()
.reqnctapercluster 2, 1, 1
{
\tret;
}
`;

describe('checking a module part by part changes nothing', () => {
  it('reports a function directive once, not once per part', () => {
    const parsed = parsePtx(directives);
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, directives, { chunkBytes: 1, only: ['F008', 'F087'] });
    const lines = (id: string): number[] => report.outcomes.find((o) => o.id === id)!.findings.map((f) => f.location.line);
    expect(lines('F087')).toEqual([5]);
    expect(lines('F008')).toEqual([14]);
  });

  it('has multi-function modules to compare', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(compiled.skipped.length === 0 ? 20 : 5);
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
    const parsed = parsePtx(input.text);
    const whole = runChecks(parsed.module, input.text, { chunkBytes: Infinity });
    const parts = runChecks(parsed.module, input.text, { chunkBytes: 1 });
    expect(parts.outcomes.map(signature)).toEqual(whole.outcomes.map(signature));
    expect(parts.score).toEqual(whole.score);
  });
});
