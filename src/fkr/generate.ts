// gen-fkr: analyzes a PTX file and writes the test file that freezes its
// verdicts (vitest by default, or Rust), with the paths it names made
// relative to where that file lives, and a header saying how to regenerate
// it. Same input, same bytes: nothing depends on the time or the machine.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { analyzeText, type FileAnalysis } from '../analyze.js';
import { loadLaunchSpec } from '../gpu/launch-spec.js';
import { decodePtx, InputError } from '../input.js';
import { fkrModel, tsvVerdicts } from './model.js';
import { optionFlags, shellLine, type FkrAnalyzeOptions, type FkrGpuInput, type FkrInput } from './input.js';
import { renderRust } from './rust.js';
import { renderVitest } from './vitest.js';

export type FkrLang = 'vitest' | 'rust';

export const DEFAULT_IMPORT = 'ptx-debug';

export interface FkrGpuOptions {
  /** The runner launch spec (as `ptx-debug run --launch` takes). */
  readonly launch: string;
  /** Directory of reference outputs, `<buffer>.bin` each; default `<ptx name>.reference` beside the test file. */
  readonly reference?: string;
  /** Compare captured buffers as f32 within |got − want| ≤ abs + rel·|want|; default byte for byte. */
  readonly tolerance?: { readonly rel: number; readonly abs: number };
}

export interface GenerateFkrOptions {
  /** The PTX file (relative to `base`, or absolute). */
  readonly ptx: string;
  /** Where the test file goes; the paths it names are relative to it. Absent: standard output (relative to `base`). */
  readonly output?: string;
  readonly lang?: FkrLang;
  /** Vitest output: the module specifier the API is imported from (default `ptx-debug`). */
  readonly importFrom?: string;
  readonly analyze?: FkrAnalyzeOptions;
  /** The config file the options came from (the Rust output passes it to `analyze --config`). */
  readonly config?: string;
  readonly gpu?: FkrGpuOptions;
  /** The directory relative paths are resolved from and the header's command is written from (default: the working directory). */
  readonly base?: string;
  /** Rust output: the crate root (default: the nearest Cargo.toml upward from the output). */
  readonly crateRoot?: string;
  /** The header's regeneration command (default: the equivalent `ptx-debug gen-fkr` command). */
  readonly regenerate?: string;
  /** Where that command runs from, said in the header. */
  readonly regenerateFrom?: string;
  /** The analysis to freeze, when the caller has it (default: analyze the file). */
  readonly analysis?: FileAnalysis;
}

/** Posix path from `fromDir` to `to` (both absolute). */
function rel(fromDir: string, to: string): string {
  const r = relative(fromDir, to).split(sep).join('/');
  return r === '' ? '.' : r;
}

/** A relative path as a URL reference (`new URL(ref, import.meta.url)`): `./` first, segments escaped. */
function urlRef(path: string): string {
  const escaped = path.split('/').map((s) => (s === '.' || s === '..' ? s : encodeURIComponent(s))).join('/');
  return escaped.startsWith('../') || escaped.startsWith('./') ? escaped : `./${escaped}`;
}

function findCrateRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'Cargo.toml'))) return dir;
    if (dirname(dir) === dir) break;
  }
  return basename(start) === 'tests' ? dirname(start) : start;
}

function stem(file: string): string {
  return basename(file).replace(/\.ptx$/, '');
}

