// Checks one large module with its parts spread over worker threads
// (src/part-worker.ts). For each part a worker parses the module without the
// functions the part does not need (src/checks/part-text.ts), so that it holds
// the tree of one part and its callees, not the whole module; the workers take
// parts from a shared counter. The parts' results are merged in
// part order exactly as a sequential run merges them (`PartResults`), so the
// report is the same, byte for byte, whatever the number of threads.
// The parts are cut from the function bodies' sizes, which a scan of the
// module finds in a tenth of a parse (`scanFunctionBodies`): the workers are
// given their parts before the module is parsed (`startParts`), and the main
// thread parses it and runs the module-level checks on the whole tree
// meanwhile, then lets the tree go while the workers go on.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker as WorkerType } from 'node:worker_threads';
import type { FunctionModel } from '../cfg/symbols.js';
import { AnalysisContext, type AnalysisOptions } from '../cfg/context.js';
import { releaseCompiled } from '../cfg/keep-compiled.js';
import { mark } from '../timeline.js';
import { endPosition, parsePtx, scanFunctionBodies, type FunctionBody } from '../parser/parse.js';
import { lineStartsOf } from '../parser/ranges.js';
import type { FileReport, PreparedRun, RawResult, RunOptions } from './run.js';
import { MIN_PART_THREAD_BYTES, PartResults, PartSummaries, chunkBytesFor, checkContext, checkPart, checkWhole, partition, planChecks, runSelected, selectChecks } from './run.js';
import { EarlyPrints } from './early-prints.js';
import { partsOutline, type PartOutline } from './outline.js';
import type { PartSummary } from './run.js';
import type { Check, CheckContext, ResourceUsage } from './types.js';

/** What a part worker is given. Functions are named by the offset of their declaration. */
export interface PartWork {
  readonly text: string;
  readonly analysisOptions: AnalysisOptions;
  readonly resources?: ResourceUsage;
  /** The part-by-part checks, in run order. */
  readonly checks: readonly string[];
  /** The split checks whose summaries the main thread joins (none when it holds the whole tree). */
  readonly split: readonly string[];
  /** Whether to send what the report needs of each part (`PartOutline`: the main thread holds no bodies). */
  readonly outline: boolean;
  /** Every function body of the module, in order. A worker keeps its part's functions, every function they
   *  call or name, transitively (src/checks/part-check.ts: `parsePart`), and leaves the others out. */
  readonly bodies: readonly FunctionBody[];
  /** Per part: its functions. */
  readonly parts: readonly (readonly number[])[];
  /** The order in which the parts are taken (largest first). */
  readonly order: readonly number[];
  /** Int32 [next position in `order` to take]. */
  readonly next: SharedArrayBuffer;
}

/** A part worker's work as posted: the text in shared memory, as UTF-8. A text all ASCII also comes with its
 *  line starts and end (`LineStarts.table`, `endPosition`), and the worker makes strings of only the pieces each
 *  part needs (src/checks/part-text.ts); any other text it makes a string again, whole. */
export type SentWork = PartWork & {
  readonly textBytes: SharedArrayBuffer;
  readonly ascii?: { readonly lines: SharedArrayBuffer; readonly end: { readonly line: number; readonly column: number } };
};

/** What a part worker is started with: the V8 flags this process set at run time, as text (`heapFlagsNote`),
 *  which its code cache is named by (src/part-worker-entry.ts). */
export interface PartWorkerData {
  readonly flagsNote: string;
}

/** What a part worker posts for each part it checked. */
export interface PartMessage {
  readonly part: number;
  readonly results?: readonly (readonly [string, RawResult])[];
  /** The split checks' summaries. */
  readonly summaries?: readonly (readonly [string, PartSummary])[];
  /** What the report needs of the part, when asked (`PartWork.outline`). */
  readonly outline?: PartOutline;
  /** Why the worker could not check this part (the main thread then does). */
  readonly error?: string;
}

/** The part worker: the build's one-file bundle (scripts/bundle-workers.js: a thread then loads one file, not
 *  the build's modules), else the module. (Both paths hold from dist/checks/ and from a bundle in dist/bundle/.) */
const BUNDLED_WORKER = new URL('../bundle/part-worker.js', import.meta.url);
const WORKER = existsSync(fileURLToPath(BUNDLED_WORKER)) ? BUNDLED_WORKER : new URL('../part-worker.js', import.meta.url);

