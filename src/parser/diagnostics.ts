// Located input errors and their one-line rendering with a caret excerpt.

/** An error in the input text, located at a 1-based line and column. */
export interface PtxDiagnostic {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  /** Characters the error spans (at least 1 for the caret). */
  readonly length: number;
  readonly message: string;
}

/** The text of 1-based line `line` (without its terminator). */
export function lineText(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start--;
  let end = offset;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return text.slice(start, end);
}

/** Makes an excerpt printable: tabs kept, other control bytes shown as '?'. */
function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f\uFFFD]/g, '?');
}

/** `file:line:col: message`, then the source line and a caret under the column. */
export function formatDiagnostic(file: string, text: string, d: PtxDiagnostic): string {
  const head = `${file}:${d.line}:${d.column}: ${d.message}`;
  const src = lineText(text, Math.min(d.offset, text.length));
  if (src.length > 400) return head;
  const pad = src.slice(0, Math.max(0, d.column - 1)).replace(/[^\t]/g, ' ');
  const width = Math.max(1, Math.min(d.length, src.length - (d.column - 1)));
  return `${head}\n  ${printable(src)}\n  ${pad}${'^'.repeat(width)}`;
}
