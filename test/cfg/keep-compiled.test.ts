// The analyses keep their last closures alive (so that V8 keeps their optimized
// code) while a module is analyzed, and let go of them, and of the facts and
// tree they hold, once it is done.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import { AnalysisContext } from '../../src/cfg/context.js';
import { keptSites, releaseCompiled } from '../../src/cfg/keep-compiled.js';
import { parsePtx } from '../../src/parser/parse.js';

const text = readFileSync('examples/block-reduce.ptx', 'utf8');

describe('kept compiled closures', () => {
  it('are held while analyses run and let go of once a module is checked', () => {
    releaseCompiled();
    const { module } = parsePtx(text);
    const ctx = new AnalysisContext(module);
    for (const fn of ctx.functions) {
      ctx.uniformity(fn);
      ctx.ranges(fn);
      ctx.liveness(fn);
    }
    // Uniformity's inner functions, the solver problems of ranges and affine forms, reaching definitions'
    // per-instruction function and the bit-set solver's worklist (liveness keeps no closure of its own now).
    expect(keptSites()).toBeGreaterThanOrEqual(4);
    const r = analyzeText(text, 'block-reduce.ptx');
    expect(r.report?.outcomes.length).toBe(100);
    expect(keptSites()).toBe(0);
  });

  it('the same report whether or not closures were kept from an earlier module', () => {
    const strip = (): string => JSON.stringify(analyzeText(text, 'b.ptx').report, (k, v: unknown) => (k === 'timings' ? undefined : v));
    releaseCompiled();
    const fresh = strip();
    const { module } = parsePtx(text);
    const ctx = new AnalysisContext(module);
    for (const fn of ctx.functions) ctx.uniformity(fn);
    expect(keptSites()).toBeGreaterThan(0);
    expect(strip()).toBe(fresh);
  });
});
