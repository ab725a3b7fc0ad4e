// A large module is checked part by part (runChecks: per-function checks run
// on parts of about CHUNK_INSTRUCTIONS instructions, each part with its own
// facts, dropped after it). That must change nothing: on every module of the
// corpus with more than one function, checking each function as its own part
// gives exactly the outcomes of checking the module whole.
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

describe('checking a module part by part changes nothing', () => {
  it('has multi-function modules to compare', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(compiled.skipped.length === 0 ? 20 : 5);
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
    const parsed = parsePtx(input.text);
    const whole = runChecks(parsed.module, input.text, { chunkInstructions: Infinity });
    const parts = runChecks(parsed.module, input.text, { chunkInstructions: 1 });
    expect(parts.outcomes.map(signature)).toEqual(whole.outcomes.map(signature));
    expect(parts.score).toEqual(whole.score);
  });
});
