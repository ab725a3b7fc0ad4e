// `npm run bench`: lex+parse throughput and peak memory on large real inputs
// (CUB instantiations compiled by nvcc, bench/corpus), against `ptxas
// -arch=sm_90` on the same files in the same run. Prints a table and writes it
// into docs/performance.md between the bench markers.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { compareKeywordLexers } from './keyword-lexer.js';

const CACHE = 'bench/.cache';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PTXAS = process.env.PTXAS ?? 'ptxas';
const MB = 1e6;

const build = spawnSync('bash', ['bench/corpus/build.sh', CACHE], { stdio: 'inherit' });
if (build.status !== 0) {
  console.error('bench: building the corpus failed (needs nvcc)');
  process.exit(1);
}
const files = readdirSync(CACHE).filter((f) => f.endsWith('.ptx')).sort().map((f) => join(CACHE, f));

function countLines(file) {
  const t = readFileSync(file, 'utf8');
  let n = 0;
  for (let i = t.indexOf('\n'); i !== -1; i = t.indexOf('\n', i + 1)) n++;
  return n;
}

function parseOne(file) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=16384', 'bench/parse-one.js', file, String(RUNS)], { maxBuffer: 1 << 20 });
  return JSON.parse(out.toString());
}

function ptxasSeconds(file) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(PTXAS, ['-arch=sm_90', file, '-o', '/dev/null'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  return r.status === 0 ? s : NaN;
}

const rows = [];
for (const file of files) {
  const parse = parseOne(file);
  const lines = countLines(file);
  const ptxas = ptxasSeconds(file);
  const row = { file, lines, ...parse, ptxas };
  rows.push(row);
  console.log(`${file}: ${(parse.bytes / MB).toFixed(1)} MB, ${lines} lines: parse ${(parse.ms / 1000).toFixed(2)} s ` +
    `(${(parse.bytes / MB / (parse.ms / 1000)).toFixed(1)} MB/s), peak RSS ${(parse.rssBytes / MB).toFixed(0)} MB, ` +
    `errors ${parse.errors}; ptxas ${ptxas.toFixed(2)} s`);
}

const bytes = rows.reduce((n, r) => n + r.bytes, 0);
const lines = rows.reduce((n, r) => n + r.lines, 0);
const parseS = rows.reduce((n, r) => n + r.ms, 0) / 1000;
const ptxasS = rows.reduce((n, r) => n + r.ptxas, 0);
const peak = rows.reduce((m, r) => (r.rssBytes > m.rssBytes ? r : m), rows[0]);
const largest = rows.reduce((m, r) => (r.bytes > m.bytes ? r : m), rows[0]);
const sample = readFileSync(largest.file, 'utf8').slice(0, 4 * MB);
const kw = compareKeywordLexers(sample);

const node = process.version;
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const table = [
  `Run ${new Date().toISOString().slice(0, 10)} on ${cpu}, Node ${node}, best of ${RUNS} runs per file, one core.`,
  '',
  '| file | MB | lines | lex+parse s | MB/s | lines/s | peak RSS MB | RSS / input | ptxas -arch=sm_90 s | ptxas / parse |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.file.replace(`${CACHE}/`, '')} | ${(r.bytes / MB).toFixed(1)} | ${r.lines} | ${(r.ms / 1000).toFixed(2)} | ` +
    `${(r.bytes / MB / (r.ms / 1000)).toFixed(1)} | ${Math.round(r.lines / (r.ms / 1000))} | ${(r.rssBytes / MB).toFixed(0)} | ` +
    `${(r.rssBytes / r.bytes).toFixed(1)}× | ${r.ptxas.toFixed(2)} | ${(r.ptxas / (r.ms / 1000)).toFixed(1)}× |`),
  `| **all** | ${(bytes / MB).toFixed(1)} | ${lines} | ${parseS.toFixed(2)} | ${(bytes / MB / parseS).toFixed(1)} | ${Math.round(lines / parseS)} | ` +
    `${(peak.rssBytes / MB).toFixed(0)} (max) | | ${ptxasS.toFixed(2)} | ${(ptxasS / parseS).toFixed(1)}× |`,
  '',
  `Peak RSS limit (40 × largest input + 150 MB): ${((40 * largest.bytes + 150 * MB) / MB).toFixed(0)} MB; measured ${(peak.rssBytes / MB).toFixed(0)} MB.`,
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
