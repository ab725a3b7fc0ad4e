// CFG fixtures carry their expected graph in comments; the test compares it
// with the dot output, and the dominators, post-dominators, loops,
// irreducible edges and unreachable blocks with what the builder computed.
//   // expect-cfg <fn>: entry->B0 B0->B1 ...
//   // expect-idom <fn>: B1=B0 ...          // expect-ipdom <fn>: B0=B3 ...
//   // expect-loops <fn>: B1{B1,B2} depth=1; ... | none
//   // expect-irreducible <fn>: B2->B1      // expect-unreachable <fn>: B2 B3
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/cfg/context.js';
import { cfgToDot } from '../../src/cfg/dot.js';
import { parsePtx } from '../../src/parser/parse.js';
import { listFiles } from '../helpers/corpus.js';

const name = (exit: number, id: number): string => (id === exit ? 'exit' : `B${id}`);

/** Edges as the dot text draws them: `A -> B` lines. */
function dotEdges(dot: string): string[] {
  return dot.split('\n').map((l) => l.trim()).filter((l) => l.includes(' -> ')).map((l) => l.replace(/\s*\[.*$/, '').replace(';', '').replace(' -> ', '->'));
}

for (const file of listFiles('fixtures/cfg', '.ptx')) {
  const text = readFileSync(file, 'utf8');
  const parsed = parsePtx(text);
  const ctx = new AnalysisContext(parsed.module);
  const expectations = parsed.module.comments
    .map((c) => /^\/\/ expect-([a-z]+) (\S+): (.*)$/.exec(c.text))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ what: m[1]!, fn: m[2]!, value: m[3]!.trim() }));

  describe(file, () => {
    it('parses and has expectations', () => {
      expect(parsed.errors).toEqual([]);
      expect(expectations.length).toBeGreaterThan(0);
    });
    for (const e of expectations) {
      it(`${e.what} of ${e.fn}`, () => {
        const fn = ctx.function(e.fn);
        expect(fn, `function ${e.fn}`).toBeDefined();
        const cfg = ctx.cfg(fn!);
        switch (e.what) {
          case 'cfg':
            expect(dotEdges(cfgToDot(cfg)).sort()).toEqual(e.value.split(/\s+/).sort());
            break;
          case 'idom': {
            const dom = ctx.dominators(fn!);
            const got = cfg.blocks.filter((b) => b.id !== 0 && dom.idom[b.id] !== -1).map((b) => `B${b.id}=${name(cfg.exit, dom.idom[b.id]!)}`);
            expect(got).toEqual(e.value.split(/\s+/));
            break;
          }
          case 'ipdom': {
            const pdom = ctx.postDominators(fn!);
            const got = cfg.blocks.map((b) => `B${b.id}=${name(cfg.exit, pdom.idom[b.id]!)}`);
            expect(got).toEqual(e.value.split(/\s+/));
            break;
          }
          case 'loops': {
            const loops = ctx.loops(fn!).loops.map((l) => `B${l.header}{${l.blocks.map((b) => `B${b}`).join(',')}} depth=${l.depth}`);
            expect(loops.length === 0 ? 'none' : loops.join('; ')).toBe(e.value);
            break;
          }
          case 'irreducible':
            expect(ctx.loops(fn!).irreducibleEdges.map(([a, b]) => `B${a}->B${b}`).join(' ')).toBe(e.value);
            break;
          case 'unreachable':
            expect(cfg.blocks.filter((b) => !b.reachable).map((b) => `B${b.id}`).join(' ')).toBe(e.value);
            break;
          default:
            throw new Error(`unknown expectation ${e.what}`);
        }
      });
    }
  });
}
