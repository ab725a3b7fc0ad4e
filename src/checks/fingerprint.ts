// Finding fingerprints: stable under line shifts and unrelated edits, so a
// baseline keeps matching and SARIF can track a finding across commits. A
// fingerprint hashes the file, the check, the function, what stands on the
// finding's line (the instruction's opcode and modifiers, not its register
// numbers, which compilers renumber on unrelated edits; or the trimmed line),
// the mapped source line's text when it is known, and the occurrence index
// among findings that agree on all of that.
import { createHash } from 'node:crypto';
import type { Module, Statement } from '../parser/ast.js';
import { textOfLine } from '../parser/ranges.js';
import type { Finding } from './types.js';

/**
 * What stands on each line with an instruction (the first one's opcode and modifiers), by line: on the
 * `wanted` lines only when given (the lines of a report's findings: most instructions have none).
 */
export function instructionsByLine(module: Module, wanted?: ReadonlySet<number>): ReadonlyMap<number, string> {
  const byLine = new Map<number, string>();
  const visit = (stmts: readonly Statement[]): void => {
    for (const s of stmts) {
      if (s.kind === 'Instruction') {
        const line = s.range.line;
        if ((wanted === undefined || wanted.has(line)) && !byLine.has(line)) byLine.set(line, `${s.opcode}${s.modifiers.join('')}`);
      } else if (s.kind === 'Block') visit(s.statements);
    }
  };
  for (const s of module.statements) if (s.kind === 'Function' && s.body !== null) visit(s.body.statements);
  return byLine;
}

function lineOf(text: string, line: number): string {
  return textOfLine(text, line).trim().split(/\s+/).join(' ');
}

/** Fingerprints for `findings` (sorted by line), in the same order. */
export function fingerprints(file: string, lines: (wanted: ReadonlySet<number>) => ReadonlyMap<number, string>, text: string, findings: readonly Finding[], sourceLine?: (file: string, line: number) => string | undefined): string[] {
  if (findings.length === 0) return [];
  const byLine = lines(new Set(findings.map((f) => f.location.line)));
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const what = byLine.get(f.location.line) ?? lineOf(text, f.location.line);
    const src = f.location.source !== undefined ? sourceLine?.(f.location.source.file, f.location.source.line) ?? '' : '';
    const key = [file, f.id, f.function ?? '', what, src.trim()].join('\u0000');
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return createHash('sha256').update(`${key}\u0000${n}`).digest('hex').slice(0, 32);
  });
}
