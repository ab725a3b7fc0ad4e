// Finding fingerprints: stable under line shifts and unrelated edits, so a
// baseline keeps matching and SARIF can track a finding across commits. A
// fingerprint hashes the file, the check, the function, what stands on the
// finding's line (the instruction's opcode and modifiers, not its register
// numbers, which compilers renumber on unrelated edits; or the trimmed line),
// the mapped source line's text when it is known, and the occurrence index
// among findings that agree on all of that.
import { createHash } from 'node:crypto';
import type { FunctionModel } from '../cfg/symbols.js';
import type { Module, Statement } from '../parser/ast.js';
import { lineStartsOf, textOfLine } from '../parser/ranges.js';
import type { Finding } from './types.js';

/** A module's instructions in text order: where each starts, its opcode and modifiers (what fingerprints
 *  read of them; strings are made only for the lines of findings). */
export interface InstructionIndex {
  readonly offsets: Int32Array;
  readonly opcodes: readonly string[];
  readonly modifiers: readonly (readonly string[])[];
}

export function instructionIndex(module: Module): InstructionIndex {
  const offsets: number[] = [];
  const opcodes: string[] = [];
  const modifiers: (readonly string[])[] = [];
  const visit = (stmts: readonly Statement[]): void => {
    for (const s of stmts) {
      if (s.kind === 'Instruction') {
        offsets.push(s.range.offset);
        opcodes.push(s.opcode);
        modifiers.push(s.modifiers);
      } else if (s.kind === 'Block') visit(s.statements);
    }
  };
  for (const s of module.statements) if (s.kind === 'Function' && s.body !== null) visit(s.body.statements);
  return { offsets: Int32Array.from(offsets), opcodes, modifiers };
}

/** What stands on each of the `wanted` lines of `text` that has an instruction: the first one's opcode and
 *  modifiers. */
export function instructionsOnLines(index: InstructionIndex, text: string, wanted: ReadonlySet<number>): ReadonlyMap<number, string> {
  const starts = lineStartsOf(text);
  const { offsets } = index;
  const out = new Map<number, string>();
  for (const line of wanted) {
    const start = starts.start(line);
    if (start === -1) continue;
    const next = starts.start(line + 1);
    const end = next === -1 ? Infinity : next;
    // The first instruction starting at or after the line's start.
    let lo = 0;
    let hi = offsets.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offsets[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    if (lo < offsets.length && offsets[lo]! < end) out.set(line, `${index.opcodes[lo]!}${index.modifiers[lo]!.join('')}`);
  }
  return out;
}

/** What stands on each of the `wanted` lines of `text` that has an instruction, from the functions' flat
 *  instruction lists (in text order): binary searches per line, no walk over every instruction. */
export function instructionsOnLinesOf(functions: readonly FunctionModel[], text: string, wanted: ReadonlySet<number>): ReadonlyMap<number, string> {
  const starts = lineStartsOf(text);
  const out = new Map<number, string>();
  for (const line of wanted) {
    const start = starts.start(line);
    if (start === -1) continue;
    const next = starts.start(line + 1);
    const end = next === -1 ? Infinity : next;
    // The first function whose body ends after the line starts, then its first instruction at or after it
    // (or the first instruction of a later function).
    let lo = 0;
    let hi = functions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (functions[mid]!.decl.range.endOffset <= start) lo = mid + 1;
      else hi = mid;
    }
    for (let f = lo; f < functions.length; f++) {
      const ins = functions[f]!.instructions;
      let a = 0;
      let b = ins.length;
      while (a < b) {
        const mid = (a + b) >> 1;
        if (ins[mid]!.node.range.offset < start) a = mid + 1;
        else b = mid;
      }
      if (a === ins.length) continue;
      const node = ins[a]!.node;
      if (node.range.offset < end) out.set(line, `${node.opcode}${node.modifiers.join('')}`);
      break;
    }
  }
  return out;
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
