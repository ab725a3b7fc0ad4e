// Reaching definitions and def-use chains on small hand-written kernels: each
// test names the line that reads (or writes) a register and the lines whose
// writes reach it. "entry" is the register's value on entry (a parameter, or
// undefined).
import { describe, expect, it } from 'vitest';
import type * as A from '../../../src/parser/ast.js';
import type { RegisterSymbol } from '../../../src/cfg/symbols.js';
import { ENTRY, reachingDefinitionsAnalysis, type ReachingDefinitions } from '../../../src/cfg/dataflow/reaching-definitions.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

interface Kernel {
  readonly a: Analyzed;
  readonly rd: ReachingDefinitions;
  line(needle: string): number;
  /** Lines whose writes of `reg` reach its read on the needle's line ("entry" for the entry value). */
  reaching(needle: string, reg: string): (number | 'entry')[];
  /** Lines reading the value written into `reg` on the needle's line. */
  usesOf(needle: string, reg: string): number[];
}

function registerIn(a: Analyzed, ins: A.Instruction, name: string): RegisterSymbol {
  let found: RegisterSymbol | undefined;
  const visit = (e: A.Expression): void => {
    if (found !== undefined) return;
    if (e.kind === 'Name') {
      const s = a.fn.resolve(e);
      if (e.name === name && s?.kind === 'register') found = s;
    } else if (e.kind === 'Vector' || e.kind === 'Address' || e.kind === 'List') e.elements.forEach(visit);
    else if (e.kind === 'Binary') { visit(e.left); visit(e.right); }
    else if (e.kind === 'PredPair') { visit(e.first); visit(e.second); }
  };
  ins.operands.forEach(visit);
  if (found === undefined && ins.guard?.predicate === name) {
    const g = a.fn.resolveGuard(ins.guard);
    if (g?.kind === 'register') found = g;
  }
  if (found === undefined) throw new Error(`no register ${name} on line ${ins.range.line}`);
  return found;
}

function kernel(body: string, fnName?: string): Kernel {
  const text = HEADER + body;
  const a = analyze(text, fnName);
  const rd = a.ctx.get(a.fn, reachingDefinitionsAnalysis);
  const line = (needle: string): number => lineOf(text, needle);
  const lineOfIns = (i: number): number | 'entry' => (i === ENTRY ? 'entry' : a.fn.instructions[i]!.node.range.line);
  return {
    a, rd, line,
    reaching: (needle, reg) => {
      const ins = a.at(line(needle));
      return rd.reaching(ins.index, registerIn(a, ins.node, reg)).map(lineOfIns);
    },
    usesOf: (needle, reg) => {
      const ins = a.at(line(needle));
      return rd.usesOf(ins.index, registerIn(a, ins.node, reg)).map((i) => a.fn.instructions[i]!.node.range.line);
    },
  };
}

