// Liveness and register pressure on small hand-written kernels: which
// registers are live where, and the peak counts (data registers, 32-bit slots,
// predicates apart).
import { describe, expect, it } from 'vitest';
import { livenessAnalysis, type Liveness } from '../../../src/cfg/dataflow/liveness.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

interface Kernel {
  readonly a: Analyzed;
  readonly live: Liveness;
  line(needle: string): number;
  /** Register names live just before / after the needle's line. */
  before(needle: string): string[];
  after(needle: string): string[];
  /** Register names live at the start / end of the needle line's block. */
  blockIn(needle: string): string[];
  blockOut(needle: string): string[];
}

function kernel(body: string, fnName?: string): Kernel {
  const text = HEADER + body;
  const a = analyze(text, fnName);
  const live = a.ctx.get(a.fn, livenessAnalysis);
  const cfg = a.ctx.cfg(a.fn);
  const line = (needle: string): number => lineOf(text, needle);
  const names = (ids: number[]): string[] => ids.map((r) => a.fn.registers[r]!.name).sort();
  const index = (needle: string): number => a.at(line(needle)).index;
  return {
    a, live, line,
    before: (needle) => names(live.liveBefore(index(needle))),
    after: (needle) => names(live.liveAfter(index(needle))),
    blockIn: (needle) => names(live.liveIn(cfg.blockOf[index(needle)]!)),
    blockOut: (needle) => names(live.liveOut(cfg.blockOf[index(needle)]!)),
  };
}

describe('live ranges', () => {
  const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];          // load n
  mov.u32 %r2, 0;                 // init
  mov.u32 %r6, 5;                 // dead write
LOOP:
  add.s32 %r2, %r2, 1;            // increment
  setp.lt.u32 %p1, %r2, %r1;      // compare
  @%p1 bra LOOP;                  // latch
  add.s32 %r3, %r2, 7;            // after loop
  ret;
}`);

  it('n (%r1) is live through the whole loop, the counter %r2 around its back edge', () => {
    expect(k.blockIn('increment')).toEqual(['%r1', '%r2']);
    expect(k.blockOut('latch')).toEqual(['%r1', '%r2']);
    expect(k.after('compare')).toEqual(['%p1', '%r1', '%r2']);
  });

  it('nothing is live after the last read, and a value nobody reads is never live', () => {
    expect(k.after('after loop')).toEqual([]);
    expect(k.after('dead write')).toEqual(['%r1', '%r2']);
    expect(k.before('init')).toEqual(['%r1']);
  });

  it('at entry nothing is live: every read is preceded by a write', () => {
    expect(k.live.liveAtEntry()).toEqual([]);
  });
});

describe('guarded writes, parameters and returns', () => {
  it('a guarded write does not end the old value\'s life: it may survive', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;                 // old value
  setp.gt.u32 %p1, %r1, 4;        // guard
  @%p1 mov.u32 %r2, 1;            // guarded write
  add.s32 %r3, %r2, 1;
  ret;
}`);
    expect(k.before('guarded write')).toEqual(['%p1', '%r2']);
    expect(k.after('old value')).toContain('%r2');
  });

  it('a .func reads its parameter on entry and its return register is live at the exit', () => {
    const k = kernel(`
.func (.reg .b32 q) g(.reg .b32 b, .reg .b32 c)
{
  add.s32 q, b, 1;                // write q
  ret;                            // return
}`);
    const names = k.live.liveAtEntry().map((r) => k.a.fn.registers[r]!.name);
    expect(names).toEqual(['b']);
    expect(k.before('return')).toEqual(['q']);
    expect(k.after('write q')).toEqual(['q']);
  });

  it('a read with no write before it on some path is live at entry (an undefined value)', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  setp.gt.u32 %p1, %r1, 4;
  @%p1 bra SKIP;
  mov.u32 %r2, 1;
SKIP:
  add.s32 %r3, %r2, 1;            // reads maybe-undefined
  ret;
}`);
    expect(k.live.liveAtEntry().map((r) => k.a.fn.registers[r]!.name)).toEqual(['%r2']);
  });
});

describe('register pressure', () => {
  const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f64 %fd<4>;
  ld.param.u64 %rd1, [out];       // 64-bit pointer
  mov.u32 %r1, 1;
  mov.u32 %r2, 2;
  mov.f64 %fd1, 0d3FF0000000000000;
  setp.eq.u32 %p1, %r1, %r2;
  setp.ne.u32 %p2, %r1, %r2;      // peak
  selp.b32 %r3, %r1, %r2, %p1;
  selp.b32 %r4, %r3, %r2, %p2;
  cvt.rzi.s32.f64 %r5, %fd1;
  add.s32 %r6, %r4, %r5;
  st.global.u32 [%rd1], %r6;
  ret;
}`);

  it('peaks: 4 data registers (%rd1 %r1 %r2 %fd1) in 6 32-bit slots (64-bit ones count two), and 2 predicates apart', () => {
    const peak = k.live.peak;
    expect(k.before('peak')).toEqual(['%fd1', '%p1', '%r1', '%r2', '%rd1']);
    expect(peak.registers.count).toBe(4);
    expect(peak.slots32.count).toBe(6);
    expect(peak.predicates.count).toBe(2);
    expect(k.a.fn.instructions[peak.predicates.at]!.node.range.line).toBe(k.line('peak'));
    expect(peak.predicates.point).toBe('after');
  });

  it('per-instruction counts before each instruction agree with the live sets', () => {
    for (const ins of k.a.fn.instructions) {
      const ids = k.live.liveBefore(ins.index);
      const regs = ids.filter((r) => k.live.slotsOf(r) > 0);
      expect(k.live.registersBefore[ins.index]).toBe(regs.length);
      expect(k.live.slotsBefore[ins.index]).toBe(regs.reduce((s, r) => s + k.live.slotsOf(r), 0));
      expect(k.live.predicatesBefore[ins.index]).toBe(ids.length - regs.length);
    }
  });
});
