// Worker threads (issue 13): files spread over threads (`--jobs`), one large
// module's parts spread over threads, and the per-file time limit. Worker
// scripts exist only in the build (dist/), so these tests load the build;
// `npm test` builds first. Every report must be the one a sequential run gives.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BUILT = existsSync('dist/analyze.js') && existsSync('dist/part-worker.js');
const DIR = join(tmpdir(), `ptx-debug-workers-${process.pid}`);

type Analyze = typeof import('../../src/analyze.js');
type Parallel = typeof import('../../src/checks/parallel.js');
type Run = typeof import('../../src/checks/run.js');
type Parse = typeof import('../../src/parser/parse.js');
const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(resolve(path)).href)) as T;

// Each function its own part (one instruction a part): calls, recursion, locals (llc output), and
// function directives with findings.
const MODULES = ['fixtures/corpus/llvm/ptx/recursion_local.sm_80.ptx', 'fixtures/corpus/handwritten/perf_directives_sm90.ptx'];

/** A report as data, timings left out. */
const data = (r: unknown): string => JSON.stringify(r, (k, v: unknown) => (k === 'timings' ? undefined : v));

/** A part worker that records each part it posts in `marker` ('w' checked, 'e' failed). */
function countingWorker(marker: string): URL {
  const script = `${marker}.worker.mjs`;
  writeFileSync(script, `import { appendFileSync } from 'node:fs';\nimport { parentPort } from 'node:worker_threads';\n`
    + `const post = parentPort.postMessage.bind(parentPort);\n`
    + `parentPort.postMessage = (m) => { appendFileSync(${JSON.stringify(marker)}, m.results ? 'w' : 'e'); post(m); };\n`
    + `await import(${JSON.stringify(pathToFileURL(resolve('dist/part-worker.js')).href)});\n`);
  return pathToFileURL(script);
}

