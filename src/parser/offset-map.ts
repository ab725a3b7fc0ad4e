// A text made of pieces of another (a part thread's text: the module without
// the functions it leaves out, src/checks/part-text.ts), and the way back: the
// offset in the original text of each offset in the pieces. A parse of the
// pieces (src/parser/fast: `TextOrigin`) gives its tree the original's offsets,
// and lines and columns from the original's line starts, so the tree reads as
// if the whole text had been parsed.
import { lastAtMost, type LineStarts } from './ranges.js';

/** Offsets of a text of pieces back to the text the pieces were cut from. */
export class OffsetMap {
  /** Where each piece starts in the text of pieces (ascending, the first 0). */
  private readonly starts: Int32Array;
  /** Where each piece starts in the original text. */
  private readonly from: Int32Array;
  /** The piece last found (a parse asks about offsets in text order). */
  private last = 0;

  constructor(starts: Int32Array, from: Int32Array) {
    this.starts = starts;
    this.from = from;
  }

  /** The piece holding offset `x` of the text of pieces. */
  private piece(x: number): number {
    const s = this.starts;
    const i = this.last;
    if (s[i]! <= x && (i + 1 === s.length || x < s[i + 1]!)) return i;
    this.last = lastAtMost(s, x);
    return this.last;
  }

  /** The original offset of the character at `x`. */
  start(x: number): number {
    const i = this.piece(x);
    return x - this.starts[i]! + this.from[i]!;
  }

  /** The original offset just after the character before `x` (an exclusive end: the end of a piece maps to
   *  the end of that piece, not to the start of the next). */
  end(x: number): number {
    return x === 0 ? this.from[0]! : this.start(x - 1) + 1;
  }
}

/** Where a text of pieces came from: its offsets back, and the original's line starts, length and end. */
export interface TextOrigin {
  readonly map: OffsetMap;
  readonly lines: LineStarts;
  readonly length: number;
  /** The line and column just past the original's last character. */
  readonly end: { readonly line: number; readonly column: number };
}
