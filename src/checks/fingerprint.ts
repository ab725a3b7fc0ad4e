// Finding fingerprints: stable under line shifts and unrelated edits, so a
// baseline keeps matching and SARIF can track a finding across commits. A
// fingerprint hashes the file, the check, the function, what stands on the
// finding's line (the instruction's opcode and modifiers, not its register
// numbers, which compilers renumber on unrelated edits; or the trimmed line),
// the mapped source line's text when it is known, and the occurrence index
// among findings that agree on all of that.
import * as crypto from 'node:crypto';
import type { FunctionModel } from '../cfg/symbols.js';
import { lineStartsOf, textOfLine } from '../parser/ranges.js';
import type { Finding } from './types.js';

/** Some functions' instructions in text order: where each starts and what it is (its opcode and modifiers,
 *  `whats[kinds[i]]`: a few hundred distinct strings for a module's hundreds of thousands of instructions). */
export interface InstructionIndex {
  readonly offsets: Int32Array;
  readonly kinds: Int32Array;
  readonly whats: readonly string[];
}

/** Numbers for strings, in the order first seen. */
class Kinds {
  readonly whats: string[] = [];
  private readonly ids = new Map<string, number>();

  of(what: string): number {
    let k = this.ids.get(what);
    if (k === undefined) {
      k = this.whats.length;
      this.whats.push(what);
      this.ids.set(what, k);
    }
    return k;
  }
}

/** The index of `functions`' instructions (functions in text order). */
export function instructionIndex(functions: readonly FunctionModel[]): InstructionIndex {
  let n = 0;
  for (const fn of functions) n += fn.instructions.length;
  const offsets = new Int32Array(n);
  const kinds = new Int32Array(n);
  const names = new Kinds();
  let i = 0;
  for (const fn of functions) {
    for (const ins of fn.instructions) {
      offsets[i] = ins.node.range.offset;
      kinds[i++] = names.of(`${ins.node.opcode}${ins.node.modifiers.join('')}`);
    }
  }
  return { offsets, kinds, whats: names.whats };
}

/** One index from the indexes of consecutive runs of functions, in text order. */
export function joinIndexes(pieces: readonly InstructionIndex[]): InstructionIndex {
  let n = 0;
  for (const p of pieces) n += p.offsets.length;
  const offsets = new Int32Array(n);
  const kinds = new Int32Array(n);
  const names = new Kinds();
  let i = 0;
  for (const p of pieces) {
    const map = p.whats.map((what) => names.of(what));
    offsets.set(p.offsets, i);
    for (let j = 0; j < p.kinds.length; j++) kinds[i + j] = map[p.kinds[j]!]!;
    i += p.offsets.length;
  }
  return { offsets, kinds, whats: names.whats };
}

