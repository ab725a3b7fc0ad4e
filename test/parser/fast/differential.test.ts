// The fast path against the reference grammar: on well-formed input it must
// build a tree deep-equal to the Chevrotain parser's (every range, key and
// value), and on anything else it must give up so the reference reports errors.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastParse } from '../../../src/parser/fast/parser.js';
import { parsePtx } from '../../../src/parser/parse.js';
import { plainRanges } from '../../helpers/ast.js';

function listFiles(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...listFiles(p, ext));
    else if (entry.endsWith(ext)) out.push(p);
  }
  return out;
}

/** The fast tree equals the reference tree, and the reference saw no error. */
function agrees(text: string): void {
  const ref = parsePtx(text, { reference: true });
  expect(ref.errors).toEqual([]);
  const fast = fastParse(text);
  expect(fast, 'fast path gave up on input the reference accepts').toBeDefined();
  // Same positions, though the fast parser's ranges keep offsets and derive line and column.
  expect(plainRanges(fast!.statements)).toStrictEqual(plainRanges(ref.module.statements));
  expect(plainRanges(fast!.comments)).toStrictEqual(plainRanges(ref.module.comments));
  // The facade takes the fast path and builds the same module.
  expect(plainRanges(parsePtx(text))).toStrictEqual(plainRanges(ref));
}

/** The fast path gives up and the reference reports an error. */
function rejects(text: string): void {
  expect(fastParse(text)).toBeUndefined();
  expect(parsePtx(text, { reference: true }).errors.length).toBeGreaterThan(0);
  expect(parsePtx(text).errors.length).toBeGreaterThan(0);
}

const FIXTURES = listFiles('fixtures', '.ptx');
/** Property-test size (PTX_FAST_RUNS=20000 for a longer campaign). */
const RUNS = Number(process.env['PTX_FAST_RUNS'] ?? 1500);

describe('fast path: committed PTX fixtures', () => {
  it('finds fixtures', () => {
    expect(FIXTURES.length).toBeGreaterThan(0);
  });
  it.each(FIXTURES)('%s', (file) => {
    agrees(readFileSync(file, 'utf8'));
  });
});

// ---------------------------------------------------------------- nvcc output

const CUDA_SAMPLE = 16;
const compiled: { name: string; text: string }[] = [];
let skipReason: string | undefined;
let workDir: string | undefined;

function run(cmd: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 50_000 }, (err, _stdout, stderr) => resolve(err === null ? undefined : `${String(err.message)} ${stderr}`));
  });
}

describe('fast path: nvcc -ptx -lineinfo output', () => {
  beforeAll(async () => {
    if ((await run('nvcc', ['--version'])) !== undefined) {
      skipReason = 'nvcc not found on PATH';
      console.log(`skipping nvcc differential cases: ${skipReason}`);
      return;
    }
    workDir = mkdtempSync(join(tmpdir(), 'ptx-fast-'));
    const sources = listFiles('fixtures/corpus/cuda', '.cu');
    // An even sample across the corpus, to stay well under a minute.
    const step = Math.max(1, sources.length / CUDA_SAMPLE);
    const sample: string[] = [];
    for (let i = 0; i < sources.length && sample.length < CUDA_SAMPLE; i += step) sample.push(sources[Math.floor(i)]!);
    const queue = [...sample];
    const failures: string[] = [];
    const worker = async (): Promise<void> => {
      for (let src = queue.shift(); src !== undefined; src = queue.shift()) {
        const out = join(workDir!, `${basename(src, '.cu')}.ptx`);
        const err = await run('nvcc', ['-ptx', '-lineinfo', '-arch=sm_90a', src, '-o', out]);
        if (err === undefined) compiled.push({ name: basename(src), text: readFileSync(out, 'utf8') });
        else failures.push(`${src}: ${err}`);
      }
    };
    await Promise.all(Array.from({ length: Math.max(2, Math.min(8, availableParallelism())) }, worker));
    if (failures.length > 0) console.log(`nvcc failed on:\n${failures.join('\n')}`);
    compiled.sort((a, b) => a.name.localeCompare(b.name));
  }, 120_000);

  afterAll(() => {
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  });

  it('agrees with the reference on every compiled kernel', (ctx) => {
    if (skipReason !== undefined) {
      ctx.skip();
      return;
    }
    expect(compiled.length).toBeGreaterThan(0);
    for (const { name, text } of compiled) {
      try {
        agrees(text);
      } catch (e) {
        throw new Error(`${name}: ${String(e)}`);
      }
    }
  });

  it('agrees on their concatenation with CRLF line ends and a BOM', (ctx) => {
    if (skipReason !== undefined) {
      ctx.skip();
      return;
    }
    const all = compiled.map((c) => c.text).join('\n');
    agrees(`\uFEFF${all.replace(/\n/g, '\r\n')}`);
    agrees(all.replace(/\n/g, '\r'));
  });
});