/** The script part threads run (tests check that it is the bundle when the build made one). */
export function partWorkerScript(): URL {
  return WORKER;
}

/** Threads for one module's parts unless `--jobs` says otherwise (and never more than the cores). Chosen for
 *  memory as much as speed (docs/performance.md, session 11, the 16-core bench host, every corpus module,
 *  interleaved twice): once part threads no longer held a copy of the module, 9 threads peaked at 0.64 to
 *  0.81 GB and 12 at 0.80 to 1.0 GB, 12 only 2 to 3.5% faster than 9; once they no longer loaded Chevrotain
 *  (7 MB less each), 9 threads peaked at 0.72 to 0.78 GB and 10 at 0.79 to 0.84 GB (the 7.2 MB module, whose
 *  functions are up to 540 kB), 10 being 4 to 10% faster: 9 keep under the 827 MB that issue 13 allows for
 *  the corpus, 10 did not in one bench of two. Each thread compiles the checks anew, and V8's helper threads
 *  need cores too. */
export const DEFAULT_PART_THREADS = 9;

/** PTX per part thread. A thread costs about 70 MB and some tenths of a second to start (it loads while the
 *  module is parsed), and a MB of nvcc output takes about 1.5 s of checking on one thread. Measured on the
 *  bench host (docs/performance.md, session 6): a 2.8 MB module with eight threads (one per 300 kB) in 2.1 to
 *  2.3 s against 3.2 to 3.8 s with two (one per MB), the same CPU, 885 MB against 405 MB. */
export const BYTES_PER_PART_THREAD = 300_000;

export { MIN_PART_THREAD_BYTES };

/**
 * How many threads check the parts of a module of `textLength` characters: none below MIN_PART_THREAD_BYTES,
 * else at most `requested`, one per BYTES_PER_PART_THREAD, and as many as fit in `limitMb` beside the main
 * thread. Measured on the CUB bench modules (docs/performance.md, sessions 10 and 11): the main thread holds
 * the declarations' tree, the text (as a string and as shared bytes) and the parts' results (150 MB + about
 * 2 × the text); a part thread its runtime and compiled code (about 17 MB once loaded), its young generation
 * (`PART_YOUNG_GENERATION_MB`), one part's text, tree and facts, which grow with the part's largest function
 * more than with the module: 9 threads added 68 to 69 MB each on the 17 MB and 7.2 MB modules alike while a
 * thread still loaded Chevrotain (7 MB more). A thread counts 70 MB, an upper estimate. 1 means no threads.
 */
export function partThreads(textLength: number, requested: number, limitMb: number): number {
  if (textLength < MIN_PART_THREAD_BYTES) return 1;
  const mb = textLength / 1e6;
  const fit = Math.floor((limitMb - (150 + 2 * mb)) / PART_THREAD_MB);
  return Math.max(1, Math.min(requested, Math.floor(textLength / BYTES_PER_PART_THREAD), fit));
}

/** What a part thread is counted as needing (`partThreads`). */
const PART_THREAD_MB = 70;

/** The young generation of a part thread (V8's default is 48 MB once grown). Measured on the bench host
 *  (docs/performance.md, session 7, interleaved twice): twelve threads on the 17 MB module peak at 2.3 GB
 *  with 12 MB against 2.8 to 2.9 GB with the default, on the 7.2 MB one 1.5 GB against 1.7 GB, in the same
 *  time; 8 and 6 MB save nothing more. */
export const PART_YOUNG_GENERATION_MB = 12;

/** Whether parts can be checked in worker threads (not when running from the TypeScript sources). */
export function partWorkersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER));
}

const offsetOf = (fn: FunctionModel): number => fn.decl.range.offset;
/**
 * Worker threads for one module's parts, started before the module is parsed so that they load while it
 * is (some tenths of a second each); each is then sent the work, or null to end.
 */
export class PartWorkers {
  private readonly workers: WorkerType[] = [];
  private readonly exited: Promise<void>[] = [];
  private messages: (PartMessage | undefined)[] = [];
  /** Called when the last part's message has come. */
  private allIn: (() => void) | undefined;
  /** Called with each part's message as it comes. */
  private onPart: ((m: PartMessage) => void) | undefined;
  private missing = 0;

