// The grammar, construct by construct: each case is PTX and the tree (or the
// part of it) it must give, with exact source positions where they matter.
import { describe, expect, it } from 'vitest';
import { parsePtx } from '../../src/parser/parse.js';
import type * as A from '../../src/parser/ast.js';
import { stripRanges } from '../helpers/ast.js';

const HEADER = '.version 8.5\n.target sm_90a\n.address_size 64\n';

function body(stmts: string): A.Statement[] {
  const r = parsePtx(`${HEADER}.entry k()\n{\n${stmts}\n}\n`);
  expect(r.errors).toEqual([]);
  const f = r.module.statements.find((s): s is A.FunctionDecl => s.kind === 'Function');
  return [...(f?.body?.statements ?? [])];
}

function instr(text: string): A.Instruction {
  const s = body(text)[0];
  expect(s?.kind).toBe('Instruction');
  return s as A.Instruction;
}

function operands(text: string): unknown {
  return stripRanges(instr(text).operands);
}

describe('module directives', () => {
  it('reads .version, .target with suffixes and options, .address_size', () => {
    const r = parsePtx('.version 9.0\n.target sm_110f, texmode_independent, debug\n.address_size 64\n');
    expect(r.errors).toEqual([]);
    expect(stripRanges(r.module.statements)).toEqual([
      { kind: 'Version', major: 9, minor: 0 },
      { kind: 'Target', targets: ['sm_110f', 'texmode_independent', 'debug'] },
      { kind: 'AddressSize', size: 64 },
    ]);
  });

  it('reads .file with timestamp and size, .pragma, .alias, @@DWARF and debug sections', () => {
    const r = parsePtx(`${HEADER}.file 1 "/src/k.cu", 1700000000, 1234\n.pragma "nounroll";\n.func f() {ret;}\n.alias g, f;\n` +
      '@@DWARF .byte 0x01, 0x02\n.section .debug_info\n{\n$L__info:\n.b32 .debug_abbrev\n.b8 1, 2 // c\n.b64 $L__func_begin0+4\n}\n');
    expect(r.errors).toEqual([]);
    const kinds = r.module.statements.map((s) => s.kind);
    expect(kinds).toEqual(['Version', 'Target', 'AddressSize', 'File', 'Pragma', 'Function', 'Alias', 'Dwarf', 'Section']);
    expect(stripRanges(r.module.statements[3])).toEqual({ kind: 'File', index: 1, path: '/src/k.cu', timestamp: 1700000000, size: 1234 });
    const section = r.module.statements[8] as A.SectionDirective;
    expect(section.items.map((i) => i.kind)).toEqual(['SectionLabel', 'SectionData', 'SectionData', 'SectionData']);
    expect(stripRanges(section.items[1])).toEqual({ kind: 'SectionData', type: '.b32', values: [{ kind: 'SectionRef', name: '.debug_abbrev' }] });
  });

  it('reads linkage, prototypes, return parameters and performance directives', () => {
    const r = parsePtx(`${HEADER}.extern .func (.param .b32 func_retval0) vprintf (.param .b64 a, .param .b64 b);\n` +
      '.weak .func (.reg .b32 r) w (.reg .b32 x) .noreturn { ret; }\n' +
      '.visible .entry k (.param .u64 .ptr .global .align 16 p) .maxntid 128, 1, 1 .minnctapersm 2 .maxnreg 64 .explicitcluster .reqnctapercluster 2, 1, 1 { ret; }\n');
    expect(r.errors).toEqual([]);
    const [proto, weak, entry] = r.module.statements.slice(3) as A.FunctionDecl[];
    expect(proto).toMatchObject({ linkage: ['.extern'], isEntry: false, name: 'vprintf', body: null });
    expect(proto!.returns?.[0]?.declarators[0]?.name).toBe('func_retval0');
    expect(weak!.directives.map((d) => d.name)).toEqual(['.noreturn']);
    expect(weak!.params[0]?.space).toBe('.reg');
    expect(entry!.params[0]?.qualifiers.map((q) => q.name)).toEqual(['.u64', '.ptr', '.global', '.align']);
    expect(entry!.directives.map((d) => [d.name, d.args])).toEqual([
      ['.maxntid', [128, 1, 1]], ['.minnctapersm', [2]], ['.maxnreg', [64]], ['.explicitcluster', []], ['.reqnctapercluster', [2, 1, 1]],
    ]);
    expect(entry!.nameRange).toMatchObject({ line: 6, column: 17 });
  });

  it('reads variables in every state space with alignment, vectors, arrays and initializers', () => {
    const r = parsePtx(`${HEADER}.global .align 4 .b8 tbl[2][3] = {{1, 2, 3}, {4, 5, 6}};\n.const .v4 .f32 c = {0f3F800000, 1.5, -2.0, 0d3FF0000000000000};\n` +
      '.global .u64 p = generic(tbl)+8;\n.global .s64 q = (.s64)(1 << 4) * -3;\n.extern .shared .align 16 .b8 dyn[];\n.global .attribute(.managed) .u32 m;\n' +
      '.global .samplerref s = { filter_mode = linear, addr_mode_0 = clamp_to_edge };\n');
    expect(r.errors).toEqual([]);
    const vars = r.module.statements.slice(3) as A.VariableDecl[];
    expect(vars[0]!.declarators[0]!.dims.map((d) => (d?.kind === 'Int' ? d.value : null))).toEqual([2n, 3n]);
    expect((vars[0]!.declarators[0]!.init as A.InitListNode).elements.length).toBe(2);
    expect(stripRanges(vars[2]!.declarators[0]!.init)).toEqual({
      kind: 'Binary', op: '+', left: { kind: 'Generic', name: 'tbl' }, right: { kind: 'Int', text: '8', value: 8n, unsigned: false },
    });
    const q = vars[3]!.declarators[0]!.init as A.BinaryExpr;
    expect(q).toMatchObject({ kind: 'Binary', op: '*', left: { kind: 'Cast', type: '.s64', arg: { kind: 'List' } }, right: { kind: 'Unary' } });
    expect(vars[4]).toMatchObject({ linkage: ['.extern'], space: '.shared' });
    expect(vars[4]!.declarators[0]!.dims).toEqual([null]);
    expect(stripRanges(vars[5]!.qualifiers[0])).toEqual({ kind: 'Qualifier', name: '.attribute', args: ['.managed'] });
    expect((vars[6]!.declarators[0]!.init as A.InitListNode).elements.map((e) => e.kind)).toEqual(['FieldInit', 'FieldInit']);
  });

  it('gives binary operators C precedence', () => {
    const r = parsePtx(`${HEADER}.global .u32 x = 1 + 2 * 3 - 4 << 1 | 8;\n`);
    const init = (r.module.statements[3] as A.VariableDecl).declarators[0]!.init as A.Expression;
    const show = (e: A.Expression): string => (e.kind === 'Binary' ? `(${show(e.left)}${e.op}${show(e.right)})` : e.kind === 'Int' ? e.text : '?');
    expect(show(init)).toBe('((((1+(2*3))-4)<<1)|8)');
  });
});