describe.skipIf(!BUILT)('worker threads', () => {
  mkdirSync(DIR, { recursive: true });
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  it.each(MODULES)('checks the parts of %s in threads with the sequential report', async (file) => {
    const { analyzeText } = await load<Analyze>('dist/analyze.js');
    const text = readFileSync(file, 'utf8');
    const sequential = analyzeText(text, file, { chunkBytes: 1 });
    expect(sequential.report!.findings.length).toBeGreaterThan(0);
    // (Through `analyzeTextInParts` a module this small gets no threads, `partThreads`: the parts go
    // to worker threads directly here.)
    // Through worker threads that say they ran: every part was theirs, none this thread's.
    const marker = join(DIR, `${file.replaceAll('/', '_')}.parts`);
    const counting = countingWorker(marker);
    const { parsePtx } = await load<Parse>('dist/parser/parse.js');
    const { prepareRun, runChecks } = await load<Run>('dist/checks/run.js');
    const { runInParts } = await load<Parallel>('dist/checks/parallel.js');
    const counted = await runInParts(prepareRun(parsePtx(text).module, text, { chunkBytes: 1 }), 2, 512, counting);
    expect(data(counted)).toBe(data(runChecks(parsePtx(text).module, text, { chunkBytes: 1 })));
    const parts = readFileSync(marker, 'utf8');
    expect(parts).toMatch(/^w+$/);
    expect(parts.length).toBeGreaterThan(1);
    expect(data(sequential.report)).toBe(data(analyzeText(text, file, {}).report));
  });

  it('gives a module of 1 MB or more one thread per 300 kB, as many as asked and as fit in the memory limit', async () => {
    const { partThreads } = await load<Parallel>('dist/checks/parallel.js');
    expect(partThreads(200_000, 8, 4096)).toBe(1);
    expect(partThreads(700_000, 8, 4096)).toBe(1);
    expect(partThreads(999_999, 8, 4096)).toBe(1);
    expect(partThreads(1_200_000, 8, 4096)).toBe(4);
    expect(partThreads(2_800_000, 8, 4096)).toBe(8);
    expect(partThreads(17_000_000, 8, 4096)).toBe(8);
    expect(partThreads(17_000_000, 3, 4096)).toBe(3);
    // 17 MB: the main thread 184 MB, each part thread 70 MB.
    expect(partThreads(17_000_000, 12, 1500)).toBe(12);
    expect(partThreads(17_000_000, 12, 900)).toBe(10);
    expect(partThreads(17_000_000, 12, 300)).toBe(1);
  });

  it('runs the build\'s one-file bundles of the workers (scripts/bundle-workers.js)', async () => {
    const { partWorkerScript } = await load<Parallel>('dist/checks/parallel.js');
    const { analyzeWorkerScript } = await load<Analyze>('dist/analyze.js');
    expect(existsSync('dist/bundle/part-worker.js') && existsSync('dist/bundle/analyze-worker.js')).toBe(true);
    expect(partWorkerScript().href).toBe(pathToFileURL(resolve('dist/bundle/part-worker.js')).href);
    expect(analyzeWorkerScript().href).toBe(pathToFileURL(resolve('dist/bundle/analyze-worker.js')).href);
    // A part thread parses with the fast parser alone (src/parser/parse-fast.ts): its bundle leaves out
    // Chevrotain, which the analysis worker (whole files, syntax errors) needs. (Its entry runs the bundle
    // from V8's code cache: src/part-worker-entry.ts.)
    expect(readFileSync('dist/bundle/part-worker.js', 'utf8')).toContain('part-worker.cjs');
    expect(readFileSync('dist/bundle/part-worker.cjs', 'utf8')).toContain('checkOnePart');
    expect(readFileSync('dist/bundle/part-worker.cjs', 'utf8')).not.toContain('node_modules/chevrotain');
    expect(readFileSync('dist/bundle/analyze-worker.js', 'utf8')).toContain('node_modules/chevrotain');
  });

  it('gives each part thread its heap limit and a small young generation', async () => {
    const { PART_YOUNG_GENERATION_MB, PartWorkers } = await load<Parallel>('dist/checks/parallel.js');
    const out = join(DIR, 'limits.json');
    const script = join(DIR, 'limits.worker.mjs');
    writeFileSync(script, `import { writeFileSync } from 'node:fs';\nimport { parentPort, resourceLimits } from 'node:worker_threads';\n`
      + `writeFileSync(${JSON.stringify(out)}, JSON.stringify(resourceLimits));\nparentPort.once('message', () => undefined);\n`);
    const workers = await PartWorkers.start(1, 512, pathToFileURL(script));
    await workers.stop();
    expect(PART_YOUNG_GENERATION_MB).toBe(12);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 12 });
  });

  it('uses workers started before parsing, and ends them when there is nothing to check', async () => {
    const { parsePtx } = await load<Parse>('dist/parser/parse.js');
    const { prepareRun, runChecks } = await load<Run>('dist/checks/run.js');
    const { PartWorkers, runInParts } = await load<Parallel>('dist/checks/parallel.js');
    const text = readFileSync(MODULES[0]!, 'utf8');
    const marker = join(DIR, 'started.parts');
    const started = await PartWorkers.start(3, 512, countingWorker(marker));
    expect(started.count).toBe(3);
    const report = await runInParts(prepareRun(parsePtx(text).module, text, { chunkBytes: 1 }), 3, 512, undefined, started);
    expect(data(report)).toBe(data(runChecks(parsePtx(text).module, text, { chunkBytes: 1 })));
    // Every part was checked by the workers started beforehand.
    expect(readFileSync(marker, 'utf8')).toMatch(/^ww+$/);
    await started.stop(); // (after their work: nothing left to end)
    // One part: no work for them; the run is the sequential one, and their starter ends them.
    const idleMarker = join(DIR, 'idle.parts');
    const idle = await PartWorkers.start(2, 512, countingWorker(idleMarker));
    const whole = await runInParts(prepareRun(parsePtx(text).module, text, {}), 2, 512, undefined, idle);
    expect(data(whole)).toBe(data(runChecks(parsePtx(text).module, text, {})));
    await idle.stop();
    expect(existsSync(idleMarker)).toBe(false);
  });

  it('gives the workers their parts before the module is parsed, callees found by the workers, with the sequential report', async () => {
    const { parsePtx } = await load<Parse>('dist/parser/parse.js');
    const { prepareRun, runChecks } = await load<Run>('dist/checks/run.js');
    const { PartWorkers, bodiesOf, runInParts, startParts } = await load<Parallel>('dist/checks/parallel.js');
    for (const file of MODULES) {
      const text = readFileSync(file, 'utf8');
      const marker = join(DIR, `${file.replaceAll('/', '_')}.early`);
      const workers = await PartWorkers.start(2, 512, countingWorker(marker));
      const early = startParts(text, { chunkBytes: 1 }, workers);
      expect(early, file).toBeDefined();
      // This thread parses the declarations alone (as `analyzeTextInParts` does); the workers summarize
      // the parts for the module-level checks. (recursion_local's functions call each other: a worker given
      // one of them keeps its callees' bodies.)
      const declarations = parsePtx(text, { skipBodies: bodiesOf(early!.planned) }).module;
      const report = await runInParts(prepareRun(declarations, text, { chunkBytes: 1 }), 2, 512, undefined, workers, early);
      await workers.stop();
      expect(data(report)).toBe(data(runChecks(parsePtx(text).module, text, { chunkBytes: 1 })));
      expect(readFileSync(marker, 'utf8')).toMatch(/^ww+$/);
    }
  });

  it('cuts a module of 1 MB or more into about 144 parts, the same on threads and on one thread', async () => {
    const { analyzeText, analyzeTextInParts, partThreadsEnded } = await load<Analyze>('dist/analyze.js');
    const { chunkBytesFor, CHUNK_BYTES, MIN_PART_THREAD_BYTES } = await load<Run>('dist/checks/run.js');
    expect(chunkBytesFor(MIN_PART_THREAD_BYTES - 1)).toBe(CHUNK_BYTES);
    expect(chunkBytesFor(2_880_000)).toBe(50_000);
    expect(chunkBytesFor(17_000_000)).toBe(118_056);
    expect(chunkBytesFor(40_000_000)).toBe(CHUNK_BYTES);
    expect(chunkBytesFor(MIN_PART_THREAD_BYTES)).toBe(50_000);
    // Forty kernels of 30 kB, one of which reads a register before writing it (F071) and one of which has
    // an undefined branch target (F005): part-by-part and module-level findings both come back.
    const kernel = (k: number): string => `.visible .entry k${k}()\n{\n\t.reg .b32 %r<4>;\n\tmov.u32 %r1, %tid.x;\n`
      + (k === 7 ? '\tadd.u32 %r1, %r1, %r3;\n' : '') + (k === 30 ? '\tbra NOWHERE;\n' : '')
      + Array.from({ length: 1_300 }, (_, i) => `\tadd.u32 %r1, %r1, ${i};`).join('\n') + '\n\tret;\n}\n';
    const text = `.version 8.0\n.target sm_90\n.address_size 64\n${Array.from({ length: 40 }, (_, k) => kernel(k)).join('')}`;
    expect(text.length).toBeGreaterThan(MIN_PART_THREAD_BYTES);
    const threaded = await analyzeTextInParts(text, 'forty.ptx', { partJobs: 2 });
    // (The run returns while its threads end; the process, and the bench, wait for them.)
    await partThreadsEnded();
    const one = analyzeText(text, 'forty.ptx', {});
    expect(data(threaded.report)).toBe(data(one.report));
    expect(threaded.report!.findings.map((f) => f.id)).toEqual(expect.arrayContaining(['F071', 'F005']));
  });

  it('stops the workers given parts of a large module that turns out not to parse, and reports its errors', async () => {
    const { analyzeTextInParts } = await load<Analyze>('dist/analyze.js');
    const kernel = (k: number): string => `.visible .entry k${k}()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n`
      + Array.from({ length: 15_000 }, (_, i) => `\tadd.u32 %r1, %r1, ${i};`).join('\n') + '\n\tret;\n}\n';
    // The braces match (the scan finds every body, the workers start) but the last kernel has a bad instruction.
    const text = `.version 8.0\n.target sm_90\n.address_size 64\n${[1, 2, 3, 4, 5].map(kernel).join('')}`
      + kernel(6).replace('add.u32 %r1, %r1, 7;', 'add.u32 %r1, %r1 7;');
    const t0 = performance.now();
    const r = await analyzeTextInParts(text, 'bad.ptx', { partJobs: 2 });
    expect(r.report).toBeUndefined();
    expect(r.error?.message).toMatch(/syntax error/);
    expect(r.error?.diagnostics[0]).toMatch(/^bad\.ptx:\d+:\d+: /);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('checks a part itself when its worker fails', async () => {
    const { parsePtx } = await load<Parse>('dist/parser/parse.js');
    const { prepareRun, runChecks } = await load<Run>('dist/checks/run.js');
    const { runInParts } = await load<Parallel>('dist/checks/parallel.js');
    const failing = join(DIR, 'failing-worker.mjs');
    writeFileSync(failing, 'throw new Error("this worker fails");\n');
    const file = MODULES[0]!;
    const text = readFileSync(file, 'utf8');
    const { module } = parsePtx(text);
    const expected = runChecks(module, text, { chunkBytes: 1 });
    const report = await runInParts(prepareRun(parsePtx(text).module, text, { chunkBytes: 1 }), 2, 512, pathToFileURL(failing));
    expect(data(report)).toBe(data(expected));
  });

  it('gives the workers the text in shared memory, non-ASCII characters and a byte-order mark included', async () => {
    const { parsePtx } = await load<Parse>('dist/parser/parse.js');
    const { prepareRun, runChecks } = await load<Run>('dist/checks/run.js');
    const { PartWorkers, bodiesOf, runInParts, startParts } = await load<Parallel>('dist/checks/parallel.js');
    // A body's comment with characters beyond Latin-1 before a finding: an offset off by one would move it.
    const kernel = (k: number): string => `.visible .entry k${k}()\n{\n\t// ünïcödé ✓ 𝔘 k${k}\n\t.reg .b32 %r<3>;\n`
      + `\tadd.u32 %r1, %r1, %r2;\n\tret;\n}\n`;
    const text = `\ufeff.version 8.0\n.target sm_90\n.address_size 64\n// módulo\n${[1, 2, 3].map(kernel).join('')}`;
    const workers = await PartWorkers.start(2, 512);
    const early = startParts(text, { chunkBytes: 1 }, workers)!;
    expect(early).toBeDefined();
    const declarations = parsePtx(text, { skipBodies: bodiesOf(early.planned) }).module;
    const report = await runInParts(prepareRun(declarations, text, { chunkBytes: 1 }), 2, 512, undefined, workers, early);
    await workers.stop();
    const sequential = runChecks(parsePtx(text).module, text, { chunkBytes: 1 });
    expect(data(report)).toBe(data(sequential));
    expect(sequential.findings.filter((f) => f.id === 'F010').map((f) => f.location.line)).toEqual([1, 4, 7, 14, 21]);
    expect(sequential.findings.some((f) => f.id === 'F073' && f.location.line === 9)).toBe(true);
  });

  it('leaves the module to its caller when this thread holds its declarations alone and a part was not checked', async () => {
    const { parsePtx } = await load<Parse>('dist/parser/parse.js');
    const { prepareRun } = await load<Run>('dist/checks/run.js');
    const { PartWorkers, bodiesOf, runInParts, startParts } = await load<Parallel>('dist/checks/parallel.js');
    const failing = join(DIR, 'failing-early-worker.mjs');
    writeFileSync(failing, 'throw new Error("this worker fails");\n');
    const text = readFileSync(MODULES[0]!, 'utf8');
    const workers = await PartWorkers.start(2, 512, pathToFileURL(failing));
    const early = startParts(text, { chunkBytes: 1 }, workers)!;
    const declarations = parsePtx(text, { skipBodies: bodiesOf(early.planned) }).module;
    // (`analyzeTextInParts` then analyzes the module on its own thread.)
    expect(await runInParts(prepareRun(declarations, text, { chunkBytes: 1 }), 2, 512, undefined, workers, early)).toBeUndefined();
    await workers.stop();
  });

  it('spreads files over threads with the sequential result', async () => {
    const { analyzeFiles } = await load<Analyze>('dist/analyze.js');
    const files = ['examples/block-reduce.ptx', ...MODULES, 'fixtures/corpus/handwritten/calls_branches_linkage.ptx'];
    const progress: number[] = [];
    const threaded = await analyzeFiles(files, { jobs: 3, isolate: true, onFile: (done) => progress.push(done) });
    const sequential = await analyzeFiles(files, { jobs: 1 });
    expect(data(threaded)).toBe(data(sequential));
    expect(progress).toEqual([1, 2, 3, 4]);
  });

  it('gives the analysis processes its default flags, then those of PTX_DEBUG_V8_FLAGS', async () => {
    const { analysisV8Flags, analyzeFiles, DEFAULT_ANALYSIS_V8_FLAGS } = await load<Analyze>('dist/analyze.js');
    expect(DEFAULT_ANALYSIS_V8_FLAGS).toEqual(['--max-inlined-bytecode-size=50']);
    expect(analysisV8Flags({})).toEqual([...DEFAULT_ANALYSIS_V8_FLAGS]);
    expect(analysisV8Flags({ PTX_DEBUG_V8_FLAGS: ' --no-turbo-inlining  --max-semi-space-size=32 ' }))
      .toEqual([...DEFAULT_ANALYSIS_V8_FLAGS, '--no-turbo-inlining', '--max-semi-space-size=32']);
    const saved = process.env.PTX_DEBUG_V8_FLAGS;
    process.env.PTX_DEBUG_V8_FLAGS = '--no-turbo-inlining';
    try {
      const flagged = await analyzeFiles(['examples/block-reduce.ptx'], { isolate: true });
      expect(data(flagged)).toBe(data(await analyzeFiles(['examples/block-reduce.ptx'], {})));
      // A flag the runtime refuses: the process does not start, and the file says so.
      process.env.PTX_DEBUG_V8_FLAGS = '--no-such-flag-anywhere';
      const refused = await analyzeFiles(['examples/block-reduce.ptx'], { isolate: true });
      expect(refused.files[0]!.error?.message).toMatch(/^not analyzed: its analysis process stopped/);
    } finally {
      if (saved === undefined) delete process.env.PTX_DEBUG_V8_FLAGS;
      else process.env.PTX_DEBUG_V8_FLAGS = saved;
    }
  });

  it('analyzes one file in this process when its estimate is under inProcessBelowMb, else in a child', async () => {
    const { analyzeFiles, estimateAnalysisMb } = await load<Analyze>('dist/analyze.js');
    const file = 'examples/block-reduce.ptx';
    const need = estimateAnalysisMb(readFileSync(file, 'utf8')).mb;
    const saved = process.env.PTX_DEBUG_V8_FLAGS;
    // A flag no runtime takes: a child process cannot start, this process never reads it.
    process.env.PTX_DEBUG_V8_FLAGS = '--no-such-flag-anywhere';
    try {
      const progress: number[] = [];
      const here = await analyzeFiles([file], { isolate: true, inProcessBelowMb: need, onFile: (done) => progress.push(done) });
      expect(data(here)).toBe(data(await analyzeFiles([file], {})));
      expect(progress).toEqual([1]);
      const child = await analyzeFiles([file], { isolate: true, inProcessBelowMb: need - 1 });
      expect(child.files[0]!.error?.message).toMatch(/^not analyzed: its analysis process stopped/);
      // Several files, or a time limit: always children.
      const several = await analyzeFiles([file, file], { isolate: true, inProcessBelowMb: 1e9 });
      expect(several.files.map((f) => f.error?.message)).toEqual([expect.stringMatching(/^not analyzed/), expect.stringMatching(/^not analyzed/)]);
      const limited = await analyzeFiles([file], { inProcessBelowMb: 1e9, timeoutSeconds: 60 });
      expect(limited.files[0]!.error?.message).toMatch(/^not analyzed: its analysis process stopped/);
      // A failure in this process fails the file, as a stopped process would, not the run.
      const failing = await analyzeFiles([file], { isolate: true, inProcessBelowMb: 1e9, sourceLine: () => { throw new Error('boom'); } });
      expect(failing.files[0]!.error?.message).toBe('not analyzed: its analysis failed (boom)');
      expect(failing.summary.exitCode).toBe(4);
    } finally {
      if (saved === undefined) delete process.env.PTX_DEBUG_V8_FLAGS;
      else process.env.PTX_DEBUG_V8_FLAGS = saved;
    }
  });

  it('reports a module checked by part threads and over the time limit as not analyzed, promptly', async () => {
    const { analyzeFiles } = await load<Analyze>('dist/analyze.js');
    const { partThreads } = await load<Parallel>('dist/checks/parallel.js');
    const big = join(DIR, 'big.ptx');
    // Sixteen kernels of 15,000 instructions: 6 MB; with --jobs 2, two part threads check it, for several
    // times the limit on any machine here (six kernels took 1.6 to 2.3 s on one thread, too close to the
    // next test's limit once the workers were bundled).
    const kernel = (k: number): string => `.visible .entry k${k}()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %tid.x;\n`
      + Array.from({ length: 15_000 }, (_, i) => `\tadd.u32 %r1, %r1, ${i};`).join('\n') + '\n\tret;\n}\n';
    writeFileSync(big, `.version 8.0\n.target sm_90\n.address_size 64\n${Array.from({ length: 16 }, (_, k) => kernel(k)).join('')}`);
    expect(partThreads(readFileSync(big, 'utf8').length, 2, 4096)).toBe(2);
    const t0 = performance.now();
    const r = await analyzeFiles([big], { jobs: 2, timeoutSeconds: 1 });
    expect(r.files[0]!.error?.message).toBe('not analyzed: it took longer than --timeout 1 s');
    expect(r.files[0]!.exitCode).toBe(4);
    expect(performance.now() - t0).toBeLessThan(5_000);
  });

  it('goes on with the other files when one is over the time limit', async () => {
    const { analyzeFiles } = await load<Analyze>('dist/analyze.js');
    // The previous test's module, three times over (48 kernels, 18 MB): alone, no part threads with two files,
    // it takes several times the limit. (Its 6 MB alone came within 2 s once the analyses got faster.)
    const bigger = join(DIR, 'bigger.ptx');
    const text = readFileSync(join(DIR, 'big.ptx'), 'utf8');
    const kernels = text.slice(text.indexOf('.visible'));
    writeFileSync(bigger, text + kernels.replace(/\.entry k/g, '.entry a') + kernels.replace(/\.entry k/g, '.entry b'));
    const r = await analyzeFiles([bigger, 'examples/block-reduce.ptx'], { jobs: 2, timeoutSeconds: 2 });
    expect(r.files[0]!.error?.message).toBe('not analyzed: it took longer than --timeout 2 s');
    expect(r.files[1]!.report).toBeDefined();
  });
});
