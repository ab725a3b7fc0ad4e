// docs/accuracy.md is what the script computes from today's fixtures and checks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderAccuracy } from '../../src/accuracy.js';

describe('docs/accuracy.md', () => {
  it('is up to date (run npm run accuracy)', () => {
    expect(readFileSync('docs/accuracy.md', 'utf8')).toBe(renderAccuracy());
  }, 300_000);
});
