// Affine address forms, read like the bug reports they support: which bytes a
// thread touches (F036/F037), bank conflicts (F052), coalescing (F053).
import { describe, expect, it } from 'vitest';
import { affineAnalysis, coefOf, PRODUCT, type AffineFacts, type Form } from '../../../src/cfg/dataflow/affine.js';
import { committedPtx } from '../../helpers/corpus.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';
import { rangeAnalysis } from '../../../src/cfg/dataflow/ranges.js';
import { parsePtx } from '../../../src/parser/parse.js';
import { AnalysisContext } from '../../../src/cfg/context.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

/** A kernel `k` with the given directives and body. */
function kernel(body: string, directives = '.reqntid 256, 1, 1', params = '.param .u64 out, .param .u32 n'): string {
  return `${HEADER}
.visible .entry k(${params})
${directives}
{
\t.reg .pred %p<8>;
\t.reg .b32 %r<40>;
\t.reg .b64 %rd<40>;
\t.reg .f32 %f<8>;
${body}
\tret;
}
`;
}

function facts(text: string, options?: { block?: readonly [number, number, number] }): { a: Analyzed; f: AffineFacts } {
  const a = analyze(text, undefined, options);
  return { a, f: a.ctx.get(a.fn, affineAnalysis) };
}

/** The address of the instruction on the line containing `needle`. */
function addressAt(text: string, f: AffineFacts, a: Analyzed, needle: string): Form {
  const form = f.addressOf(a.at(lineOf(text, needle)));
  if (form === undefined) throw new Error(`no address form at '${needle}'`);
  return form;
}

describe('address forms', () => {
  const K = kernel(`\t.shared .align 4 .f32 smem[1024];
\tmov.u32 %r1, %tid.x;
\tmul.wide.u32 %rd1, %r1, 4;
\tmov.u64 %rd2, smem;
\tadd.s64 %rd3, %rd2, %rd1;
\tst.shared.f32 [%rd3], %f1;
\tld.shared.f32 %f2, [%rd3+4];
\tld.shared.f32 %f3, [smem+8];`);
  const { a, f } = facts(K);
  const st = lineOf(K, 'st.shared');

  it(`the address of the st.shared at line ${st} is smem + 4*tid.x`, () => {
    const form = addressAt(K, f, a, 'st.shared');
    expect(f.format(form)).toBe('&smem + 4*%tid.x');
    expect(form.mayWrap).toBe(false); // tid.x < 256, so 4*tid.x fits 32 bits
    const { base, offset } = f.baseOf(form);
    expect(base?.variable.name).toBe('smem');
    expect(f.format(offset)).toBe('4*%tid.x');
  });

  it('[reg+imm] and [var+imm] addresses add their constant', () => {
    expect(f.format(addressAt(K, f, a, 'ld.shared.f32 %f2'))).toBe('&smem + 4*%tid.x + 4');
    expect(f.format(addressAt(K, f, a, '[smem+8]'))).toBe('&smem + 8');
  });

  it('a register as read by an instruction, and as written by one', () => {
    const mul = a.at(lineOf(K, 'mul.wide'));
    expect(f.format(f.formAt(mul, '%r1')!)).toBe('%tid.x');
    expect(f.format(f.formAfter(mul, '%rd1')!)).toBe('4*%tid.x');
    expect(f.formAt(mul, '%r9')).toBeUndefined(); // not read there
  });
});

