// Why keywords are re-typed after lexing: a Chevrotain lexer with one token per
// dot-keyword (directives, and every modifier of the ISA table) against ours
// (one generic dotted token, then a Map lookup), on the same text.
import { createToken, Lexer } from 'chevrotain';
import { lexedTokens, Modifier } from '../dist/parser/tokens.js';
import { lex } from '../dist/parser/lexer.js';
import { DIRECTIVES } from '../dist/parser/isa/directives.js';
import { OPCODES } from '../dist/parser/isa/opcodes/index.js';

function keywordPerTokenLexer() {
  const words = new Set(DIRECTIVES.map((d) => d.name));
  for (const op of OPCODES) for (const g of op.modifiers) for (const v of g.values) words.add(v);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const keywordTokens = [...words].sort((a, b) => b.length - a.length).map((w, i) =>
    createToken({ name: `Kw${i}`, pattern: new RegExp(`${escape(w)}(?![A-Za-z0-9_$:])`) }));
  const tokens = [...lexedTokens];
  tokens.splice(tokens.indexOf(Modifier), 0, ...keywordTokens);
  return { lexer: new Lexer(tokens, { positionTracking: 'onlyStart' }), count: keywordTokens.length };
}

/** Tokens per second of both lexers on `text` (best of 3). */
export function compareKeywordLexers(text) {
  const { lexer, count } = keywordPerTokenLexer();
  const time = (fn) => {
    let best = Infinity;
    let n = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      n = fn();
      best = Math.min(best, performance.now() - t0);
    }
    return { tokensPerSecond: n / (best / 1000), ms: best };
  };
  const ours = time(() => lex(text).tokens.length);
  const perKeyword = time(() => lexer.tokenize(text).tokens.length);
  return { keywordTokens: count, ours, perKeyword };
}
