// The lexer: one generic dotted token re-typed from the directive table,
// numbers in every PTX radix, and located errors for untokenizable bytes.
import { describe, expect, it } from 'vitest';
import { lex } from '../../src/parser/lexer.js';
import * as T from '../../src/parser/tokens.js';
import { parseFloatLiteral, parseIntLiteral } from '../../src/parser/literals.js';

const kinds = (text: string): string[] => lex(text).tokens.map((t) => t.tokenType.name);

describe('lexer', () => {
  it('re-types directive keywords and leaves modifiers generic', () => {
    const toks = lex('.reg .b32 %r<4>; ld.shared::cta.u32 .entry .visible .weak .align .maxntid').tokens;
    const byImage = new Map(toks.map((t) => [t.image, t.tokenType]));
    expect(byImage.get('.reg')).toBe(T.KwStateSpace);
    expect(byImage.get('.b32')).toBe(T.Modifier);
    expect(byImage.get('.shared::cta')).toBe(T.Modifier);
    expect(byImage.get('.entry')).toBe(T.KwEntry);
    expect(byImage.get('.visible')).toBe(T.KwLinkage);
    expect(byImage.get('.weak')).toBe(T.KwLinkage);
    expect(byImage.get('.align')).toBe(T.KwAlign);
    expect(byImage.get('.maxntid')).toBe(T.KwFunctionDirective);
  });

  it('lexes digit-leading modifiers, :: chains and names that look like opcodes', () => {
    expect(lex('tex.1d tcgen05.ld.sync.aligned.32x32b.x2.b32 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes').tokens.map((t) => t.image))
      .toEqual(['tex', '.1d', 'tcgen05', '.ld', '.sync', '.aligned', '.32x32b', '.x2', '.b32', 'cp', '.async', '.bulk', '.shared::cluster', '.global', '.mbarrier::complete_tx::bytes']);
    expect(kinds('sin min $L__BB0_1 %tid _')).toEqual(['Identifier', 'Identifier', 'Identifier', 'Identifier', 'Identifier']);
  });

  it('lexes every numeric form', () => {
    expect(kinds('0x1F 017 0b101 42U 0f3F800000 0d3FF0000000000000 1.5 2e10 8.5')).toEqual([
      'IntLit', 'IntLit', 'IntLit', 'IntLit', 'FloatHex', 'FloatHex', 'FloatDec', 'FloatDec', 'FloatDec',
    ]);
    expect(parseIntLiteral('0x1F').value).toBe(31n);
    expect(parseIntLiteral('017').value).toBe(15n);
    expect(parseIntLiteral('0b101').value).toBe(5n);
    expect(parseIntLiteral('42U')).toEqual({ text: '42U', value: 42n, unsigned: true });
    expect(parseIntLiteral('0xFFFFFFFFFFFFFFFF').value).toBe(18446744073709551615n);
    expect(parseFloatLiteral('0f3F800000').value).toBe(1);
    expect(parseFloatLiteral('0d3FF0000000000000').value).toBe(1);
    expect(parseFloatLiteral('0fBF000000').value).toBe(-0.5);
  });

  it('keeps comments for inline suppressions', () => {
    const r = lex('// ptx-debug-disable-next-line F052 -- reason\nret; /* x */');
    expect(r.comments.map((c) => c.image)).toEqual(['// ptx-debug-disable-next-line F052 -- reason', '/* x */']);
  });

  it('locates bytes it cannot tokenize', () => {
    expect(lex('ret;\n  \u0000;').errors).toEqual([{ line: 2, column: 3, offset: 7, length: 1, message: 'unexpected control character U+0000' }]);
    expect(lex('mov \uFFFD').errors[0]?.message).toBe('invalid UTF-8 byte sequence');
    expect(lex('a # b').errors[0]).toMatchObject({ line: 1, column: 3, message: "unexpected character '#'" });
    expect(lex('ret; /* never closed').errors[0]).toMatchObject({ line: 1, column: 6, message: 'unterminated block comment' });
    expect(lex('.pragma "open').errors[0]).toMatchObject({ line: 1, column: 9, message: 'unterminated string' });
  });

  it('tolerates non-ASCII inside comments and a byte-order mark', () => {
    expect(lex('\uFEFF// héllo ✓\nret;').errors).toEqual([]);
  });
});
