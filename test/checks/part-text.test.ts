// A part thread parses a text of its own for each part: the module without
// the functions the part does not need (src/checks/part-text.ts). Its tree
// must read as the whole module's does: the same nodes, offsets, lines and
// columns for the functions it keeps, and every function the part's bodies
// name kept with them.
import { describe, expect, it } from 'vitest';
import { planParts } from '../../src/checks/parallel.js';
import { checkOnePart, parsePart } from '../../src/checks/part-check.js';
import { asciiSource, partText, stringSource } from '../../src/checks/part-text.js';
import { CHECKS } from '../../src/checks/index.js';
import { OffsetMap } from '../../src/parser/offset-map.js';
import { endPosition, parsePieces, parsePtx, scanFunctionBodies } from '../../src/parser/parse.js';
import { lineStartsOf } from '../../src/parser/ranges.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';

const module = `.version 8.0
.target sm_90
.address_size 64
// a comment before the functions
.func (.param .b32 r) leaf(.param .b32 a)
{
\t.reg .b32 %r<2>;
\tld.param.b32 %r1, [a]; // inside leaf
\tst.param.b32 [r], %r1;
\tret;
}
.func target()
{
\tret;
}
.func mid()
{
\t.reg .b32 %r<2>;
\t{
\t.param .b32 x;
\t.param .b32 y;
\tst.param.b32 [x], 1;
\tcall (y), leaf, (x);
\t}
\tret;
}
.func tabled()
{
\tret;
}
.global .u64 table[1] = { tabled };
.visible .entry unrelated(.param .u64 p0, .param .u64 p1)
{
\tret;
}
.visible .entry k()
{
\t.reg .b64 %rd<2>;
\tmov.u64 %rd1, target; // the address of a function it never calls
\tcall mid, ();
\tret;
}
`;

const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
const functionNamed = (m: ReturnType<typeof parsePtx>['module'], name: string): unknown =>
  json(m.statements.find((s) => s.kind === 'Function' && s.name === name));

describe('offsets of a text of pieces', () => {
  it('map each character back, and an end to the end of its own piece', () => {
    // "abc" from offset 10, then "de" from offset 40.
    const map = new OffsetMap(Int32Array.from([0, 3]), Int32Array.from([10, 40]));
    expect([0, 1, 2, 3, 4].map((x) => map.start(x))).toEqual([10, 11, 12, 40, 41]);
    expect([0, 1, 3, 4, 5].map((x) => map.end(x))).toEqual([10, 11, 13, 41, 42]);
    // Asked out of order (the parser asks about a node's start after its end).
    expect(map.start(1)).toBe(11);
    expect(map.end(3)).toBe(13);
  });
});

describe('a part\'s text', () => {
  const bodies = scanFunctionBodies(module)!;
  const decl = (name: string): number => bodies.find((b) => b.name === name)!.decl;
  const whole = parsePtx(module).module;

  it('leaves out the functions not kept, declarations and all, and parses to the module\'s positions', () => {
    const part = partText(stringSource(module), bodies, new Set([decl('mid'), decl('leaf')]));
    expect(part.text).not.toContain('unrelated');
    expect(part.text).not.toContain('.entry k');
    const parsed = parsePieces(part.text, part.origin);
    expect(parsed.errors).toEqual([]);
    for (const name of ['mid', 'leaf']) expect(functionNamed(parsed.module, name)).toEqual(functionNamed(whole, name));
    expect(json(parsed.module.range)).toEqual(json(whole.range));
    // Comments keep their own positions: the one before the functions and the one inside leaf.
    expect(json(parsed.module.comments)).toEqual(json(whole.comments.filter((c) => !c.text.includes('address'))));
    const inLeaf = parsed.module.comments.find((c) => c.text.includes('inside leaf'))!;
    expect([inLeaf.range.line, inLeaf.range.column]).toEqual([8, 25]);
  });

  it('keeps every function the part names: its callees, transitively, one whose address it takes, one a module variable holds', () => {
    const planned = planParts(module, { chunkBytes: 1 })!;
    const parsed = parsePart(planned.work, [decl('k')])!;
    const names = parsed.module.statements.flatMap((s) => (s.kind === 'Function' ? [s.name] : []));
    expect(names).toEqual(['leaf', 'target', 'mid', 'tabled', 'k']);
    expect(parsed.analysis.functions.flatMap((fn) => fn.unresolved)).toEqual([]);
    for (const name of names) expect(functionNamed(parsed.module, name)).toEqual(functionNamed(whole, name));
  });

  it('is the same from the shared bytes of an ASCII text as from the string', async () => {
    const compiled = await compiledCorpus();
    const inputs = [{ text: module }, ...committedPtx(), ...compiled.inputs].filter((i) => Buffer.byteLength(i.text, 'utf8') === i.text.length);
    let compared = 0;
    for (const { text } of inputs) {
      const found = scanFunctionBodies(text);
      if (found === undefined || found.length < 2) continue;
      const bytes = new SharedArrayBuffer(text.length);
      Buffer.from(bytes).write(text, 'latin1');
      const table = lineStartsOf(text).table;
      const lines = new SharedArrayBuffer(table.byteLength);
      new Int32Array(lines).set(table);
      const shared = asciiSource(bytes, lines, endPosition(text));
      const keep = new Set([found[found.length - 1]!.decl]);
      const a = partText(stringSource(text), found, keep);
      const b = partText(shared, found, keep);
      expect(b.text).toBe(a.text);
      expect(json(parsePieces(b.text, b.origin).module)).toEqual(json(parsePieces(a.text, a.origin).module));
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('checks a part the same from the shared bytes as from the string', () => {
    const planned = planParts(module, { chunkBytes: 1 })!;
    const { work } = planned;
    const bytes = new SharedArrayBuffer(module.length);
    Buffer.from(bytes).write(module, 'latin1');
    const table = lineStartsOf(module).table;
    const lines = new SharedArrayBuffer(table.byteLength);
    new Int32Array(lines).set(table);
    const byId = new Map(CHECKS.map((c) => [c.meta.id as string, c]));
    const checks = work.checks.map((id) => byId.get(id)!);
    const split = work.split.map((id) => byId.get(id)!);
    for (const [i] of work.parts.entries()) {
      const fromString = checkOnePart(work, checks, split, i);
      const fromBytes = checkOnePart({ ...work, text: '' }, checks, split, i, asciiSource(bytes, lines, endPosition(module)));
      expect(json(fromBytes)).toEqual(json(fromString));
      expect(fromString.error).toBeUndefined();
    }
  });
});
