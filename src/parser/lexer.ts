// The PTX lexer: Chevrotain's lexer over the tokens of tokens.ts, then the
// keyword pass that re-types dotted words from the directive table, and
// located errors for bytes that cannot be tokenized.
import { Lexer, type IToken } from 'chevrotain';
import {
  BlockComment, KEYWORD_TOKENS, LBracket, LCurly, LineComment, LParen, Modifier, RBracket, RCurly, RParen,
  UnaryOperator, UnterminatedComment, UnterminatedString, lexedTokens,
} from './tokens.js';
import type { PtxDiagnostic } from './diagnostics.js';

const lexer = new Lexer(lexedTokens, {
  positionTracking: 'onlyStart',
  ensureOptimizations: true,
  // Error messages are built below from offsets, not by Chevrotain.
  errorMessageProvider: {
    buildUnexpectedCharactersMessage: () => 'unexpected character',
    buildUnableToPopLexerModeMessage: () => 'lexer mode error',
  },
});

export interface LexResult {
  readonly tokens: IToken[];
  readonly comments: IToken[];
  readonly errors: PtxDiagnostic[];
  /** Nesting beyond MAX_NESTING: the input is refused before parsing (a recursive parser would overflow). */
  readonly tooDeep: boolean;
}

/** Deepest `{ ( [` nesting (and longest run of unary operators) the parser accepts. */
export const MAX_NESTING = 256;

function describeChar(ch: string): string {
  if (ch === '\uFFFD') return 'invalid UTF-8 byte sequence';
  const code = ch.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (code < 0x20 || code === 0x7f) return `unexpected control character ${hex}`;
  if (code > 0x7e) return `unexpected non-ASCII character ${hex} '${ch}'`;
  return `unexpected character '${ch}'`;
}

/** Tokenizes PTX text. Never throws: every untokenizable run is an error. */
export function lex(text: string): LexResult {
  const result = lexer.tokenize(text);
  const errors: PtxDiagnostic[] = [];
  for (const e of result.errors) {
    const ch = text.slice(e.offset, e.offset + 1);
    errors.push({
      line: e.line ?? 1,
      column: e.column ?? 1,
      offset: e.offset,
      length: e.length,
      message: e.length > 1 ? `${describeChar(ch)} (${e.length} characters skipped)` : describeChar(ch),
    });
  }
  for (const t of result.groups['errors'] ?? []) {
    const unterminated = t.tokenType === UnterminatedComment ? 'unterminated block comment'
      : t.tokenType === UnterminatedString ? 'unterminated string' : 'invalid token';
    errors.push({ line: t.startLine ?? 1, column: t.startColumn ?? 1, offset: t.startOffset, length: 1, message: unterminated });
  }
  const tokens = result.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.tokenType === Modifier) {
      const kw = KEYWORD_TOKENS.get(t.image);
      if (kw !== undefined) {
        t.tokenType = kw;
        t.tokenTypeIdx = kw.tokenTypeIdx!;
      }
    }
  }
  // Nesting guard: real PTX nests a few levels; thousands would overflow any recursive parser.
  let depth = 0;
  let unaryRun = 0;
  let tooDeep = false;
  for (const t of tokens) {
    const type = t.tokenType;
    if (type === LCurly || type === LParen || type === LBracket) depth++;
    else if (type === RCurly || type === RParen || type === RBracket) depth = Math.max(0, depth - 1);
    unaryRun = type.CATEGORIES?.includes(UnaryOperator) === true ? unaryRun + 1 : 0;
    if (depth > MAX_NESTING || unaryRun > MAX_NESTING) {
      errors.push({
        line: t.startLine ?? 1, column: t.startColumn ?? 1, offset: t.startOffset, length: 1,
        message: depth > MAX_NESTING ? `nesting deeper than ${MAX_NESTING} levels of { ( [ is not supported` : `more than ${MAX_NESTING} unary operators in a row`,
      });
      tooDeep = true;
      break;
    }
  }
  const comments = (result.groups['comments'] ?? []).filter(
    (t) => t.tokenType === LineComment || t.tokenType === BlockComment,
  );
  errors.sort((a, b) => a.offset - b.offset);
  return { tokens, comments, errors, tooDeep };
}