// ---------------------------------------------------------------- targeted cases

const HEADER = '.version 8.0\n.target sm_90a\n.address_size 64\n';
const inBody = (stmts: string): string => `${HEADER}.visible .entry k(.param .u64 p)\n{\n${stmts}\n}\n`;

const MODULE_CASES: Record<string, string> = {
  'version forms': '.version 7.8\n.version 8\n.version 1e1\n.version 7.\n.version 0x7\n.version 7U\n.version 7.8e1\n',
  'target lists': '.target sm_90a\n.target sm_80, texmode_independent, debug\n',
  'address size': '.address_size 32\n',
  'file forms': '.file 1 "a.cu"\n.file 2 "b.cu", 1700000000\n.file 3 "c \\"q\\".cu", 0, 2048\n.file 0x4 "d", 1, 2, 3, 4\n.file 5U "e", 0b11, 017\n',
  'pragma and alias': `${HEADER}.pragma "nounroll";\n.pragma "a", "b";\n.func f() { ret; }\n.alias g, f;\n`,
  'module-level loc and dwarf': '.loc 1 2 3\n.loc 1 2\n@@DWARF .byte 0x1 // not a comment\n@@DWARF\n',
  'sections': `${HEADER}.section .debug_info\n{\n$L1:\n.b32 4, .debug_abbrev, $L1+4\n.b8 1, 2\n.b64 $L1 - $L2\n@@DWARF .x\n.b8 0x41,0x42\n}\n.section .debug_str { }\n.section .nv_foo { l: .b8 -1, (2+3), a.x }\n`,
  'variables': `${HEADER}.global .align 8 .b8 buf[16];\n.extern .shared .align 16 .b8 smem[];\n.const .v4 .f32 c = {1.0, 2.0, 3.0, 4.0};\n.visible .global .u32 a = 1, b = 2, cc;\n.weak .common .global .u64 w;\n.global .attribute(.managed) .u32 m;\n.global .attribute(.managed, .unified) .u32 mu;\n.global .attribute() .u32 m0;\n.global .u32 arr[2][3] = {{1,2,3},{4,5,6}};\n.global .texref t;\n.global .samplerref s = { addr_mode_0 = clamp_to_edge, filter_mode = nearest };\n.global .u64 pg = generic(buf)+4;\n.global .s64 cst = (.s64) -1 + ~0 * 3;\n.global .u32 cond = 1 > 2 ? 3 : 4 ? 5 : 6;\n.global .u32 e[] = {};\n.global .u32 dims[2+2][ ] ;\n.global .u32 nested = {{}, {1, {2}}, x = 3};\n`,
  'expressions': `${HEADER}.global .s32 x = 1 + 2 * 3 - 4 << 1 | 8 ^ 9 & 10 || 11 && 12 == 13 != 14 < 15 > 16 <= 17 >= 18 >> 19 / 20 % 21;\n.global .s32 y = -(-7) + +3 - !0 - ~1;\n.global .s32 z = (1, 2, (3));\n.global .s32 w = ();\n.global .s32 v = generic (a);\n`,
  'numbers': `${HEADER}.global .u64 n[] = {0, 017, 0x1F, 0XfF, 0b101, 0B1, 42U, 0x10U, 0b1U, 08, 18446744073709551615, 123456789012345678901234567890};\n.global .f64 f[] = {0f3F800000, 0F7FFFFFFF, 0d3FF0000000000000, 0D4000000000000000, 1.5, 1., 2e10, 2E-3, 1.5e+2, 0f80000000, 0d123};\n`,
  'functions': `${HEADER}.extern .func (.param .b32 r) vprintf (.param .b64 a, .param .b64 b);\n.func f() ;\n.func g\n{\n}\n.visible .entry e(.param .u64 .ptr .global .align 8 p, .param .align 4 .b8 arr[16]) .maxntid 128, 1, 1 .minnctapersm 2 .noreturn .maxnreg 32U\n{ ret; }\n.entry h () .reqntid 0x40 .explicitcluster .reqnctapercluster 2,1,1 { }\n.func (.reg .u32 r) k(.reg .u32 i) { add.u32 r, i, 1; ret; }\n`,
  'function directives on prototypes': `${HEADER}.func f() .noreturn;\n.entry g .blocksareclusters .maxclusterrank 8 { }\n`,
};

