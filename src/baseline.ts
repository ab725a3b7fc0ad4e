// Baselines: the findings a team already knows, recorded by fingerprint, so a
// new gate can be switched on before every old finding is fixed.
import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { AnalysisResult } from './analyze.js';
import { InputError } from './input.js';

const baselineSchema = z.object({
  ptxDebugBaseline: z.literal(1),
  findings: z.array(z.object({
    fingerprint: z.string(),
    id: z.string(),
    file: z.string(),
    function: z.string().optional(),
    line: z.number().int(),
    message: z.string(),
  })),
});
export type Baseline = z.infer<typeof baselineSchema>;

export interface BaselineSummary {
  /** Findings that the baseline knows (left out of the score and exit code). */
  readonly matched: number;
  /** Baseline entries for the analyzed files that no longer occur. */
  readonly fixed: number;
  /** Unsuppressed findings the baseline does not know. */
  readonly new: number;
}

export function loadBaseline(path: string): Baseline {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'}`);
  }
  const r = baselineSchema.safeParse(raw);
  if (!r.success) throw new InputError(`${path}: not a ptx-debug baseline (${r.error.issues[0]?.message ?? 'invalid'})`);
  return r.data;
}

/** Every finding not suppressed by a comment or config, as a baseline. */
export function toBaseline(result: AnalysisResult): Baseline {
  const findings = result.files.flatMap((f) => (f.report?.findings ?? [])
    .filter((x) => x.fingerprint !== undefined && (x.suppressed === undefined || x.suppressed.by === 'baseline'))
    .map((x) => ({
      fingerprint: x.fingerprint!, id: x.id, file: f.file, line: x.location.line, message: x.message,
      ...(x.function !== undefined ? { function: x.function } : {}),
    })));
  return { ptxDebugBaseline: 1, findings };
}

export function writeBaseline(path: string, result: AnalysisResult): void {
  writeFileSync(path, `${JSON.stringify(toBaseline(result), null, 2)}\n`);
}

export function summarizeBaseline(baseline: Baseline, result: AnalysisResult): BaselineSummary {
  const analyzed = new Set(result.files.map((f) => f.file));
  const present = new Set(result.files.flatMap((f) => (f.report?.findings ?? []).map((x) => x.fingerprint)));
  const all = result.files.flatMap((f) => f.report?.findings ?? []);
  return {
    matched: all.filter((x) => x.suppressed?.by === 'baseline').length,
    fixed: baseline.findings.filter((b) => analyzed.has(b.file) && !present.has(b.fingerprint)).length,
    new: all.filter((x) => x.suppressed === undefined).length,
  };
}
