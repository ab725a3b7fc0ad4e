// Bad input: every error in the file, each located and worded for a person,
// rendered as `file:line:col: message` with a caret under the column.
import { describe, expect, it } from 'vitest';
import { parsePtx } from '../../src/parser/parse.js';
import { formatDiagnostic } from '../../src/parser/diagnostics.js';

const located = (text: string): string[] => parsePtx(text).errors.map((e) => `${e.line}:${e.column}: ${e.message}`);

describe('syntax errors', () => {
  it('reports every error of a file, recovering after each', () => {
    const text = '.version 8.5\n.target sm_90\n.entry k()\n{\n  mov.u32 %r1 %r2;\n  add.u32 %r1, , 3;\n  ret;\n  ld.global.u32 %r1, [%rd1;\n}\n';
    expect(located(text)).toEqual([
      "5:15: expected ';' but found '%r2'",
      "6:16: unexpected ','; expected an operand",
      "8:27: expected ']' but found ';'",
    ]);
  });

  it('reports unbalanced braces at the end of the file', () => {
    expect(located('.version 8.5\n.target sm_90\n.entry k()\n{\n  ret;\n')).toEqual(["6:1: expected '}' but found end of file"]);
  });

  it('reports an unterminated comment or string where it starts', () => {
    expect(located('.version 8.5\n/* no end\n.target sm_90\n')).toContain('2:1: unterminated block comment');
    expect(located('.version 8.5\n.pragma "open;\n')[0]).toBe('2:9: unterminated string');
  });

  it('reports bytes that cannot be tokenized, such as NUL and invalid UTF-8', () => {
    expect(located('.version 8.5\u0000\n')).toEqual(['1:13: unexpected control character U+0000']);
    expect(located('.version 8.5\n\uFFFD\n')).toEqual(['2:1: invalid UTF-8 byte sequence']);
  });

  it('renders one line with file, line and column, then the source line and a caret', () => {
    const text = '.version 8.5\n.target sm_90\n.entry k() {\n\tmov.u32 %r1 %r2;\n}\n';
    const [e] = parsePtx(text).errors;
    expect(formatDiagnostic('k.ptx', text, e!)).toBe("k.ptx:4:14: expected ';' but found '%r2'\n  \tmov.u32 %r1 %r2;\n  \t            ^^^");
  });
});
