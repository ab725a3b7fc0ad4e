// A large module is checked part by part (src/checks/run.ts); a per-function
// check must find on the parts exactly what it finds on the whole module, and a
// module-level statement must be judged once, not once per part.
import { describe, expect, it } from 'vitest';
import { runChecks, type FileReport } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx } from '../helpers/corpus.js';

const summary = (r: FileReport): unknown[] =>
  r.outcomes.map((o) => [o.id, o.status, o.reason ?? '', o.findings.map((f) => [f.location.line, f.location.column, f.message])]);

// Three kernels, one per part at one instruction a part: a deprecated function directive (F087) and one
// newer than the .version (F008) are module-level statements.
const text = `.version 7.0
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

describe('checking part by part', () => {
  it('reports a function directive once, not once per part', () => {
    const parsed = parsePtx(text);
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, text, { chunkInstructions: 1, only: ['F008', 'F087'] });
    const lines = (id: string): number[] => report.outcomes.find((o) => o.id === id)!.findings.map((f) => f.location.line);
    expect(lines('F087')).toEqual([5]);
    expect(lines('F008')).toEqual([14]);
  });

  const multi = committedPtx().filter((c) => {
    const p = parsePtx(c.text);
    return p.errors.length === 0 && p.module.statements.filter((s) => s.kind === 'Function' && s.body !== null).length > 1;
  });

  it('finds on the parts what it finds on the whole, on every committed module of several functions', () => {
    expect(multi.length).toBeGreaterThan(10);
    for (const c of multi) {
      const { module } = parsePtx(c.text);
      const whole = runChecks(module, c.text, { chunkInstructions: Infinity });
      const parts = runChecks(module, c.text, { chunkInstructions: 1 });
      expect(summary(parts), c.name).toEqual(summary(whole));
    }
  }, 300_000);
});
