// The marks of the labelled CUDA fixtures (src/accuracy-cuda.ts): what a line expects, and what a check is
// known to miss there, with its reason.
import { describe, expect, it } from 'vitest';
import { expectedMarks, knownMisses } from '../../src/accuracy-cuda.js';

describe('labelled CUDA marks', () => {
  it('reads expect marks and known misses, one line each', () => {
    const source = 'a(); // expect: F036 F043\nb(); // known-miss: F074 the loop is guarded\nc();\n';
    expect(expectedMarks(source)).toEqual(['F036:1', 'F043:1']);
    expect(knownMisses(source)).toEqual([{ id: 'F074', line: 2, reason: 'the loop is guarded' }]);
  });

  it('ends a known miss\'s reason at an expect mark after it on the same line', () => {
    const source = 'fma(a, x, acc); // known-miss: F074 the loop is guarded // expect: F073\n';
    expect(knownMisses(source)).toEqual([{ id: 'F074', line: 1, reason: 'the loop is guarded' }]);
    expect(expectedMarks(source)).toEqual(['F073:1']);
  });
});