/** The `ptx-debug gen-fkr` command that regenerates the file, paths relative to `from`. */
function defaultRegenerate(options: GenerateFkrOptions, base: string, from: string): string {
  const p = (file: string): string => rel(from, resolve(base, file));
  const words = ['ptx-debug', 'gen-fkr', p(options.ptx)];
  if (options.output !== undefined) words.push('-o', p(options.output));
  if ((options.lang ?? 'vitest') === 'rust') words.push('--lang', 'rust');
  else if ((options.importFrom ?? DEFAULT_IMPORT) !== DEFAULT_IMPORT) words.push('--import', options.importFrom!);
  if (options.config !== undefined) words.push('--config', p(options.config));
  words.push(...optionFlags(options.analyze ?? {}));
  if (options.gpu !== undefined) {
    words.push('--gpu', '--launch', p(options.gpu.launch));
    if (options.gpu.reference !== undefined) words.push('--reference', p(options.gpu.reference));
    if (options.gpu.tolerance !== undefined) words.push('--tolerance', `${options.gpu.tolerance.rel},${options.gpu.tolerance.abs}`);
  }
  return shellLine(words);
}

function gpuInput(gpu: FkrGpuOptions, base: string, anchor: string, outputDir: string, ptxAbs: string, toRef: (p: string) => string): FkrGpuInput {
  const launchAbs = resolve(base, gpu.launch);
  const spec = loadLaunchSpec(launchAbs);
  const referenceAbs = gpu.reference !== undefined ? resolve(base, gpu.reference) : join(outputDir, `${stem(ptxAbs)}.reference`);
  const captures = spec.args.flatMap((a) => (a.kind === 'buffer' && a.capture ? [a.name] : []));
  return {
    launch: toRef(rel(anchor, launchAbs)),
    reference: toRef(rel(anchor, referenceAbs)),
    kernel: spec.kernel,
    captures,
    ...(gpu.tolerance !== undefined ? { tolerance: gpu.tolerance } : {}),
    timeoutSeconds: Math.ceil(spec.timeoutSeconds) + 120,
  };
}

/** The FKR test file's text for one PTX file. */
export function generateFkr(options: GenerateFkrOptions): string {
  const base = resolve(options.base ?? process.cwd());
  const lang = options.lang ?? 'vitest';
  const ptxAbs = resolve(base, options.ptx);
  if (ptxAbs.endsWith('.cu')) throw new InputError('gen-fkr takes PTX: compile the CUDA source first (nvcc -ptx), and freeze the PTX');
  const outputDir = options.output !== undefined ? dirname(resolve(base, options.output)) : base;
  const anchor = lang === 'rust' ? (options.crateRoot !== undefined ? resolve(base, options.crateRoot) : findCrateRoot(outputDir)) : outputDir;
  let analysis = options.analysis;
  if (analysis === undefined) {
    let text: string;
    try {
      text = decodePtx(readFileSync(ptxAbs));
    } catch {
      throw new InputError(`cannot read '${options.ptx}': no such file`);
    }
    analysis = analyzeText(text, ptxAbs, options.analyze ?? {});
  }
  if (analysis.report === undefined) {
    const why = analysis.error === undefined ? '' : `: ${[analysis.error.message, ...analysis.error.diagnostics.slice(0, 3)].join('\n')}`;
    throw new InputError(`${options.ptx} could not be analyzed, so there are no verdicts to freeze${why}`);
  }
  const toRef = lang === 'vitest' ? urlRef : (p: string): string => p;
  const input: FkrInput = {
    model: fkrModel(analysis),
    tsv: tsvVerdicts(analysis),
    ptx: toRef(rel(anchor, ptxAbs)),
    displayName: basename(ptxAbs),
    options: options.analyze ?? {},
    ...(options.config !== undefined ? { config: rel(anchor, resolve(base, options.config)) } : {}),
    importFrom: options.importFrom ?? DEFAULT_IMPORT,
    regenerate: options.regenerate ?? defaultRegenerate(options, base, outputDir),
    regenerateFrom: options.regenerateFrom ?? (options.output !== undefined ? 'this file\'s directory' : 'the directory it was generated in'),
    ...(options.gpu !== undefined ? { gpu: gpuInput(options.gpu, base, anchor, outputDir, ptxAbs, toRef) } : {}),
  };
  return lang === 'rust' ? renderRust(input) : renderVitest(input);
}