  private constructor(count: number, memoryLimitMb: number, script: URL, Worker: typeof WorkerType, flagsNote: string) {
    for (let i = 0; i < count; i++) {
      const w = new Worker(script, {
        resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb, maxYoungGenerationSizeMb: PART_YOUNG_GENERATION_MB },
        workerData: { flagsNote } satisfies PartWorkerData,
      });
      this.workers.push(w);
      w.on('message', (m: PartMessage) => {
        const first = this.messages[m.part] === undefined;
        this.messages[m.part] = m;
        try {
          if (first) this.onPart?.(m);
        } catch {
          // (What it would have made early is made after the last part.)
        }
        if (first && --this.missing === 0) this.allIn?.();
      });
      // A worker that fails (out of memory) leaves its part unchecked: the main thread checks it.
      w.on('error', () => undefined);
      this.exited.push(new Promise<void>((resolve) => w.on('exit', () => resolve())));
    }
  }

  /** `flagsNote`: the V8 flags set at run time that the threads' code cache depends on (src/heap.ts). */
  static async start(count: number, memoryLimitMb: number, script: URL = WORKER, flagsNote = ''): Promise<PartWorkers> {
    return new PartWorkers(count, memoryLimitMb, script, (await import('node:worker_threads')).Worker, flagsNote);
  }

  get count(): number {
    return this.workers.length;
  }

  /** Stops every worker at once, busy or not (the module turned out not to parse). */
  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  /** Sends the work to as many workers as it has parts (the others end); resolves with each part's message
   *  (undefined: not checked) once every part's has come, or every worker has ended (one failed). Not on
   *  their ends alone: the threads took up to 0.4 s to end after the last message on the bench host
   *  (docs/performance.md); they end meanwhile, and `stop` waits for them. `onPart` is called with each
   *  part's message as it comes (what throws there is ignored). */
  check(work: PartWork, onPart?: (m: PartMessage) => void): Promise<(PartMessage | undefined)[]> {
    const messages = new Array<PartMessage | undefined>(work.parts.length).fill(undefined);
    this.messages = messages;
    this.onPart = onPart;
    this.missing = work.parts.length;
    const allIn = new Promise<void>((resolve) => { this.allIn = resolve; });
    // The text once, in shared memory: posted as a string, it was serialized once per thread (a buffer of
    // the text's size or more each, which the allocator kept: 80 MB of resident memory for two threads on
    // the 17 MB module).
    const shared = new SharedArrayBuffer(Buffer.byteLength(work.text, 'utf8'));
    Buffer.from(shared).write(work.text, 'utf8');
    mark('text shared');
    const sent: SentWork = { ...work, text: '', textBytes: shared, ...(shared.byteLength === work.text.length ? { ascii: asciiLines(work.text) } : {}) };
    mark('line starts shared');
    for (const [i, w] of this.workers.entries()) w.postMessage(i < work.parts.length ? sent : null);
    return Promise.race([allIn, Promise.all(this.exited)]).then(() => messages);
  }

  /** Ends every worker not given work (the module did not parse, or is one part); harmless after `check`. */
  async stop(): Promise<void> {
    for (const w of this.workers) w.postMessage(null);
    await Promise.all(this.exited);
  }
}

/** The line starts and end of an ASCII text, for the part workers (`SentWork.ascii`). */
function asciiLines(text: string): NonNullable<SentWork['ascii']> {
  const table = lineStartsOf(text).table;
  const lines = new SharedArrayBuffer(table.byteLength);
  new Int32Array(lines).set(table);
  return { lines, end: endPosition(text) };
}

/** Bytes of a function body: what parts are cut and ordered by. */
const bodySize = (b: FunctionBody): number => b.close - b.open;

/** Part indices, largest part (in bytes) first: the workers take them in this order, so that the last
 *  parts taken are small and the threads end together. */
function largestFirst(parts: readonly (readonly FunctionBody[])[]): number[] {
  const size = parts.map((p) => p.reduce((n, b) => n + bodySize(b), 0));
  return parts.map((_, i) => i).sort((a, b) => size[b]! - size[a]! || a - b);
}

/** Parts, and the checks run on them and on the whole module. */
export interface Planned {
  /** The checks this thread runs on its tree of the whole module (the split checks, when it has one). */
  readonly whole: readonly Check[];
  readonly partwise: readonly Check[];
  /** The split checks joined from the parts' summaries (when this thread holds only the declarations). */
  readonly split: readonly Check[];
  readonly work: PartWork;
}

