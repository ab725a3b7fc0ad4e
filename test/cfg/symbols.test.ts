// The semantic model's name resolution, read like facts: which declaration a
// name at a given line denotes, in a body of one scope (resolved per name) and
// in a body with nested `{ }` scopes (per name too, but per occurrence where a
// nested scope declares the name: shadowing kept).
import { describe, expect, it } from 'vitest';
import type * as A from '../../src/parser/ast.js';
import { effects, forgetEffects } from '../../src/cfg/dataflow/effects.js';
import { OP_BRA, opcodeId, opcodeName } from '../../src/cfg/opcodes.js';
import { OperandKind } from '../../src/cfg/operand-kinds.js';
import { buildModuleModel, type EffectTable, type FunctionModel } from '../../src/cfg/symbols.js';
import { parsePtx } from '../../src/parser/parse.js';

/** Operand kinds (src/cfg/operand-kinds.ts) by number, as words. */
const KIND_NAMES: Record<number, string> = {
  [OperandKind.Register]: 'register', [OperandKind.Variable]: 'variable', [OperandKind.Sreg]: 'sreg', [OperandKind.OtherName]: 'name', [OperandKind.Int]: 'int',
  [OperandKind.Float]: 'float', [OperandKind.Address]: 'address', [OperandKind.Vector]: 'vector', [OperandKind.List]: 'list', [OperandKind.PredPair]: 'pair',
  [OperandKind.Binary]: 'binary', [OperandKind.Unary]: 'unary', [OperandKind.Other]: 'other',
};

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

function model(body: string): FunctionModel {
  const r = parsePtx(HEADER + body);
  expect(r.errors).toEqual([]);
  return buildModuleModel(r.module).functions[0]!;
}

/** The names of the instruction on 1-based line `line` (operands, in order). */
function namesOn(fn: FunctionModel, line: number): A.NameExpr[] {
  const ins = fn.instructions.find((i) => i.node.range.line === line);
  if (ins === undefined) throw new Error(`no instruction on line ${line}`);
  const out: A.NameExpr[] = [];
  const walk = (e: A.Expression): void => {
    if (e.kind === 'Name') out.push(e);
    else if (e.kind === 'Vector' || e.kind === 'Address' || e.kind === 'List') e.elements.forEach(walk);
    else if (e.kind === 'Binary') { walk(e.left); walk(e.right); }
  };
  ins.node.operands.forEach(walk);
  return out;
}

describe('a body of one scope', () => {
  // Lines: 4 .entry, 5 {, 6 .reg r, 7 .reg p, 8 mov, 9 setp, 10 @p add, 11 add undeclared, 12 bra, 13 L:, 14 ret
  const fn = model(`.entry k()
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 add.u32 %r2, %r1, 1;
  add.u32 %r3, %r1, %nothere;
  bra L;
L:
  ret;
}
`);

  it('every occurrence of %r1 (lines 8 to 11) is one register, numbered in order of first use', () => {
    const uses = [namesOn(fn, 8)[0]!, namesOn(fn, 9)[1]!, namesOn(fn, 10)[1]!, namesOn(fn, 11)[1]!];
    const syms = uses.map((n) => fn.resolve(n));
    expect(syms.every((s) => s === syms[0])).toBe(true);
    expect(syms[0]).toMatchObject({ kind: 'register', name: '%r1', type: '.b32', id: 0 });
    expect(fn.resolve(namesOn(fn, 9)[0]!)).toMatchObject({ kind: 'register', name: '%p1', type: '.pred', id: 1 });
  });

  it('the guard @%p1 on line 10 is the %p1 that line 9 writes', () => {
    const ins = fn.instructions.find((i) => i.node.range.line === 10)!;
    expect(fn.resolveGuard(ins.node.guard!)).toBe(fn.resolve(namesOn(fn, 9)[0]!));
  });

  it('%tid is a special register, L a label; %nothere on line 11 is unresolved, and listed once', () => {
    expect(fn.resolve(namesOn(fn, 8)[1]!)).toMatchObject({ kind: 'sreg', name: '%tid' });
    expect(fn.resolve(namesOn(fn, 12)[0]!)).toMatchObject({ kind: 'label', name: 'L' });
    const missing = namesOn(fn, 11)[2]!;
    expect(fn.resolve(missing)).toBeUndefined();
    expect(fn.unresolved.map((u) => [u.name.name, u.instruction.node.range.line])).toEqual([['%nothere', 11]]);
  });
});

