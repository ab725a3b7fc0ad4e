// docs/accuracy.md is what the script computes from today's fixtures and checks
// (its labelled CUDA part needs nvcc; without it the comparison is skipped, and says so).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAccuracy } from '../../src/accuracy.js';
import { NVCC, toolMissing } from '../helpers/toolchain.js';

const missing = toolMissing(NVCC);

describe('docs/accuracy.md', () => {
  it.skipIf(missing !== undefined)(`is up to date (run npm run accuracy)${missing !== undefined ? ` — skipped: ${missing}` : ''}`, () => {
    expect(readFileSync('docs/accuracy.md', 'utf8')).toBe(renderAccuracy({ nvcc: NVCC }));
  }, 600_000);
});