/** The first index in [0, n) whose `at` is not below `value` (n when none); `at` ascends. */
function firstAtLeast(n: number, at: (i: number) => number, value: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (at(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * What stands on each of the `wanted` lines of `text` that has an instruction: the first one's opcode and
 * modifiers. `first(offset)` gives the first instruction starting at or after an offset, with its text.
 */
function onLines(text: string, wanted: ReadonlySet<number>, first: (offset: number) => { offset: number; what: () => string } | undefined): ReadonlyMap<number, string> {
  const starts = lineStartsOf(text);
  const out = new Map<number, string>();
  for (const line of wanted) {
    const start = starts.start(line);
    if (start === -1) continue;
    const next = starts.start(line + 1);
    const hit = first(start);
    if (hit !== undefined && (next === -1 || hit.offset < next)) out.set(line, hit.what());
  }
  return out;
}

/** `onLines` from an index kept after the tree is let go. */
export function instructionsOnLines(index: InstructionIndex, text: string, wanted: ReadonlySet<number>): ReadonlyMap<number, string> {
  const { offsets } = index;
  return onLines(text, wanted, (start) => {
    const i = firstAtLeast(offsets.length, (k) => offsets[k]!, start);
    return i === offsets.length ? undefined : { offset: offsets[i]!, what: () => index.whats[index.kinds[i]!]! };
  });
}

/** `onLines` from the functions' flat instruction lists (in text order): binary searches, no walk over every
 *  instruction. */
export function instructionsOnLinesOf(functions: readonly FunctionModel[], text: string, wanted: ReadonlySet<number>): ReadonlyMap<number, string> {
  return onLines(text, wanted, (start) => {
    // The first function ending after the offset, then its first instruction at or after it (or a later
    // function's first).
    for (let f = firstAtLeast(functions.length, (k) => functions[k]!.decl.range.endOffset, start + 1); f < functions.length; f++) {
      const ins = functions[f]!.instructions;
      const i = firstAtLeast(ins.length, (k) => ins[k]!.node.range.offset, start);
      if (i === ins.length) continue;
      const node = ins[i]!.node;
      return { offset: node.range.offset, what: () => `${node.opcode}${node.modifiers.join('')}` };
    }
    return undefined;
  });
}

function lineOf(text: string, line: number): string {
  return textOfLine(text, line).trim().split(/\s+/).join(' ');
}

/** The one-shot `crypto.hash` where the runtime has it (Node 20.12 and later): the same digest as a Hash
 *  object's, a third of the time for the short keys of a large module's 30,000 findings. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
const sha256Hex = (data: string): string => oneShot !== undefined ? oneShot('sha256', data) : crypto.createHash('sha256').update(data).digest('hex');

type Located = Pick<Finding, 'location' | 'function'>;

/** The order findings are fingerprinted and reported in: by line, then column (a stable sort keeps the rest). */
export const byPosition = (a: Located, b: Located): number => a.location.line - b.location.line || a.location.column - b.location.column;

/** Fingerprints of `findings` (sorted by line), what stands on their lines given (`byLine`, else the line's text). */
export function keyedPrints(file: string, id: string, text: string, byLine: ReadonlyMap<number, string>, findings: readonly Located[],
  sourceLine?: (file: string, line: number) => string | undefined): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const what = byLine.get(f.location.line) ?? lineOf(text, f.location.line);
    const src = f.location.source !== undefined ? sourceLine?.(f.location.source.file, f.location.source.line) ?? '' : '';
    const key = `${file}\u0000${id}\u0000${f.function ?? ''}\u0000${what}\u0000${src.trim()}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return sha256Hex(`${key}\u0000${n}`).slice(0, 32);
  });
}

/**
 * Fingerprints for check `id`'s `findings` (sorted by line), in the same order. `known` gives those made
 * beforehand (src/checks/early-prints.ts: every finding of the check in one function, or none of them); when
 * a function has findings with and without one, all are made here.
 */
export function fingerprints(file: string, lines: (wanted: ReadonlySet<number>) => ReadonlyMap<number, string>, text: string, id: string,
  findings: readonly Located[], sourceLine?: (file: string, line: number) => string | undefined, known?: (f: Located) => string | undefined): string[] {
  if (findings.length === 0) return [];
  const prints: (string | undefined)[] = known === undefined ? [] : findings.map(known);
  // A finding's key names its function: a function's findings all known, or all not, count their repeats alike.
  const knownIn = new Set<string | undefined>();
  for (let i = 0; i < prints.length; i++) if (prints[i] !== undefined) knownIn.add(findings[i]!.function);
  const rest: number[] = [];
  for (let i = 0; i < findings.length; i++) {
    if (prints[i] !== undefined) continue;
    if (knownIn.has(findings[i]!.function)) return fingerprints(file, lines, text, id, findings, sourceLine);
    rest.push(i);
  }
  if (rest.length === 0) return prints as string[];
  const todo = rest.length === findings.length ? findings : rest.map((i) => findings[i]!);
  const made = keyedPrints(file, id, text, lines(new Set(todo.map((f) => f.location.line))), todo, sourceLine);
  if (todo === findings) return made;
  for (let k = 0; k < rest.length; k++) prints[rest[k]!] = made[k];
  return prints as string[];
}
