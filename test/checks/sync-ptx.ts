// Small PTX kernels for the synchronization family's tests (F036–F050), and
// the committed real compiler output their passing cases include.
import { readFileSync } from 'node:fs';
import type { PassCase } from './harness.js';

export interface KernelSpec {
  readonly target?: string;
  readonly version?: string;
  /** `.param .u64 out, .param .u32 n` (without parentheses). */
  readonly params?: string;
  /** `.reqntid` x (and y, z), or none. */
  readonly reqntid?: readonly number[];
  /** Declarations and instructions, one per line, without the leading tab. */
  readonly body: readonly string[];
}

/** A module with one kernel `k`: header lines 1–3, `.entry` on 4, `.reqntid` on 5 when given, `{`, then the body. */
export function kernel(spec: KernelSpec): string {
  const lines = [
    `.version ${spec.version ?? '8.0'}`,
    `.target ${spec.target ?? 'sm_90'}`,
    '.address_size 64',
    `.visible .entry k(${spec.params ?? ''})`,
    ...(spec.reqntid !== undefined ? [`.reqntid ${spec.reqntid.join(', ')}`] : []),
    '{',
    ...spec.body.map((l) => (l.endsWith(':') ? l : `\t${l}`)),
    '}',
    '',
  ];
  return lines.join('\n');
}

/** The 1-based line of the `nth` line containing `needle`. */
export function lineOf(ptx: string, needle: string, nth = 1): number {
  let seen = 0;
  const lines = ptx.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.includes(needle) && ++seen === nth) return i + 1;
  }
  throw new Error(`no line ${nth} with ${needle}`);
}

/** A committed PTX file as a passing case (real compiler output, or a fixed GPU fixture). */
export function realOutput(file: string, na = false): PassCase {
  return { name: `${na ? 'not applicable to' : 'real compiler output'}: ${file}`, ptx: readFileSync(file, 'utf8'), ...(na ? { na: true } : {}) };
}