describe('straight-line code and branches', () => {
  const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, 1;                 // first write
  mov.u32 %r1, 2;                 // second write
  add.s32 %r2, %r1, 1;            // read after both
  setp.eq.u32 %p1, %r2, 3;
  @%p1 bra ELSE;
  mov.u32 %r3, 10;                // then arm
  bra.uni JOIN;
ELSE:
  mov.u32 %r3, 20;                // else arm
JOIN:
  add.s32 %r4, %r3, %r5;          // join reads
  ret;
}`);

  it('a second write kills the first: only line 10 reaches the read on line 11', () => {
    expect(k.reaching('read after both', '%r1')).toEqual([k.line('second write')]);
    expect(k.usesOf('first write', '%r1')).toEqual([]);
    expect(k.usesOf('second write', '%r1')).toEqual([k.line('read after both')]);
  });

  it('both arms of a branch reach the read at the join', () => {
    expect(k.reaching('join reads', '%r3')).toEqual([k.line('then arm'), k.line('else arm')]);
    expect(k.usesOf('then arm', '%r3')).toEqual([k.line('join reads')]);
  });

  it('a register never written is read with its entry value', () => {
    expect(k.reaching('join reads', '%r5')).toEqual(['entry']);
  });
});

describe('guarded writes and loops', () => {
  const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;                 // before
  setp.gt.u32 %p1, %r1, 4;
  @%p1 mov.u32 %r2, 1;            // guarded
  add.s32 %r3, %r2, 1;            // after guard
  mov.u32 %r4, 0;                 // init
LOOP:
  add.s32 %r4, %r4, 1;            // increment
  setp.lt.u32 %p2, %r4, %r1;
  @%p2 bra LOOP;
  add.s32 %r5, %r4, 2;            // after loop
  ret;
}`);

  it('a guarded write does not kill: the old value may survive in threads where the guard is false', () => {
    expect(k.reaching('after guard', '%r2')).toEqual([k.line('before'), k.line('guarded')]);
  });

  it('in a loop, the increment reads the initial value and its own previous result', () => {
    expect(k.reaching('increment', '%r4')).toEqual([k.line('init'), k.line('increment')]);
    expect(k.usesOf('increment', '%r4').sort((x, y) => x - y)).toEqual([k.line('increment'), k.line('increment') + 1, k.line('after loop')]);
    expect(k.reaching('after loop', '%r4')).toEqual([k.line('increment')]);
  });

  it('the guard predicate is a read of its own', () => {
    expect(k.reaching('guarded', '%p1')).toEqual([k.line('guarded') - 1]);
  });
});

describe('parameters, scopes and calls', () => {
  const text = `
.func (.reg .b32 q) g(.reg .b32 b)
{
  add.s32 q, b, 1;                // reads param
  ret;
}
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, 1;                 // outer write
  {
    .reg .b32 %r1;
    mov.u32 %r1, 2;               // inner write
    add.s32 %r2, %r1, 1;          // inner read
  }
  add.s32 %r3, %r1, 1;            // outer read
  call.uni (%r2), g, (%r3);       // call
  add.s32 %r3, %r2, 1;            // reads call result
  ret;
}`;

  it('a .func register parameter is read with its entry value (the argument)', () => {
    const k = kernel(text, 'g');
    expect(k.reaching('reads param', 'b')).toEqual(['entry']);
  });

  it('an inner-scope %r1 is a different register: each read sees its own scope\'s write', () => {
    const k = kernel(text, 'k');
    expect(k.reaching('inner read', '%r1')).toEqual([k.line('inner write')]);
    expect(k.reaching('outer read', '%r1')).toEqual([k.line('outer write')]);
  });

  it('a call\'s return list is written by the call', () => {
    const k = kernel(text, 'k');
    expect(k.reaching('reads call result', '%r2')).toEqual([k.line('call')]);
    expect(k.reaching('call', '%r3')).toEqual([k.line('outer read')]);
  });
});

describe('dense tables', () => {
  it('def-use chains are the exact inverse of reaching definitions', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
LOOP:
  add.s32 %r2, %r2, %r1;
  setp.lt.u32 %p1, %r2, 100;
  @%p1 mov.u32 %r3, %r2;
  @%p1 bra LOOP;
  add.s32 %r4, %r3, %r2;
  ret;
}`);
    const { rd } = k;
    const pairs = new Set<string>();
    for (let s = 0; s + 1 < rd.rdStart.length; s++) {
      for (let x = rd.rdStart[s]!; x < rd.rdStart[s + 1]!; x++) pairs.add(`${rd.rdDef[x]}:${s}`);
    }
    const inverse = new Set<string>();
    for (let d = 0; d < rd.definitionCount; d++) {
      for (let x = rd.duStart[d]!; x < rd.duStart[d + 1]!; x++) inverse.add(`${d}:${rd.duUse[x]}`);
    }
    expect(inverse).toEqual(pairs);
    expect(pairs.size).toBeGreaterThan(5);
  });
});
