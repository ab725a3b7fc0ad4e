// The engine's time on each module against its parse, with the collector's pauses in the engine's runs: for
// each FILE, RUNS times in this process, parse it, then compute every analysis for every function in the
// bench's order (bench/parse-one.js, mode engine), and print the best parse, the best engine run, the ratio,
// and the main thread's collector pauses (scavenges and mark-compacts, from `gc` performance entries) in
// that engine run, with each analysis's share of it.
//
//   npm run build && node scripts/engine-gc.js [--runs N] FILE...
//
// What it tells: how much of the engine the collector takes on this host (on the development machine's two
// cores, where its helper threads compete with the engine, a sixth and more; on a many-core host its parallel
// scavenges take less), so whether a change that allocates less can move the bench's ratio there.
import { readFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { parsePtx } from '../dist/parser/parse.js';
import { AnalysisContext, ENGINE_ANALYSES } from '../dist/cfg/context.js';

const args = process.argv.slice(2);
const at = args.indexOf('--runs');
const runs = at < 0 ? 3 : Number(args.splice(at, 2)[1]);
if (args.length === 0 || !(runs > 0)) {
  console.error('usage: node scripts/engine-gc.js [--runs N] FILE...');
  process.exit(2);
}

let pauses = { minor: 0, major: 0 };
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind ?? e.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) pauses.minor += e.duration;
    else pauses.major += e.duration;
  }
});
observer.observe({ entryTypes: ['gc'] });
// Performance entries are delivered asynchronously: a turn of the event loop after each run collects them.
const settle = () => sleep(0);

let parseSum = 0;
let engineSum = 0;
for (const file of args) {
  const text = readFileSync(file, 'utf8');
  let parse = Infinity;
  let best = { ms: Infinity, minor: 0, major: 0, per: {} };
  for (let r = 0; r < runs; r++) {
    const p0 = performance.now();
    const parsed = parsePtx(text);
    parse = Math.min(parse, performance.now() - p0);
    await settle();
    pauses = { minor: 0, major: 0 };
    const per = Object.fromEntries(ENGINE_ANALYSES.map((a) => [a, 0]));
    const t0 = performance.now();
    const ctx = new AnalysisContext(parsed.module);
    for (const fn of ctx.functions) {
      for (const a of ENGINE_ANALYSES) {
        const t = performance.now();
        ctx[a](fn);
        per[a] += performance.now() - t;
      }
    }
    const ms = performance.now() - t0;
    await settle();
    if (ms < best.ms) best = { ms, minor: pauses.minor, major: pauses.major, per };
  }
  parseSum += parse;
  engineSum += best.ms;
  const shares = ENGINE_ANALYSES.map((a) => `${a} ${(best.per[a] / parse).toFixed(2)}`).join(', ');
  console.log(`${file}: parse ${parse.toFixed(0)} ms, engine ${best.ms.toFixed(0)} ms (${(best.ms / parse).toFixed(2)}× parse), ` +
    `collector pauses ${best.minor.toFixed(0)} ms scavenging + ${best.major.toFixed(0)} ms mark-compact ` +
    `(${(100 * (best.minor + best.major) / best.ms).toFixed(0)}% of the engine)\n  × parse: ${shares}`);
}
console.log(`all: engine ${(engineSum / parseSum).toFixed(2)}× parse`);
