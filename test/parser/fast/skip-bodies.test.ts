// The fast parser can leave function bodies out (`skipBodies`): a worker
// checking some functions of a large module parses it with the others' bodies
// skipped. Those functions become declarations; everything else, positions
// included, is what a full parse gives.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FunctionDecl, ModuleStatement } from '../../../src/parser/ast.js';
import { parsePtx, scanFunctionBodies } from '../../../src/parser/parse.js';
import { plainRanges } from '../../helpers/ast.js';

const text = [
  '.version 8.0',
  '.target sm_90',
  '.address_size 64',
  '// header comment',
  '.visible .func (.param .b32 r) f(.param .b32 a)',
  '{',
  '\t.reg .b32 %r<3>; // inside f',
  '\t/* a block comment',
  '\t   over lines */',
  '\tld.param.b32 %r1, [a];\r',
  '\tst.param.b32 [r], %r1;\r',
  '\tret;',
  '}',
  '.visible .entry k(.param .u64 p) // after k',
  '{',
  '\t.reg .b32 %r<3>;',
  '\tmov.u32 %r1, %tid.x;',
  '\tret;',
  '}',
  '',
].join('\n');

const fn = (stmts: readonly ModuleStatement[], name: string): FunctionDecl =>
  stmts.find((s): s is FunctionDecl => s.kind === 'Function' && s.name === name)!;

describe('leaving function bodies out', () => {
  const full = parsePtx(text);
  const f = fn(full.module.statements, 'f');
  const skipped = parsePtx(text, { skipBodies: new Map([[f.body!.range.offset, f.body!.range.endOffset]]) });

  it('parses without errors, the skipped function a declaration', () => {
    expect(full.errors).toEqual([]);
    expect(skipped.errors).toEqual([]);
    const g = fn(skipped.module.statements, 'f');
    expect(g.body).toBeNull();
    expect(plainRanges(g.params)).toEqual(plainRanges(f.params));
    expect(g.range.offset).toBe(f.range.offset);
    expect(g.range.endOffset).toBe(f.range.endOffset);
  });

  it('gives every other statement its full-parse tree and positions', () => {
    expect(plainRanges(fn(skipped.module.statements, 'k'))).toEqual(plainRanges(fn(full.module.statements, 'k')));
    expect(skipped.module.statements.length).toBe(full.module.statements.length);
  });

  it('drops the comments inside the skipped body and keeps the others where they are', () => {
    const texts = (cs: readonly { text: string; range: unknown }[]) => cs.map((c) => [c.text, plainRanges(c.range)]);
    const outside = full.module.comments.filter((c) => c.range.offset < f.body!.range.offset || c.range.offset >= f.body!.range.endOffset);
    expect(texts(skipped.module.comments)).toEqual(texts(outside));
    expect(skipped.module.comments.map((c) => c.range.line)).toEqual([4, 14]);
  });

  it('leaves everything when nothing is to be skipped', () => {
    expect(plainRanges(parsePtx(text, { skipBodies: new Map() }).module)).toEqual(plainRanges(full.module));
  });

  it('gives the ranges of every parse of one text one class (a part thread parses its text once per part)', () => {
    // A class per parse gave each part's ranges a new hidden class: the code reading them was compiled
    // again part after part, and the text's line starts were computed again each time.
    const again = parsePtx(text, { skipBodies: new Map([[f.body!.range.offset, f.body!.range.endOffset]]) });
    const k = fn(full.module.statements, 'k');
    const k2 = fn(again.module.statements, 'k');
    expect(Object.getPrototypeOf(k2.range)).toBe(Object.getPrototypeOf(k.range));
    expect([k2.range.line, k2.range.column, k2.range.endLine]).toEqual([k.range.line, k.range.column, k.range.endLine]);
    const other = parsePtx(text.replace('sm_90', 'sm_80'));
    expect(fn(other.module.statements, 'k').range.line).toBe(k.range.line);
    expect(Object.getPrototypeOf(k.range).constructor.name).toBe('CompactRange');
  });

  // (After the test above: another text's parse makes the ranges a class of its own.)
  it.each([['\\r\\n', '\r\n'], ['\\r', '\r']])('keeps the positions after a skipped body with %s line ends', (_, eol) => {
    const other = text.replaceAll('\r', '').replaceAll('\n', eol);
    const whole = parsePtx(other);
    const g = fn(whole.module.statements, 'f');
    const part = parsePtx(other, { skipBodies: new Map([[g.body!.range.offset, g.body!.range.endOffset]]) });
    expect(part.errors).toEqual([]);
    expect(plainRanges(fn(part.module.statements, 'k'))).toEqual(plainRanges(fn(whole.module.statements, 'k')));
    expect(part.module.comments.map((c) => c.range.line)).toEqual([4, 14]);
  });
});

// The part threads get their parts before the module is parsed: its function bodies are found by parsing
// the declarations and matching each body's braces (`scanFunctionBodies`). That must find exactly the
// bodies a full parse finds, wherever braces stand in comments, strings and vector operands.
describe('finding the function bodies without parsing them', () => {
  const bodiesOf = (t: string) => parsePtx(t).module.statements
    .filter((s): s is FunctionDecl => s.kind === 'Function' && s.body !== null)
    .map((s) => ({ name: s.name, decl: s.range.offset, open: s.body!.range.offset, close: s.body!.range.endOffset }));

  it('finds the bodies, declarations and names a full parse finds', () => {
    expect(scanFunctionBodies(text)).toEqual(bodiesOf(text));
    expect(scanFunctionBodies(text)!.map((b) => b.name)).toEqual(['f', 'k']);
  });

  it('counts no brace in a comment or a string, and the braces of vector operands and nested blocks', () => {
    const tricky = [
      '.version 8.0', '.target sm_90', '.address_size 64',
      '.visible .entry k()',
      '{ // } a closing brace in a comment',
      '\t.reg .b32 %r<5>;',
      '\t/* { an opening one */',
      '\t.pragma "nounroll";',
      '\t{',
      '\t\t.reg .b32 %t;',
      '\t\tmov.b64 {%r1, %r2}, 0;',
      '\t}',
      '\tret;',
      '}',
      '.visible .entry j() { ret; }',
      '',
    ].join('\n');
    expect(parsePtx(tricky).errors).toEqual([]);
    const found = scanFunctionBodies(tricky)!;
    expect(found).toEqual(bodiesOf(tricky));
    expect(found.map((b) => b.name)).toEqual(['k', 'j']);
  });

  it('gives up on a body that does not end (the full parse reports it)', () => {
    const open = text.slice(0, text.lastIndexOf('}'));
    expect(scanFunctionBodies(open)).toBeUndefined();
    expect(parsePtx(open).errors.length).toBeGreaterThan(0);
    expect(scanFunctionBodies(`${text.slice(0, text.indexOf('/* a block'))}/* never closed`)).toBeUndefined();
  });

  it('agrees with the full parse on every PTX fixture that parses', () => {
    const files = [...walk('fixtures'), ...walk('examples')].filter((f) => f.endsWith('.ptx'));
    expect(files.length).toBeGreaterThan(100);
    let compared = 0;
    for (const f of files) {
      const t = readFileSync(f, 'utf8');
      if (parsePtx(t).errors.length > 0) continue;
      const found = scanFunctionBodies(t);
      // (The fast parser leaves a few constructs to the reference parser: no scan then, and no early parts.)
      if (found === undefined) continue;
      expect(found, f).toEqual(bodiesOf(t));
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else yield p;
  }
}
