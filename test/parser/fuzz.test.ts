// The parser never throws: mutations of real fixtures and arbitrary bytes
// always give a tree and located errors, never an exception.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePtx } from '../../src/api.js';
import { parsePtx } from '../../src/parser/parse.js';
import { listFiles } from '../helpers/corpus.js';

const seeds = listFiles('fixtures/corpus', '.ptx').map((f) => readFileSync(f, 'utf8').slice(0, 6000));

function assertWellBehaved(text: string): void {
  const r = parsePtx(text);
  for (const e of r.errors) {
    expect(e.message).not.toMatch(/internal parser error/);
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.column).toBeGreaterThanOrEqual(1);
    expect(e.offset).toBeLessThanOrEqual(text.length);
  }
}

const PIECES = ['{', '}', '(', ')', '[', ']', ';', ',', ':', '@', '!', '|', '.reg', '.entry', '.func', '.section', '.loc', '"', '/*', '//', '\n', '%r1', '0f', '0x', '<', '>', '=', '-', '\u0000', '\uFFFD', '\uFEFF', 'é', '.b8', '@@DWARF', 'generic(', '.callprototype', '.branchtargets'];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), piece: fc.constantFrom(...PIECES) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function apply(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % text.length;
  switch (m.kind) {
    case 'delete': return text.slice(0, at) + text.slice(at + m.len);
    case 'insert': return text.slice(0, at) + m.piece + text.slice(at);
    case 'duplicate': return text.slice(0, at + m.len) + text.slice(at);
    case 'truncate': return text.slice(0, at);
  }
}

describe('parser fuzz', () => {
  it('never throws on mutated fixtures', () => {
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 6 }), (seed, muts) => {
        assertWellBehaved(muts.reduce(apply, seed));
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => { assertWellBehaved(decodePtx(bytes)); }),
      { numRuns: 400 },
    );
  });

  it('never throws on arbitrary token soup', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES, ' ', 'mov', '.u32', '1', 'ret'), { maxLength: 80 }), (parts) => {
        assertWellBehaved(parts.join(' '));
        assertWellBehaved(parts.join(''));
      }),
      { numRuns: 400 },
    );
  });
});
