// Source ranges from tokens and nodes. Tolerant of the partial trees that
// error recovery produces (missing nodes, tokens inserted without positions).
import type { IToken } from 'chevrotain';
import type { SourceRange } from './ast.js';

const n = (v: number | undefined): number => (v === undefined || Number.isNaN(v) ? 0 : v);

export function makeRange(line: number, column: number, offset: number, endLine: number, endColumn: number, endOffset: number): SourceRange {
  return { line, column, offset, endLine, endColumn, endOffset };
}

/** The range from the start of `start` to the end of `end` (inclusive tokens).
 *  The lexer tracks start positions only; a token's end is its start plus its
 *  image (tokens that reach AST ranges never span lines). */
export function spanTokens(start: IToken | undefined, end: IToken | undefined): SourceRange {
  if (start === undefined) return makeRange(0, 0, 0, 0, 0, 0);
  const e = end === undefined || Number.isNaN(end.startOffset) || end.startOffset < start.startOffset ? start : end;
  const len = e.image === undefined ? 0 : e.image.length;
  return {
    line: n(start.startLine),
    column: n(start.startColumn),
    offset: n(start.startOffset),
    endLine: n(e.startLine),
    endColumn: n(e.startColumn) + len,
    endOffset: n(e.startOffset) + len,
  };
}

/** The range covering two nodes, either of which may be missing after recovery. */
export function spanNodes(a: { range: SourceRange } | undefined, b: { range: SourceRange } | undefined): SourceRange {
  const ra = a?.range ?? b?.range;
  const rb = b?.range ?? ra;
  if (ra === undefined || rb === undefined) return makeRange(0, 0, 0, 0, 0, 0);
  return { line: ra.line, column: ra.column, offset: ra.offset, endLine: rb.endLine, endColumn: rb.endColumn, endOffset: rb.endOffset };
}
