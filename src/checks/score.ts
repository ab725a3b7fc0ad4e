// Scoring, bands and exit codes exactly as CATALOG.md states them:
// score = 100 × passing points / applicable points (n/a, off and unbuilt
// checks leave the denominator); 100 with a note when nothing applies.
import type { Severity } from './types.js';

export type Status = 'pass' | 'fail' | 'na' | 'off' | 'not-built';
export type Band = 'pass' | 'warn' | 'block' | 'critical';

export interface ScoredCheck {
  readonly status: Status;
  readonly points: number;
  /** Effective severities of the check's unsuppressed findings. */
  readonly unsuppressed: readonly Severity[];
}

export interface Score {
  /** Unrounded; thresholds compare this value. */
  readonly score: number;
  readonly applicablePoints: number;
  readonly passingPoints: number;
  /** Why the score is 100 with nothing to judge. */
  readonly note?: string;
}

export const DEFAULT_MIN_SCORE = 70;
export const PASS_SCORE = 90;

export const EXIT = { ok: 0, warn: 1, block: 2, critical: 3, input: 4 } as const;

export function scoreChecks(checks: readonly ScoredCheck[]): Score {
  let applicable = 0;
  let passing = 0;
  for (const c of checks) {
    if (c.status !== 'pass' && c.status !== 'fail') continue;
    applicable += c.points;
    if (c.status === 'pass') passing += c.points;
  }
  if (applicable === 0) return { score: 100, applicablePoints: 0, passingPoints: 0, note: 'no applicable check carries points' };
  return { score: (100 * passing) / applicable, applicablePoints: applicable, passingPoints: passing };
}

export function band(score: number, minScore: number, hasCritical: boolean): Band {
  if (hasCritical) return 'critical';
  if (score < minScore) return 'block';
  if (score < PASS_SCORE) return 'warn';
  return 'pass';
}

export function exitCodeOf(b: Band): number {
  switch (b) {
    case 'critical': return EXIT.critical;
    case 'block': return EXIT.block;
    case 'warn': return EXIT.warn;
    case 'pass': return EXIT.ok;
  }
}

/** Several files: the worst code wins, 4 > 3 > 2 > 1 > 0. */
export function worstExitCode(codes: readonly number[]): number {
  return codes.reduce((a, b) => Math.max(a, b), EXIT.ok);
}

/** One decimal, as reports print it. */
export function formatScore(score: number): string {
  return (Math.floor(score * 10 + 1e-9) / 10).toFixed(1);
}