describe('cross-thread overlap (F036/F037)', () => {
  const K = kernel(`\t.shared .align 4 .b32 buf[256];
\tmov.u32 %r1, %tid.x;
\tshl.b32 %r2, %r1, 2;
\tmov.u32 %r3, buf;
\tadd.s32 %r4, %r3, %r2;
\tst.shared.u32 [%r4], %r1;
\tld.shared.u32 %r5, [%r4+4];
\tld.shared.u32 %r6, [%r4];
\tld.shared.u32 %r7, [buf];
\tld.shared.u32 %r8, [%r4+1024];`);
  const { a, f } = facts(K);
  const st = { form: addressAt(K, f, a, 'st.shared'), bytes: 4 };

  it('st [4*tid] then ld [4*tid+4] can touch the same bytes from different threads', () => {
    const ld = { form: addressAt(K, f, a, 'ld.shared.u32 %r5'), bytes: 4 };
    expect(f.sameAddressSameThreadOnly(st, ld)).toBe(false);
    const o = f.crossThreadOverlap(st, ld);
    expect(o.kind).toBe('cross-thread');
    // The storing thread is one above the loading one: thread t+1 writes what t reads.
    if (o.kind === 'cross-thread') expect(o.witness['δ%tid.x']).toBe(1);
  });

  it('st [4*tid] then ld [4*tid] touches the same address for the same thread only', () => {
    const ld = { form: addressAt(K, f, a, 'ld.shared.u32 %r6'), bytes: 4 };
    expect(f.crossThreadOverlap(st, ld).kind).toBe('same-thread-only');
    expect(f.sameAddressSameThreadOnly(st, ld)).toBe(true);
  });

  it('every thread reading buf[0] collides with thread 0 storing it', () => {
    const ld = { form: addressAt(K, f, a, '[buf]'), bytes: 4 };
    expect(f.crossThreadOverlap(st, ld).kind).toBe('cross-thread');
  });

  it('an 8-byte read at [4*tid] overlaps the next thread\'s 4-byte store', () => {
    const ld = { form: addressAt(K, f, a, 'ld.shared.u32 %r6'), bytes: 8 };
    expect(f.crossThreadOverlap(st, ld).kind).toBe('cross-thread');
  });

  it('a read 1024 bytes further is beyond every thread\'s store with 256 threads', () => {
    const ld = { form: addressAt(K, f, a, '[%r4+1024]'), bytes: 4 };
    expect(f.crossThreadOverlap(st, ld).kind).toBe('disjoint');
  });

  it('without a block size the hardware maximum (1024 threads) is assumed, and +1024 bytes collides', () => {
    const T = K.replace('.reqntid 256, 1, 1', '');
    const { a: a2, f: f2 } = facts(T);
    const st2 = { form: addressAt(T, f2, a2, 'st.shared'), bytes: 4 };
    const ld = { form: addressAt(T, f2, a2, '[%r4+1024]'), bytes: 4 };
    expect(f2.crossThreadOverlap(st2, ld).kind).toBe('cross-thread');
  });

  it('in a 2-D block, threads with equal tid.x but different tid.y collide when the address ignores tid.y', () => {
    const T = K.replace('.reqntid 256, 1, 1', '.reqntid 32, 8, 1');
    const { a: a2, f: f2 } = facts(T);
    const st2 = { form: addressAt(T, f2, a2, 'st.shared'), bytes: 4 };
    const ld = { form: addressAt(T, f2, a2, 'ld.shared.u32 %r6'), bytes: 4 };
    expect(f2.crossThreadOverlap(st2, ld).kind).toBe('cross-thread');
  });

  it('with the threads of each access bounded (guards), a store by tid < 16 and a load by tid >= 16 of [4*tid] never meet', () => {
    const ld = { form: addressAt(K, f, a, 'ld.shared.u32 %r6'), bytes: 4 };
    expect(f.crossThreadOverlap(st, ld, { threads: { a: [[0, 15], [0, 0], [0, 0]], b: [[16, 255], [0, 0], [0, 0]] } }).kind).toBe('disjoint');
    // Thread 0 alone stores buf[tid]; every thread loads buf[0]: threads 1..255 read thread 0's word.
    const ld0 = { form: addressAt(K, f, a, '[buf]'), bytes: 4 };
    const o = f.crossThreadOverlap(st, ld0, { threads: { a: [[0, 0], [0, 0], [0, 0]], b: [[0, 255], [0, 0], [0, 0]] } });
    expect(o.kind).toBe('cross-thread');
  });

  it('a value loaded per thread makes the answer unknown rather than guessed', () => {
    const T = kernel(`\t.shared .align 4 .b32 buf[256];
\tmov.u32 %r1, %tid.x;
\tshl.b32 %r2, %r1, 2;
\tld.shared.u32 %r3, [buf+%r2];
\tshl.b32 %r4, %r3, 2;
\tst.shared.u32 [buf+%r4], %r1;
\tld.shared.u32 %r5, [buf+%r4];`.replace(/\[buf\+(%r\d)\]/g, '[$1+0]'));
    const { a: a2, f: f2 } = facts(T);
    const st2 = { form: addressAt(T, f2, a2, 'st.shared'), bytes: 4 };
    const ld = { form: addressAt(T, f2, a2, 'ld.shared.u32 %r5'), bytes: 4 };
    const o = f2.crossThreadOverlap(st2, ld);
    expect(o.kind).toBe('unknown');
    expect(f2.sameAddressSameThreadOnly(st2, ld)).toBeUndefined();
  });
});

