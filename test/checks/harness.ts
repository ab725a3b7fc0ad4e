// Check tests are data: PTX that must fail a check (with the ids and lines of
// the findings) and PTX that must pass it; the meta examples run too.
import { describe, expect, it } from 'vitest';
import { runChecks, type RunOptions } from '../../src/checks/run.js';
import type { Check } from '../../src/checks/types.js';
import { parsePtx } from '../../src/parser/parse.js';

export interface FailCase {
  readonly name: string;
  readonly ptx: string;
  /** Lines of the expected findings, in order. */
  readonly lines: readonly number[];
  readonly options?: RunOptions;
}

export interface PassCase {
  readonly name: string;
  readonly ptx: string;
  readonly options?: RunOptions;
  /** Expect n/a rather than pass. */
  readonly na?: boolean;
}

/** Outcome of one check on PTX text. */
export function outcomeOf(check: Check, ptx: string, options: RunOptions = {}) {
  const parsed = parsePtx(ptx);
  expect(parsed.errors).toEqual([]);
  const report = runChecks(parsed.module, ptx, { ...options, only: [check.meta.id] });
  return report.outcomes.find((o) => o.id === check.meta.id)!;
}

export function checkCases(check: Check, cases: {
  fails: readonly FailCase[];
  passes: readonly PassCase[];
  /** Options for running the meta examples (e.g. the ptxas resources F091 reads). */
  exampleOptions?: (ptx: string) => RunOptions;
}): void {
  describe(`${check.meta.id} ${check.meta.name}`, () => {
    it('fails its own failing example and passes its passing one', () => {
      const { fails, passes } = check.meta.examples;
      expect(outcomeOf(check, fails, cases.exampleOptions?.(fails)).status).toBe('fail');
      expect(outcomeOf(check, passes, cases.exampleOptions?.(passes)).status).toBe('pass');
    });
    for (const c of cases.fails) {
      it(`fails: ${c.name}`, () => {
        const o = outcomeOf(check, c.ptx, c.options);
        expect(o.status).toBe('fail');
        expect(o.findings.map((f) => f.location.line)).toEqual(c.lines);
        for (const f of o.findings) expect(f.id).toBe(check.meta.id);
      });
    }
    for (const c of cases.passes) {
      it(`${c.na === true ? 'n/a' : 'passes'}: ${c.name}`, () => {
        const o = outcomeOf(check, c.ptx, c.options);
        expect(o.status, JSON.stringify(o.findings.map((f) => `${f.location.line}: ${f.message}`))).toBe(c.na === true ? 'na' : 'pass');
      });
    }
  });
}
