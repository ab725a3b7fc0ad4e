// The whole engine on real compiler output: on every nvcc (4 targets), llc and
// Triton input, every analysis terminates for every function, and two runs
// give the same facts — seen through everything the checks report.
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import { AnalysisContext } from '../../src/cfg/context.js';
import { effects, forgetEffects } from '../../src/cfg/dataflow/effects.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';

const compiled = await compiledCorpus();
const inputs = [...committedPtx(), ...compiled.inputs];

function allFacts(text: string): number {
  const ctx = new AnalysisContext(parsePtx(text).module);
  let n = 0;
  for (const fn of ctx.functions) {
    ctx.cfg(fn); ctx.dominators(fn); ctx.postDominators(fn); ctx.loops(fn); ctx.controlDependence(fn);
    ctx.reachingDefinitions(fn); ctx.liveness(fn); ctx.uniformity(fn); ctx.provenance(fn); ctx.taint(fn); ctx.affine(fn); ctx.ranges(fn);
    n++;
  }
  return n;
}

describe('engine on the corpus', () => {
  it('computes every analysis for every function of every input', () => {
    let functions = 0;
    for (const input of inputs) functions += allFacts(input.text);
    expect(functions).toBeGreaterThan(300);
  }, 600_000);

  it('lists the same registers whether the model computed them or effects() did after they were dropped', () => {
    let compared = 0;
    const names = (rs: readonly { readonly name: string; readonly id: number }[]): string => rs.map((r) => `${r.name}#${r.id}`).join(' ');
    for (const input of inputs) {
      const ctx = new AnalysisContext(parsePtx(input.text).module);
      for (const fn of ctx.functions) {
        const byModel = fn.instructions.map((i) => { const e = effects(fn, i); return `${names(e.defs)} <- ${names(e.uses)}`; });
        forgetEffects(fn);
        const again = fn.instructions.map((i) => { const e = effects(fn, i); return `${names(e.defs)} <- ${names(e.uses)}`; });
        expect(again, `${input.name} ${fn.name}`).toEqual(byModel);
        compared += again.length;
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  }, 600_000);

  it("gives each function the same facts whatever was analyzed before it, read after every function's analyses", () => {
    // Analyses keep scratch arrays from function to function (uniformity, value ranges, provenance): a fact
    // that shared one would change when a later function is analyzed, or differ with the order.
    const answers = (ctx: AnalysisContext, fn: AnalysisContext['functions'][number]): string => {
      const u = ctx.uniformity(fn); const r = ctx.ranges(fn); const p = ctx.provenance(fn); const a = ctx.affine(fn); const l = ctx.liveness(fn);
      const iv = (x: { lo: number; hi: number } | undefined): string => (x === undefined ? 'u' : `${x.lo}:${x.hi}`);
      const out: string[] = [];
      for (let i = 0; i < fn.instructions.length; i++) {
        const fx = effects(fn, fn.instructions[i]!);
        for (const x of fx.uses) {
          const f = a.formAt(i, x);
          out.push(`${u.useVariance(i, x)} ${iv(r.rangeAt(i, x))} ${p.valueAt(i, x)} ${f === undefined ? 'u' : a.format(f)}`);
        }
        for (const x of fx.defs) out.push(`${u.defVariance(i, x)} ${iv(r.rangeAfter(i, x))} ${p.definedAt(i, x)}`);
        out.push(`${u.branchVariance(i)} ${l.liveBefore(i).join(',')}`);
      }
      return out.join('\n');
    };
    let compared = 0;
    for (const input of inputs) {
      const module = parsePtx(input.text).module;
      // Read as each function is analyzed, then again once every function of both contexts has been (the
      // second context in reverse order).
      const forward = new AnalysisContext(module);
      const backward = new AnalysisContext(module);
      const early = forward.functions.map((fn) => answers(forward, fn));
      for (const fn of [...backward.functions].reverse()) answers(backward, fn);
      forward.functions.forEach((fn, k) => {
        expect(answers(forward, fn), `${input.name} ${fn.name}`).toBe(early[k]);
        expect(answers(backward, backward.functions[k]!), `${input.name} ${fn.name}`).toBe(early[k]);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(300);
  }, 600_000);

  it('gives the same findings on every run', () => {
    const strip = (t: string, name: string): string => JSON.stringify(analyzeText(t, name, {}).report, (k, v: unknown) => (k === 'timings' ? undefined : v));
    const differ = inputs.filter((i) => strip(i.text, i.name) !== strip(i.text, i.name)).map((i) => i.name);
    expect(differ).toEqual([]);
  }, 600_000);
});