describe('a body with a nested scope', () => {
  // Lines: 6 .reg outer, 7 mov outer, 8 {, 9 .reg inner, 10 mov inner, 11 }, 12 add after
  const fn = model(`.entry k()
{
  .reg .b32 %r1;
  mov.u32 %r1, 1;
  {
    .reg .b32 %r1;
    mov.u32 %r1, 2;
  }
  add.u32 %r1, %r1, 3;
  ret;
}
`);

  it('the inner %r1 (line 10) shadows the outer one; lines 7 and 12 see the outer', () => {
    const outer = fn.resolve(namesOn(fn, 7)[0]!);
    const inner = fn.resolve(namesOn(fn, 10)[0]!);
    expect(outer).toMatchObject({ kind: 'register', name: '%r1' });
    expect(inner).toMatchObject({ kind: 'register', name: '%r1' });
    expect(inner).not.toBe(outer);
    expect(namesOn(fn, 12).map((n) => fn.resolve(n))).toEqual([outer, outer]);
  });
});

describe('a nested scope that declares some names and not others', () => {
  // Lines: 6-7 .reg outer, 8 setp outer %p1, 9 {, 10 .reg inner %r<2>, 11 .reg inner %p1,
  // 12 mov inner %r1 from outer %r5, 13 setp inner %p1, 14 @%p1 add: inner %r1, 15 }, 16 @%p1 mov, 17 ret
  const fn = model(`.entry k()
{
  .reg .b32 %r<8>;
  .reg .pred %p<2>;
  setp.lt.u32 %p1, %r5, 4;
  {
    .reg .b32 %r<2>;
    .reg .pred %p1;
    mov.u32 %r1, %r5;
    setp.eq.u32 %p1, %r1, 0;
    @%p1 add.u32 %r1, %r1, 1;
  }
  @%p1 mov.u32 %r1, %r5;
  ret;
}
`);
  const guardOn = (line: number): A.Guard => fn.instructions.find((i) => i.node.range.line === line)!.node.guard!;

  it('%r5 inside the block (line 12) is the outer %r5: the inner %r<2> does not reach 5', () => {
    expect(fn.resolve(namesOn(fn, 12)[1]!)).toBe(fn.resolve(namesOn(fn, 8)[1]!));
  });

  it('%r1 inside the block is the inner range\'s, outside (line 16) the outer one\'s', () => {
    const inner = fn.resolve(namesOn(fn, 12)[0]!);
    const outer = fn.resolve(namesOn(fn, 16)[0]!);
    expect(inner).toMatchObject({ kind: 'register', name: '%r1' });
    expect(outer).toMatchObject({ kind: 'register', name: '%r1' });
    expect(inner).not.toBe(outer);
    expect(namesOn(fn, 14).map((n) => fn.resolve(n))).toEqual([inner, inner]);
  });

  it('the guard @%p1 on line 14 is the inner %p1 (line 13); on line 16 the outer one (line 8)', () => {
    expect(fn.resolveGuard(guardOn(14))).toBe(fn.resolve(namesOn(fn, 13)[0]!));
    expect(fn.resolveGuard(guardOn(16))).toBe(fn.resolve(namesOn(fn, 8)[0]!));
    expect(fn.resolveGuard(guardOn(14))).not.toBe(fn.resolveGuard(guardOn(16)));
  });
});

describe('a declaration after a nested scope', () => {
  // Lines: 6 .reg a, 7 {, 8 .reg b, 9 mov b, 10 }, 11 .reg c, 12 mov a, 13 mov c, 14 ret
  const fn = model(`.entry k()
{
  .reg .b32 a;
  {
    .reg .b32 b;
    mov.b32 b, 1;
  }
  .reg .b32 c;
  mov.b32 a, 2;
  mov.b32 c, 3;
  ret;
}
`);

  it('c (line 11) is declared in the outer scope before the block is walked: registers a, c, b in that order', () => {
    const [a, b, c] = [namesOn(fn, 12)[0]!, namesOn(fn, 9)[0]!, namesOn(fn, 13)[0]!].map((n) => fn.resolve(n));
    expect(a).toMatchObject({ kind: 'register', name: 'a', id: 0 });
    expect(c).toMatchObject({ kind: 'register', name: 'c', id: 1 });
    expect(b).toMatchObject({ kind: 'register', name: 'b', id: 2 });
    expect(fn.scope.registers.has('c')).toBe(true);
    expect(fn.scope.registers.has('b')).toBe(false);
  });

  it('a scope that declares no variable and no label shares one empty table for them', () => {
    const inner = fn.instructions.find((i) => i.node.range.line === 9)!.scope;
    expect(inner).not.toBe(fn.scope);
    expect(inner.variables.size).toBe(0);
    expect(inner.variables).toBe(fn.scope.variables);
    expect(inner.registers.get('b')).toBe(fn.resolve(namesOn(fn, 9)[0]!));
  });
});

