// Load taint on small hand-written kernels: where a stored value, a store
// address or a branch condition comes from, and the chain of instructions it
// flowed through (line numbers of the kernel text).
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../../src/cfg/context.js';
import { MAX_CHAIN, TAINT, sourcesOf, taintAnalysis, type TaintChain, type TaintFacts } from '../../../src/cfg/dataflow/taint.js';
import { parsePtx } from '../../../src/parser/parse.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';
import { committedPtx } from '../../helpers/corpus.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

interface Kernel {
  readonly a: Analyzed;
  readonly t: TaintFacts;
  line(needle: string): number;
}

function kernel(body: string, fnName?: string): Kernel {
  const text = HEADER + body;
  const a = analyze(text, fnName);
  return { a, t: a.ctx.get(a.fn, taintAnalysis), line: (needle) => lineOf(text, needle) };
}

/** A chain as `line mnemonic` strings, source first. */
const show = (c: TaintChain | undefined): string[] => (c === undefined ? [] : c.steps.map((s) => `${s.line} ${s.mnemonic}`));

describe('a block reduction (F081/F082 shapes)', () => {
  const k = kernel(`
.visible .entry reduce(.param .u64 out, .param .u64 idx)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<10>;
  .reg .f32 %f<6>;
  .shared .align 4 .b8 sdata[512];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, sdata;
  ld.shared.f32 %f1, [%r1];
  ld.shared.f32 %f2, [%r1+4];
  add.f32 %f3, %f1, %f2;
  mov.u32 %r2, %ctaid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.f32 [%rd4], %f3;              // sum store
  st.global.f32 [%rd4+4], %f1;            // moved store
  ld.shared.u32 %r3, [%r1+8];
  mul.wide.u32 %rd5, %r3, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f2;              // scatter store
  ret;
}
`);

  it('the value stored by the sum store comes from ld.shared via add.f32', () => {
    const v = k.t.storedValue(k.a.at(k.line('sum store')))!;
    expect(sourcesOf(v.any)).toEqual(['shared']);
    expect(v.moved & TAINT.shared).toBe(0); // computed, not merely moved
    expect(show(k.t.explain(k.a.at(k.line('sum store')), v, 'shared'))).toEqual([
      `${k.line('ld.shared.f32 %f1')} ld.shared.f32`,
      `${k.line('add.f32')} add.f32`,
      `${k.line('sum store')} st.global.f32`,
    ]);
  });

  it('the moved store writes a value ld.shared loaded, through data movement only', () => {
    const i = k.a.at(k.line('moved store'));
    const v = k.t.storedValue(i)!;
    expect(sourcesOf(v.moved)).toEqual(['shared']);
    expect(show(k.t.chain(i, '%f1', 'shared', 'moved'))).toEqual([
      `${k.line('ld.shared.f32 %f1')} ld.shared.f32`,
      `${k.line('moved store')} st.global.f32`,
    ]);
  });

  it('the scatter store address is computed from ld.shared (ComputedAddrFromLoaded)', () => {
    const i = k.a.at(k.line('scatter store'));
    const addr = k.t.address(i)!;
    expect(sourcesOf(addr.any)).toEqual(['shared', 'param']);
    expect(show(k.t.explain(i, addr, 'shared'))).toEqual([
      `${k.line('ld.shared.u32 %r3')} ld.shared.u32`,
      `${k.line('mul.wide.u32 %rd5')} mul.wide.u32`,
      `${k.line('add.s64 %rd6')} add.s64`,
      `${k.line('scatter store')} st.global.f32`,
    ]);
  });

  it('the sum store address carries only the parameter (no shared data in it)', () => {
    const addr = k.t.address(k.a.at(k.line('sum store')))!;
    expect(sourcesOf(addr.any)).toEqual(['param']);
    expect(addr.registers.map((r) => r.name)).toEqual(['%rd4']);
  });
});

describe('branch conditions and guards', () => {
  const k = kernel(`
.visible .entry k(.param .u64 in)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.u32 %r1, [%rd2];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;                          // data-dependent branch
  mov.u32 %r2, %tid.x;
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra DONE;                          // thread-dependent branch
  @%p1 mov.u32 %r3, 7;                    // guarded by loaded data
  selp.b32 %r4, 1, 2, %p1;
  st.global.u32 [%rd2], %r3;              // guarded value store
  st.global.u32 [%rd2+4], %r4;            // selected value store
DONE:
  ret;
}
`);

  it('the branch at the data-dependent bra tests a value from ld.global (via setp)', () => {
    const i = k.a.at(k.line('data-dependent branch'));
    const c = k.t.condition(i)!;
    expect(sourcesOf(c.any)).toEqual(['global']);
    expect(show(k.t.explain(i, c, 'global'))).toEqual([
      `${k.line('ld.global.u32 %r1')} ld.global.u32`,
      `${k.line('setp.eq.u32 %p1')} setp.eq.u32`,
      `${k.line('data-dependent branch')} bra`,
    ]);
  });

  it('a branch on %tid.x carries no load; an unguarded instruction has no condition', () => {
    expect(k.t.condition(k.a.at(k.line('thread-dependent branch')))!.any).toBe(0);
    expect(k.t.condition(k.a.at(k.line('mov.u32 %r2')))).toBeUndefined();
  });

  it('a guard is control, not data: the guarded immediate is untainted', () => {
    expect(k.t.storedValue(k.a.at(k.line('guarded value store')))!.any).toBe(0);
  });

  it('selp depends on its predicate (any) but moves only its immediates (moved)', () => {
    const v = k.t.storedValue(k.a.at(k.line('selected value store')))!;
    expect(sourcesOf(v.any)).toEqual(['global']);
    expect(v.moved).toBe(0);
  });
});

