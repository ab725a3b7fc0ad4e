// Value ranges, read like the bug reports they support: out-of-bounds shared
// indexing (F054) needs the range of a thread index within the block size.
import { describe, expect, it } from 'vitest';
import { affineAnalysis } from '../../../src/cfg/dataflow/affine.js';
import { isUnknown, rangeAnalysis, type RangeFacts } from '../../../src/cfg/dataflow/ranges.js';
import { uniformityAnalysis } from '../../../src/cfg/dataflow/uniformity.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

function kernel(body: string, directives = '.reqntid 256, 1, 1'): string {
  return `${HEADER}
.visible .entry k(.param .u64 out, .param .u32 n)
${directives}
{
\t.reg .pred %p<8>;
\t.reg .b16 %rs<8>;
\t.reg .b32 %r<40>;
\t.reg .b64 %rd<40>;
${body}
\tret;
}
`;
}

function ranges(text: string, options?: { block?: readonly [number, number, number] }): { a: Analyzed; r: RangeFacts; at: (needle: string, reg: string) => unknown; after: (needle: string, reg: string) => unknown } {
  const a = analyze(text, undefined, options);
  const r = a.ctx.get(a.fn, rangeAnalysis);
  const plain = (i: { lo: number; hi: number } | undefined): unknown => (i === undefined ? undefined : isUnknown(i) ? 'unknown' : [i.lo, i.hi]);
  return {
    a, r,
    at: (needle, reg) => plain(r.rangeAt(a.at(lineOf(text, needle)), reg)),
    after: (needle, reg) => plain(r.rangeAfter(a.at(lineOf(text, needle)), reg)),
  };
}

describe('thread indices and the block size', () => {
  const body = `\tmov.u32 %r5, %tid.x;
\tmov.u32 %r6, %laneid;
\tmov.u32 %r7, %ntid.x;
\tmov.u32 %r8, %ctaid.y;
\tadd.s32 %r9, %r5, %r6;`;
  const K = kernel(body);
  const line = lineOf(K, 'add.s32 %r9');

  it(`%r5 at line ${line} is in [0, 255] with .reqntid 256 and unknown without it`, () => {
    expect(ranges(K).at('add.s32 %r9', '%r5')).toEqual([0, 255]);
    expect(ranges(kernel(body, '')).at('add.s32 %r9', '%r5')).toBe('unknown');
  });

  it('.maxntid bounds the thread count, so every dimension: tid.x and tid.y < 512, ntid.x in [1, 512]; --block is exact', () => {
    const m = ranges(kernel(`${body}\n\tmov.u32 %r10, %tid.y;`, '.maxntid 512, 1, 1'));
    expect(m.after('%tid.x', '%r5')).toEqual([0, 511]);
    expect(m.after('%tid.y', '%r10')).toEqual([0, 511]); // a 16x32 launch is allowed
    expect(m.after('%ntid.x', '%r7')).toEqual([1, 512]);
    const o = ranges(kernel(body, ''), { block: [128, 1, 1] });
    expect(o.after('%tid.x', '%r5')).toEqual([0, 127]);
    expect(o.after('%ntid.x', '%r7')).toEqual([128, 128]);
  });

  it('%laneid is [0, 31] and %ctaid.y is bounded by the grid limit, with or without a block size', () => {
    const u = ranges(kernel(body, ''));
    expect(u.after('%laneid', '%r6')).toEqual([0, 31]);
    expect(u.after('%ctaid.y', '%r8')).toEqual([0, 65534]);
    expect(u.after('add.s32 %r9', '%r9')).toBe('unknown');
  });
});

