// The text a part thread parses for one part: the module without the
// functions the part does not need (their declarations too: on the 17 MB bench
// module the kernels' parameter lists are 0.6 MB, twice a part's bodies, and
// every part parsed and modelled them all). The offsets of the pieces lead back
// to the module's (src/parser/offset-map.ts), so the tree's positions are the
// module's. A thread then holds the part's text (a few hundred kB on the 17 MB
// module), not a copy of the whole module: twelve threads held 200 MB of copies.
import { OffsetMap, type TextOrigin } from '../parser/offset-map.js';
import { endPosition, type FunctionBody } from '../parser/parse-fast.js';
import { LineStarts, lineStartsOf } from '../parser/ranges.js';

/** A module's text as a part thread reads it: by pieces. */
export interface ModuleSource {
  readonly length: number;
  readonly lines: LineStarts;
  /** The line and column just past the last character. */
  readonly end: { readonly line: number; readonly column: number };
  /** Characters `start` to `end` (exclusive). */
  slice(start: number, end: number): string;
}

/** A module held as a string. */
export function stringSource(text: string): ModuleSource {
  if (lastSource?.text === text) return lastSource.source;
  const source: ModuleSource = { length: text.length, lines: lineStartsOf(text), end: endPosition(text), slice: (a, b) => text.slice(a, b) };
  lastSource = { text, source };
  return source;
}

let lastSource: { readonly text: string; readonly source: ModuleSource } | undefined;

/** A module of ASCII text held in shared memory as bytes (one per character), with its line starts there too
 *  (`LineStarts.table`): only the pieces a part needs become strings. */
export function asciiSource(bytes: SharedArrayBuffer, lineTable: SharedArrayBuffer, end: { line: number; column: number }): ModuleSource {
  return {
    length: bytes.byteLength,
    lines: new LineStarts(new Int32Array(lineTable)),
    end,
    slice: (a, b) => Buffer.from(bytes, a, b - a).toString('latin1'),
  };
}

/** What a part is parsed from: its text, and where its pieces come from. */
export interface PartText {
  readonly text: string;
  readonly origin: TextOrigin;
}

/** The module `source` without every function in `bodies` (declaration and body) whose declaration offset `keep`
 *  lacks. */
export function partText(source: ModuleSource, bodies: readonly FunctionBody[], keep: ReadonlySet<number>): PartText {
  const ranges: [number, number][] = [];
  let cursor = 0;
  for (const b of [...bodies].sort((x, y) => x.decl - y.decl)) {
    if (keep.has(b.decl)) continue;
    ranges.push([cursor, b.decl]);
    cursor = b.close;
  }
  ranges.push([cursor, source.length]);
  return piecesText(source, ranges);
}

/** The functions `bodies` of the module `source` alone (declarations and bodies), to parse and add to a part's
 *  tree (src/checks/part-check.ts). */
export function functionsText(source: ModuleSource, bodies: readonly FunctionBody[]): PartText {
  return piecesText(source, [...bodies].sort((x, y) => x.decl - y.decl).map((b): [number, number] => [b.decl, b.close]));
}

/** The text of `ranges` of the module (in order, apart), one space between each two so that what stands on
 *  either side of a gap stays apart. */
function piecesText(source: ModuleSource, ranges: readonly (readonly [number, number])[]): PartText {
  const pieces: string[] = [];
  const starts: number[] = [];
  const from: number[] = [];
  let length = 0;
  const piece = (text: string, at: number): void => {
    starts.push(length);
    from.push(at);
    pieces.push(text);
    length += text.length;
  };
  for (const [i, [start, end]] of ranges.entries()) {
    if (i > 0) piece(' ', ranges[i - 1]![1]);
    piece(source.slice(start, end), start);
  }
  const map = new OffsetMap(Int32Array.from(starts), Int32Array.from(from));
  return { text: pieces.join(''), origin: { map, lines: source.lines, length: source.length, end: source.end } };
}
