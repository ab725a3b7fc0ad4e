// What the FKR renderers need: the frozen verdicts, how the generated file
// reaches the PTX file (and launch spec, reference), the analysis options to
// replay, and the header's regeneration command.
import type { Severity } from '../checks/types.js';
import type { FkrModel, TsvVerdict } from './model.js';

/** The analysis options a generated file replays (the ones that change verdicts). */
export interface FkrAnalyzeOptions {
  readonly profile?: 'default' | 'seeds';
  readonly only?: readonly string[];
  readonly disable?: readonly string[];
  readonly block?: readonly [number, number, number];
  readonly kernel?: string;
  readonly minScore?: number;
  /** Per-check severities from a config (vitest output: written out literally). */
  readonly overrides?: Readonly<Record<string, Severity | 'off'>>;
}

export interface FkrGpuInput {
  /** The runner launch spec, relative to the anchor (posix separators). */
  readonly launch: string;
  /** The directory of reference outputs (`<buffer>.bin`), relative to the anchor. */
  readonly reference: string;
  readonly kernel: string;
  /** Buffers the spec captures (compared with the reference), in argument order. */
  readonly captures: readonly string[];
  /** Compare as f32 within |got − want| ≤ abs + rel·|want|; absent: byte for byte. */
  readonly tolerance?: { readonly rel: number; readonly abs: number };
  /** Test timeout: the spec's kernel timeout plus room to build the runner. */
  readonly timeoutSeconds: number;
}

export interface FkrInput {
  readonly model: FkrModel;
  /** For the Rust output: the verdicts as the TSV report shows them. */
  readonly tsv: readonly TsvVerdict[];
  /**
   * The PTX file relative to the anchor (posix separators): the test file's
   * directory for vitest, the crate root for Rust.
   */
  readonly ptx: string;
  /** How headers and messages name the PTX file. */
  readonly displayName: string;
  readonly options: FkrAnalyzeOptions;
  /** Rust output: the config file passed to `analyze --config`, relative to the crate root. */
  readonly config?: string;
  /** Vitest output: the module the API is imported from. */
  readonly importFrom: string;
  /** The command that regenerates the file (header and failure messages). */
  readonly regenerate: string;
  /** Where the regeneration command runs from, when it matters (header). */
  readonly regenerateFrom?: string;
  readonly gpu?: FkrGpuInput;
}

/** A single-quoted TypeScript string literal. */
export function tsString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

/** A double-quoted Rust string literal. */
export function rustString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}"`;
}

export function statusWord(status: string): string {
  return status === 'na' ? 'n/a' : status === 'not-built' ? 'not built' : status;
}

/** "fail at line 12", "fail at lines 3, 9", "fail (7 findings)". */
export function describeOutcome(status: string, lines: readonly number[]): string {
  if (status !== 'fail') return statusWord(status);
  const unique = [...new Set(lines)];
  if (unique.length === 0) return 'fail';
  if (unique.length > 4) return `fail (${lines.length} findings)`;
  return `fail at line${unique.length > 1 ? 's' : ''} ${unique.join(', ')}`;
}

/** The analyze flags that replay `options` (Rust output, and the header's command). */
export function optionFlags(options: FkrAnalyzeOptions): string[] {
  const flags: string[] = [];
  if (options.profile !== undefined) flags.push('--profile', options.profile);
  if (options.only !== undefined) flags.push('--only', options.only.join(','));
  if (options.disable !== undefined) flags.push('--disable', options.disable.join(','));
  if (options.block !== undefined) flags.push('--block', options.block.join(','));
  if (options.kernel !== undefined) flags.push('--kernel', options.kernel);
  if (options.minScore !== undefined) flags.push('--min-score', String(options.minScore));
  return flags;
}

/** Words of a shell command, quoted where needed. */
export function shellLine(words: readonly string[]): string {
  return words.map((w) => (/^[A-Za-z0-9_./,:=@%+-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** A comment's text wrapped at `width` columns after the prefix. */
export function wrapComment(text: string, prefix: string, width = 78): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w.length > 0)) {
    if (line.length > 0 && prefix.length + line.length + 1 + word.length > width) {
      lines.push(`${prefix}${line}`);
      line = word;
    } else {
      line = line.length === 0 ? word : `${line} ${word}`;
    }
  }
  if (line.length > 0) lines.push(`${prefix}${line}`);
  return lines;
}

/** The regeneration command as failure messages show it. */
export function regenerateHint(input: FkrInput): string {
  return input.regenerateFrom !== undefined ? `${input.regenerate} (in ${input.regenerateFrom})` : input.regenerate;
}