describe('arithmetic', () => {
  const K = kernel(`\tmov.u32 %r1, %tid.x;
\tand.b32 %r2, %r1, 31;
\tshr.u32 %r3, %r1, 5;
\trem.u32 %r4, %r1, 10;
\tld.param.u32 %r5, [n];
\tmin.u32 %r6, %r5, 77;
\tmax.s32 %r7, %r5, 3;
\tsetp.lt.u32 %p1, %r5, 9;
\tselp.b32 %r8, 1, 5, %p1;
\tshl.b32 %r9, %r1, 2;
\tmul.wide.u32 %rd1, %r1, 8;
\tmad.lo.s32 %r10, %r3, 32, %r2;
\tsub.s32 %r11, %r1, 1;
\tld.global.u8 %rs1, [%rd1];
\tcvt.u32.u16 %r12, %rs1;
\tld.global.u32 %r13, [%rd1];
\tdiv.u32 %r14, %r1, 3;
\tand.b32 %r15, %r5, 255;
\tor.b32 %r16, %r15, 256;
\tneg.s32 %r17, %r2;
\tadd.s32 %r18, %r11, 0;`);
  const { after } = ranges(K);

  it('and with a mask, rem and shr of tid.x stay within their bounds', () => {
    expect(after('and.b32 %r2', '%r2')).toEqual([0, 31]);
    expect(after('shr.u32', '%r3')).toEqual([0, 7]);
    expect(after('rem.u32', '%r4')).toEqual([0, 9]);
    expect(after('div.u32', '%r14')).toEqual([0, 85]);
  });

  it('min/max against a constant bound an unknown parameter on one side', () => {
    expect(after('min.u32', '%r6')).toEqual([0, 77]);
    expect(after('max.s32', '%r7')).toEqual([3, 2 ** 31 - 1]);
  });

  it('selp picks one of its operands', () => {
    expect(after('selp.b32', '%r8')).toEqual([1, 5]);
  });

  it('shl, mul.wide and mad scale the interval', () => {
    expect(after('shl.b32 %r9', '%r9')).toEqual([0, 1020]);
    expect(after('mul.wide.u32', '%rd1')).toEqual([0, 2040]);
    expect(after('mad.lo.s32', '%r10')).toEqual([0, 255]);
  });

  it('tid.x - 1 is [-1, 254]: read unsigned it is 0xffffffff for thread 0, so any value', () => {
    const { r, a } = ranges(K);
    expect(after('sub.s32 %r11', '%r11')).toEqual([-1, 254]);
    const use = a.at(lineOf(K, 'add.s32 %r18'));
    expect(r.viewAt(use, '%r11', true)).toEqual({ lo: -1, hi: 254 });
    expect(r.viewAt(use, '%r11', false)).toEqual({ lo: 0, hi: 2 ** 32 - 1 });
  });

  it('a byte load is [0, 255] and stays so when widened; a word load is unknown', () => {
    expect(after('ld.global.u8', '%rs1')).toEqual([0, 255]);
    expect(after('cvt.u32.u16', '%r12')).toEqual([0, 255]);
    expect(after('ld.global.u32', '%r13')).toBe('unknown');
  });

  it('or of disjoint ranges stays below the next power of two', () => {
    expect(after('or.b32', '%r16')).toEqual([256, 511]);
    expect(after('neg.s32', '%r17')).toEqual([-31, 0]);
  });
});

