// The parser facade: text in, `{ module, errors }` out, never an exception.
import type { IToken, IParserErrorMessageProvider, TokenType } from 'chevrotain';
import { EOF } from 'chevrotain';
import type { Comment, ModuleStatement } from './ast.js';
import { lex } from './lexer.js';
import { PtxParser } from './parser.js';
import { spanTokens } from './ranges.js';
import { fastParse } from './fast/parser.js';
import type { PtxDiagnostic } from './diagnostics.js';
import { endPosition, type ParseResult } from './parse-fast.js';

export { endPosition, parsePieces, scanFunctionBodies, type FunctionBody, type ParseResult } from './parse-fast.js';

const EOF_TOKEN = { image: '', tokenType: EOF } as unknown as IToken;
const show = (t: IToken): string => (t.tokenType === EOF ? 'end of file' : `'${t.image.length > 40 ? `${t.image.slice(0, 40)}...` : t.image}'`);
const label = (t: TokenType): string => t.LABEL ?? t.name;

const RULE_WORDS: Readonly<Record<string, string>> = {
  moduleStatement: 'a directive, declaration or function',
  statement: 'a statement',
  primary: 'an operand',
  unary: 'an operand',
  expression: 'an expression',
  sectionItem: 'a debug section item',
  declaration: 'a declaration',
};

const messages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual }) => `expected ${label(expected)} but found ${show(actual)}`,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => `unexpected ${show(firstRedundant)}`,
  buildNoViableAltMessage: ({ actual, ruleName }) =>
    `unexpected ${show(actual[0] ?? EOF_TOKEN)}; expected ${RULE_WORDS[ruleName] ?? ruleName}`,
  buildEarlyExitMessage: ({ actual, ruleName }) =>
    `unexpected ${show(actual[0] ?? EOF_TOKEN)}; expected ${RULE_WORDS[ruleName] ?? ruleName}`,
};

let parser: PtxParser | undefined;
function getParser(): PtxParser {
  if (parser === undefined) {
    parser = new PtxParser(messages);
  }
  return parser;
}

export interface ParseOptions {
  /** Skip the fast path and always use the reference (Chevrotain) parser. */
  readonly reference?: boolean;
  /**
   * Function bodies to leave out (the offset of a body's `{` to the offset just after its `}`): those
   * functions become declarations. Taken by the fast path only; the reference parser reads every body.
   */
  readonly skipBodies?: ReadonlyMap<number, number>;
}

/** Errors reported per file: enough to fix a real file, bounded for binary garbage. */
export const MAX_ERRORS = 200;

function capErrors(errors: PtxDiagnostic[]): PtxDiagnostic[] {
  if (errors.length <= MAX_ERRORS) return errors;
  const last = errors[MAX_ERRORS - 1]!;
  return [...errors.slice(0, MAX_ERRORS), { ...last, message: `too many errors: ${errors.length - MAX_ERRORS} more not shown` }];
}

/** Parses PTX text. Never throws; a failure inside the parser becomes an error.
 *  Well-formed input takes the fast path (src/parser/fast), which builds the
 *  same tree; anything else goes to the reference parser for recovery and errors. */
export function parsePtx(text: string, options: ParseOptions = {}): ParseResult {
  const hasBom = text.charCodeAt(0) === 0xfeff;
  const end = endPosition(text);
  const moduleRange = { line: 1, column: 1, offset: 0, endLine: end.line, endColumn: end.column, endOffset: text.length };
  if (options.reference !== true) {
    const fast = fastParse(text, options.skipBodies);
    if (fast !== undefined) {
      return { module: { kind: 'Module', statements: fast.statements, comments: fast.comments, hasBom, range: moduleRange }, errors: [] };
    }
  }
  const errors: PtxDiagnostic[] = [];
  let statements: ModuleStatement[] = [];
  let comments: Comment[] = [];
  try {
    const lexed = lex(text);
    for (const e of lexed.errors) errors.push(e); // (a spread would overflow the stack on binary garbage)
    comments = lexed.comments.map((t) => ({ kind: 'Comment', text: t.image, range: spanTokens(t, t) }));
    if (lexed.tooDeep) {
      errors.sort((a, b) => a.offset - b.offset);
      return { module: { kind: 'Module', statements: [], comments, hasBom, range: moduleRange }, errors: capErrors(errors) };
    }
    const p = getParser();
    p.input = lexed.tokens;
    statements = p.module();
    for (const e of p.errors) {
      const t = e.token;
      const atEof = t.tokenType === EOF || Number.isNaN(t.startOffset);
      errors.push({
        line: atEof ? end.line : t.startLine ?? 1,
        column: atEof ? end.column : t.startColumn ?? 1,
        offset: atEof ? text.length : t.startOffset,
        length: atEof ? 1 : Math.max(1, t.image.length),
        message: e.message,
      });
    }
    p.input = [];
  } catch (err) {
    errors.push({ line: 1, column: 1, offset: 0, length: 1, message: `internal parser error: ${String(err)}` });
    parser = undefined;
  }
  errors.sort((a, b) => a.offset - b.offset);
  return { module: { kind: 'Module', statements, comments, hasBom, range: moduleRange }, errors: capErrors(errors) };
}