const BODY_CASES: Record<string, string> = {
  'labels and instructions': '$L__BB0_1:\n  mov.u32 %r1, %tid.x;\n  ret;\n  exit;\nL2: bra.uni $L__BB0_1;',
  'guards': '@%p1 bra L;\n@!%p2 ret;\n@ ! %p3 exit;\nL:',
  'modifiers': 'ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\ncp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];\ntex.1d.v4.s32.s32 {%r1,%r2,%r3,%r4}, [t, {%r5}];\nfence.proxy.alias;\nld.weak.shared.align.u32 %r1, [x];\nst.local.param.entry.func.loc.attribute.u32 [a], b;',
  'operands': 'setp.ne.s32 %p1|%p2, %r1, 0;\nsetp.ne.s32 %p1|%p2|%p3, %r1, 0;\nmov.b64 %rd1, {%r1, %r2};\nmov.b64 {}, %rd1;\ncall.uni (%r3), f, (%r1, %r2);\ncall f, ();\nmov.u32 %r1, %ctaid.y;\nmov.f32 %f1, %v.r;\nmov.f32 %f1, %v.b;\nadd.s32 %r1, -1, +1;\nmov.u32 %r1, a ? b : c;\nld.u32 %r1, [%rd1+-4];\nmov.u32 %r1, (.u32) 5;\nmov.u32 %r1, generic(x);\nmov.u32 %r1, x + (.u64) 1 * 2;\nmov.u32 %r1, [a, b, c];\nst.u32 [%rd1 + 4 * 2], 0f3F800000;\nmov.pred %p1, %p2 | %p3 + 1;',
  'declarations in bodies': '.reg .b32 %r<5>;\n.reg .pred %p<3>, %q;\n.local .align 8 .b8 __local_depot0[16];\n.shared .u32 s[4] = {1, 2, 3, 4};\n.param .b32 param0;\n{\n  .reg .u32 inner;\n  { }\n}',
  'debug statements': '.loc 1 2 3\n.loc 1 2\n.loc 1 23 20, function_name $L__info_string0, inlined_at 1 23 20\n.loc 2 11 12, function_name $L__info_string1+4, inlined_at 1 2 3\n.loc 2 1 1, inlined_at 1 2 3, function_name x\n.loc 2 1, function_name 5\n.loc 2 1 1, function_name 5 + 1\n.pragma "nounroll";\n@@DWARF .long 0\n',
  'targets and prototypes': 'ts: .branchtargets L1, L2;\nL1: L2:\ncs: .calltargets f, g;\nproto: .callprototype (.param .b32 _) _ (.param .b32 _, .param .b64 _);\np2: .callprototype _ ();\np3: .callprototype _ .noreturn;\np4: .callprototype (.param .b32 _) _ ;',
};