describe('bit masks and radix digits (CUB: (key >> shift) & bmsk(0, bits))', () => {
  const K = kernel(`\tmov.u32 %r1, 0;
\tmov.u32 %r2, 4;
\tbmsk.clamp.b32 %r3, %r1, %r2;
\tbmsk.wrap.b32 %r4, 1, 2;
\tbmsk.clamp.b32 %r5, %r1, 40;
\tbmsk.wrap.b32 %r6, %r1, 32;
\tld.param.u32 %r7, [n];
\tmin.u32 %r8, %r7, 5;
\tbmsk.clamp.b32 %r9, %r1, %r8;
\tbmsk.clamp.b32 %r10, %r7, %r2;
\tshr.b32 %r11, %r7, 3;
\tand.b32 %r12, %r3, %r11;
\tand.b32 %r13, %r11, %r9;
\trem.u32 %r14, %r7, 12;
\tand.b32 %r15, %r7, 1000;
\tmin.s32 %r16, %r7, 4;
\tbmsk.clamp.b32 %r17, %r1, %r16;
\tadd.s32 %r18, %r17, 0;`);
  const { after } = ranges(K);

  it('bmsk of constants is the ISA value: (0, 4) is 15, wrap (1, 2) is 6, clamp (0, 40) every bit, wrap (0, 32) none', () => {
    expect(after('bmsk.clamp.b32 %r3', '%r3')).toEqual([15, 15]);
    expect(after('bmsk.wrap.b32 %r4', '%r4')).toEqual([6, 6]);
    expect(after('bmsk.clamp.b32 %r5', '%r5')).toEqual([2 ** 32 - 1, 2 ** 32 - 1]);
    expect(after('bmsk.wrap.b32 %r6', '%r6')).toEqual([0, 0]);
  });

  it('bmsk.clamp from bit 0 of a width in [0, 5] is in [0, 31]; from an unknown start it is any value', () => {
    expect(after('bmsk.clamp.b32 %r9', '%r9')).toEqual([0, 31]);
    expect(after('bmsk.clamp.b32 %r10', '%r10')).toBe('unknown');
  });

  it('a width of min.s32(n, 4) may be negative, which clamp reads as ≥ 32: every bit, so unknown', () => {
    expect(after('bmsk.clamp.b32 %r17', '%r17')).toBe('unknown');
  });

  it('the digit (key >> 3) & bmsk(0, 4) is in [0, 15], whichever operand the mask is', () => {
    expect(after('and.b32 %r12', '%r12')).toEqual([0, 15]);
    expect(after('and.b32 %r13', '%r13')).toEqual([0, 31]);
  });

  it('rem.u32 of an unknown by 12 is in [0, 11]; and with the constant 1000 is in [0, 1000]', () => {
    expect(after('rem.u32 %r14', '%r14')).toEqual([0, 11]);
    expect(after('and.b32 %r15', '%r15')).toEqual([0, 1000]);
  });

  it('a digit bin ((key >> 3) & bmsk(0, 4)) << 9 & 3584 is in [0, 3584], not [-4096, 7680]: its two affine terms cancel', () => {
    // affine.ts writes (512·d) & 4095 as 512·d − 4096·((512·d) >> 12); the low 9 bits are zero, so at most 4096 − 512.
    const D = kernel(`\t.shared .align 4 .b8 smem[4640];
\tld.param.u32 %r1, [n];
\tshr.b32 %r2, %r1, 3;
\tbmsk.clamp.b32 %r3, 0, 4;
\tand.b32 %r4, %r3, %r2;
\tshl.b32 %r5, %r4, 9;
\tand.b32 %r6, %r5, 3584;
\tmov.u32 %r7, smem;
\tadd.s32 %r8, %r7, %r6;
\tst.shared.u16 [%r8+1054], %rs1;`);
    const a = analyze(D);
    const f = a.ctx.get(a.fn, affineAnalysis);
    const r = a.ctx.get(a.fn, rangeAnalysis);
    const { offset } = f.baseOf(f.addressOf(a.at(lineOf(D, 'st.shared')))!);
    expect(r.formRange(offset)).toEqual({ lo: 1054, hi: 4638 });
  });

  it('the cancelling pair is not used where the shifted value wraps: (tid.x − 64) & 4095 is 4032 for thread 0, so the range is not [0, 191]', () => {
    const D = kernel(`\t.shared .align 4 .b8 smem[8192];
\tmov.u32 %r1, %tid.x;
\tadd.s32 %r2, %r1, -64;
\tand.b32 %r3, %r2, 4095;
\tmov.u32 %r5, smem;
\tadd.s32 %r6, %r5, %r3;
\tst.shared.u8 [%r6], %rs1;`);
    const a = analyze(D);
    const f = a.ctx.get(a.fn, affineAnalysis);
    const r = a.ctx.get(a.fn, rangeAnalysis);
    const { offset } = f.baseOf(f.addressOf(a.at(lineOf(D, 'st.shared')))!);
    // Representatives modulo 2^32: thread 0's 4032 is −2^32 + 4032, so the range reaches below 0 (no check reads it as in bounds).
    const got = r.formRange(offset);
    expect(got.lo <= -(2 ** 32) + 4032 && got.hi >= 191).toBe(true);
  });
});