/**
 * The parts' work for the workers, cut from the function bodies as `runSelected` cuts them (`splitParts`:
 * the same parts, so the same report), and the checks that run on the whole module; undefined for a
 * module of one part. `declarations`: this thread parses no body (the workers summarize the parts for
 * the split checks and the report).
 */
function plan(bodies: readonly FunctionBody[], text: string, checks: readonly Check[], chunk: number, analysisOptions: AnalysisOptions,
  declarations: boolean, resources?: ResourceUsage): Planned | undefined {
  const parts = partition(bodies, bodySize, chunk);
  const { partwise, split } = planChecks(checks, parts.length);
  if (partwise.length === 0) return undefined;
  const work: PartWork = {
    text, analysisOptions, ...(resources !== undefined ? { resources } : {}),
    checks: partwise.map((c) => c.meta.id),
    split: declarations ? split.map((c) => c.meta.id) : [],
    outline: declarations,
    bodies,
    parts: parts.map((part) => part.map((b) => b.decl)),
    order: largestFirst(parts),
    next: new SharedArrayBuffer(4),
  };
  return declarations ? { whole: [], partwise, split, work } : { whole: split, partwise, split: [], work };
}

/** The plan of a prepared run, from its tree. */
function planRun(run: PreparedRun): Planned | undefined {
  const { ctx } = run;
  const bodies = ctx.analysis.model.functions.map((fn): FunctionBody => ({
    name: fn.name, decl: offsetOf(fn), open: fn.decl.body!.range.offset, close: fn.decl.body!.range.endOffset,
  }));
  return plan(bodies, ctx.text, run.checks, run.chunk, ctx.analysis.options, false, ctx.resources);
}

/** Parts given to the workers before the module is parsed, and their results to come. */
export interface StartedParts {
  readonly planned: Planned;
  readonly checked: Promise<(PartMessage | undefined)[]>;
  /** Fingerprints made as the parts came (when the run's file and source reader were given). */
  readonly prints?: EarlyPrints;
}

/** What fingerprints need besides the module: the run's `RunOptions.file` and `sourceLine`. */
export interface PrintContext {
  readonly file: string;
  readonly sourceLine?: (file: string, line: number) => string | undefined;
}

/** The function bodies for this thread's parse to leave out (`{` offset → offset after `}`). */
export function bodiesOf(planned: Planned): ReadonlyMap<number, number> {
  return new Map(planned.work.bodies.map((b) => [b.open, b.close]));
}

/**
 * Gives the workers their parts before the module is parsed: the function bodies are found by a scan
 * (`scanFunctionBodies`), the checks from the options alone. Undefined when that cannot be done (the scan
 * does not take the text, a module of one part, resource usage to come from ptxas); the run then plans
 * from its tree (`runInParts`). When it can, this thread parses the module's declarations only
 * (`StartedParts.bodies`, to leave out), and the workers summarize the parts for the rest.
 */
export function startParts(text: string, options: RunOptions, workers: PartWorkers, print?: PrintContext): StartedParts | undefined {
  const planned = planParts(text, options);
  mark('parts planned');
  if (planned === undefined) return undefined;
  const { work } = planned;
  if (print === undefined) return { planned, checked: workers.check(work) };
  // (The main thread is idle until the last part: fingerprints are made meanwhile, src/checks/early-prints.ts.)
  const prints = new EarlyPrints(text, print.file, work.bodies, print.sourceLine);
  return { planned, prints, checked: workers.check(work, (m) => prints.add(m, work.parts[m.part]!)) };
}

/** The plan `startParts` gives the workers (this thread to parse the declarations only). */
export function planParts(text: string, options: RunOptions): Planned | undefined {
  if (options.resources !== undefined) return undefined;
  const bodies = scanFunctionBodies(text);
  if (bodies === undefined) return undefined;
  const analysisOptions: AnalysisOptions = options.block !== undefined ? { block: options.block } : {};
  return plan(bodies, text, selectChecks(options).checks, options.chunkBytes ?? chunkBytesFor(text.length), analysisOptions, true);
}

