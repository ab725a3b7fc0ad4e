// The parser facade: text in, `{ module, errors }` out, never an exception.
import type { IToken, IParserErrorMessageProvider, TokenType } from 'chevrotain';
import { EOF } from 'chevrotain';
import type { Comment, Module, ModuleStatement } from './ast.js';
import { lex } from './lexer.js';
import { PtxParser } from './parser.js';
import { spanTokens } from './ranges.js';
import { fastParse } from './fast/parser.js';
import type { PtxDiagnostic } from './diagnostics.js';
import type { TextOrigin } from './offset-map.js';

export interface ParseResult {
  /** The syntax tree. When `errors` is not empty it is partial. */
  readonly module: Module;
  /** Every lexical and syntax error, in file order. */
  readonly errors: readonly PtxDiagnostic[];
}

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

/** The line and column just past the last character of `text` (the module's range ends there). */
export function endPosition(text: string): { line: number; column: number } {
  // A part thread parses the same text once per part: the last text's answer is kept.
  if (lastEnd?.text === text) return lastEnd.end;
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  const end = { line, column: text.length - last };
  lastEnd = { text, end };
  return end;
}

let lastEnd: { readonly text: string; readonly end: { readonly line: number; readonly column: number } } | undefined;

export interface ParseOptions {
  /** Skip the fast path and always use the reference (Chevrotain) parser. */
  readonly reference?: boolean;
  /**
   * Function bodies to leave out (the offset of a body's `{` to the offset just after its `}`): those
   * functions become declarations. Taken by the fast path only; the reference parser reads every body.
   */
  readonly skipBodies?: ReadonlyMap<number, number>;
  /**
   * The text is pieces of a module (src/parser/offset-map.ts): the tree gets the module's offsets, lines and
   * columns. Fast path only: text it does not take gives one error, not the reference parser's (whose
   * positions would be the pieces').
   */
  readonly origin?: TextOrigin;
}

/** A function body found without parsing it: where its declaration, `{` and end are, and the function's name. */
export interface FunctionBody {
  readonly name: string;
  readonly decl: number;
  readonly open: number;
  readonly close: number;
}

/**
 * The function bodies of a module, in order, found by parsing its declarations and matching each body's
 * braces (a tenth of a full parse's time): what the part threads need to start before the module is
 * parsed (src/checks/parallel.ts). Undefined when the fast parser does not take the text (a syntax error,
 * or a construct it leaves to the reference parser): the full parse then says what is wrong.
 */
export function scanFunctionBodies(text: string): FunctionBody[] | undefined {
  const fast = fastParse(text, 'all');
  if (fast === undefined) return undefined;
  const names = new Map<number, string>();
  for (const s of fast.statements) if (s.kind === 'Function') names.set(s.range.offset, s.name);
  return fast.skipped.map(([decl, open, close]) => ({ name: names.get(decl)!, decl, open, close }));
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
  const { origin } = options;
  const end = origin?.end ?? endPosition(text);
  const moduleRange = { line: 1, column: 1, offset: 0, endLine: end.line, endColumn: end.column, endOffset: origin?.length ?? text.length };
  if (origin !== undefined) {
    const fast = fastParse(text, options.skipBodies, origin);
    const module: Module = { kind: 'Module', statements: fast?.statements ?? [], comments: fast?.comments ?? [], hasBom, range: moduleRange };
    return { module, errors: fast !== undefined ? [] : [{ line: 1, column: 1, offset: 0, length: 1, message: 'the pieces of the module did not parse' }] };
  }
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