describe('shared-memory bank conflicts (F052)', () => {
  // A [32][32] float tile: thread t reads tile[t][k] (column access, row pitch 128 bytes).
  const tile = (cols: number): string => kernel(`\t.shared .align 4 .f32 tile[${32 * cols}];
\tmov.u32 %r1, %tid.x;
\tand.b32 %r2, %r1, 31;
\tmul.lo.s32 %r3, %r2, ${4 * cols};
\tmov.u32 %r4, tile;
\tadd.s32 %r5, %r4, %r3;
\tld.shared.f32 %f1, [%r5+12];
\tshl.b32 %r6, %r2, 2;
\tadd.s32 %r7, %r4, %r6;
\tld.shared.f32 %f2, [%r7];`);

  it('the ld.shared of a [32][32] float tile read by column has a 32-way bank conflict; padding to 33 removes it', () => {
    const K = tile(32);
    const { a, f } = facts(K);
    const c = f.bankConflictDegree(addressAt(K, f, a, '[%r5+12]'), 4)!;
    expect(c.strideBytes).toBe(128);
    expect(c.wavefronts).toBe(32);
    expect(c.degree).toBe(32);
    expect(c.padding).toEqual({ padBytes: 4, rowBytes: 132, rowWords: 33, degreeAfter: 1 });
    expect(c.swizzle).toEqual({ unitBytes: 4, period: 32 });
  });

  it('the same tile padded to [32][33] is conflict-free', () => {
    const K = tile(33);
    const { a, f } = facts(K);
    const c = f.bankConflictDegree(addressAt(K, f, a, '[%r5+12]'), 4)!;
    expect(c.strideBytes).toBe(132);
    expect(c.degree).toBe(1);
    expect(c.padding).toBeUndefined();
  });

  it('the tile read by row (lane stride 4 bytes) is conflict-free', () => {
    const K = tile(32);
    const { a, f } = facts(K);
    expect(f.bankConflictDegree(addressAt(K, f, a, 'ld.shared.f32 %f2'), 4)!.degree).toBe(1);
  });

  it('tid & 31 is the lane: stride 1 per lane; tid >> 5 is the same for all lanes of a warp', () => {
    const K = tile(32);
    const { a, f } = facts(K);
    const and = f.formAfter(a.at(lineOf(K, 'and.b32')), '%r2')!;
    expect(f.format(and)).toBe('%tid.x - 32*(%tid.x >> 5)');
    expect(f.laneStride(and)).toEqual({ stride: 1, align: 32, rem: 0, assumptions: [] });
  });

  it('a float4 linear access is not a conflict (4 quarter-warp phases, 4 wavefronts required)', () => {
    const K = kernel(`\t.shared .align 16 .f32 v[1024];
\tmov.u32 %r1, %tid.x;
\tshl.b32 %r2, %r1, 4;
\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [v+%r2];`.replace('[v+%r2]', '[%r3]').replace('\tld.shared', '\tmov.u32 %r4, v;\n\tadd.s32 %r3, %r4, %r2;\n\tld.shared'));
    const { a, f } = facts(K);
    const c = f.bankConflictDegree(addressAt(K, f, a, 'ld.shared.v4'), 16)!;
    expect(c).toMatchObject({ strideBytes: 16, lanesPerPhase: 8, wavefronts: 4, required: 4, degree: 1 });
  });

  it('8-byte accesses: stride 8 is conflict-free (half warps), stride 16 is 2-way', () => {
    const K = kernel(`\t.shared .align 8 .f64 d[1024];
\tmov.u32 %r1, %tid.x;
\tshl.b32 %r2, %r1, 3;
\tshl.b32 %r3, %r1, 4;
\tmov.u32 %r4, d;
\tadd.s32 %r5, %r4, %r2;
\tadd.s32 %r6, %r4, %r3;
\tld.shared.b64 %rd1, [%r5];
\tld.shared.b64 %rd2, [%r6];`);
    const { a, f } = facts(K);
    expect(f.bankConflictDegree(addressAt(K, f, a, '[%r5]'), 8)).toMatchObject({ lanesPerPhase: 16, wavefronts: 2, required: 2, degree: 1 });
    const strided = f.bankConflictDegree(addressAt(K, f, a, '[%r6]'), 8)!;
    expect(strided).toMatchObject({ wavefronts: 4, degree: 2 });
    expect(strided.padding?.degreeAfter).toBe(1);
  });

  it('all lanes reading one word is a broadcast, not a conflict', () => {
    const K = kernel(`\t.shared .align 4 .f32 s[32];
\tld.shared.f32 %f1, [s+4];`);
    const { a, f } = facts(K);
    expect(f.bankConflictDegree(addressAt(K, f, a, 'ld.shared'), 4)!.degree).toBe(1);
  });

  it('without a block size the lane model assumes blockDim.x is a multiple of 32, and says so', () => {
    const K = tile(32).replace('.reqntid 256, 1, 1', '');
    const { a, f } = facts(K);
    const c = f.bankConflictDegree(addressAt(K, f, a, '[%r5+12]'), 4)!;
    expect(c.degree).toBe(32);
    expect(c.assumptions.join(' ')).toMatch(/block size unknown/);
  });

  it('in a 16x16 block a warp spans two rows: an address in tid.x and tid.y has no single lane stride', () => {
    const K = kernel(`\t.shared .align 4 .f32 s[1024];
\tmov.u32 %r1, %tid.x;
\tmov.u32 %r2, %tid.y;
\tshl.b32 %r3, %r2, 6;
\tadd.s32 %r4, %r3, %r1;
\tshl.b32 %r5, %r4, 2;
\tmov.u32 %r6, s;
\tadd.s32 %r7, %r6, %r5;
\tld.shared.f32 %f1, [%r7];`, '.reqntid 16, 16, 1');
    const { a, f } = facts(K);
    expect(f.laneStride(addressAt(K, f, a, 'ld.shared'))).toBeUndefined();
    expect(f.bankConflictDegree(addressAt(K, f, a, 'ld.shared'), 4)).toBeUndefined();
  });
});