describe('the registers each instruction writes and reads, listed by the model as it resolves names', () => {
  const fn = model(`.func (.reg .b32 x) g (.reg .b32 y);
.entry k(.param .u64 p) {
  .reg .b32 %r<6>;
  .reg .pred %p<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 add.u32 %r2, %r3, %r4;
  st.global.u32 [%rd1+4], %r2;
  ld.global.v2.u32 {%r3, %r4}, [%rd1];
  call (%r5), g, (%r1);
  ret;
}
`);
  const on = (line: number): string => {
    const i = fn.instructions.find((x) => x.node.range.line === line)!;
    const e = effects(fn, i);
    return `${e.defs.map((r) => r.name).join(' ')} <- ${e.uses.map((r) => r.name).join(' ')}`;
  };
  const expected: Record<number, string> = {
    9: '%rd1 <- ', 10: '%p1 <- %r1', 11: '%r2 <- %p1 %r3 %r4', 12: ' <- %rd1 %r2', 13: '%r3 %r4 <- %rd1', 14: '%r5 <- %r1', 15: ' <- ',
  };

  it('the guard first among the uses (line 11), no destination for st (line 12), a vector destination (line 13), a call\'s return list (line 14)', () => {
    for (const [line, want] of Object.entries(expected)) expect(on(Number(line)), `line ${line}`).toBe(want);
  });

  it('keeps them by register id in the function\'s effect table, the same lists, and a register guard flagged (line 11)', () => {
    const t = fn.effectTable;
    const names = (ids: Int32Array, from: number, to: number): string => [...ids.subarray(from, to)].map((id) => fn.registers[id]!.name).join(' ');
    for (const [line, want] of Object.entries(expected)) {
      const i = fn.instructions.find((x) => x.node.range.line === Number(line))!.index;
      const got = `${names(t.defIds, t.defStart[i]!, t.defStart[i + 1]!)} <- ${names(t.useIds, t.useStart[i]!, t.useStart[i + 1]!)}`;
      expect(got, `line ${line}`).toBe(want);
      expect(t.guarded[i], `line ${line}`).toBe(Number(line) === 11 ? 2 : 0);
    }
  });

  it('flags a guard that names no register apart (it is not among the uses)', () => {
    const g = model(`.entry k() {
  .reg .b32 %r<3>;
  @nosuch add.u32 %r1, %r2, 1;
}
`);
    const t = g.effectTable;
    expect(t.guarded[0]).toBe(1);
    expect([...t.useIds.subarray(t.useStart[0]!, t.useStart[1]!)].map((id) => g.registers[id]!.name)).toEqual(['%r2']);
  });

  it('lists the same registers when effects() computes them again after they were dropped', () => {
    forgetEffects(fn);
    for (const [line, want] of Object.entries(expected)) expect(on(Number(line)), `line ${line}`).toBe(want);
  });
});

