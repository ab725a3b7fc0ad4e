// The engine's cost on one module, per analysis: parses FILE (or its first BYTES, cut at a function's start),
// then runs PASSES passes, each a fresh analysis context computing every analysis for every function (the
// bench's engine), and prints each analysis's best time and its ratio to the best parse.
//
//   npm run build && node scripts/engine-cost.js FILE [PASSES=3] [--bytes N] [--only NAME]
//
// --only NAME: each pass computes NAME's dependencies untimed in one context and times NAME alone in the same
// context (the analyses a context caches are computed once), for a change to one analysis.
//
// For a count that does not move with the host (the time does, by 10% and more on a loaded machine), run it
// under cachegrind with V8's randomness seeded and its helper threads off, at two pass counts, and take the
// difference (the per-pass instructions of the warm passes):
//
//   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//     node --single-threaded --hash-seed=1 --random-seed=1 \
//     --min-semi-space-size=16 --max-semi-space-size=16 --initial-old-space-size=2048 \
//     --max-inlined-bytecode-size=50 scripts/engine-cost.js FILE 2 --bytes 500000 --only ranges
//   (then 5 passes; (I5 − I2) / 3 is one warm pass). The fixed heap sizes make a whole pass's count repeat to
//   about 1% (without them one build gave 441 to 570 M). (Under `--predictable-gc-schedule` the young generation was
//   collected every 4.4 MB, so the count was mostly the collector's.) `--only NAME` counts the whole pass up to NAME, so
//   one analysis is the difference of two such counts, within about 30 M of when V8 compiles.
import { readFileSync } from 'node:fs';
import { parsePtx } from '../dist/parser/parse.js';
import { AnalysisContext, ENGINE_ANALYSES } from '../dist/cfg/context.js';


const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const bytes = option('--bytes');
const only = option('--only');
const [file, passesArg] = args;
if (file === undefined || (only !== undefined && !ENGINE_ANALYSES.includes(only))) {
  console.error(`usage: node scripts/engine-cost.js FILE [PASSES] [--bytes N] [--only ${ENGINE_ANALYSES.join('|')}]`);
  process.exit(2);
}
const passes = Number(passesArg ?? 3);
let text = readFileSync(file, 'utf8');
if (bytes !== undefined && text.length > Number(bytes)) {
  // Cut before the first function that starts past BYTES: whole functions only.
  const cut = text.slice(Number(bytes)).search(/\n(\.visible |\.weak |\.extern )?\.(entry|func) /);
  if (cut >= 0) text = text.slice(0, Number(bytes) + cut + 1);
}

const best = new Map([['parse', Infinity], ['model', Infinity], ...ENGINE_ANALYSES.map((a) => [a, Infinity])]);
const keep = (name, ms) => best.set(name, Math.min(best.get(name), ms));
for (let p = 0; p < passes; p++) {
  const t0 = performance.now();
  const parsed = parsePtx(text);
  keep('parse', performance.now() - t0);
  if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0].message}`);
  const t1 = performance.now();
  const ctx = new AnalysisContext(parsed.module);
  const fns = ctx.functions;
  keep('model', performance.now() - t1);
  const spent = new Map(ENGINE_ANALYSES.map((a) => [a, 0]));
  if (only !== undefined) {
    const before = ENGINE_ANALYSES.slice(0, ENGINE_ANALYSES.indexOf(only));
    for (const fn of fns) for (const a of before) ctx[a](fn);
    const t = performance.now();
    for (const fn of fns) ctx[only](fn);
    spent.set(only, performance.now() - t);
  } else {
    for (const fn of fns) {
      for (const a of ENGINE_ANALYSES) {
        const t = performance.now();
        ctx[a](fn);
        spent.set(a, spent.get(a) + performance.now() - t);
      }
    }
  }
  for (const [a, ms] of spent) if (only === undefined || a === only) keep(a, ms);
}
const parse = best.get('parse');
const rows = [...best].filter(([, ms]) => ms !== Infinity);
const analyses = rows.filter(([a]) => a !== 'parse').reduce((s, [, ms]) => s + ms, 0);
console.log(`${file}${bytes !== undefined ? ` (first ${text.length} bytes)` : ''}: best of ${passes} passes`);
for (const [a, ms] of rows) console.log(`  ${a.padEnd(20)} ${ms.toFixed(1).padStart(9)} ms ${(ms / parse).toFixed(2).padStart(6)}× parse`);
if (only === undefined) console.log(`  ${'analyses'.padEnd(20)} ${analyses.toFixed(1).padStart(9)} ms ${(analyses / parse).toFixed(2).padStart(6)}× parse`);
