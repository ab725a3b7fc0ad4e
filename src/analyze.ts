// The falsification run over files: read, parse, run the checks, score, and
// summarize several files (lowest and mean score, worst exit code).
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { AnalysisContext } from './cfg/context.js';
import { runChecks, type FileReport, type RunOptions } from './checks/run.js';
import { EXIT, worstExitCode } from './checks/score.js';
import { NOT_BUILT } from './checks/index.js';
import { formatDiagnostic } from './parser/diagnostics.js';
import { parsePtx } from './parser/parse.js';
import { InputError, readPtxSource } from './input.js';
import { globToRegExp } from './glob.js';

export interface AnalyzeOptions extends RunOptions {
  /** Globs (relative to the working directory) of files to skip when walking directories. */
  readonly ignore?: readonly string[];
  /** Called after each file, for progress. */
  readonly onFile?: (done: number, total: number, file: string) => void;
}

export interface FileAnalysis {
  readonly file: string;
  /** Absent when the file could not be analyzed (see `error`). */
  readonly report?: FileReport;
  /** Why the file could not be analyzed: unreadable, or syntax errors (one rendered line each). */
  readonly error?: { readonly message: string; readonly diagnostics: readonly string[] };
  readonly exitCode: number;
  readonly text?: string;
  readonly timings: { readonly parseMs: number; readonly checksMs: number };
}

export interface AnalysisResult {
  readonly files: readonly FileAnalysis[];
  readonly summary: {
    readonly files: number;
    readonly analyzed: number;
    readonly lowestScore?: number;
    readonly meanScore?: number;
    readonly exitCode: number;
  };
  /** Catalog ids with no check yet (absent from the run). */
  readonly notBuilt: readonly string[];
}

/** Analyzes PTX text as one file. */
export function analyzeText(text: string, file: string, options: AnalyzeOptions = {}): FileAnalysis {
  const t0 = performance.now();
  const parsed = parsePtx(text);
  const parseMs = performance.now() - t0;
  if (parsed.errors.length > 0) {
    return {
      file, text, exitCode: EXIT.input, timings: { parseMs, checksMs: 0 },
      error: {
        message: `${parsed.errors.length} syntax error(s)`,
        diagnostics: parsed.errors.map((e) => formatDiagnostic(file, text, e)),
      },
    };
  }
  const t1 = performance.now();
  const analysis = new AnalysisContext(parsed.module, options.block !== undefined ? { block: options.block } : {});
  const report = runChecks(parsed.module, text, options, analysis);
  return { file, text, report, exitCode: report.exitCode, timings: { parseMs, checksMs: performance.now() - t1 } };
}

/** Expands files and directories (walked for *.ptx, sorted) and `-`. */
export async function expandInputs(inputs: readonly string[], ignore: readonly string[] = []): Promise<string[]> {
  const ignored = ignore.map(globToRegExp);
  const skip = (p: string): boolean => ignored.some((r) => r.test(relative(process.cwd(), p).split('\\').join('/')));
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const p = join(dir, e.name);
      if (skip(p)) continue;
      if (e.isDirectory()) await walk(p);
      else if (e.isFile() && e.name.endsWith('.ptx')) out.push(p);
    }
  };
  for (const input of inputs) {
    if (input === '-') {
      out.push(input);
      continue;
    }
    let s;
    try {
      s = await stat(input);
    } catch {
      throw new InputError(`cannot read '${input}': no such file or directory`);
    }
    if (s.isDirectory()) await walk(input);
    else out.push(input);
  }
  return out;
}

export function summarize(files: readonly FileAnalysis[]): AnalysisResult {
  const scores = files.flatMap((f) => (f.report === undefined ? [] : [f.report.score.score]));
  return {
    files,
    summary: {
      files: files.length,
      analyzed: scores.length,
      ...(scores.length > 0 ? { lowestScore: Math.min(...scores), meanScore: scores.reduce((a, b) => a + b, 0) / scores.length } : {}),
      exitCode: worstExitCode(files.map((f) => f.exitCode)),
    },
    notBuilt: NOT_BUILT,
  };
}

/** Analyzes files and directories; unreadable or unparsable files are reported, not thrown. */
export async function analyzeFiles(inputs: readonly string[], options: AnalyzeOptions = {}): Promise<AnalysisResult> {
  const files = await expandInputs(inputs, options.ignore);
  if (files.length === 0) throw new InputError(`no .ptx files in ${inputs.join(', ')}`);
  const results: FileAnalysis[] = [];
  for (const [i, file] of files.entries()) {
    const name = file === '-' ? '<stdin>' : file;
    let text: string;
    try {
      text = await readPtxSource(file);
    } catch (err) {
      results.push({ file: name, exitCode: EXIT.input, timings: { parseMs: 0, checksMs: 0 }, error: { message: (err as Error).message, diagnostics: [] } });
      options.onFile?.(i + 1, files.length, name);
      continue;
    }
    results.push(analyzeText(text, name, options));
    options.onFile?.(i + 1, files.length, name);
  }
  return summarize(results);
}