describe('function bodies', () => {
  it('reads register ranges, nested scopes, labels and guards', () => {
    const stmts = body('.reg .pred %p<3>;\n.reg .b32 %r<10>, %x;\n{\n.reg .b32 %t;\n$L1:\nmov.b32 %t, 1;\n}\n@!%p1 bra $L1;\n@%p2 ret;');
    expect(stripRanges(stmts[1])).toMatchObject({ kind: 'Variable', space: '.reg', declarators: [{ name: '%r', count: 10, dims: [] }, { name: '%x', dims: [] }] });
    expect(stmts[2]?.kind).toBe('Block');
    expect((stmts[2] as A.Block).statements.map((s) => s.kind)).toEqual(['Variable', 'Label', 'Instruction']);
    expect((stmts[3] as A.Instruction).guard).toMatchObject({ negated: true, predicate: '%p1' });
    expect((stmts[4] as A.Instruction).guard).toMatchObject({ negated: false, predicate: '%p2' });
  });

  it('splits an opcode from its modifiers, :: chains and digit-leading ones included', () => {
    const i = instr('cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];');
    expect(i.opcode).toBe('cp');
    expect(i.modifiers).toEqual(['.async', '.bulk', '.tensor', '.2d', '.shared::cluster', '.global', '.mbarrier::complete_tx::bytes']);
    expect(i.operands.map((o) => o.kind)).toEqual(['Address', 'Address', 'Address']);
    expect(instr('fence.proxy.alias;').modifiers).toEqual(['.proxy', '.alias']);
    expect(instr('ld.weak.global.u32 %r1, [%rd1];').modifiers).toEqual(['.weak', '.global', '.u32']);
  });

  it('reads every operand form', () => {
    expect(operands('mov.u32 %r1, %tid.x;')).toEqual([{ kind: 'Name', name: '%r1' }, { kind: 'Name', name: '%tid', component: 'x' }]);
    expect(operands('ld.global.u32 %r1, [%rd1+-4];')).toEqual([
      { kind: 'Name', name: '%r1' },
      { kind: 'Address', elements: [{ kind: 'Binary', op: '+', left: { kind: 'Name', name: '%rd1' }, right: { kind: 'Unary', op: '-', arg: { kind: 'Int', text: '4', value: 4n, unsigned: false } } }] },
    ]);
    expect(operands('ld.local.u32 %r1, [0x100];')).toMatchObject([{}, { kind: 'Address', elements: [{ kind: 'Int', value: 256n }] }]);
    expect(operands('setp.lt.s32 %p1|%p2, %r1, -1;')).toMatchObject([{ kind: 'PredPair', first: { name: '%p1' }, second: { name: '%p2' } }, {}, { kind: 'Unary' }]);
    expect(operands('selp.b32 %r1, 1, 0, !%p1;')).toMatchObject([{}, {}, {}, { kind: 'Unary', op: '!', arg: { name: '%p1' } }]);
    expect(operands('ld.global.v4.f32 {%f1, %f2, _, %f4}, [%rd1];')).toMatchObject([{ kind: 'Vector', elements: [{}, {}, { name: '_' }, {}] }, {}]);
    expect(operands('mov.f32 %f1, 0f3F800000;')).toMatchObject([{}, { kind: 'Float', value: 1, form: 'f32-bits' }]);
    expect(operands('mov.u64 %rd1, smem;')).toMatchObject([{}, { kind: 'Name', name: 'smem' }]);
  });

  it('reads calls with return values, arguments and prototypes, and jump tables', () => {
    const stmts = body('$Ltbl: .branchtargets $L1, $L2;\nbrx.idx %r1, $Ltbl;\nprot: .callprototype (.param .b32 _) _ (.param .b32 _);\n' +
      'call.uni (retval0), vprintf, (param0, param1);\ncall (%r1), %rd2, (%r3), prot;\ncall.uni fn, ();\n$fns: .calltargets f1, f2;\n$L1:\n$L2:\nret;');
    expect(stmts.map((s) => s.kind)).toEqual(['Label', 'BranchTargets', 'Instruction', 'Label', 'CallPrototype', 'Instruction', 'Instruction', 'Instruction', 'Label', 'CallTargets', 'Label', 'Label', 'Instruction']);
    expect(stripRanges((stmts[5] as A.Instruction).operands)).toEqual([
      { kind: 'List', elements: [{ kind: 'Name', name: 'retval0' }] },
      { kind: 'Name', name: 'vprintf' },
      { kind: 'List', elements: [{ kind: 'Name', name: 'param0' }, { kind: 'Name', name: 'param1' }] },
    ]);
    expect((stmts[7] as A.Instruction).operands[1]).toMatchObject({ kind: 'List', elements: [] });
  });

  it('reads .loc with function_name and inlined_at, and .pragma in a body', () => {
    const [loc, pragma] = body('.loc 1 23 4, function_name $L__info_string0, inlined_at 1 10 5\n.pragma "nounroll";');
    expect(stripRanges(loc)).toEqual({ kind: 'Loc', file: 1, line: 23, column: 4, functionName: { kind: 'Name', name: '$L__info_string0' }, inlinedAt: { file: 1, line: 10, column: 5 } });
    expect(stripRanges(pragma)).toEqual({ kind: 'Pragma', values: ['nounroll'] });
  });

  it('accepts names that look like opcodes or start with $ and %', () => {
    const stmts = body('.reg .b32 sin, min, $x, %y;\nadd.s32 sin, min, $x;\nmin:\nbra min;');
    expect(stmts.map((s) => s.kind)).toEqual(['Variable', 'Instruction', 'Label', 'Instruction']);
  });
});