describe('fast path: targeted constructs', () => {
  it.each(Object.entries(MODULE_CASES))('%s', (_name, text) => agrees(text));
  it.each(Object.entries(BODY_CASES))('%s', (_name, body) => agrees(inBody(body)));

  it('comments everywhere, tabs and line-end styles', () => {
    const base = inBody('\tld.global.u32\t%r1, [%rd1+4];\n@%p1\tbra\t$L1;\n$L1:\n\tsetp.ne.s32 %p1|%p2, %r1, 0;');
    // A comment after every token and line.
    const commented = base.replace(/([;,{}()\]])/g, '$1/* c\n * d */').replace(/\n/g, ' // line\n');
    for (const text of [base, commented, base.replace(/\n/g, '\r\n'), commented.replace(/\n/g, '\r\n'), commented.replace(/\n/g, '\r'),
      `\uFEFF${base}`, base.replace(/ /g, '\t\f\v'), `${base}// last line without newline`, `${base}/* at end */`]) {
      agrees(text);
    }
  });

  it('block comments with mixed line ends and Unicode', () => {
    agrees(`/* a\r\nb\rc\nd \u2028 é ✓ */${HEADER}// héllo ✓\r\n/**/ /***/ /* ** / */ .global .u32 x; /*\n\n*/ .global .u32 y;`);
  });

  it('a byte-order mark anywhere and strings with escapes', () => {
    agrees(`\uFEFF${HEADER}.pragma "a\\"b", "\\\\", "é\u2028";\n\uFEFF.global .u32 x;`);
  });

  it('an empty module and one of only comments', () => {
    agrees('');
    agrees('   \n// just a comment\n/* and a block */\n');
  });

  it('section names with operators after them, folded left to right (found by the mutation property)', () => {
    agrees(`${HEADER}.section .debug_info\n{\n.b32 .debug_abbrev+4*2-1\n.b32 .d<ebug_abbrev, .x>>2\n.b8 1\n}\n`);
  });

  it('token boundaries that follow the reference lexer', () => {
    agrees(inBody('add.u32 %r1, 0f1, 0d1;\nmov.u32 %r1 , 0 ;\nmov.u32 %r1, 0x1F, 0b1;'));
    agrees(inBody('mov.u32 %r1, a % b;\nmov.u32 %r1, 1<<2<=3>>4>=5==6!=7&&8||9;'));
  });
});

describe('fast path: deep nesting', () => {
  const nests: Record<string, (n: number) => string> = {
    parentheses: (n) => `.global .u32 x = ${'('.repeat(n)}1${')'.repeat(n)};`,
    'unary operators': (n) => `.global .u32 x = ${'-'.repeat(n)}1;`,
    casts: (n) => `.global .u32 x = ${'(.u32)'.repeat(n)}1;`,
    blocks: (n) => `.entry k() ${'{'.repeat(n)}${'}'.repeat(n)}`,
    'initializer lists': (n) => `.global .u32 x[1] = ${'{'.repeat(n)}1${'}'.repeat(n)};`,
    vectors: (n) => inBody(`mov.u32 ${'{'.repeat(n)}1${'}'.repeat(n)};`),
    conditionals: (n) => `.global .u32 x = ${'1 ? '.repeat(n)}1${' : 1'.repeat(n)};`,
  };
  it.each(Object.keys(nests))('%s: shallow on the fast path, deep left to the reference', (name) => {
    agrees(nests[name]!(20));
    // The reference runs out of stack at a few hundred levels and says so;
    // the fast path never builds a tree the reference could not.
    expect(fastParse(nests[name]!(2000))).toBeUndefined();
  });
});

