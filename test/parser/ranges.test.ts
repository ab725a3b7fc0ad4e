// Ranges that keep two offsets and derive line and column from the text's line
// starts (the fast parser's), and the line lookups reports use.
import { describe, expect, it } from 'vitest';
import { compactRanges, LineStarts, plainRange, textOfLine } from '../../src/parser/ranges.js';
import { parsePtx } from '../../src/parser/parse.js';

describe('LineStarts', () => {
  it('counts \\n, \\r\\n and a lone \\r as one line break each, as the lexers do', () => {
    const text = 'a\nbb\r\nccc\rdddd';
    const lines = new LineStarts(text);
    expect([0, 2, 6, 10].map((o) => lines.line(o))).toEqual([1, 2, 3, 4]);
    expect(lines.column(text.indexOf('ccc') + 2)).toBe(3);
    expect(lines.line(text.length)).toBe(4);
    expect(lines.start(3)).toBe(6);
    expect(lines.start(5)).toBe(-1);
  });

  it('gives each line its text without the terminator', () => {
    const text = 'first\r\nsecond\rthird\n';
    expect([1, 2, 3, 4, 5].map((l) => textOfLine(text, l))).toEqual(['first', 'second', 'third', '', '']);
  });
});

describe('compactRanges', () => {
  it('reads the same six fields a plain range holds, and prints them', () => {
    const text = '.version 8.0\n\tadd.s32 %r1, %r2, 4;\n';
    const span = compactRanges(text);
    const at = text.indexOf('%r2');
    const r = span(at, at + 3);
    expect(plainRange(r)).toEqual({ line: 2, column: 15, offset: at, endLine: 2, endColumn: 18, endOffset: at + 3 });
    expect(JSON.parse(JSON.stringify({ r }))).toEqual({ r: plainRange(r) });
  });

  it('positions the fast parser reports match the reference parser, with a byte-order mark and CRLF lines', () => {
    const text = '\uFEFF.version 8.0\r\n.target sm_90\r\n.address_size 64\r\n.visible .entry k()\r\n{\r\n\tret;\r\n}\r\n';
    const fast = parsePtx(text);
    const ref = parsePtx(text, { reference: true });
    const fn = (m: typeof fast) => m.module.statements.find((s) => s.kind === 'Function')!;
    const ret = (m: typeof fast) => {
      const f = fn(m);
      return f.kind === 'Function' ? f.body!.statements[0]! : undefined;
    };
    expect(plainRange(ret(fast)!.range)).toEqual(plainRange(ret(ref)!.range));
    expect(ret(fast)!.range.line).toBe(6);
    expect(ret(fast)!.range.column).toBe(2);
  });
});
