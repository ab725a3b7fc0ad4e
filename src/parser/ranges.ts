// Source ranges from tokens and nodes. Tolerant of the partial trees that
// error recovery produces (missing nodes, tokens inserted without positions).
import type { IToken } from 'chevrotain';
import type { SourceRange } from './ast.js';
import { lineText } from './diagnostics.js';

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

/** The index of the last element of `sorted` (ascending, its first at most `x`) that is at most `x`. */
export function lastAtMost(sorted: Int32Array, x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (sorted[mid]! <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where each line of a text starts (after `\n`, `\r\n` or a lone `\r`, as the lexers count lines). */
export class LineStarts {
  private readonly starts: Int32Array;

  /** The line starts of `text`, or the table itself (`table` of another: a part thread reads the main thread's
   *  table in shared memory, src/checks/part-text.ts). */
  constructor(text: string | Int32Array) {
    if (typeof text !== 'string') {
      this.starts = text;
      return;
    }
    const starts = [0];
    if (text.indexOf('\r') === -1) {
      // (Most text: no `\r`, and `indexOf` finds each `\n` several times faster than a loop over characters.)
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
    }
    this.starts = Int32Array.from(starts);
  }

  /** The offsets where the lines start, in order. */
  get table(): Int32Array {
    return this.starts;
  }

  /** The 1-based line holding `offset`. */
  line(offset: number): number {
    return lastAtMost(this.starts, offset) + 1;
  }

  /** The offset where 1-based `line` starts (-1 past the last line). */
  start(line: number): number {
    return line >= 1 && line <= this.starts.length ? this.starts[line - 1]! : -1;
  }

  /** The 1-based column of `offset` on its line. */
  column(offset: number): number {
    return offset - this.starts[this.line(offset) - 1]! + 1;
  }
}

let lastText: { readonly text: string; readonly starts: LineStarts } | undefined;

/** The line starts of `text` (the last text's are kept: reports ask about one text many times). */
export function lineStartsOf(text: string): LineStarts {
  if (lastText === undefined || lastText.text !== text) lastText = { text, starts: new LineStarts(text) };
  return lastText.starts;
}

/** The text of 1-based `line` without its terminator; '' past the last line. */
export function textOfLine(text: string, line: number): string {
  const start = lineStartsOf(text).start(line);
  return start === -1 ? '' : lineText(text, start);
}

/** Ranges of one text that keep only their two offsets; line and column are found from the text's line
 *  starts when read. A syntax tree holds millions of ranges (a third of its memory as six-field objects):
 *  two fields instead of six take 40 bytes instead of 72. The fast parser makes them; the reference
 *  parser, which also builds error-recovery trees with missing positions, keeps plain objects. `toJSON`
 *  gives the six fields, so printed trees are unchanged.
 *  The class is made once per text, not once per parse: a part thread parses its module once per part,
 *  and a new class each time gave every part's ranges a new hidden class, so the code reading them met
 *  ever more shapes (deoptimized and compiled again, part after part), and the line starts of the whole
 *  text were computed again for each part (a fifth of the part threads' time on the 17 MB bench module,
 *  profiled on the device). */
export function compactRanges(text: string): (offset: number, endOffset: number) => SourceRange {
  if (lastRanges?.key === text) return lastRanges.make;
  return rangeClass(text, () => lineStartsOf(text));
}

/** Compact ranges whose lines are read from `lines` (a part thread's parses of its pieces of the module,
 *  src/parser/offset-map.ts: one class for every part, as above). */
export function rangesOver(lines: LineStarts): (offset: number, endOffset: number) => SourceRange {
  if (lastRanges?.key === lines) return lastRanges.make;
  return rangeClass(lines, () => lines);
}

function rangeClass(key: string | LineStarts, starts: () => LineStarts): (offset: number, endOffset: number) => SourceRange {
  let table: LineStarts | undefined; // made on the first read
  const lines = (): LineStarts => (table ??= starts());
  class CompactRange implements SourceRange {
    constructor(readonly offset: number, readonly endOffset: number) {}
    get line(): number { return lines().line(this.offset); }
    get column(): number { return lines().column(this.offset); }
    get endLine(): number { return lines().line(this.endOffset); }
    get endColumn(): number { return lines().column(this.endOffset); }
    toJSON(): SourceRange { return plainRange(this); }
  }
  const make = (offset: number, endOffset: number): SourceRange => new CompactRange(offset, endOffset);
  lastRanges = { key, make };
  return make;
}

let lastRanges: { readonly key: string | LineStarts; readonly make: (offset: number, endOffset: number) => SourceRange } | undefined;

/** A range as a plain six-field object. */
export function plainRange(r: SourceRange): SourceRange {
  return { line: r.line, column: r.column, offset: r.offset, endLine: r.endLine, endColumn: r.endColumn, endOffset: r.endOffset };
}