// ---------------------------------------------------------------- error inputs

const ERROR_CASES: Record<string, string> = {
  'missing semicolon': inBody('ret'),
  'stray character': inBody('mov.u32 %r1, #1;'),
  'NUL byte': inBody('ret;\u0000'),
  'replacement character': inBody('mov \uFFFD;'),
  'non-ASCII outside comments': inBody('mov.u32 é, 1;'),
  'unterminated block comment': `${HEADER}/* never closed`,
  'unterminated string': `${HEADER}.pragma "open;\n`,
  'string broken by a line end': `${HEADER}.pragma "a\\\nb";\n`,
  'lone dot': inBody('ld. %r1;'),
  'label at module scope': `${HEADER}L: .global .u32 x;`,
  'instruction at module scope': `${HEADER}ret;`,
  'generic of a number': `${HEADER}.global .u64 p = generic(5);`,
  'inlined_at with two numbers': inBody('.loc 1 2 3, inlined_at 1 2'),
  'unclosed block': `${HEADER}.entry k() { ret;`,
  'extra closing brace': `${HEADER}.entry k() { ret; } }`,
  'name then parenthesis': inBody('mov.u32 %r1, foo(1);'),
  'integer then modifier': inBody('mov.u32 %r1, 0x1.5;'),
  '0f without hex digits': inBody('add.u32 %r1, 0f;'),
  'binary then name': inBody('mov.u32 %r1, 0b1e1;'),
  'percent glued to a name': inBody('mov.u32 %r1, a%b;'),
  'not a component': inBody('mov.u32 %r1, %v.q;'),
  'comma first operand': inBody('mov.u32 , %r1;'),
  'address without elements': inBody('ld.u32 %r1, [];'),
  'cast without closing paren': `${HEADER}.global .s32 x = (.s32 1;`,
  'count without number': inBody('.reg .b32 %r<>;'),
  'section without braces': `${HEADER}.section .debug_str .b8 1`,
  'version without number': '.version sm_90\n',
  'align without number': `${HEADER}.global .align .b8 x;`,
  'function without name': `${HEADER}.entry () { }`,
  'at sign alone': inBody('@ ret;'),
  'dangling operator': inBody('add.u32 %r1, %r2 +;'),
  'conditional without colon': `${HEADER}.global .u32 x = 1 ? 2;`,
  'trailing garbage': `${HEADER}.global .u32 x; 1`,
  'backslash': inBody('\\'),
  'backtick': inBody('`'),
  'single quote': inBody("mov.u32 %r1, 'a';"),
  'lone at-at': inBody('@@DWAR x'),
};

describe('fast path: gives up where the reference reports errors', () => {
  it.each(Object.entries(ERROR_CASES))('%s', (_name, text) => rejects(text));
});

// ---------------------------------------------------------------- property test

