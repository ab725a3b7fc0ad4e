// Checks one large module with its parts spread over worker threads
// (src/part-worker.ts). Each worker parses the module again with the bodies of
// the functions it does not need left out (src/parser/fast: `skipBodies`), so
// that it holds the tree of one part and its callees, not the whole module;
// the workers take parts from a shared counter. The parts' results are merged in
// part order exactly as a sequential run merges them (`PartResults`), so the
// report is the same, byte for byte, whatever the number of threads.
// The main thread starts the workers, runs the module-level checks on the
// whole tree meanwhile, then lets the tree go while the workers go on.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker as WorkerType } from 'node:worker_threads';
import { reachableFrom } from '../cfg/callgraph.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { AnalysisContext, type AnalysisOptions } from '../cfg/context.js';
import { fullCollection } from '../heap.js';
import { parsePtx } from '../parser/parse.js';
import type { FileReport, PreparedRun, RawResult } from './run.js';
import { PartResults, checkContext, checkPart, checkWhole, planChecks, runSelected, splitParts } from './run.js';
import type { Check, CheckContext, ResourceUsage } from './types.js';

/** What a part worker is given. Functions are named by the offset of their declaration. */
export interface PartWork {
  readonly text: string;
  readonly analysisOptions: AnalysisOptions;
  readonly resources?: ResourceUsage;
  /** The part-by-part checks, in run order. */
  readonly checks: readonly string[];
  /** Every function body of the module: declaration offset, offset of `{`, offset after `}`. */
  readonly bodies: readonly (readonly [number, number, number])[];
  /** Per part: its functions, and the functions whose bodies its worker keeps (the part and its callees). */
  readonly parts: readonly { readonly functions: readonly number[]; readonly keep: readonly number[] }[];
  /** The order in which the parts are taken (largest first). */
  readonly order: readonly number[];
  /** Int32 [next position in `order` to take]. */
  readonly next: SharedArrayBuffer;
}

/** What a part worker posts for each part it checked. */
export interface PartMessage {
  readonly part: number;
  readonly results?: readonly (readonly [string, RawResult])[];
  /** Why the worker could not check this part (the main thread then does). */
  readonly error?: string;
}

const WORKER = new URL('../part-worker.js', import.meta.url);

/** Threads for one module's parts unless `--jobs` says otherwise (and never more than the cores). On the
 *  16-core bench host (docs/performance.md, session 6, interleaved runs): 12 threads 15% faster than 8 on the
 *  17 MB and 7.2 MB modules (10.1-11.0 s against 12.1-12.9 s; 6.0-6.1 s against 7.2-7.3 s) for 30% more
 *  memory; 16 no faster than 12. Each thread compiles the checks anew, and V8's helper threads need cores
 *  too. (Session 5, with more to compile per thread, had found 12 no faster than 8.) */
export const DEFAULT_PART_THREADS = 12;

/** PTX per part thread. A thread costs about 100 MB and some tenths of a second to start (it loads while the
 *  module is parsed), and a MB of nvcc output takes about 1.5 s of checking on one thread. Measured on the
 *  bench host (docs/performance.md, session 6): a 2.8 MB module with eight threads (one per 300 kB) in 2.1 to
 *  2.3 s against 3.2 to 3.8 s with two (one per MB), the same CPU, 885 MB against 405 MB. */
export const BYTES_PER_PART_THREAD = 300_000;

/** Smaller modules are checked on one thread. Measured on the bench host (three runs each): 0.7 MB, one
 *  thread 1.9 to 2.4 s, two 1.8 to 2.0 s for 1.8 times the memory; 1.2 MB, one thread 2.6 to 3.6 s, four
 *  2.0 to 2.5 s (2.6 times the memory). */
export const MIN_PART_THREAD_BYTES = 1_000_000;

/**
 * How many threads check the parts of a module of `textLength` characters: none below MIN_PART_THREAD_BYTES,
 * else at most `requested`, one per BYTES_PER_PART_THREAD, and as many as fit in `limitMb` beside the main
 * thread. Measured on CUB modules (docs/performance.md): a part thread holds its runtime and compiled code,
 * a copy of the text and one part's tree and facts, about 80 MB + 4 × the text; the main thread, which held
 * the whole tree first, at most 40 × the text + 150 MB. 1 means no threads.
 */
export function partThreads(textLength: number, requested: number, limitMb: number): number {
  if (textLength < MIN_PART_THREAD_BYTES) return 1;
  const mb = textLength / 1e6;
  const fit = Math.floor((limitMb - (150 + 40 * mb)) / (80 + 4 * mb));
  return Math.max(1, Math.min(requested, Math.floor(textLength / BYTES_PER_PART_THREAD), fit));
}

/** Whether parts can be checked in worker threads (not when running from the TypeScript sources). */
export function partWorkersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER));
}

const offsetOf = (fn: FunctionModel): number => fn.decl.range.offset;

/** The functions whose bodies a part needs: its own and every function they call, transitively. */
function closure(run: PreparedRun, part: readonly FunctionModel[]): number[] {
  const names = reachableFrom(run.ctx.analysis.callGraph(), part.map((fn) => fn.name));
  return run.ctx.analysis.model.functions.filter((fn) => names.has(fn.name)).map(offsetOf);
}

/**
 * Worker threads for one module's parts, started before the module is parsed so that they load while it
 * is (some tenths of a second each); each is then sent the work, or null to end.
 */
export class PartWorkers {
  private readonly workers: WorkerType[] = [];
  private readonly exited: Promise<void>[] = [];
  private messages: (PartMessage | undefined)[] = [];

