// `npm run bench`: throughput and peak memory on large real inputs (CUB
// instantiations compiled by nvcc, bench/corpus), for three stages — parse,
// the whole engine (every analysis for every function) and a full
// `analyze --falsify` — against `ptxas -arch=sm_90` on the same files in the
// same run; growth with function size (1×, 4×, 16×); and why keywords are
// re-typed after lexing. Prints a report and writes it into
// docs/performance.md between the bench markers.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { compareKeywordLexers } from './keyword-lexer.js';
import { writeScaleInputs } from './scale.js';
import { DEFAULT_ANALYSIS_V8_FLAGS } from '../dist/analyze.js';

const CACHE = 'bench/.cache';
// The measuring child; a bundled copy (no node_modules) where the bench runs elsewhere.
const ONE = process.env.BENCH_ONE ?? 'bench/parse-one.js';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PTXAS = process.env.PTXAS ?? 'ptxas';
const MB = 1e6;

const build = spawnSync('bash', ['bench/corpus/build.sh', CACHE], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('bench: building the corpus failed (needs nvcc)');
  process.exit(1);
}
const files = readdirSync(CACHE).filter((f) => f.endsWith('.ptx') && !f.startsWith('scale-')).sort().map((f) => join(CACHE, f));

function countLines(file) {
  const t = readFileSync(file, 'utf8');
  let n = 0;
  for (let i = t.indexOf('\n'); i !== -1; i = t.indexOf('\n', i + 1)) n++;
  return n;
}

// Parse and engine run in the measuring process with the V8 flags the tool's analysis processes use.
function measure(file, mode, runs, jobs) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=16384', ...DEFAULT_ANALYSIS_V8_FLAGS, ONE, file, String(runs), mode, ...(jobs !== undefined ? [jobs] : [])], { maxBuffer: 1 << 20 });
  return JSON.parse(out.toString());
}