const SEEDS = FIXTURES.map((f) => readFileSync(f, 'utf8').slice(0, 4000));
const PIECES = ['{', '}', '(', ')', '[', ']', ';', ',', ':', '@', '!', '|', '.', '%', '.reg', '.entry', '.func', '.section',
  '.loc', '.b8', '.x', '"', '/*', '*/', '//', '\n', '\r', '\r\n', '\t', ' ', '%r1', '0f', '0x', '0d1', '1.5', '1e', 'U', '<', '>',
  '=', '-', '+', '?', '::', '\u0000', '\uFFFD', '\uFEFF', 'é', '@@DWARF', 'generic', 'generic(', '.callprototype', '.branchtargets',
  ', inlined_at 1 2 3', ', function_name x', '.align 4', '.attribute(.managed)'];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), piece: fc.constantFrom(...PIECES) }),
  fc.record({ kind: fc.constant('char' as const), at: fc.nat(), code: fc.integer({ min: 0, max: 0x7f }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('dupToken' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('dropToken' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

/** The whitespace-delimited word around `at`. */
function wordAt(text: string, at: number): [number, number] {
  let s = at;
  while (s > 0 && !/\s/.test(text[s - 1]!)) s--;
  let e = at;
  while (e < text.length && !/\s/.test(text[e]!)) e++;
  return [s, e];
}

function apply(text: string, m: Mutation): string {
  const at = text.length === 0 ? 0 : m.at % text.length;
  switch (m.kind) {
    case 'delete': return text.slice(0, at) + text.slice(at + m.len);
    case 'insert': return text.slice(0, at) + m.piece + text.slice(at);
    case 'char': return text.slice(0, at) + String.fromCharCode(m.code) + text.slice(at);
    case 'duplicate': return text.slice(0, at + m.len) + text.slice(at);
    case 'dupToken': {
      const [s, e] = wordAt(text, at);
      return `${text.slice(0, e)} ${text.slice(s, e)}${text.slice(e)}`;
    }
    case 'dropToken': {
      const [s, e] = wordAt(text, at);
      return text.slice(0, s) + text.slice(e);
    }
  }
}

describe('fast path: mutated fixtures (property)', () => {
  it('never throws; a tree it returns is the reference tree, with no reference errors', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: SEEDS.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), (seed, muts) => {
        const text = muts.reduce(apply, SEEDS[seed]!);
        let fast: ReturnType<typeof fastParse>;
        expect(() => { fast = fastParse(text); }).not.toThrow();
        const ref = parsePtx(text, { reference: true });
        if (fast === undefined) {
          // Giving up is only ever for input the reference rejects.
          expect(ref.errors.length).toBeGreaterThan(0);
          rejected++;
          return;
        }
        accepted++;
        expect(ref.errors).toEqual([]);
        expect(plainRanges(fast.statements)).toStrictEqual(plainRanges(ref.module.statements));
        expect(plainRanges(fast.comments)).toStrictEqual(plainRanges(ref.module.comments));
      }),
      { numRuns: RUNS * 2 },
    );
    // Both outcomes are exercised.
    expect(accepted).toBeGreaterThan(RUNS / 30);
    expect(rejected).toBeGreaterThan(RUNS / 30);
  }, RUNS * 100);
});

// ---------------------------------------------------------------- generated programs

/** Whitespace and comments between tokens, in every line-end style. */
const gap = fc.constantFrom(' ', ' ', ' ', '\t', '\n', '\r\n', '\r', '  ', ' /* c */ ', '/*\r\n*/', ' // c\n', '\f', '\v', '\uFEFF');
const interleave = (parts: string[], seps: string[]): string => parts.map((p, i) => `${p}${seps[i % seps.length]!}`).join('');
/** A comma list with whitespace and comments around the commas. */
const listOf = (arb: fc.Arbitrary<string>, min: number, max: number): fc.Arbitrary<string> =>
  fc.tuple(fc.array(arb, { minLength: min, maxLength: max }), fc.array(gap, { minLength: 2, maxLength: 4 }))
    .map(([xs, gs]) => xs.map((x, i) => (i === 0 ? x : `${gs[i % gs.length]!},${gs[(i + 1) % gs.length]!}${x}`)).join(''));

const name = fc.constantFrom('%r1', '%rd12', '%p1', '%f3', '%tid', 'x', '_y', '$L__BB0_1', 'generic', 'a1', '%ctaid');
const intLit = fc.constantFrom('0', '1', '42', '017', '0x1F', '0XfFU', '0b101', '0B1U', '08', '18446744073709551615', '123456789012345678901');
const floatLit = fc.constantFrom('0f3F800000', '0F7FFFFFFF', '0d3FF0000000000000', '0D1', '1.5', '1.', '2e10', '2E-3', '1.5e+2', '0f80000000');
const dotted = fc.constantFrom('.u32', '.b64', '.global', '.shared::cta', '.x', '.v4', '.align', '.param', '.1d', '.mbarrier::complete_tx::bytes', '.entry');
const binOp = fc.constantFrom('+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^', '&&', '||', '==', '!=', '<', '>', '<=', '>=');
const unOp = fc.constantFrom('-', '+', '!', '~');

const { expr } = fc.letrec<{ expr: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: 'small' },
    name,
    name.map((n) => `${n}.${'xyzwrgba'[n.length % 8]!}`),
    intLit,
    floatLit,
    tie('atom').chain((a) => unOp.map((o) => `${o}${a}`)),
    tie('expr').map((e) => `(${e})`),
    fc.tuple(fc.constantFrom('.s64', '.u32', '.b8'), tie('atom')).map(([t, a]) => `(${t}) ${a}`),
    fc.array(tie('expr'), { maxLength: 3 }).map((xs) => `{${xs.join(', ')}}`),
    fc.array(tie('expr'), { minLength: 1, maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
    fc.array(tie('expr'), { maxLength: 3 }).map((xs) => `(${xs.join(', ')})`),
    name.map((n) => `generic(${n})`),
  ),
  expr: fc.oneof(
    { depthSize: 'small' },
    tie('atom'),
    fc.tuple(tie('atom'), fc.array(fc.tuple(binOp, tie('atom')), { minLength: 1, maxLength: 4 }))
      .map(([a, rest]) => `${a}${rest.map(([o, b]) => ` ${o} ${b}`).join('')}`),
    fc.tuple(tie('atom'), tie('expr'), tie('expr')).map(([a, b, c]) => `${a} ? ${b} : ${c}`),
  ),
}));