describe('the operand table: each operand\'s first name, as a register id', () => {
  const fn = model(`.shared .align 4 .b8 smem[64];
.entry k(.param .u64 p) {
  .reg .b32 %r<6>;
  .reg .pred %p<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  add.s32 %r1, %r2, 4;
  ld.global.u32 %r3, [%rd1+8];
  st.shared.u32 [smem+4], %r3;
  mov.u32 %r4, %tid.x;
  @%p1 bra $L;
  ld.global.v2.u32 {%r4, %r5}, [%rd1];
  mov.u32 %r5, _;
$L:
  ret;
}
`);
  /** Each operand of the instruction on `line`, as `word` writes its position in the operand table. */
  const perOperand = (line: number, word: (t: EffectTable, k: number) => string): string => {
    const i = fn.instructions.find((x) => x.node.range.line === line)!.index;
    const t = fn.effectTable;
    const out: string[] = [];
    for (let k = t.operandStart[i]!; k < t.operandStart[i + 1]!; k++) out.push(word(t, k));
    return out.join(' ');
  };
  /** Each operand of the instruction on `line`: its first name's register, or "-". */
  const table = (line: number): string =>
    perOperand(line, (t, k) => (t.operandRegister[k]! < 0 ? '-' : fn.registers[t.operandRegister[k]!]!.name));

  it('a register operand is its register; an address with a register base (line 11) its base; a parameter (line 9), a variable base (line 12), %tid.x (line 13), a label (line 14) and the sink `_` (line 16) are none', () => {
    expect(table(9)).toBe('%rd1 -');
    expect(table(10)).toBe('%r1 %r2 -');
    expect(table(11)).toBe('%r3 %rd1');
    expect(table(12)).toBe('- %r3');
    expect(table(13)).toBe('%r4 -');
    expect(table(14)).toBe('-');
    expect(table(15)).toBe('%r4 %rd1');
    expect(table(16)).toBe('%r5 -');
  });

  it('numbers each instruction\'s opcode (the same number for the same opcode, its name given back)', () => {
    const t = fn.effectTable;
    fn.instructions.forEach((ins, i) => expect(opcodeName(t.opcode[i]!), `instruction ${i}`).toBe(ins.node.opcode));
    expect(t.opcode[0]).toBe(t.opcode[2]);
    expect(t.opcode[0]).toBe(opcodeId('ld'));
    expect(t.opcode[5]).toBe(OP_BRA);
  });

  it('counts every operand of the body: the last start is the total', () => {
    const t = fn.effectTable;
    const total = fn.instructions.reduce((n, i) => n + i.node.operands.length, 0);
    expect(t.operandStart[fn.instructions.length]).toBe(total);
    expect(t.operandRegister.length).toBe(total);
    expect(t.operandKind.length).toBe(total);
  });

  /** What each operand of the instruction on `line` is, by the model's kind table. */
  const kinds = (line: number): string => perOperand(line, (t, k) => KIND_NAMES[t.operandKind[k]!]!);

  it('records what each operand is: a register, a variable, a special register, another name (a label, `_`), an immediate, an address, a vector', () => {
    expect(kinds(9)).toBe('register address');
    expect(kinds(10)).toBe('register register int');
    expect(kinds(12)).toBe('address register');
    expect(kinds(13)).toBe('register sreg');
    expect(kinds(14)).toBe('name');
    expect(kinds(15)).toBe('vector address');
    expect(kinds(16)).toBe('register name');
  });

  it('tells a parameter, a module variable, an undeclared name (%rd9), a float, a negative immediate and a sum apart', () => {
    const g = model(`.global .align 4 .b8 gv[4];
.entry k(.param .u32 p) {
  .reg .b32 %r<3>;
  .reg .f32 %f<2>;
  mov.u32 %r1, p;
  mov.u64 %rd9, gv;
  mov.f32 %f1, 0f3F800000;
  add.s32 %r2, %r1, -1;
  mov.u32 %r2, gv+4;
  ret;
}
`);
    const t = g.effectTable;
    const all: string[] = [];
    for (let k = 0; k < t.operandKind.length; k++) all.push(KIND_NAMES[t.operandKind[k]!]!);
    expect(all.join(' ')).toBe('register variable name variable register float register register unary register binary');
  });
});

describe('a function\'s body, walked on first use', () => {
  it('resolves a name to a module variable declared after the function, and a call to a function defined after it', () => {
    const r = parsePtx(`${HEADER}.func f() {
  .reg .b64 %rd<2>;
  mov.u64 %rd1, later;
  call g;
  ret;
}
.global .align 4 .b8 later[4];
.func g() {
  ret;
}
`);
    expect(r.errors).toEqual([]);
    const fn = buildModuleModel(r.module).functions[0]!;
    const [, v] = fn.instructions[0]!.node.operands as A.NameExpr[];
    expect(fn.resolve(v!)?.kind).toBe('variable');
    expect(fn.resolve(fn.instructions[1]!.node.operands[0] as A.NameExpr)?.kind).toBe('function');
    expect(fn.unresolved).toEqual([]);
  });

  it('gives the same registers, ids and tables on every request (the walk happens once)', () => {
    const r = parsePtx(`${HEADER}.entry k() {
  .reg .b32 %r<3>;
  add.u32 %r1, %r2, 1;
}
`);
    const fn = buildModuleModel(r.module).functions[0]!;
    expect(fn.registers).toBe(fn.registers);
    expect(fn.effectTable).toBe(fn.effectTable);
    expect(fn.instructions).toBe(fn.instructions);
    expect(fn.registers.map((x) => `${x.name}#${x.id}`)).toEqual(['%r1#0', '%r2#1']);
  });
});