describe('wrap-around indices (t + 32) % 256', () => {
  const body = `\tmov.u32 %r1, %tid.x;
\tadd.s32 %r2, %r1, 32;
\trem.u32 %r3, %r2, 256;
\tand.b32 %r4, %r2, 255;
\tadd.s32 %r5, %r3, %r4;`;

  it('with .reqntid 128, tid.x + 32 < 256 never wraps: (t + 32) % 256 and (t + 32) & 255 are %tid.x + 32', () => {
    const K = kernel(body, '.reqntid 128, 1, 1');
    const { a, f } = facts(K);
    const use = a.at(lineOf(K, 'add.s32 %r5'));
    expect(f.format(f.formAt(use, '%r3')!)).toBe('%tid.x + 32');
    expect(f.format(f.formAt(use, '%r4')!)).toBe('%tid.x + 32');
  });

  it('with .reqntid 256 it wraps for tid.x ≥ 224, so the form keeps the shift: %tid.x + 32 − 256·((%tid.x + 32) >> 8)', () => {
    const K = kernel(body, '.reqntid 256, 1, 1');
    const { a, f } = facts(K);
    const form = f.formAt(a.at(lineOf(K, 'add.s32 %r5')), '%r3')!;
    expect(form.terms.some((t) => f.symbols[t.sym]!.kind === 'shr')).toBe(true);
  });
});