const initializer: fc.Arbitrary<string> = fc.letrec<{ init: string }>((tie) => ({
  init: fc.oneof(
    { depthSize: 'small' },
    expr,
    fc.array(fc.oneof(tie('init'), fc.tuple(name, expr).map(([f, v]) => `${f} = ${v}`)), { maxLength: 3 }).map((xs) => `{${xs.join(', ')}}`),
  ),
})).init;

const qualifiers = fc.array(fc.constantFrom('.u32', '.b8', '.v4', '.align 8', '.align 0x10U', '.attribute(.managed)', '.ptr', '.global', '.attribute()'), { maxLength: 3 })
  .map((qs) => qs.join(' '));
const declarator = fc.tuple(name, fc.option(intLit), fc.array(fc.option(expr), { maxLength: 2 }), fc.option(initializer))
  .map(([n, count, dims, init]) => `${n}${count === null ? '' : `<${count}>`}${dims.map((d) => `[${d ?? ''}]`).join('')}${init === null ? '' : ` = ${init}`}`);
const variable = fc.tuple(fc.constantFrom('.reg', '.global', '.shared', '.const', '.local', '.param'), qualifiers, listOf(declarator, 1, 3))
  .map(([sp, q, ds]) => `${sp} ${q} ${ds};`);
const param = fc.tuple(fc.constantFrom('.param', '.reg'), qualifiers, name, fc.array(fc.option(intLit), { maxLength: 1 }))
  .map(([sp, q, n, dims]) => `${sp} ${q} ${n}${dims.map((d) => `[${d ?? ''}]`).join('')}`);
const paramList = listOf(param, 0, 3).map((ps) => `(${ps})`);
const fnDirectives = fc.array(fc.constantFrom('.maxntid 128, 1, 1', '.noreturn', '.reqntid 0x40', '.minnctapersm 2U', '.explicitcluster'), { maxLength: 2 })
  .map((ds) => ds.join(' '));
