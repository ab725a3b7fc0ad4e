// What stands on a finding's line goes into its fingerprint (src/checks/fingerprint.ts). A one-thread run
// reads it from the functions' instruction lists (`instructionsOnLinesOf`), a threaded run from an index
// kept after the tree is let go (`instructionsOnLines`): both must give the first instruction's opcode and
// modifiers on every wanted line that has one, and nothing for the others.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fingerprints, instructionIndex, instructionsOnLines, instructionsOnLinesOf, joinIndexes } from '../../src/checks/fingerprint.js';
import { buildModuleModel } from '../../src/cfg/symbols.js';
import { parsePtx } from '../../src/parser/parse.js';

const sorted = (m: ReadonlyMap<number, string>): [number, string][] => [...m].sort((a, b) => a[0] - b[0]);

describe('what stands on a finding\'s line', () => {
  const text = [
    '.version 8.0', '.target sm_90', '.address_size 64',
    '.visible .entry k(.param .u64 p)',
    '{',
    '\t.reg .b32 %r<4>; .reg .b64 %rd<3>;',
    '\tld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1;',
    '\t{',
    '\t\tmov.u32 %r1, %tid.x;',
    '\t}',
    '\t@%r1 bra DONE;',
    'DONE:',
    '\tst.global.u32 [%rd2], %r1;',
    '\tret;',
    '}',
    '.visible .entry j() { mov.u32 %r1, 1; ret; }',
    '',
  ].join('\n');
  const { module } = parsePtx(text);

  it('is the first instruction on the line, in a nested block too, and nothing where none stands', () => {
    const wanted = new Set([1, 6, 7, 9, 11, 12, 13, 15, 16, 17, 99]);
    const got = instructionsOnLinesOf(buildModuleModel(module).functions, text, wanted);
    expect(sorted(got)).toEqual([[7, 'ld.param.u64'], [9, 'mov.u32'], [11, 'bra'], [13, 'st.global.u32'], [16, 'mov.u32']]);
    expect(sorted(instructionsOnLines(instructionIndex(buildModuleModel(module).functions), text, wanted))).toEqual(sorted(got));
  });

  it('is the same from the instruction lists and from the index on a real module, for any lines', () => {
    const big = readFileSync('fixtures/corpus/llvm/ptx/recursion_local.sm_80.ptx', 'utf8');
    const m = parsePtx(big).module;
    const count = big.split('\n').length;
    const wanted = new Set(Array.from({ length: count + 2 }, (_, i) => i + 1).filter((l) => l % 3 !== 1));
    const functions = buildModuleModel(m).functions;
    const fromTree = instructionsOnLinesOf(functions, big, wanted);
    expect(fromTree.size).toBeGreaterThan(10);
    expect(sorted(instructionsOnLines(instructionIndex(functions), big, wanted))).toEqual(sorted(fromTree));
    // Joined from the indexes of parts (as part threads send them): the same.
    expect(functions.length).toBeGreaterThan(1);
    const pieces = functions.map((fn) => instructionIndex([fn]));
    expect(sorted(instructionsOnLines(joinIndexes(pieces), big, wanted))).toEqual(sorted(fromTree));
  });
});

describe('fingerprints made beforehand', () => {
  const text = ['.version 8.0', '.target sm_90', 'mov.u32 %r1, 1;', 'mov.u32 %r1, 1;', 'add.s32 %r2, %r1, 1;', ''].join('\n');
  const lines = (): ReadonlyMap<number, string> => new Map([[3, 'mov.u32'], [4, 'mov.u32'], [5, 'add.s32']]);
  const at = (line: number, fn?: string): { location: { line: number; column: number; endLine: number; endColumn: number }; function?: string } =>
    ({ location: { line, column: 1, endLine: line, endColumn: 2 }, ...(fn !== undefined ? { function: fn } : {}) });
  // Repeats of one key (lines 3 and 4 hold the same instruction) are told apart by their count.
  const findings = [at(3, 'f'), at(4, 'f'), at(5, 'g'), at(3), at(4)];
  const all = fingerprints('x.ptx', lines, text, 'F001', findings);

  it('are taken for a function whose findings all have one, and the others made with their own repeat counts', () => {
    expect(new Set(all).size).toBe(all.length);
    const known = new Map([[findings[0]!, 'early-f-1'], [findings[1]!, 'early-f-2']]);
    expect(fingerprints('x.ptx', lines, text, 'F001', findings, undefined, (f) => known.get(f))).toEqual(['early-f-1', 'early-f-2', ...all.slice(2)]);
  });

  it('are all made again when a function has findings with and without one', () => {
    const known = new Map([[findings[0]!, 'early-f-1']]);
    expect(fingerprints('x.ptx', lines, text, 'F001', findings, undefined, (f) => known.get(f))).toEqual(all);
  });
});