describe('global coalescing (F053)', () => {
  const K = kernel(`\tld.param.u64 %rd1, [out];
\tcvta.to.global.u64 %rd2, %rd1;
\tmov.u32 %r1, %ctaid.x;
\tmov.u32 %r2, %ntid.x;
\tmov.u32 %r3, %tid.x;
\tmad.lo.s32 %r4, %r1, %r2, %r3;
\tmul.wide.s32 %rd3, %r4, 4;
\tadd.s64 %rd4, %rd2, %rd3;
\tst.global.f32 [%rd4], %f1;
\tmul.wide.u32 %rd5, %r3, 128;
\tadd.s64 %rd6, %rd2, %rd5;
\tst.global.f32 [%rd6], %f1;`);
  const { a, f } = facts(K);

  it('blockIdx.x*blockDim.x + threadIdx.x with .reqntid 256 is 256*ctaid.x + tid.x; the float store is 4 sectors', () => {
    const form = addressAt(K, f, a, 'st.global.f32 [%rd4]');
    expect(f.format(form)).toBe('param(out) + 4*%tid.x + 1024*%ctaid.x (may wrap)');
    const s = f.sectorsPerRequest(form, 4)!;
    expect(s).toMatchObject({ strideBytes: 4, sectors: 4, minimal: 4, ratio: 1 });
  });

  it('a lane stride of 128 bytes touches 32 sectors for 4 sectors of data (8x)', () => {
    const s = f.sectorsPerRequest(addressAt(K, f, a, 'st.global.f32 [%rd6]'), 4)!;
    expect(s).toMatchObject({ strideBytes: 128, sectors: 32, minimal: 4, ratio: 8 });
  });

  it('without .reqntid, ntid.x*ctaid.x is one opaque uniform product: the lane stride is still 4', () => {
    const T = K.replace('.reqntid 256, 1, 1', '');
    const { a: a2, f: f2 } = facts(T);
    const form = addressAt(T, f2, a2, 'st.global.f32 [%rd4]');
    const prod = form.terms.map((t) => f2.symbols[t.sym]!).find((s) => s.kind === 'def');
    expect(prod?.name).toMatch(/^mad@L\d+\(product\)$/);
    expect(prod?.kind === 'def' && prod.element).toBe(PRODUCT); // what shared-races.ts compares with
    expect(prod?.uniform).toBe(true);
    expect(f2.laneStride(form)?.stride).toBe(4);
  });
});

