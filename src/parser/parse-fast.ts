// What the fast parser alone does (src/parser/fast), without the reference
// (Chevrotain) parser: finding a module's function bodies, parsing a part
// thread's pieces of a module (src/checks/part-text.ts). A part thread imports
// this, not src/parser/parse.ts, so that it does not load Chevrotain and its
// dependencies (half of the part worker's bundle: memory and start-up time in
// every thread).
import type { Module } from './ast.js';
import type { PtxDiagnostic } from './diagnostics.js';
import { fastParse } from './fast/parser.js';
import type { TextOrigin } from './offset-map.js';

export interface ParseResult {
  /** The syntax tree. When `errors` is not empty it is partial. */
  readonly module: Module;
  /** Every lexical and syntax error, in file order. */
  readonly errors: readonly PtxDiagnostic[];
}

/** The line and column just past the last character of `text` (the module's range ends there). */
export function endPosition(text: string): { line: number; column: number } {
  // Asked more than once for one text (its parse, the part threads' work): the last text's answer is kept.
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

/**
 * Parses pieces of a module (`origin`: src/parser/offset-map.ts): the tree gets the module's offsets, lines and
 * columns. The fast parser only: text it does not take gives one error, not the reference parser's (whose
 * positions would be the pieces'); a part thread then leaves the module to the main thread, which parses it whole.
 */
export function parsePieces(text: string, origin: TextOrigin): ParseResult {
  const fast = fastParse(text, undefined, origin);
  const range = { line: 1, column: 1, offset: 0, endLine: origin.end.line, endColumn: origin.end.column, endOffset: origin.length };
  const module: Module = { kind: 'Module', statements: fast?.statements ?? [], comments: fast?.comments ?? [], hasBom: text.charCodeAt(0) === 0xfeff, range };
  return { module, errors: fast !== undefined ? [] : [{ line: 1, column: 1, offset: 0, length: 1, message: 'the pieces of the module did not parse' }] };
}