/** The whole module parsed and analyzed again, for what the workers left (a failed part, a check asked again). */
function wholeAgain(work: PartWork): { ctx: CheckContext; parts: FunctionModel[][] } {
  const { module } = parsePtx(work.text);
  const ctx = checkContext(module, work.text, new AnalysisContext(module, work.analysisOptions), work.resources);
  const byOffset = new Map(ctx.functions.map((fn) => [offsetOf(fn), fn]));
  return { ctx, parts: work.parts.map((p) => p.map((o) => byOffset.get(o)!)) };
}

/**
 * Runs a prepared run with its parts checked by up to `jobs` worker threads; the same report as
 * `runSelected`. With parts given before the parse (`early`), the run's tree holds the module's
 * declarations only: the split checks are joined from the workers' summaries, the report's outline made
 * from what they sent, and a part that a worker could not check leaves the result undefined (the caller
 * analyzes the module on one thread). Otherwise the module-level checks run on this thread, on the whole
 * tree, while the workers take their parts; the tree is then let go (`release`), and a part whose worker
 * failed makes this thread parse the module again. A check asked again on the whole module does too.
 * `script` is the worker's (tests give one that fails); `started`, workers started beforehand, which their
 * starter stops (`stop`) whatever happens here.
 */
export async function runInParts(run: PreparedRun, jobs: number, memoryLimitMb: number, script: URL = WORKER, started?: PartWorkers, early?: StartedParts): Promise<FileReport | undefined> {
  const planned = early?.planned ?? planRun(run);
  if (planned === undefined) return run.finish(runSelected(run.checks, run.ctx, run.chunk));
  const { whole, work } = planned;
  let checked = early?.checked;
  // Workers started here are waited for here (a starter's are its own to stop).
  let own: PartWorkers | undefined;
  if (checked === undefined) {
    if (started === undefined) own = await PartWorkers.start(jobs, memoryLimitMb, script);
    checked = (started ?? own!).check(work);
  }
  const first = new Map<string, RawResult>();
  checkWhole(whole, run.ctx, first);
  mark('module-level checks done');
  releaseCompiled();
  // (A tree of declarations is kept: the split checks join on it.)
  if (!work.outline) run.release();
  mark('released');
  const messages = await checked;
  mark('parts done');
  if (early?.prints !== undefined) mark(`fingerprints made as the parts came: ${early.prints.made}`);
  const report = reportOfParts(run, planned, messages, first, early?.prints);
  await own?.stop();
  return report;
}

/**
 * The report from what the parts gave (`messages`, undefined where no worker posted) and the results of
 * the checks run on this thread's whole tree (`first`); undefined when the run's tree holds declarations
 * only (`PartWork.outline`) and a part was not checked. `prints`: fingerprints made as the parts came.
 */
export function reportOfParts(run: PreparedRun, planned: Planned, messages: readonly (PartMessage | undefined)[], first: ReadonlyMap<string, RawResult> = new Map(),
  prints?: EarlyPrints): FileReport | undefined {
  const { partwise, split, work } = planned;
  if (work.outline && messages.some((m) => m?.results === undefined)) return undefined;
  let again: ReturnType<typeof wholeAgain> | undefined;
  const results = new PartResults();
  const summaries = new PartSummaries();
  for (const [i, m] of messages.entries()) {
    let partResults: ReadonlyMap<string, RawResult>;
    if (m?.results !== undefined) partResults = new Map(m.results);
    else {
      again ??= wholeAgain(work);
      partResults = checkPart(partwise, again.ctx, again.parts[i]!, (id) => results.wants(id)).results;
    }
    for (const check of partwise) {
      const r = partResults.get(check.meta.id);
      if (r !== undefined) results.add(check.meta.id, r);
    }
    summaries.add(m?.summaries ?? []);
  }
  const askAgain = results.finish(partwise);
  for (const [id, r] of first) results.out.set(id, r);
  if (split.length > 0) summaries.join(split, run.ctx, results.out);
  if (askAgain.length > 0) {
    mark(`checks asked again on the whole module: ${askAgain.map((c) => c.meta.id).join(' ')}`);
    again ??= wholeAgain(work);
    checkWhole(askAgain, again.ctx, results.out);
  }
  releaseCompiled();
  const outline = work.outline
    ? partsOutline(run.ctx.module, work.text, new Set(work.bodies.map((b) => b.decl)), messages.map((m) => m!.outline!), prints)
    : undefined;
  const report = run.finish(results.out, outline);
  mark('report assembled');
  return report;
}