describe('induction variables and loops', () => {
  const K = kernel(`\t.shared .align 4 .f32 s[4096];
\tld.param.u32 %r1, [n];
\tmov.u32 %r2, 0;
$OUTER:
\tmov.u32 %r3, 0;
\tmov.u32 %r10, s;
$INNER:
\tshl.b32 %r4, %r3, 2;
\tadd.s32 %r5, %r10, %r4;
\tld.shared.f32 %f1, [%r5];
\tadd.s32 %r10, %r10, 128;
\tadd.s32 %r3, %r3, 1;
\tsetp.lt.u32 %p1, %r3, 16;
\t@%p1 bra $INNER;
\tadd.s32 %r2, %r2, 1;
\tsetp.lt.u32 %p2, %r2, %r1;
\t@%p2 bra $OUTER;`);
  const { a, f } = facts(K);
  const byReg = (name: string) => f.inductionVariables().find((s) => s.register.name === name);
  const inner = lineOf(K, 'add.s32 %r3, %r3, 1');

  it(`the loop counter at line ${inner} is an induction variable starting at 0 step 1`, () => {
    const iv = byReg('%r3')!;
    expect(iv).toBeDefined();
    expect(f.format(iv.init)).toBe('0');
    expect(iv.constStep).toBe(1);
    expect(f.format(f.formAt(a.at(inner), '%r3')!)).toBe(iv.name);
  });

  it('the outer counter is an induction variable of the outer loop; the two loops differ', () => {
    const outer = byReg('%r2')!;
    expect(outer.constStep).toBe(1);
    expect(outer.loop).not.toBe(byReg('%r3')!.loop);
  });

  it('a pointer advanced by 128 each inner iteration is an induction variable of step 128 from &s', () => {
    const p = byReg('%r10')!;
    expect(f.format(p.init)).toBe('&s');
    expect(p.constStep).toBe(128);
    const form = addressAt(K, f, a, 'ld.shared');
    expect(coefOf(form, p.id)).toBe(1);
    expect(coefOf(form, byReg('%r3')!.id)).toBe(4);
  });

  it('induction variables are the same for all lanes: the loop read is a broadcast', () => {
    const c = f.bankConflictDegree(addressAt(K, f, a, 'ld.shared'), 4)!;
    expect(c.degree).toBe(1);
    expect(c.assumptions.some((x) => x.includes('same iteration'))).toBe(true);
  });

  it('a register updated by a non-constant, loop-varying amount is not an induction variable', () => {
    const T = kernel(`\tmov.u32 %r2, 1;
$L:
\tadd.s32 %r2, %r2, %r2;
\tsetp.lt.u32 %p1, %r2, 1000;
\t@%p1 bra $L;`);
    const { f: f2 } = facts(T);
    expect(f2.inductionVariables()).toEqual([]);
    expect(f2.symbols.some((s) => s.kind === 'join' && s.register.name === '%r2')).toBe(true);
  });
});