  private constructor(count: number, memoryLimitMb: number, script: URL, Worker: typeof WorkerType) {
    for (let i = 0; i < count; i++) {
      const w = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: memoryLimitMb } });
      this.workers.push(w);
      w.on('message', (m: PartMessage) => { this.messages[m.part] = m; });
      // A worker that fails (out of memory) leaves its part unchecked: the main thread checks it.
      w.on('error', () => undefined);
      this.exited.push(new Promise<void>((resolve) => w.on('exit', () => resolve())));
    }
  }

  static async start(count: number, memoryLimitMb: number, script: URL = WORKER): Promise<PartWorkers> {
    return new PartWorkers(count, memoryLimitMb, script, (await import('node:worker_threads')).Worker);
  }

  get count(): number {
    return this.workers.length;
  }

  /** Sends the work to as many workers as it has parts (the others end); resolves with each part's message
   *  (undefined: not checked) once every worker has ended. */
  check(work: PartWork): Promise<(PartMessage | undefined)[]> {
    const messages = new Array<PartMessage | undefined>(work.parts.length).fill(undefined);
    this.messages = messages;
    for (const [i, w] of this.workers.entries()) w.postMessage(i < work.parts.length ? work : null);
    return Promise.all(this.exited).then(() => messages);
  }

  /** Ends every worker not given work (the module did not parse, or is one part); harmless after `check`. */
  async stop(): Promise<void> {
    for (const w of this.workers) w.postMessage(null);
    await Promise.all(this.exited);
  }
}

/** Part indices, largest part (in instructions) first: the workers take them in this order, so that the
 *  last parts taken are small and the threads end together. */
function largestFirst(parts: readonly (readonly FunctionModel[])[]): number[] {
  const size = parts.map((p) => p.reduce((n, fn) => n + fn.instructions.length, 0));
  return parts.map((_, i) => i).sort((a, b) => size[b]! - size[a]! || a - b);
}

/**
 * The parts' work for the workers and the checks that run on the whole module; undefined for a module of
 * one part.
 */
function plan(run: PreparedRun): { whole: readonly Check[]; partwise: readonly Check[]; work: PartWork } | undefined {
  const { ctx } = run;
  const parts = splitParts(ctx.functions, run.chunk);
  const { whole, partwise } = planChecks(run.checks, parts.length);
  if (partwise.length === 0) return undefined;
  const work: PartWork = {
    text: ctx.text,
    analysisOptions: ctx.analysis.options,
    ...(ctx.resources !== undefined ? { resources: ctx.resources } : {}),
    checks: partwise.map((c) => c.meta.id),
    bodies: ctx.analysis.model.functions.map((fn) => [offsetOf(fn), fn.decl.body!.range.offset, fn.decl.body!.range.endOffset] as const),
    parts: parts.map((part) => ({ functions: part.map(offsetOf), keep: closure(run, part) })),
    order: largestFirst(parts),
    next: new SharedArrayBuffer(4),
  };
  return { whole, partwise, work };
}

/** The whole module parsed and analyzed again, for what the workers left (a failed part, a check asked again). */
function wholeAgain(work: PartWork): { ctx: CheckContext; parts: FunctionModel[][] } {
  const { module } = parsePtx(work.text);
  const ctx = checkContext(module, work.text, new AnalysisContext(module, work.analysisOptions), work.resources);
  const byOffset = new Map(ctx.functions.map((fn) => [offsetOf(fn), fn]));
  return { ctx, parts: work.parts.map((p) => p.functions.map((o) => byOffset.get(o)!)) };
}

/**
 * Runs a prepared run with its parts checked by up to `jobs` worker threads; the same report as
 * `runSelected`. The module-level checks run on this thread, on the whole tree, while the workers start
 * and take their first parts; the tree is then let go (`release`). A part
 * whose worker failed, and a check asked again on the whole module, make this thread parse it again.
 * `script` is the worker's (tests give one that fails); `started`, workers started beforehand, which their
 * starter stops (`stop`) whatever happens here.
 */
export async function runInParts(run: PreparedRun, jobs: number, memoryLimitMb: number, script: URL = WORKER, started?: PartWorkers): Promise<FileReport> {
  const planned = plan(run);
  if (planned === undefined) return run.finish(runSelected(run.checks, run.ctx, run.chunk));
  const { whole, partwise, work } = planned;
  // The workers take their parts while this thread runs the module-level checks (on the 17 MB bench module
  // about a second), then lets the tree go.
  const workers = started ?? await PartWorkers.start(jobs, memoryLimitMb, script);
  const checked = workers.check(work);
  const early = new Map<string, RawResult>();
  checkWhole(whole, run.ctx, early);
  run.release();
  fullCollection();
  const messages = await checked;
  let again: ReturnType<typeof wholeAgain> | undefined;
  const results = new PartResults();
  for (const [i, m] of messages.entries()) {
    let partResults: ReadonlyMap<string, RawResult>;
    if (m?.results !== undefined) partResults = new Map(m.results);
    else {
      again ??= wholeAgain(work);
      partResults = checkPart(partwise, again.ctx, again.parts[i]!, (id) => results.wants(id));
    }
    for (const check of partwise) {
      const r = partResults.get(check.meta.id);
      if (r !== undefined) results.add(check.meta.id, r);
    }
  }
  const askAgain = results.finish(partwise);
  for (const [id, r] of early) results.out.set(id, r);
  if (askAgain.length > 0) {
    again ??= wholeAgain(work);
    checkWhole(askAgain, again.ctx, results.out);
  }
  return run.finish(results.out);
}
