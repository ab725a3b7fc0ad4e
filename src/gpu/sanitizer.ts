// compute-sanitizer: where it is, and its report parsed into events, each with
// the PTX locations it names (file:line, which are the user's PTX lines when
// the runner gave the PTX line information pointing at itself).
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export type SanitizerTool = 'racecheck' | 'synccheck' | 'memcheck' | 'initcheck';
export const SANITIZER_TOOLS: readonly SanitizerTool[] = ['racecheck', 'synccheck', 'memcheck', 'initcheck'];

export interface SanitizerEvent {
  readonly severity: 'error' | 'warning';
  /** The event's first line, without the `=========` prefix. */
  readonly message: string;
  /** Every `file:line` the event names, in order. */
  readonly locations: readonly { readonly file: string; readonly line: number }[];
  /** The event's full text. */
  readonly text: string;
}

export interface SanitizerReport {
  readonly tool: SanitizerTool;
  readonly events: readonly SanitizerEvent[];
  /** The summary's error count (`ERROR SUMMARY: N errors`, or RACECHECK/SYNCCHECK summaries). */
  readonly errors: number;
  readonly raw: string;
}

export function findSanitizer(): string | undefined {
  const dirs = [...(process.env['PATH'] ?? '').split(':'), process.env['CUDA_HOME'] !== undefined ? join(process.env['CUDA_HOME'], 'bin') : '', '/usr/local/cuda/bin'];
  for (const d of dirs) {
    if (d === '') continue;
    const p = join(d, 'compute-sanitizer');
    if (existsSync(p)) return p;
  }
  return undefined;
}

const PREFIX = '========= ';
const LOCATION = /([^\s:()]+\.ptx):(\d+)/g;

/** Parses compute-sanitizer's text output (its lines begin with `=========`). */
export function parseSanitizerReport(tool: SanitizerTool, output: string): SanitizerReport {
  const lines = output.split('\n').filter((l) => l.startsWith('=========')).map((l) => l.slice(PREFIX.length).replace(/\s+$/, ''));
  const events: SanitizerEvent[] = [];
  let current: string[] | undefined;
  const flush = (): void => {
    if (current === undefined) return;
    const text = current.join('\n');
    const first = current[0]!.trim();
    const locations = [...text.matchAll(LOCATION)].map((m) => ({ file: m[1]!, line: Number(m[2]) }));
    events.push({ severity: /^warning/i.test(first) ? 'warning' : 'error', message: first, locations, text });
    current = undefined;
  };
  let errors = 0;
  for (const line of lines) {
    const t = line.trim();
    const summary = /(?:ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY|INITCHECK SUMMARY):\s*(\d+)\s+(?:errors?|hazards?)/i.exec(t);
    if (summary !== null) {
      flush();
      errors = Math.max(errors, Number(summary[1]));
      continue;
    }
    const startsEvent = /^(error|warning)\b/i.test(t) || /^(invalid|barrier error|race reported|uninitialized|out of bounds)/i.test(t);
    if (startsEvent && !line.startsWith(' ')) {
      flush();
      current = [t];
    } else if (t === '' || t.startsWith('COMPUTE-SANITIZER')) {
      flush();
    } else if (current !== undefined) {
      current.push(t);
    }
  }
  flush();
  if (errors === 0) errors = events.filter((e) => e.severity === 'error').length;
  return { tool, events, errors, raw: output };
}