describe('source ranges', () => {
  it('puts every node at its exact line, column and offsets', () => {
    const text = `${HEADER}.entry k()\n{\n\tld.global.u32 %r1, [%rd1+4];\n}\n`;
    const r = parsePtx(text);
    const f = r.module.statements[3] as A.FunctionDecl;
    const i = f.body!.statements[0] as A.Instruction;
    expect(i.range).toMatchObject({ line: 6, column: 2, endLine: 6, endColumn: 30 });
    expect(text.slice(i.range.offset, i.range.endOffset)).toBe('ld.global.u32 %r1, [%rd1+4];');
    const addr = i.operands[1]!;
    expect(text.slice(addr.range.offset, addr.range.endOffset)).toBe('[%rd1+4]');
    expect(addr.range).toMatchObject({ line: 6, column: 21 });
    expect(f.range).toMatchObject({ line: 4, column: 1, endLine: 7, endColumn: 2 });
    expect(r.module.range).toMatchObject({ line: 1, column: 1, offset: 0, endOffset: text.length });
  });

  it('counts CRLF and lone CR as line breaks', () => {
    const r = parsePtx('.version 8.5\r\n.target sm_90\r\n.address_size 64\r\n.entry k()\r\n{\r\n  ret;\r\n}\r\n');
    expect(r.errors).toEqual([]);
    const f = r.module.statements[3] as A.FunctionDecl;
    expect(f.body!.statements[0]!.range).toMatchObject({ line: 6, column: 3 });
  });
});
