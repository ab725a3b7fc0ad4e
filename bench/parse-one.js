// Child process of bench/run.js: measures one file in one mode, `runs` times,
// and reports the best time and this process's peak RSS, so each
// measurement's memory is its own.
//   parse     text → syntax tree
//   engine    parse, then every analysis for every function (CFG, dominators,
//             post-dominators, loops, reaching definitions, liveness,
//             uniformity, provenance, taint, affine forms, value ranges);
//             also reports the analyses' own best time (analysesMs)
//   engine-drop  the same, each function's facts dropped after its analyses
//   analyze   the command itself, `ptx-debug analyze FILE --falsify [--jobs N]`
//             (its worker threads, every check, the score and the text report,
//             written nowhere), so time and peak memory are what a user gets;
//             CPU time is every thread's (the collector's included) and any
//             child process's, peak memory the whole process tree's
import { readFileSync, statSync } from 'node:fs';
import { childrenCpuMs, sampleTreeRss } from './tree-rss.js';
import { parsePtx } from '../dist/parser/parse.js';
import { AnalysisContext } from '../dist/cfg/context.js';
import { main } from '../dist/cli/main.js';
import { partThreadsEnded } from '../dist/analyze.js';

const [file, runsArg, mode = 'parse', jobs] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
// The command reads the file itself: this process holds no copy of it then.
const text = mode === 'analyze' ? '' : readFileSync(file, 'utf8');

let reportBytes = 0;
// engine: the best time of the analyses alone (the symbol model included; the parse before them not), and the
// best time of the parse that each run does first: both in this process, so that their ratio does not move with
// the host between processes (one module's parse took 754 to 1086 ms in different processes of one bench).
let analysesMs = Infinity;
let ownParseMs = Infinity;
const sink = { out: (s) => { reportBytes += s.length; }, err: (s) => { reportBytes += s.length; } };

async function once() {
  if (mode === 'parse') return parsePtx(text).errors.length;
  if (mode === 'analyze') {
    // Until its part threads have ended too, as the command's process does (it writes the report meanwhile).
    const code = await main(['node', 'ptx-debug', 'analyze', file, '--falsify', ...(jobs !== undefined ? ['--jobs', jobs] : [])], sink);
    await partThreadsEnded();
    return code;
  }
  const p0 = process.hrtime.bigint();
  const r = parsePtx(text);
  const t0 = process.hrtime.bigint();
  ownParseMs = Math.min(ownParseMs, Number(t0 - p0) / 1e6);
  const ctx = new AnalysisContext(r.module);
  for (const fn of ctx.functions) {
    // engine-drop: each function's facts in a context of its own, dropped after its analyses (as the
    // command's part threads drop a part's), so the collector never holds the whole module's facts.
    const c = mode === 'engine-drop' ? new AnalysisContext(r.module, {}, { model: ctx.model, functions: [fn] }) : ctx;
    c.cfg(fn); c.dominators(fn); c.postDominators(fn); c.loops(fn); c.controlDependence(fn);
    c.reachingDefinitions(fn); c.liveness(fn); c.uniformity(fn); c.provenance(fn); c.taint(fn); c.affine(fn); c.ranges(fn);
    if (c !== ctx) c.dispose();
  }
  analysesMs = Math.min(analysesMs, Number(process.hrtime.bigint() - t0) / 1e6);
  return r.errors.length;
}

// Peak memory is the whole process tree's (the command checks a single file in its own process, but a
// larger one, or one under a time limit, in a child process), sampled every 50 ms; CPU counts the ended
// child processes.
const sampler = sampleTreeRss();

let best = Infinity;
// The first run's time: in a fresh process, the cold one (code not yet compiled by the optimizing compiler).
let firstMs = NaN;
let cpuMs = Infinity;
let result;
for (let i = 0; i < runs; i++) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  const k0 = childrenCpuMs();
  result = await once();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (i === 0) firstMs = ms;
  best = Math.min(best, ms);
  const c = process.cpuUsage(c0);
  cpuMs = Math.min(cpuMs, (c.user + c.system) / 1000 + childrenCpuMs() - k0);
}
const rssBytes = sampler.stop();
process.stdout.write(JSON.stringify({
  file, mode, bytes: statSync(file).size, ms: best, firstMs, cpuMs, result, rssBytes, reportBytes,
  ...(mode.startsWith('engine') ? { analysesMs, ownParseMs } : {}),
}));
