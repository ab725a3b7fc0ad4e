// Inline suppressions: next-line, regions, all checks, and reasons.
import { describe, expect, it } from 'vitest';
import { collectSuppressions } from '../../src/checks/suppressions.js';
import { parsePtx } from '../../src/parser/parse.js';

const sup = (text: string) => collectSuppressions(parsePtx(text).module.comments);

describe('inline suppressions', () => {
  it('disable-next-line covers exactly the next line, with its reason', () => {
    const s = sup('// ptx-debug-disable-next-line F052 F036 -- padded elsewhere\nret;\nret;\n');
    expect(s.lookup('F052', 2)).toEqual({ reason: 'padded elsewhere' });
    expect(s.lookup('F036', 2)).toEqual({ reason: 'padded elsewhere' });
    expect(s.lookup('F052', 3)).toBeUndefined();
    expect(s.lookup('F001', 2)).toBeUndefined();
  });

  it('disable ... enable covers the lines between, per check', () => {
    const s = sup('ret;\n// ptx-debug-disable F052\nret;\nret;\n// ptx-debug-enable F052\nret;\n');
    expect(s.lookup('F052', 1)).toBeUndefined();
    expect(s.lookup('F052', 3)).toEqual({});
    expect(s.lookup('F052', 4)).toEqual({});
    expect(s.lookup('F052', 6)).toBeUndefined();
  });

  it('a bare disable covers every check until the end of the file', () => {
    const s = sup('ret;\n/* ptx-debug-disable */\nret;\n');
    expect(s.lookup('F001', 3)).toEqual({});
    expect(s.lookup('F099', 3)).toEqual({});
    expect(s.lookup('F001', 1)).toBeUndefined();
  });

  it('ignores ordinary comments', () => {
    expect(sup('// ptx-debug is great F052\nret;\n').lookup('F052', 2)).toBeUndefined();
  });
});