describe('generic loads take their space from the address provenance', () => {
  const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 smem[64];
  .local .align 4 .b8 scratch[16];
  mov.u64 %rd1, smem;
  cvta.shared.u64 %rd2, %rd1;
  ld.u32 %r1, [%rd2];                     // generic load of shared
  mov.u64 %rd3, scratch;
  cvta.local.u64 %rd4, %rd3;
  ld.u32 %r2, [%rd4];                     // generic load of local
  ld.param.u64 %rd5, [out];
  ld.u64 %rd6, [%rd5];                    // generic load of global
  ld.u32 %r3, [%rd6];                     // load through a loaded pointer
  add.s32 %r4, %r1, %r2;
  add.s32 %r5, %r4, %r3;
  st.u32 [%rd5], %r5;                     // combined store
  ret;
}
`);

  it('each generic load is a source of the space its address points into', () => {
    const src = (needle: string): string[] => sourcesOf(k.t.sourceOf[k.a.at(k.line(needle)).index]!);
    expect(src('generic load of shared')).toEqual(['shared']);
    expect(src('generic load of local')).toEqual(['local']);
    expect(src('generic load of global')).toEqual(['global']);
    expect(src('load through a loaded pointer')).toEqual(['generic']);
  });

  it('the combined store value carries all four sources, each with its own chain', () => {
    const i = k.a.at(k.line('combined store'));
    const v = k.t.storedValue(i)!;
    expect(sourcesOf(v.any)).toEqual(['shared', 'local', 'generic']);
    expect(show(k.t.explain(i, v, 'local'))).toEqual([
      `${k.line('generic load of local')} ld.u32`,
      `${k.line('add.s32 %r4')} add.s32`,
      `${k.line('add.s32 %r5')} add.s32`,
      `${k.line('combined store')} st.u32`,
    ]);
  });

  it('a load is a barrier: the value loaded through a loaded pointer does not inherit the taint of the pointer', () => {
    expect(sourcesOf(k.t.at(k.a.at(k.line('add.s32 %r5')), '%r3').any)).toEqual(['generic']);
  });
});

describe('loops and parameters', () => {
  const k = kernel(`
.visible .entry k(.param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [in];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [n];
  mov.f32 %f1, 0f00000000;
  mov.u32 %r2, 0;
LOOP:
  ld.global.f32 %f2, [%rd2];
  add.f32 %f1, %f1, %f2;                  // accumulate
  add.s64 %rd2, %rd2, 4;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  st.global.f32 [%rd2], %f1;              // result store
  ret;
}
`);

  it('the accumulator stored after the loop comes from ld.global via the loop add', () => {
    const i = k.a.at(k.line('result store'));
    expect(show(k.t.chain(i, '%f1', 'global'))).toEqual([
      `${k.line('ld.global.f32')} ld.global.f32`,
      `${k.line('accumulate')} add.f32`,
      `${k.line('result store')} st.global.f32`,
    ]);
  });

  it('the loop exit condition depends on the n parameter (ld.param)', () => {
    const c = k.t.condition(k.a.at(k.line('@%p1 bra LOOP')))!;
    expect(sourcesOf(c.any)).toEqual(['param']);
  });

  it('the store address is the parameter pointer moved through cvta and bumped (any, not moved)', () => {
    const addr = k.t.address(k.a.at(k.line('result store')))!;
    expect(sourcesOf(addr.any)).toEqual(['param']);
    expect(addr.moved).toBe(0);
  });
});

describe('chains are bounded', () => {
  const movs = Array.from({ length: 40 }, (_, j) => `  mov.b32 %r${j + 2}, %r${j + 1};`).join('\n');
  const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<50>;
  .reg .b64 %rd<3>;
  .shared .align 4 .b8 smem[4];
  ld.shared.u32 %r1, [smem];
${movs}
  ld.param.u64 %rd1, [out];
  st.u32 [%rd1], %r41;                    // far store
  ret;
}
`);

  it(`a chain longer than ${MAX_CHAIN} keeps the source and the steps nearest the sink`, () => {
    const i = k.a.at(k.line('far store'));
    const c = k.t.chain(i, '%r41', 'shared', 'moved')!;
    expect(c.truncated).toBe(true);
    expect(c.steps.length).toBe(MAX_CHAIN);
    expect(c.steps[0]!.mnemonic).toBe('ld.shared.u32');
    expect(c.steps[c.steps.length - 1]!.line).toBe(k.line('far store'));
    expect(c.steps[c.steps.length - 2]!.register).toBe('%r41');
  });
});

describe('calls', () => {
  const k = kernel(`
.func (.param .b32 r) f(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  add.s32 %r2, %r1, 1;
  st.param.b32 [r], %r2;                  // return store
  ret;
}
`);

  it('inside a .func, its parameters are param loads', () => {
    const v = k.t.storedValue(k.a.at(k.line('return store')))!;
    expect(sourcesOf(v.any)).toEqual(['param']);
  });
});

describe('corpus', () => {
  it('chains exist and end at the sink for every stored value carrying a source, in every fixture', () => {
    for (const input of committedPtx()) {
      const ctx = new AnalysisContext(parsePtx(input.text).module);
      for (const fn of ctx.functions) {
        const t = ctx.get(fn, taintAnalysis);
        for (const ins of fn.instructions) {
          const v = t.storedValue(ins);
          if (v === undefined) continue;
          for (const s of sourcesOf(v.any)) {
            const c = t.explain(ins, v, s);
            expect(c, `${input.name}:${ins.node.range.line} ${s}`).toBeDefined();
            expect(c!.steps[c!.steps.length - 1]!.index).toBe(ins.index);
            expect(c!.steps.length).toBeLessThanOrEqual(MAX_CHAIN);
          }
        }
      }
    }
  });
});
