// The true findings on correct-code inputs (fixtures/known-findings.json):
// inputs that really have a check's pattern, each with the reason. The family
// gates allow exactly these, and docs/accuracy.md counts them as true
// patterns rather than false alarms.
import { readFileSync } from 'node:fs';

export interface KnownFinding {
  readonly check: string;
  /** Matched against the input's name: a fixture path, `cuda/<file>@<arch>`, `llvm/<file>@<arch>`, `lib/<kernel>@<arch>`. */
  readonly input: RegExp;
  /** The PTX lines, when only some of the check's findings on the input are true. */
  readonly lines?: readonly number[];
  readonly why: string;
}

interface RawEntry { check: string; input: string; lines?: number[]; why: string }

export function loadKnownFindings(file = 'fixtures/known-findings.json'): KnownFinding[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { known: RawEntry[] };
  return raw.known.map((e) => ({ check: e.check, input: new RegExp(e.input), ...(e.lines !== undefined ? { lines: e.lines } : {}), why: e.why }));
}

/** The entry that makes a finding of `check` at `line` of input `name` a true one, if any. */
export function knownFinding(known: readonly KnownFinding[], check: string, name: string, line: number): KnownFinding | undefined {
  return known.find((k) => k.check === check && k.input.test(name) && (k.lines === undefined || k.lines.includes(line)));
}