function ptxasSeconds(file) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(PTXAS, ['-arch=sm_90', file, '-o', '/dev/null'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  return r.status === 0 ? s : NaN;
}

const mbps = (bytes, ms) => (bytes / MB / (ms / 1000)).toFixed(1);
// Untimed: one threaded analysis, so that the part threads' code cache for this Node and these flags exists
// (src/part-worker-entry.ts), as it does after a user's first run on a machine.
measure(files[0], 'analyze', 1);
const rows = [];
for (const file of files) {
  const lines = countLines(file);
  // Time: best of RUNS in one process; memory: a single parse in a fresh one
  // (a process that parses several times holds the previous tree while it builds the next).
  const parse = { ...measure(file, 'parse', RUNS), rssBytes: measure(file, 'parse', 1).rssBytes };
  // Engine: as the parse, the best of RUNS in one process (the first, cold run is reported beside it).
  const engine = measure(file, 'engine', RUNS);
  const engineDrop = measure(file, 'engine-drop', RUNS);
  const analyze = measure(file, 'analyze', 1);
  const single = measure(file, 'analyze', 1, '1');
  const ptxas = ptxasSeconds(file);
  rows.push({ file, lines, bytes: parse.bytes, parse, engine, engineDrop, analyze, single, ptxas });
  console.log(`${file}: ${(parse.bytes / MB).toFixed(1)} MB, ${lines} lines: parse ${mbps(parse.bytes, parse.ms)} MB/s (RSS ${(parse.rssBytes / MB).toFixed(0)} MB), ` +
    `engine ${(engine.ms / 1000).toFixed(2)} s (analyses ${(engine.analysesMs / 1000).toFixed(2)} s, cold ${(engine.firstMs / 1000).toFixed(2)} s), analyze ${(analyze.ms / 1000).toFixed(2)} s (RSS ${(analyze.rssBytes / MB).toFixed(0)} MB), ` +
    `--jobs 1 ${(single.ms / 1000).toFixed(2)} s (CPU ${(single.cpuMs / 1000).toFixed(2)} s, RSS ${(single.rssBytes / MB).toFixed(0)} MB), ptxas ${ptxas.toFixed(2)} s`);
}

const sum = (f) => rows.reduce((n, r) => n + f(r), 0);
const bytes = sum((r) => r.bytes);
const lines = sum((r) => r.lines);
const parseS = sum((r) => r.parse.ms) / 1000;
const engineS = sum((r) => r.engine.ms) / 1000;
const analysesS = sum((r) => r.engine.analysesMs) / 1000;
const engineColdS = sum((r) => r.engine.firstMs) / 1000;
const dropS = sum((r) => r.engineDrop.analysesMs) / 1000;
// The analyses against the parse timed in the same process (each engine run parses first): the ratio the host's
// drift between processes does not move.
const ownParseS = sum((r) => r.engine.ownParseMs) / 1000;
const analyzeS = sum((r) => r.analyze.ms) / 1000;
const singleS = sum((r) => r.single.ms) / 1000;
const singleCpuS = sum((r) => r.single.cpuMs) / 1000;
const ptxasS = sum((r) => r.ptxas);
const largest = rows.reduce((m, r) => (r.bytes > m.bytes ? r : m), rows[0]);
const peakParse = Math.max(...rows.map((r) => r.parse.rssBytes));
const peakAnalyze = Math.max(...rows.map((r) => r.analyze.rssBytes));
const peakSingle = Math.max(...rows.map((r) => r.single.rssBytes));
const limit = 40 * largest.bytes + 150 * MB;

// Growth with function size.
const scale = writeScaleInputs(CACHE, 150).map(({ factor, path }) => ({ factor, path, r: measure(path, 'analyze', 1, '1') }));
const base = scale[0].r.ms;

const sample = readFileSync(largest.file, 'utf8').slice(0, 4 * MB);
const kw = compareKeywordLexers(sample);

const cores = cpus().length;
const table = [
  `Run ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'unknown CPU'} (${cores} cores), Node ${process.version}; parse and engine are the best of ${RUNS} runs in one process ` +
    '(engine: parse, then every analysis for every function; analyses: the analyses alone, the symbol model included), analyze one run. parse and engine run on one thread. analyze is the command `ptx-debug analyze FILE --falsify` run in the measuring ' +
    `process (every check, the text report, written nowhere, until its threads have ended), as a user runs it: its worker threads check one module's parts in parallel (from 1 MB, one per 300 kB, at most 9 by default), ` +
    'from the code cache a first threaded run (untimed, before the table) wrote; ' +
    '`--jobs 1` is the same command on one thread (CPU counts every thread, the garbage collector\'s included, and any child process). ' +
    'RSS is the whole process tree\'s: the process\'s own peak, or the tree\'s sampled every 50 ms when larger.',
  '',
  '| file | MB | lines | parse MB/s | parse lines/s | parse RSS MB | engine s (× parse) | analyses × parse | analyze --falsify s | analyze MB/s | analyze RSS MB | --jobs 1 s | --jobs 1 CPU s | --jobs 1 RSS MB | ptxas -arch=sm_90 s | ptxas / analyze | ptxas / --jobs 1 |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.file.replace(`${CACHE}/`, '')} | ${(r.bytes / MB).toFixed(1)} | ${r.lines} | ${mbps(r.bytes, r.parse.ms)} | ${Math.round(r.lines / (r.parse.ms / 1000))} | ` +
    `${(r.parse.rssBytes / MB).toFixed(0)} | ${(r.engine.ms / 1000).toFixed(2)} (${(r.engine.ms / r.parse.ms).toFixed(1)}×) | ${(r.engine.analysesMs / r.parse.ms).toFixed(1)}× | ${(r.analyze.ms / 1000).toFixed(2)} | ${mbps(r.bytes, r.analyze.ms)} | ` +
    `${(r.analyze.rssBytes / MB).toFixed(0)} | ${(r.single.ms / 1000).toFixed(2)} | ${(r.single.cpuMs / 1000).toFixed(2)} | ${(r.single.rssBytes / MB).toFixed(0)} | ` +
    `${r.ptxas.toFixed(2)} | ${(r.ptxas / (r.analyze.ms / 1000)).toFixed(1)}× | ${(r.ptxas / (r.single.ms / 1000)).toFixed(1)}× |`),
  `| **all** | ${(bytes / MB).toFixed(1)} | ${lines} | ${(bytes / MB / parseS).toFixed(1)} | ${Math.round(lines / parseS)} | ${(peakParse / MB).toFixed(0)} (max) | ` +
    `${engineS.toFixed(2)} (${(engineS / parseS).toFixed(1)}×) | ${(analysesS / parseS).toFixed(1)}× | ${analyzeS.toFixed(2)} | ${(bytes / MB / analyzeS).toFixed(1)} | ${(peakAnalyze / MB).toFixed(0)} (max) | ` +
    `${singleS.toFixed(2)} | ${singleCpuS.toFixed(2)} | ${(peakSingle / MB).toFixed(0)} (max) | ${ptxasS.toFixed(2)} | ${(ptxasS / analyzeS).toFixed(1)}× | ${(ptxasS / singleS).toFixed(1)}× |`,
  '',
  `Engine, first (cold) run in its process: ${engineColdS.toFixed(2)} s over the corpus, ${(engineColdS / parseS).toFixed(1)}× the best parse ` +
    `(per file ${rows.map((r) => `${(r.engine.firstMs / r.parse.ms).toFixed(1)}×`).join(', ')}). ` +
    `The analyses with each function's facts dropped after them (as the command's part threads drop a part's), best of ${RUNS}: ` +
    `${dropS.toFixed(2)} s, ${(dropS / parseS).toFixed(1)}× the parse (per file ${rows.map((r) => `${(r.engineDrop.analysesMs / r.parse.ms).toFixed(1)}×`).join(', ')}). ` +
    `The analyses against the parse each engine run does first, both best of ${RUNS} in the engine's own process: ` +
    `${(analysesS / ownParseS).toFixed(1)}× (parse ${ownParseS.toFixed(2)} s; per file ${rows.map((r) => `${(r.engine.analysesMs / r.engine.ownParseMs).toFixed(1)}×`).join(', ')}).`,
  '',
  `Peak RSS limit (40 × largest input + 150 MB): ${(limit / MB).toFixed(0)} MB; measured ${(peakParse / MB).toFixed(0)} MB parsing, ` +
    `${(peakSingle / MB).toFixed(0)} MB analyzing with --jobs 1, ${(peakAnalyze / MB).toFixed(0)} MB with the default threads.`,
  '',
  `Growth with function size (one kernel, a realistic block repeated; analyze --falsify --jobs 1): ` +
    scale.map((s) => `${s.factor}× (${(s.r.bytes / MB).toFixed(2)} MB) ${(s.r.ms / 1000).toFixed(2)} s = ${(s.r.ms / base).toFixed(1)}×`).join(', ') +
    `; the bound is 24× at 16×.`,
  '',
  `Keyword lexing, first 4 MB of ${largest.file.replace(`${CACHE}/`, '')}: one generic dotted token re-typed from the table ` +
    `${(kw.ours.tokensPerSecond / 1e6).toFixed(2)} M tokens/s; one Chevrotain token per keyword (${kw.keywordTokens} keyword tokens) ` +
    `${(kw.perKeyword.tokensPerSecond / 1e6).toFixed(2)} M tokens/s (${(kw.ours.tokensPerSecond / kw.perKeyword.tokensPerSecond).toFixed(1)}× slower).`,
].join('\n');
console.log(`\n${table}`);

const doc = 'docs/performance.md';
if (existsSync(doc)) {
  const text = readFileSync(doc, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a !== -1 && b > a) {
    writeFileSync(doc, `${text.slice(0, a + start.length)}\n${table}\n${text.slice(b)}`);
    console.log(`\nwrote ${doc}`);
  }
}
