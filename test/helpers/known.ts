// The family gates' view of fixtures/known-findings.json: which findings on
// correct code are true, and which listed ones no longer occur (the list must
// stay tight).
import { knownFinding, loadKnownFindings, type KnownFinding } from '../../src/known-findings.js';

export interface KnownGate {
  /** Whether the finding is a listed true one (and remember that it occurred). */
  allowed(check: string, name: string, line: number): boolean;
  /** Listed entries of the family that match an input given but never occurred. */
  stale(names: readonly string[]): string[];
}

export function knownGate(ids: readonly string[]): KnownGate {
  const mine = loadKnownFindings().filter((k) => ids.includes(k.check));
  const seen = new Set<KnownFinding>();
  return {
    allowed(check, name, line) {
      const k = knownFinding(mine, check, name, line);
      if (k !== undefined) seen.add(k);
      return k !== undefined;
    },
    stale(names) {
      return mine.filter((k) => !seen.has(k) && names.some((n) => k.input.test(n))).map((k) => `${k.check} ${k.input.source}: ${k.why}`);
    },
  };
}