describe('registers of `%r<N>` ranges, found from the name\'s characters', () => {
  // Lines: 4 .entry, 5 {, 6 .reg r, 7 .reg rd, 8 .reg b, 9 mov, 10 add, 11 mov, 12 mov, 13 mov, 14 ret
  const fn = model(`.entry k()
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<3>;
  .reg .b32 %b<2>;
  mov.u32 %r11, 7;
  add.u32 %r10, %r11, %r11;
  mov.b64 %rd2, %rd02;
  mov.u32 %r12, %r0123456789;
  mov.u32 %b1, %r;
  ret;
}
`);

  it('%r11 on lines 9 and 10 is one register; %r10 (line 10) the next one made; %rd2 (line 11) of the other prefix', () => {
    const [r11, r10, r11b, r11c] = [namesOn(fn, 9)[0]!, ...namesOn(fn, 10)].map((n) => fn.resolve(n));
    expect(r11).toMatchObject({ kind: 'register', name: '%r11', type: '.b32', id: 0 });
    expect(r10).toMatchObject({ kind: 'register', name: '%r10', id: 1 });
    expect(r11b).toBe(r11);
    expect(r11c).toBe(r11);
    expect(fn.resolve(namesOn(fn, 11)[0]!)).toMatchObject({ kind: 'register', name: '%rd2', type: '.b64', id: 2 });
  });

  it('a leading zero (%rd02, line 11), a number past the count (%r12, line 12), ten digits and a bare prefix (lines 12, 13) are no range\'s', () => {
    expect(fn.resolve(namesOn(fn, 11)[1]!)).toBeUndefined();
    expect(fn.resolve(namesOn(fn, 12)[0]!)).toBeUndefined();
    expect(fn.resolve(namesOn(fn, 12)[1]!)).toBeUndefined();
    expect(fn.resolve(namesOn(fn, 13)[1]!)).toBeUndefined();
    expect(fn.unresolved.map((u) => u.name.name)).toEqual(['%rd02', '%r12', '%r0123456789', '%r']);
    expect(fn.resolve(namesOn(fn, 13)[0]!)).toMatchObject({ name: '%b1', type: '.b32' });
  });

  it('a register declared by a name a range also covers is found first, by its declaration', () => {
    const g = model(`.func g(.reg .b64 %r3)
{
  .reg .b32 %r<8>;
  mov.b64 %r3, 0;
  mov.u32 %r4, 1;
  ret;
}
`);
    expect(g.resolve(namesOn(g, 7)[0]!)).toMatchObject({ name: '%r3', type: '.b64', isParam: true });
    expect(g.resolve(namesOn(g, 8)[0]!)).toMatchObject({ name: '%r4', type: '.b32', isParam: false });
  });

  it('a register far past a small body\'s room (%r65535 of %r<65536>) is still found, and is one register', () => {
    const g = model(`.entry k()
{
  .reg .b32 %r<65536>;
  mov.u32 %r65535, 1;
  add.u32 %r2, %r65535, %r65535;
  ret;
}
`);
    const [a, b, c] = [namesOn(g, 7)[0]!, namesOn(g, 8)[1]!, namesOn(g, 8)[2]!].map((n) => g.resolve(n));
    expect(a).toMatchObject({ name: '%r65535', id: 0 });
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(g.resolve(namesOn(g, 8)[0]!)).toMatchObject({ name: '%r2', id: 1 });
  });

  it('thousands of small functions declaring %r<65536> each take room for what their bodies can name, not 512 kB each', () => {
    const fns = Array.from({ length: 2000 }, (_x, k) => `.func f${k}()\n{\n  .reg .b32 %r<65536>;\n  mov.u32 %r1, ${k};\n  ret;\n}\n`).join('');
    const r = parsePtx(HEADER + fns);
    expect(r.errors).toEqual([]);
    const before = process.memoryUsage().heapUsed;
    const m = buildModuleModel(r.module);
    const grown = process.memoryUsage().heapUsed - before;
    expect(m.functions).toHaveLength(2000);
    expect(m.functions[1999]!.registers.map((x) => x.name)).toEqual(['%r1']);
    // At full length the lists alone would be 2000 × 65536 × 8 bytes, about 1 GB.
    expect(grown).toBeLessThan(200 * 2 ** 20);
  });
});

