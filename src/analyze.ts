// The falsification run over files: read, parse, run the checks, score, and
// summarize several files (lowest and mean score, worst exit code).
import { existsSync, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { summarizeBaseline, type Baseline, type BaselineSummary } from './baseline.js';
import { compileCuda } from './cuda.js';
import { AnalysisContext } from './cfg/context.js';
import { prepareRun, runSelected, type FileReport, type PreparedRun, type RunOptions } from './checks/run.js';
import { PartWorkers, bodiesOf, partThreads, partWorkersAvailable, runInParts, startParts } from './checks/parallel.js';
import { EXIT, worstExitCode } from './checks/score.js';
import { NOT_BUILT } from './checks/index.js';
import { formatDiagnostic } from './parser/diagnostics.js';
import { parsePtx } from './parser/parse.js';
import { InputError, readPtxSource } from './input.js';
import { globToRegExp } from './glob.js';
import { moduleTarget, ptxasResources } from './gpu/ptxas.js';
import type { ResourceUsage } from './checks/types.js';
import { enterCompactHeap, heapFlagsNote, leaveCompactHeap, withCompactHeap } from './heap.js';
import { mark } from './timeline.js';

export interface AnalyzeOptions extends RunOptions {
  /** Globs (relative to the working directory) of files to skip when walking directories. */
  readonly ignore?: readonly string[];
  /** Target for CUDA sources (`nvcc -arch`). */
  readonly arch?: string;
  /** Extra nvcc flags for CUDA sources. */
  readonly nvccFlags?: readonly string[];
  /** Known findings: reported as known, left out of the score and exit code. */
  readonly knownFindings?: Baseline;
  /** Per-file heap limit in the analysis processes (MB); a file that needs more is reported as not analyzed. */
  readonly memoryLimitMb?: number;
  /** Analyze in child processes even one at a time (the CLI does: limits then apply to every file), but see
   *  `inProcessBelowMb`. */
  readonly isolate?: boolean;
  /** A run of one file (no time limit) analyzes it in this process, with the analysis processes' V8 flags,
   *  when its estimated need is at most this many MB (the CLI: half this process's heap limit). */
  readonly inProcessBelowMb?: number;
  /** Run `ptxas -v` on each module for its resource usage (F091, F092); off by default. */
  readonly ptxas?: boolean;
  /** Collect garbage more often while checking, for a lower peak (src/heap.ts); the command sets it. */
  readonly compactHeap?: boolean;
  /** At most this many worker threads for the parts of one large module (`partThreads` decides; `analyzeFiles`
   *  gives them only to a run of one file, `jobs` by default). */
  readonly partJobs?: number;
  /** Called after each file, for progress. */
  readonly onFile?: (done: number, total: number, file: string) => void;
}

export interface FileAnalysis {
  readonly file: string;
  /** How reports name the file when its path says little (a Triton cache entry: the kernel). */
  readonly label?: string;
  /** For a CUDA source: the PTX nvcc produced, which findings' PTX lines refer to. */
  readonly compiledFrom?: 'cuda';
  /** Absent when the file could not be analyzed (see `error`). */
  readonly report?: FileReport;
  /** Why the file could not be analyzed: unreadable, or syntax errors (one rendered line each). */
  readonly error?: { readonly message: string; readonly diagnostics: readonly string[] };
  readonly exitCode: number;
  readonly text?: string;
  readonly timings: { readonly parseMs: number; readonly checksMs: number };
  /** `ptxas -v` resource usage, when `--ptxas` asked for it. */
  readonly resources?: ResourceUsage;
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
  /** How a baseline matched, when one was given. */
  readonly baseline?: BaselineSummary;
}

/** Lines of source files that `.loc` maps findings to, read on demand. */
export function sourceLineReader(): (file: string, line: number) => string | undefined {
  const cache = new Map<string, string[] | null>();
  return (file, line) => {
    let lines = cache.get(file);
    if (lines === undefined) {
      try {
        lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n') : null;
      } catch {
        lines = null;
      }
      cache.set(file, lines);
    }
    return lines?.[line - 1];
  };
}

/** A Triton cache entry (`<hash>/<kernel>.ptx` beside `__grp__<kernel>.json`): its kernel name. */
function tritonKernel(file: string): string | undefined {
  if (!file.endsWith('.ptx')) return undefined;
  const name = basename(file, '.ptx');
  return existsSync(join(dirname(file), `__grp__${name}.json`)) ? name : undefined;
}

/** Measured on nvcc output (docs/performance.md): a full analysis holds about 4 KB per statement, plus the runtime. */
const MB_PER_STATEMENT = 4 / 1024;
const BASE_MB = 100;

/** The memory a full analysis of `text` needs, estimated from its statement count (`;`), in MB. */
export function estimateAnalysisMb(text: string): { statements: number; mb: number } {
  let statements = 0;
  for (let i = text.indexOf(';'); i !== -1; i = text.indexOf(';', i + 1)) statements++;
  return { statements, mb: Math.round(BASE_MB + statements * MB_PER_STATEMENT) };
}

type Prepared =
  | { readonly done: FileAnalysis }
  | { readonly done?: undefined; readonly run: PreparedRun; readonly parseMs: number; readonly t1: number; readonly resources?: ResourceUsage };

/** A file refused before it is parsed because its analysis would not fit in the memory limit: a clean "not
 *  analyzed" in a second, not an out-of-memory crash minutes later (a 50 MB module of tiny instructions needs
 *  about 10 GB). */
function refused(text: string, file: string, options: AnalyzeOptions): FileAnalysis | undefined {
  const limit = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  const estimate = estimateAnalysisMb(text);
  if (estimate.mb <= limit) return undefined;
  return {
    file, text: '', exitCode: EXIT.input, timings: { parseMs: 0, checksMs: 0 },
    error: {
      message: `not analyzed: its ${estimate.statements.toLocaleString('en-US')} statements would need about `
        + `${estimate.mb.toLocaleString('en-US')} MB for a full analysis, more than the limit of ${limit} MB (PTX_DEBUG_MEMORY_MB sets it)`,
      diagnostics: [],
    },
  };
}

/** Parses `text` and prepares its checks; `done` when the file cannot be analyzed (too large, syntax errors).
 *  `sized`: the caller has already seen that it is not too large; `skipBodies`, function bodies to leave out
 *  (part threads parse them: `analyzeTextInParts`). */
function prepareAnalysis(text: string, file: string, options: AnalyzeOptions, sized = false, skipBodies?: ReadonlyMap<number, number>): Prepared {
  const refusal = sized ? undefined : refused(text, file, options);
  if (refusal !== undefined) return { done: refusal };
  const t0 = performance.now();
  const parsed = parsePtx(text, skipBodies !== undefined ? { skipBodies } : {});
  const parseMs = performance.now() - t0;
  if (parsed.errors.length > 0) {
    return {
      done: {
        file, text, exitCode: EXIT.input, timings: { parseMs, checksMs: 0 },
        error: {
          message: `${parsed.errors.length} syntax error(s)`,
          diagnostics: parsed.errors.map((e) => formatDiagnostic(file, text, e)),
        },
      },
    };
  }
  const t1 = performance.now();
  const analysis = new AnalysisContext(parsed.module, options.block !== undefined ? { block: options.block } : {});
  const known = options.knownFindings === undefined ? undefined : new Set(options.knownFindings.findings.map((f) => f.fingerprint));
  const resources = options.ptxas === true ? ptxasResources(text, moduleTarget(parsed.module)) : undefined;
  const run = prepareRun(parsed.module, text, {
    ...options, file, sourceLine: options.sourceLine ?? sourceLineReader(), ...(known !== undefined ? { baseline: known } : {}),
    ...(resources !== undefined ? { resources } : {}),
  }, analysis);
  return { run, parseMs, t1, ...(resources !== undefined ? { resources } : {}) };
}

function analyzed(text: string, file: string, p: Prepared & { done?: undefined }, report: FileReport): FileAnalysis {
  return {
    file, text, report, exitCode: report.exitCode, timings: { parseMs: p.parseMs, checksMs: performance.now() - p.t1 },
    ...(p.resources !== undefined ? { resources: p.resources } : {}),
  };
}

/** Analyzes PTX text as one file. */
export function analyzeText(text: string, file: string, options: AnalyzeOptions = {}): FileAnalysis {
  const p = prepareAnalysis(text, file, options);
  if (p.done !== undefined) return p.done;
  const check = (): FileReport => p.run.finish(runSelected(p.run.checks, p.run.ctx, p.run.chunk));
  return analyzed(text, file, p, options.compactHeap === true ? withCompactHeap(check) : check());
}

/**
 * Analyzes PTX text as one file with its parts checked by `options.partJobs` worker threads (the same
 * report as `analyzeText`); as `analyzeText` when there are no worker threads to use.
 */
export async function analyzeTextInParts(text: string, file: string, given: AnalyzeOptions = {}): Promise<FileAnalysis> {
  // (One source reader for the fingerprints made as the parts come and for the report's.)
  const options: AnalyzeOptions = { ...given, sourceLine: given.sourceLine ?? sourceLineReader() };
  const limit = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  const jobs = partThreads(text.length, options.partJobs ?? 1, limit);
  if (jobs <= 1 || !partWorkersAvailable()) return analyzeText(text, file, options);
  // The workers load while the module's function bodies are found, and take their parts while it is parsed.
  mark('threads starting');
  // The compact growth factor (src/heap.ts) for the threads' whole lives, set before they start (their code
  // cache is made and read under one setting), with no full collection to make it apply at once: this
  // thread's collections are on the threaded run's critical path, and its peak is the part threads'. On the
  // bench host (docs/performance.md, session 8, interleaved twice), with neither this collection nor the one
  // after the module-level checks, the five corpus modules took 20.3 and 18.9 s against 20.9 and 19.3 s, the
  // 17 MB module peaking at 2.36 to 2.39 GB against 2.43 to 2.45 GB.
  const compact = options.compactHeap === true;
  if (compact) enterCompactHeap();
  let workers: PartWorkers;
  try {
    workers = await PartWorkers.start(jobs, limit, undefined, heapFlagsNote());
  } catch (err) {
    if (compact) leaveCompactHeap();
    throw err;
  }
  try {
    const refusal = refused(text, file, options);
    if (refusal !== undefined) return refusal;
    const early = options.ptxas === true ? undefined : startParts(text, options, workers, { file, sourceLine: options.sourceLine });
    mark('parts given');
    // With parts given, the declarations alone: the part threads parse the bodies. Without, the whole module,
    // and not under the compact factor (src/heap.ts: the tree only grows while it is parsed; the threads then
    // may find their code cache made under other flags, which costs them its time only).
    const whole = compact && early === undefined;
    if (whole) leaveCompactHeap();
    let p: ReturnType<typeof prepareAnalysis>;
    try {
      p = prepareAnalysis(text, file, options, true, early === undefined ? undefined : bodiesOf(early.planned));
    } finally {
      if (whole) enterCompactHeap();
    }
    mark('parsed');
    if (p.done !== undefined) {
      // (Workers given parts of a module that does not parse are stopped, not waited for.)
      if (early !== undefined) await workers.terminate();
      return p.done;
    }
    const run = p.run;
    const check = (): Promise<FileReport | undefined> => runInParts(run, jobs, limit, undefined, workers, early);
    const report = await check();
    if (report !== undefined) return analyzed(text, file, p, report);
    // A part its thread could not check (its body does not parse, the thread failed): the module on this
    // thread, which reports a syntax error as a run on one thread would.
    mark('a part was not checked: the whole module on this thread');
    return analyzeText(text, file, options);
  } finally {
    // Those given no work (a file that did not parse, a module of one part, a throw) end here. Not waited
    // for: a thread takes up to a tenth of a second to end after its last part (V8 lets its compilations in
    // flight finish), while the report is written (`partThreadsEnded`).
    const ended: Promise<void> = workers.stop().finally(() => {
      ending.delete(ended);
      if (compact) leaveCompactHeap();
    });
    ending.add(ended);
  }
}

/** Part threads of returned runs, still ending. */
const ending = new Set<Promise<void>>();

/** Resolves once every part thread started so far has ended (the process ends then; the bench waits for it,
 *  so that its time is the command's). */
export async function partThreadsEnded(): Promise<void> {
  await Promise.all([...ending]);
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
      else if (e.isFile() && (e.name.endsWith('.ptx') || e.name.endsWith('.cu'))) out.push(p);
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

/** How reports name an input file (`-` is standard input). */
const inputName = (file: string): string => (file === '-' ? '<stdin>' : file);

/** An input file that could not be analyzed, and why (one line). */
function fileError(file: string, message: string, checksMs = 0): FileAnalysis {
  return { file: inputName(file), exitCode: EXIT.input, timings: { parseMs: 0, checksMs }, error: { message, diagnostics: [] } };
}

/** An input file read (or compiled), or why it could not be. */
type Loaded = { readonly text: string; readonly failed?: undefined } | { readonly failed: FileAnalysis };

async function loadInput(file: string, options: AnalyzeOptions): Promise<Loaded> {
  try {
    const text = file.endsWith('.cu')
      ? await compileCuda(file, { ...(options.arch !== undefined ? { arch: options.arch } : {}), ...(options.nvccFlags !== undefined ? { nvccFlags: options.nvccFlags } : {}) })
      : await readPtxSource(file);
    return { text };
  } catch (err) {
    return { failed: fileError(file, (err as Error).message) };
  }
}

async function analyzeLoaded(file: string, text: string, options: AnalyzeOptions): Promise<FileAnalysis> {
  mark('read');
  const result = await analyzeTextInParts(text, inputName(file), options);
  mark('analyzed');
  const kernel = tritonKernel(file);
  return { ...result, ...(file.endsWith('.cu') ? { compiledFrom: 'cuda' as const } : {}), ...(kernel !== undefined ? { label: `${kernel} (Triton cache)` } : {}) };
}

/** Reads (or compiles) and analyzes one input file; problems become a file error, never a throw. */
export async function analyzeOne(file: string, options: AnalyzeOptions): Promise<FileAnalysis> {
  const loaded = await loadInput(file, options);
  return loaded.failed ?? analyzeLoaded(file, loaded.text, options);
}

let flagsHere = false;

/** The analysis processes' V8 flags, given to this process once (they take effect on what is optimized
 *  from then on: nothing of the analysis has run yet when the command first calls this). */
function useAnalysisFlagsHere(): void {
  if (flagsHere) return;
  flagsHere = true;
  for (const flag of DEFAULT_ANALYSIS_V8_FLAGS) setFlagsFromString(flag);
}

/**
 * The one input file of a run (with no time limit) analyzed in this process rather than in a child, when
 * its estimated need (`estimateAnalysisMb`, about three times what nvcc output needs) is at most
 * `inProcessBelowMb`: no process to start, and no report to copy back (on the bench host, 0.2 to 0.3 s to
 * start one and up to 1 s to copy a report of 30,000 findings back; docs/performance.md). Undefined when it
 * must go to a child.
 */
async function analyzeHere(file: string, options: AnalyzeOptions): Promise<FileAnalysis | undefined> {
  if (options.inProcessBelowMb === undefined) return undefined;
  const loaded = await loadInput(file, options);
  if (loaded.failed !== undefined) return loaded.failed;
  if (estimateAnalysisMb(loaded.text).mb > options.inProcessBelowMb) return undefined;
  useAnalysisFlagsHere();
  try {
    return await analyzeLoaded(file, loaded.text, options);
  } catch (err) {
    // What an analysis process that stopped would have said: the file, not the run, fails.
    return fileError(file, `not analyzed: its analysis failed (${err instanceof Error ? err.message : String(err)})`);
  }
}

export const DEFAULT_MEMORY_LIMIT_MB = 4096;

/** Options as data (functions dropped), for the analysis processes. */
function cloneableOptions(options: AnalyzeOptions): AnalyzeOptions {
  const { onFile: _onFile, sourceLine: _sourceLine, ...rest } = options;
  return rest;
}

/**
 * The V8 flags every analysis process runs with. The optimizing compiler inlines only callees of at most 50
 * bytecodes (460 by default): the checks are many large functions that V8 optimizes, deoptimizes and
 * optimizes again, and inlining made each of those compilations several times larger. Measured on
 * segmented_sort.ptx, one thread, development machine (docs/performance.md): 18% less CPU, 11% less time,
 * the parser's speed unchanged (a limit of 25 slows the parser; removing inlining slows it by a third).
 */
export const DEFAULT_ANALYSIS_V8_FLAGS: readonly string[] = ['--max-inlined-bytecode-size=50'];

/** Node/V8 flags for the analysis processes: the defaults, then those of PTX_DEBUG_V8_FLAGS (space-separated;
 *  a later flag overrides an earlier one, so the variable can undo a default). */
export function analysisV8Flags(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...DEFAULT_ANALYSIS_V8_FLAGS, ...(env.PTX_DEBUG_V8_FLAGS ?? '').split(/\s+/).filter((f) => f.length > 0)];
}

/** The analysis process's script: the build's one-file bundle (scripts/bundle-workers.js: a process then
 *  loads one file, not the build's modules), else the module. */
export function analyzeWorkerScript(): URL {
  const bundled = new URL('./bundle/analyze-worker.js', import.meta.url);
  return existsSync(fileURLToPath(bundled)) ? bundled : new URL('./analyze-worker.js', import.meta.url);
}

/** Spreads files over `jobs` child processes (src/analyze-worker.ts); results come back in input order.
 *  With `timeoutSeconds`, a file that runs longer is reported as not analyzed and its process is replaced.
 *  A process that runs out of its memory limit, or fails, reports its file as not analyzed. */
async function analyzeInWorkers(files: readonly string[], options: AnalyzeOptions, jobs: number, timeoutSeconds?: number): Promise<FileAnalysis[] | undefined> {
  const script = analyzeWorkerScript();
  if (!existsSync(script)) return undefined; // running from sources (tests): sequential
  const { fork } = await import('node:child_process');
  const limit = options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB;
  const results: FileAnalysis[] = new Array<FileAnalysis>(files.length);
  let next = 0;
  let done = 0;
  const exits: Promise<void>[] = [];
  await new Promise<void>((resolveAll) => {
    const notAnalyzed = (index: number, why: string, checksMs = 0): FileAnalysis => fileError(files[index]!, `not analyzed: ${why}`, checksMs);
    const finish = (index: number, result: FileAnalysis): void => {
      results[index] = result;
      done++;
      options.onFile?.(done, files.length, result.file);
      if (done === files.length) resolveAll();
    };
    const start = (): void => {
      const child = fork(fileURLToPath(script), [], {
        serialization: 'advanced',
        // A file that needs more than this is reported as not analyzed, not a crash (V8's own message on
        // standard error is not shown).
        execArgv: [`--max-old-space-size=${limit}`, ...analysisV8Flags()],
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      });
      exits.push(new Promise((resolve) => child.on('exit', () => resolve())));
      let current = -1;
      let timer: NodeJS.Timeout | undefined;
      const feed = (): void => {
        if (next < files.length) {
          current = next++;
          child.send({ index: current, file: files[current] });
          if (timeoutSeconds !== undefined) {
            timer = setTimeout(() => {
              const index = current;
              current = -1;
              child.kill('SIGKILL');
              finish(index, notAnalyzed(index, `it took longer than --timeout ${timeoutSeconds} s`, timeoutSeconds * 1000));
              if (next < files.length) start();
            }, timeoutSeconds * 1000);
          }
        } else {
          current = -1;
          child.disconnect();
        }
      };
      child.on('message', (m: { index: number; result: FileAnalysis }) => {
        if (timer !== undefined) clearTimeout(timer);
        if (m.index !== current) return;
        finish(m.index, m.result);
        feed();
      });
      child.on('exit', (code, signal) => {
        if (timer !== undefined) clearTimeout(timer);
        if (current === -1) return;
        const index = current;
        current = -1;
        // V8 aborts (SIGABRT, or exit 134) when the heap limit is reached.
        const why = signal === 'SIGABRT' || code === 134 ? `it needs more than ${limit} MB of memory`
          : `its analysis process stopped (${signal ?? `exit code ${code}`})`;
        finish(index, notAnalyzed(index, why));
        if (next < files.length) start();
      });
      child.on('error', () => undefined);
      child.send({ options: cloneableOptions(options) });
      feed();
    };
    for (let i = 0; i < Math.min(jobs, files.length); i++) start();
  });
  // Each process ends once told there is nothing more (or was killed): none outlives the run.
  await Promise.all(exits);
  return results;
}

/** Analyzes files and directories; unreadable or unparsable files are reported, not thrown.
 *  With `jobs` > 1, files are spread over child processes; results are identical. */
export async function analyzeFiles(inputs: readonly string[], options: AnalyzeOptions & { readonly jobs?: number; readonly timeoutSeconds?: number } = {}): Promise<AnalysisResult> {
  const files = await expandInputs(inputs, options.ignore);
  if (files.length === 0) throw new InputError(`no .ptx or .cu files in ${inputs.join(', ')}`);
  const jobs = options.jobs ?? 1;
  // One file gets the threads for its parts; several files share them out one file per thread.
  options = { ...options, partJobs: files.length === 1 ? options.partJobs ?? jobs : 1 };
  let results: FileAnalysis[] | undefined;
  // Child processes for many files, and for any file under a time limit (only a process can be stopped).
  const useWorkers = !files.includes('-') && ((jobs > 1 && files.length > 1) || options.timeoutSeconds !== undefined || options.isolate === true);
  if (useWorkers && files.length === 1 && options.timeoutSeconds === undefined) {
    const here = await analyzeHere(files[0]!, options);
    if (here !== undefined) {
      results = [here];
      options.onFile?.(1, 1, here.file);
    }
  }
  if (useWorkers && results === undefined) results = await analyzeInWorkers(files, options, jobs, options.timeoutSeconds);
  if (results === undefined) {
    results = [];
    for (const [i, file] of files.entries()) {
      results.push(await analyzeOne(file, options));
      options.onFile?.(i + 1, files.length, inputName(file));
    }
  }
  const result = summarize(results);
  return options.knownFindings === undefined ? result : { ...result, baseline: summarizeBaseline(options.knownFindings, result) };
}
