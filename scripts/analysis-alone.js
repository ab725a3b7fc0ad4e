// One analysis's cost alone: parses FILE, computes every analysis for every function once (so that what NAME
// reads is cached), then recomputes NAME for every function PASSES times, its result dropped each time, and
// prints the best and the median pass. `model` instead walks every function's body in a fresh context per pass.
//
//   npm run build && node scripts/analysis-alone.js FILE NAME... [--passes N]
//
// Steadier than a whole pass (scripts/engine-cost.js) for a change to one analysis: on the development
// machine the best of 15 repeats to about 3%, where a whole pass moves by 10% and more. Compare two builds by
// running their copies of this script in turn, several processes each. The dependencies stay cached, so the
// number leaves out what NAME asks of other analyses (affine: the compiled instructions, `compile` here).
import { readFileSync } from 'node:fs';
import { parsePtx } from '../dist/parser/parse.js';
import { AnalysisContext, ENGINE_ANALYSES } from '../dist/cfg/context.js';
import { affineAnalysis, compiledFunction } from '../dist/cfg/dataflow/affine.js';
import { livenessAnalysis } from '../dist/cfg/dataflow/liveness.js';
import { provenanceAnalysis } from '../dist/cfg/dataflow/provenance.js';
import { rangeAnalysis } from '../dist/cfg/dataflow/ranges.js';
import { reachingDefinitionsAnalysis } from '../dist/cfg/dataflow/reaching-definitions.js';
import { taintAnalysis } from '../dist/cfg/dataflow/taint.js';
import { uniformityAnalysis } from '../dist/cfg/dataflow/uniformity.js';

const ALONE = {
  compile: compiledFunction, affine: affineAnalysis, ranges: rangeAnalysis, provenance: provenanceAnalysis,
  uniformity: uniformityAnalysis, taint: taintAnalysis, reachingDefinitions: reachingDefinitionsAnalysis, liveness: livenessAnalysis,
};

const args = process.argv.slice(2);
const at = args.indexOf('--passes');
const passes = at < 0 ? 15 : Number(args.splice(at, 2)[1]);
const [file, ...names] = args;
if (file === undefined || names.length === 0 || names.some((n) => n !== 'model' && !(n in ALONE)) || !(passes > 0)) {
  console.error(`usage: node scripts/analysis-alone.js FILE NAME... [--passes N]; NAME: model|${Object.keys(ALONE).join('|')}`);
  process.exit(2);
}
const parsed = parsePtx(readFileSync(file, 'utf8'));
if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0].message}`);
const ctx = new AnalysisContext(parsed.module);
for (const fn of ctx.functions) for (const a of ENGINE_ANALYSES) ctx[a](fn);
for (const name of names) {
  const times = [];
  for (let p = 0; p < passes; p++) {
    if (name === 'model') {
      const fresh = new AnalysisContext(parsed.module);
      const t = performance.now();
      for (const fn of fresh.functions) void fn.effectTable;
      times.push(performance.now() - t);
    } else {
      const t = performance.now();
      for (const fn of ctx.functions) ALONE[name].compute(ctx, fn);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(20)} best ${times[0].toFixed(1).padStart(8)} ms   median ${times[times.length >> 1].toFixed(1).padStart(8)} ms`);
}