describe('joins, guards, scopes and wrap-around', () => {
  it('different values meeting after an if/else become one symbol for that join; equal values stay', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tsetp.lt.u32 %p1, %r1, 16;
\tmov.u32 %r9, 7;
\t@%p1 bra $A;
\tmov.u32 %r2, 4;
\tbra.uni $J;
$A:
\tmov.u32 %r2, 8;
$J:
\tadd.s32 %r3, %r2, %r9;`);
    const { a, f } = facts(K);
    const at = a.at(lineOf(K, 'add.s32 %r3'));
    expect(f.format(f.formAt(at, '%r9')!)).toBe('7');
    const j = f.formAt(at, '%r2')!;
    expect(j.terms).toHaveLength(1);
    const sym = f.symbols[j.terms[0]!.sym]!;
    expect(sym.kind).toBe('join');
    expect(sym.uniform).toBeUndefined(); // which arm ran depends on control, decided elsewhere
  });

  it('a guarded mov gives an opaque value that is thread-dependent when the guard is', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tsetp.eq.u32 %p1, %r1, 0;
\tmov.u32 %r2, 5;
\t@%p1 mov.u32 %r2, 9;
\tadd.s32 %r3, %r2, 1;`);
    const { a, f } = facts(K);
    const r2 = f.formAt(a.at(lineOf(K, 'add.s32 %r3')), '%r2')!;
    const sym = f.symbols[r2.terms[0]!.sym]!;
    expect(sym).toMatchObject({ kind: 'def', guarded: true, threadDependent: true, uniform: false });
  });

  it('registers of a nested { } scope are their own values', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\t{
\t.reg .b32 %t;
\tshl.b32 %t, %r1, 3;
\tmov.u32 %r2, %t;
\t}
\tadd.s32 %r3, %r2, 1;`);
    const { a, f } = facts(K);
    expect(f.format(f.formAt(a.at(lineOf(K, 'add.s32 %r3')), '%r2')!)).toBe('8*%tid.x');
  });

  it('32-bit arithmetic wraps: tid + 0xffffffff is tid - 1, and widening it may wrap', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tadd.u32 %r2, %r1, 4294967295;
\tcvt.u64.u32 %rd1, %r2;
\tcvt.u64.u32 %rd2, %r1;
\tcvt.s64.s32 %rd3, %r2;`);
    const { a, f } = facts(K);
    expect(f.format(f.formAfter(a.at(lineOf(K, 'add.u32')), '%r2')!)).toBe('%tid.x - 1');
    expect(f.formAfter(a.at(lineOf(K, '%rd1, %r2')), '%rd1')!.mayWrap).toBe(true); // tid = 0 gives 2^32 - 1
    expect(f.formAfter(a.at(lineOf(K, '%rd2, %r1')), '%rd2')!.mayWrap).toBe(false);
    expect(f.formAfter(a.at(lineOf(K, 'cvt.s64.s32')), '%rd3')!.mayWrap).toBe(false); // sign extension of -1..254
  });

  it('and/or: disjoint bits are added; any other mask is opaque', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tshl.b32 %r2, %r1, 4;
\tor.b32 %r3, %r2, 3;
\tand.b32 %r4, %r1, 85;
\tand.b32 %r5, %r2, -16;`);
    const { a, f } = facts(K);
    expect(f.format(f.formAfter(a.at(lineOf(K, 'or.b32')), '%r3')!)).toBe('16*%tid.x + 3');
    expect(f.symbols[f.formAfter(a.at(lineOf(K, 'and.b32 %r4')), '%r4')!.terms[0]!.sym]!.kind).toBe('def');
    expect(f.format(f.formAfter(a.at(lineOf(K, 'and.b32 %r5')), '%r5')!)).toBe('16*%tid.x');
  });

  it('kernel parameters are uniform symbols; the same parameter loaded twice is one symbol', () => {
    const K = kernel(`\tld.param.u32 %r1, [n];
\tld.param.u32 %r2, [n];
\tsub.s32 %r3, %r1, %r2;
\tmov.u32 %r4, %tid.x;
\tshl.b32 %r5, %r4, 2;
\tld.shared.u32 %r6, [%r5];`);
    const { a, f } = facts(K);
    expect(f.format(f.formAfter(a.at(lineOf(K, 'sub.s32')), '%r3')!)).toBe('0');
    const p = f.symbols.find((s) => s.kind === 'param')!;
    expect(p).toMatchObject({ name: 'param(n)', uniform: true, threadDependent: false });
    // A value loaded from a thread-indexed address descends from %tid.
    const loaded = f.formAfter(a.at(lineOf(K, 'ld.shared')), '%r6')!;
    expect(f.symbols[loaded.terms[0]!.sym]!.threadDependent).toBe(true);
  });

  it('instructions that are never reached have no forms', () => {
    const K = kernel(`\tbra.uni $END;
\tmov.u32 %r1, %tid.x;
$END:`);
    const { a, f } = facts(K);
    expect(f.formAfter(a.at(lineOf(K, 'mov.u32 %r1')), '%r1')).toBeUndefined();
  });
});

describe('every committed fixture', () => {
  // Both analyses on every function: they terminate and give the same facts twice.
  const snapshot = (text: string): string[] => {
    const ctx = new AnalysisContext(parsePtx(text).module);
    const out: string[] = [];
    for (const fn of ctx.functions) {
      const f = ctx.get(fn, affineAnalysis);
      const r = ctx.get(fn, rangeAnalysis);
      for (const ins of fn.instructions) {
        const addr = f.addressOf(ins);
        let line = `${fn.name}:${ins.index}`;
        if (addr !== undefined) line += ` @${f.format(addr)}`;
        for (const o of ins.node.operands) {
          if (o.kind !== 'Name') continue;
          const form = f.formAt(ins, o.name);
          const range = r.rangeAt(ins, o.name);
          if (form !== undefined) line += ` ${o.name}=${f.format(form)}`;
          if (range !== undefined) line += `[${range.lo},${range.hi}]`;
        }
        out.push(line);
      }
      out.push(`ivs ${f.inductionVariables().map((s) => `${s.name}:${f.format(s.init)}+${f.format(s.step)}`).join(' ')}`);
    }
    return out;
  };
  for (const input of committedPtx()) {
    it(`${input.name}: terminates, identical on two runs`, () => {
      const first = snapshot(input.text);
      expect(snapshot(input.text)).toEqual(first);
    });
  }
});