const instruction = fc.tuple(
  fc.constantFrom('', '@%p1 ', '@!%p2 ', '@ ! %p3 '),
  fc.constantFrom('mov', 'ld', 'st', 'add', 'setp', 'bra', 'ret', 'call', 'tex'),
  fc.array(dotted, { maxLength: 4 }),
  fc.oneof(listOf(expr, 0, 4), fc.constant('%p1|%p2, %r1, 0')),
).map(([g, op, mods, ops]) => `${g}${op}${mods.join('')} ${ops};`);
const loc = fc.tuple(intLit, intLit, fc.option(intLit), fc.array(fc.oneof(
  fc.tuple(intLit, intLit, intLit).map(([a, b, c]) => `, inlined_at ${a} ${b} ${c}`),
  expr.map((e) => `, function_name ${e}`),
), { maxLength: 2 })).map(([f, l, c, rest]) => `.loc ${f} ${l}${c === null ? '' : ` ${c}`}${rest.join('')}`);
const statement = fc.oneof(
  instruction, instruction, instruction, variable, loc,
  name.map((n) => `${n}:`),
  fc.constant('.pragma "nounroll";'),
  listOf(name, 1, 3).map((ns) => `t: .branchtargets ${ns};`),
  fc.tuple(fc.option(paramList), paramList, fnDirectives).map(([r, p, d]) => `p: .callprototype ${r ?? ''} _ ${p} ${d};`),
  fc.constant('@@DWARF .byte 1'),
  fc.constant('{ ret; }'),
);
const body = fc.tuple(fc.array(statement, { maxLength: 8 }), fc.array(gap, { minLength: 1, maxLength: 4 })).map(([ss, seps]) => `{${interleave(ss, seps)}}`);
const sectionItem = fc.oneof(
  name.map((n) => `${n}:`),
  fc.tuple(fc.constantFrom('.b8', '.b32', '.b64'), listOf(fc.oneof(expr, fc.constant('.debug_abbrev')), 1, 3)).map(([t, vs]) => `${t} ${vs}`),
  fc.constant('@@DWARF .long 0'),
);
const moduleStatement = fc.oneof(
  variable,
  fc.tuple(fc.array(fc.constantFrom('.visible', '.extern', '.weak'), { maxLength: 2 }), fc.constantFrom('.entry', '.func'), fc.option(paramList), name, fc.option(paramList), fnDirectives, fc.oneof(body, fc.constant(';')))
    .map(([l, k, r, n, p, d, b]) => `${l.join(' ')} ${k} ${r ?? ''} ${n} ${p ?? ''} ${d} ${b}`),
  fc.tuple(fc.constantFrom('.debug_info', '.debug_str'), fc.array(sectionItem, { maxLength: 4 })).map(([n, items]) => `.section ${n} { ${items.join('\n')} }`),
  fc.tuple(intLit, fc.array(intLit, { maxLength: 3 })).map(([i, xs]) => `.file ${i} "a\\b.cu"${xs.map((x) => `, ${x}`).join('')}`),
  fc.constant('.alias a, b;'),
  loc,
  fc.constant('@@DWARF x'),
);
const program = fc.tuple(fc.array(moduleStatement, { maxLength: 5 }), fc.array(gap, { minLength: 1, maxLength: 4 }))
  .map(([ms, seps]) => `.version 8.0\n.target sm_90a, debug\n.address_size 64\n${interleave(ms, seps)}`);

describe('fast path: generated programs (property)', () => {
  it('accepts exactly what the reference accepts, with the same tree', () => {
    let accepted = 0;
    fc.assert(
      fc.property(program, (text) => {
        const fast = fastParse(text);
        const ref = parsePtx(text, { reference: true });
        if (fast === undefined) {
          expect(ref.errors.length).toBeGreaterThan(0);
          return;
        }
        accepted++;
        expect(ref.errors).toEqual([]);
        expect(plainRanges(fast.statements)).toStrictEqual(plainRanges(ref.module.statements));
        expect(plainRanges(fast.comments)).toStrictEqual(plainRanges(ref.module.comments));
      }),
      { numRuns: RUNS },
    );
    expect(accepted).toBeGreaterThan(RUNS / 5);
  }, RUNS * 60);
});