describe('branches, guards and loops', () => {
  it('a branch on tid.x < 64 refines tid.x to [0, 63] on one edge and [64, 255] on the other', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tsetp.ge.u32 %p1, %r1, 64;
\t@%p1 bra $HIGH;
\tshl.b32 %r2, %r1, 2;
\tbra.uni $END;
$HIGH:
\tshl.b32 %r3, %r1, 2;
$END:`);
    const { at } = ranges(K);
    expect(at('shl.b32 %r2', '%r1')).toEqual([0, 63]);
    expect(at('shl.b32 %r3', '%r1')).toEqual([64, 255]);
  });

  it('the refinement also holds without a block size (tid.x < 64 in the taken arm)', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tsetp.lt.u32 %p1, %r1, 64;
\t@!%p1 bra $END;
\tshl.b32 %r2, %r1, 2;
$END:`, '');
    expect(ranges(K).at('shl.b32 %r2', '%r1')).toEqual([0, 63]);
  });

  it('a guarded instruction reads the range its guard establishes; the result merges with the old value', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tmov.u32 %r2, 0;
\tsetp.lt.s32 %p1, %r1, 10;
\t@%p1 add.s32 %r2, %r1, 1000;
\tadd.s32 %r3, %r2, 0;`);
    const { at, after } = ranges(K);
    expect(at('@%p1 add.s32', '%r1')).toEqual([0, 9]);
    expect(after('@%p1 add.s32', '%r2')).toEqual([0, 1009]);
  });

  it('tid.x - 1 under tid.x > 0 is [0, 254]', () => {
    const K = kernel(`\tmov.u32 %r1, %tid.x;
\tsetp.eq.u32 %p1, %r1, 0;
\t@%p1 bra $END;
\tsub.s32 %r2, %r1, 1;
$END:`);
    expect(ranges(K).after('sub.s32 %r2', '%r2')).toEqual([0, 254]);
  });

  it('a counter from 0 while < 100 is [0, 99] in the body and exactly 100 after the loop', () => {
    const K = kernel(`\tmov.u32 %r1, 0;
$L:
\tshl.b32 %r2, %r1, 2;
\tadd.s32 %r1, %r1, 1;
\tsetp.lt.u32 %p1, %r1, 100;
\t@%p1 bra $L;
\tadd.s32 %r3, %r1, 0;`);
    const { at } = ranges(K);
    expect(at('shl.b32 %r2', '%r1')).toEqual([0, 99]);
    expect(at('add.s32 %r3', '%r1')).toEqual([100, 100]);
  });

  it('nested loops: the inner counter is [0, 15] and the outer [0, 7]', () => {
    const K = kernel(`\tmov.u32 %r1, 0;
$OUTER:
\tmov.u32 %r2, 0;
$INNER:
\tmad.lo.s32 %r3, %r1, 16, %r2;
\tadd.s32 %r2, %r2, 1;
\tsetp.ne.s32 %p1, %r2, 16;
\t@%p1 bra $INNER;
\tadd.s32 %r1, %r1, 1;
\tsetp.lt.s32 %p2, %r1, 8;
\t@%p2 bra $OUTER;`);
    const { at, after } = ranges(K);
    expect(at('mad.lo.s32', '%r1')).toEqual([0, 7]);
    expect(at('mad.lo.s32', '%r2')).toEqual([0, 15]);
    expect(after('mad.lo.s32', '%r3')).toEqual([0, 127]);
  });

  it('a loop bounded by a register (i < n) widens past every constant, and terminates', () => {
    const K = kernel(`\tld.param.u32 %r9, [n];
\tmov.u32 %r1, 0;
$L:
\tadd.s32 %r1, %r1, 4;
\tsetp.lt.u32 %p1, %r1, %r9;
\t@%p1 bra $L;
\tadd.s32 %r3, %r1, 0;`);
    // i < n (unsigned) only says i ≤ 2^32 − 2.
    expect(ranges(K).at('add.s32 %r1', '%r1')).toEqual([0, 2 ** 32 - 2]);
  });

  it('a signed loop bound: i from 0 while i <= 31 (step 1) never passes 31 inside', () => {
    const K = kernel(`\tmov.u32 %r1, 0;
$L:
\tshl.b32 %r2, %r1, 2;
\tadd.s32 %r1, %r1, 1;
\tsetp.le.s32 %p1, %r1, 31;
\t@%p1 bra $L;`);
    expect(ranges(K).at('shl.b32 %r2', '%r1')).toEqual([0, 31]);
  });
});

describe('reduction loops: s = blockDim.x / 2, s >>= 1 (or /= 2) each pass', () => {
  // The pass count is another register, so no setp compares s with a constant
  // and widening has no threshold for it: its lower bound stops at 0.
  const loop = (update: string, directives: string): string => kernel(`\t.shared .align 4 .b32 smem[512];
\tmov.u32 %r1, %tid.x;
\tmov.u32 %r2, %ntid.x;
\tshr.u32 %r3, %r2, 1;
\tmov.u32 %r10, smem;
\tmov.u32 %r20, 0;
$L:
\tsetp.ge.u32 %p2, %r1, %r3;
\t@%p2 bra $SKIP;
\tadd.s32 %r4, %r3, %r1;
\tshl.b32 %r5, %r4, 2;
\tadd.s32 %r6, %r10, %r5;
\tld.shared.u32 %r7, [%r6];
$SKIP:
\tbar.sync 0;
\t${update}
\tadd.s32 %r20, %r20, 1;
\tsetp.lt.u32 %p3, %r20, 8;
\t@%p3 bra $L;`, directives);

  it('with .reqntid 256, s at the loop head is in [0, 128] (not [0, 2^31 − 1]), and tid.x + s under tid.x < s in [1, 255]', () => {
    const { at, after } = ranges(loop('shr.u32 %r3, %r3, 1;', '.reqntid 256, 1, 1'));
    expect(at('setp.ge.u32 %p2', '%r3')).toEqual([0, 128]);
    expect(after('add.s32 %r4', '%r4')).toEqual([1, 255]);
  });

  it('div.u32 by 2 does the same; with .maxntid 512 s is in [0, 256]', () => {
    expect(ranges(loop('div.u32 %r3, %r3, 2;', '.reqntid 256, 1, 1')).at('setp.ge.u32 %p2', '%r3')).toEqual([0, 128]);
    expect(ranges(loop('shr.u32 %r3, %r3, 1;', '.maxntid 512, 1, 1')).at('setp.ge.u32 %p2', '%r3')).toEqual([0, 256]);
  });

  it('without a block size s is only [0, 2^31 − 1] (ntid.x unknown, halved), and an update that can go below 0 (s − 1) is not floored at 0', () => {
    expect(ranges(loop('shr.u32 %r3, %r3, 1;', '')).at('setp.ge.u32 %p2', '%r3')).toEqual([0, 2 ** 31 - 1]);
    expect(ranges(loop('add.s32 %r3, %r3, -1;', '.reqntid 256, 1, 1')).at('setp.ge.u32 %p2', '%r3')).toBe('unknown');
  });

  it('s is CTA-uniform in the body (uniformity.ts: a uniform start, a uniform update, a loop exit on a uniform counter)', () => {
    const K = loop('shr.u32 %r3, %r3, 1;', '.reqntid 256, 1, 1');
    const a = analyze(K);
    const u = a.ctx.get(a.fn, uniformityAnalysis);
    expect(u.isUniform(a.at(lineOf(K, 'add.s32 %r4')).index, a.fn.registers.find((r) => r.name === '%r3')!, 'cta')).toBe(true);
  });
});

describe('ranges of address forms (F054)', () => {
  const body = `\t.shared .align 4 .b32 smem[256];
\tmov.u32 %r1, %tid.x;
\tshl.b32 %r2, %r1, 2;
\tmov.u32 %r3, smem;
\tadd.s32 %r4, %r3, %r2;
\tst.shared.u32 [%r4+4], %r1;`;

  it('smem + 4*tid.x + 4 with .reqntid 256 reaches byte offset 1020, past a 1024-byte array\'s last word', () => {
    const K = kernel(body);
    const a = analyze(K);
    const f = a.ctx.get(a.fn, affineAnalysis);
    const r = a.ctx.get(a.fn, rangeAnalysis);
    const { base, offset } = f.baseOf(f.addressOf(a.at(lineOf(K, 'st.shared')))!);
    expect(base?.variable.size).toBe(1024);
    expect(r.formRange(offset)).toEqual({ lo: 4, hi: 1024 });
  });

  it('without a block size the offset has no upper bound (F054 is then n/a)', () => {
    const K = kernel(body, '');
    const a = analyze(K);
    const f = a.ctx.get(a.fn, affineAnalysis);
    const r = a.ctx.get(a.fn, rangeAnalysis);
    const { offset } = f.baseOf(f.addressOf(a.at(lineOf(K, 'st.shared')))!);
    expect(isUnknown(r.formRange(offset))).toBe(true);
  });

  it('an induction variable takes its range from the loop header', () => {
    const K = kernel(`\t.shared .align 4 .b32 smem[64];
\tmov.u32 %r1, 0;
$L:
\tshl.b32 %r2, %r1, 2;
\tmov.u32 %r3, smem;
\tadd.s32 %r4, %r3, %r2;
\tst.shared.u32 [%r4], %r1;
\tadd.s32 %r1, %r1, 1;
\tsetp.lt.u32 %p1, %r1, 64;
\t@%p1 bra $L;`);
    const a = analyze(K);
    const f = a.ctx.get(a.fn, affineAnalysis);
    const r = a.ctx.get(a.fn, rangeAnalysis);
    const iv = f.inductionVariables()[0]!;
    expect(r.symbolRange(iv)).toEqual({ lo: 0, hi: 63 });
    expect(r.formRange(f.baseOf(f.addressOf(a.at(lineOf(K, 'st.shared')))!).offset)).toEqual({ lo: 0, hi: 252 });
  });
});
