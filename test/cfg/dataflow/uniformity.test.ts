// Uniformity on small hand-written kernels: each test names the line and the
// register it asks about, the variance it must have (`uniform`,
// `warp-uniform`: equal within each warp but not across the CTA, or
// `thread-varying`), and, where it matters, the reason chain.
import { describe, expect, it } from 'vitest';
import type * as A from '../../../src/parser/ast.js';
import type { RegisterSymbol } from '../../../src/cfg/symbols.js';
import { describeUniformity, uniformityAnalysis, varianceWord, type Uniformity } from '../../../src/cfg/dataflow/uniformity.js';
import { AnalysisContext } from '../../../src/cfg/context.js';
import { livenessAnalysis } from '../../../src/cfg/dataflow/liveness.js';
import { reachingDefinitionsAnalysis } from '../../../src/cfg/dataflow/reaching-definitions.js';
import { parsePtx } from '../../../src/parser/parse.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';
import { committedPtx } from '../../helpers/corpus.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

type Word = ReturnType<typeof varianceWord>;

interface Kernel {
  readonly text: string;
  readonly a: Analyzed;
  readonly u: Uniformity;
  line(needle: string): number;
  /** Variance of the value the instruction on the needle's line writes into `reg`. */
  def(needle: string, reg: string): Word;
  /** Variance of `reg` as the instruction on the needle's line reads it. */
  use(needle: string, reg: string): Word;
  /** Is `reg` as read there uniform at a level? */
  uniformAt(needle: string, reg: string, level: 'cta' | 'warp'): boolean;
  /** The reason chain of a written value. */
  why(needle: string, reg: string): string;
  /** The reason chain of a read value. */
  whyUse(needle: string, reg: string): string;
  /** Variance of the branch on the needle's line. */
  branch(needle: string): Word;
  whyBranch(needle: string): string;
  /** Whether some threads may skip the block holding the needle's line. */
  divergence(needle: string): Word;
  /** Exit variance of the loop whose header holds the needle's line. */
  loopExit(needle: string): Word;
}

/** The register a name denotes in an instruction (its operands or guard). */
function registerIn(a: Analyzed, ins: A.Instruction, name: string): RegisterSymbol {
  let found: RegisterSymbol | undefined;
  const visit = (e: A.Expression): void => {
    if (found !== undefined) return;
    switch (e.kind) {
      case 'Name': {
        const s = a.fn.resolve(e);
        if (e.name === name && s?.kind === 'register') found = s;
        return;
      }
      case 'Unary': case 'Cast': visit(e.arg); return;
      case 'Binary': visit(e.left); visit(e.right); return;
      case 'Vector': case 'Address': case 'List': e.elements.forEach(visit); return;
      case 'PredPair': visit(e.first); visit(e.second); return;
      default: return;
    }
  };
  ins.operands.forEach(visit);
  if (found === undefined && ins.guard?.predicate === name) {
    const g = a.fn.resolveGuard(ins.guard);
    if (g?.kind === 'register') found = g;
  }
  if (found === undefined) throw new Error(`no register ${name} in '${ins.opcode}' on line ${ins.range.line}`);
  return found;
}

function kernel(body: string, fnName?: string): Kernel {
  const text = HEADER + body;
  const a = analyze(text, fnName);
  const u = a.ctx.get(a.fn, uniformityAnalysis);
  const cfg = a.ctx.cfg(a.fn);
  const line = (needle: string): number => lineOf(text, needle);
  const at = (needle: string): { index: number; reg: (name: string) => RegisterSymbol } => {
    const ins = a.at(line(needle));
    return { index: ins.index, reg: (name) => registerIn(a, ins.node, name) };
  };
  return {
    text, a, u, line,
    def: (needle, reg) => { const x = at(needle); return varianceWord(u.defVariance(x.index, x.reg(reg))); },
    use: (needle, reg) => { const x = at(needle); return varianceWord(u.useVariance(x.index, x.reg(reg))); },
    uniformAt: (needle, reg, level) => { const x = at(needle); return u.isUniform(x.index, x.reg(reg), level); },
    why: (needle, reg) => { const x = at(needle); return u.explainDef(x.index, x.reg(reg)) ?? ''; },
    whyUse: (needle, reg) => { const x = at(needle); return u.explainUse(x.index, x.reg(reg)) ?? ''; },
    branch: (needle) => varianceWord(u.branchVariance(at(needle).index)),
    whyBranch: (needle) => u.explainBranch(cfg.blockOf[at(needle).index]!) ?? '',
    divergence: (needle) => varianceWord(u.blockDivergence(cfg.blockOf[at(needle).index]!)),
    loopExit: (needle) => {
      const b = cfg.blockOf[at(needle).index]!;
      const fact = u.loops.find((l) => l.header === b);
      if (fact === undefined) throw new Error(`no loop headed on line ${line(needle)}`);
      return varianceWord(fact.exitVariance);
    },
  };
}

describe('seeds and pure functions', () => {
  const k = kernel(`
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;               // tid
  ld.param.u32 %r2, [n];             // param n
  add.s32 %r7, %r1, %r2;             // tid + n
  mov.u32 %r3, %ctaid.x;             // ctaid
  mov.u32 %r4, %ntid.x;              // ntid
  mad.lo.s32 %r5, %r3, %r4, %r2;     // ctaid*ntid+n
  mov.u32 %r6, %nctaid.y;            // nctaid
  mov.u32 %r8, 42;                   // immediate
  mov.u32 %r9, %warpid;              // warpid
  shl.b32 %r10, %r9, 5;              // warpid*32
  mov.u32 %r11, %laneid;             // laneid
  mov.u32 %r12, %clock;              // clock
  mov.u32 %r13, %lanemask_lt;        // lanemask
  add.s32 %r14, %r10, %r11;          // warpid*32 + laneid
  ld.param.u64 %rd1, [out];          // param out
  ret;
}`);

  it('at line 12 %r7 is thread-varying because of %tid.x at line 10', () => {
    expect(k.line('tid + n')).toBe(12);
    expect(k.def('tid + n', '%r7')).toBe('thread-varying');
    expect(k.why('tid + n', '%r7')).toBe('%r7 ← add at line 12 ← %r1 ← %tid.x at line 10');
  });

  it('kernel parameters, %ctaid, %ntid, %nctaid, immediates and arithmetic on them are uniform', () => {
    expect(k.def('param n', '%r2')).toBe('uniform');
    expect(k.def('param out', '%rd1')).toBe('uniform');
    expect(k.def('ctaid*ntid+n', '%r5')).toBe('uniform');
    expect(k.def('nctaid', '%r6')).toBe('uniform');
    expect(k.def('immediate', '%r8')).toBe('uniform');
    expect(k.why('ctaid*ntid+n', '%r5')).toBe('');
  });

  it('%warpid is warp-uniform but varies across the CTA, and so does warpid*32', () => {
    expect(k.def('warpid*32', '%r10')).toBe('warp-uniform');
    expect(k.why('warpid*32', '%r10')).toContain('%warpid at line');
  });

  it('%laneid, %clock and %lanemask_lt are thread-varying, and they win over a warp-uniform operand', () => {
    expect(k.def('laneid', '%r11')).toBe('thread-varying');
    expect(k.def('clock', '%r12')).toBe('thread-varying');
    expect(k.def('lanemask', '%r13')).toBe('thread-varying');
    expect(k.def('warpid*32 + laneid', '%r14')).toBe('thread-varying');
    expect(k.why('warpid*32 + laneid', '%r14')).toContain('%laneid');
  });
});

describe('loads', () => {
  const k = kernel(`
.const .align 4 .b32 table[64];
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  ld.const.u32 %r2, [table+8];              // const at uniform address
  mul.wide.u32 %rd3, %r1, 4;
  mov.u64 %rd4, table;
  add.s64 %rd5, %rd4, %rd3;
  ld.const.u32 %r3, [%rd5];                  // const at tid address
  ld.global.u32 %r4, [%rd2];                 // global at uniform address
  ld.global.nc.u32 %r5, [%rd2+4];            // read-only global at uniform address
  atom.global.add.u32 %r6, [%rd2], 1;        // atomic
  ldu.global.u32 %r7, [%rd2+8];              // ldu
  ld.local.u32 %r8, [%rd2];                  // local
  ret;
}`);

  it('a .const load at a uniform address is uniform', () => {
    expect(k.def('const at uniform address', '%r2')).toBe('uniform');
  });

  it('a .const load at a thread-indexed address is thread-varying because of its address', () => {
    expect(k.def('const at tid address', '%r3')).toBe('thread-varying');
    expect(k.why('const at tid address', '%r3')).toContain('%tid.x at line');
  });

  it('a global load at a uniform address is thread-varying: the memory may be written per thread', () => {
    expect(k.def('global at uniform address', '%r4')).toBe('thread-varying');
    expect(k.why('global at uniform address', '%r4')).toContain('ld.global at line');
    expect(k.why('global at uniform address', '%r4')).toContain('load from memory written per thread');
  });

  it('ld.global.nc and ldu at a uniform address are uniform (memory read-only while the kernel runs)', () => {
    expect(k.def('read-only global', '%r5')).toBe('uniform');
    expect(k.def('ldu', '%r7')).toBe('uniform');
  });

  it('an atomic result is thread-varying even with uniform operands', () => {
    expect(k.def('atomic', '%r6')).toBe('thread-varying');
    expect(k.why('atomic', '%r6')).toContain('atomic result');
  });

  it('a .local load is thread-varying', () => {
    expect(k.def('local', '%r8')).toBe('thread-varying');
  });
});

describe('branches and control dependence', () => {
  const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<20>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %warpid;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra WARP_ZERO;                 // warpid branch
  mov.u32 %r3, 1;                     // in warpid region
WARP_ZERO:
  setp.lt.u32 %p2, %r1, 16;
  @%p2 bra ELSE;                      // tid branch
  mov.u32 %r4, 1;                     // then arm
  bra.uni JOIN;
ELSE:
  mov.u32 %r4, 2;                     // else arm
JOIN:
  add.s32 %r5, %r4, 1;                // after join
  mov.u32 %r6, 7;                     // uniform after join
  ret;
}`);

  it('the branch at line 12 is warp-uniform but CTA-varying (%warpid)', () => {
    expect(k.line('warpid branch')).toBe(12);
    expect(k.branch('warpid branch')).toBe('warp-uniform');
    expect(k.whyBranch('warpid branch')).toBe('%p1 ← setp at line 11 ← %r2 ← %warpid at line 10');
    expect(k.divergence('in warpid region')).toBe('warp-uniform');
  });

  it('the branch at line 16 is thread-varying; the arms are reached under divergent control, the join is not', () => {
    expect(k.branch('tid branch')).toBe('thread-varying');
    expect(k.divergence('then arm')).toBe('thread-varying');
    expect(k.divergence('else arm')).toBe('thread-varying');
    expect(k.divergence('after join')).toBe('uniform');
  });

  it('each arm writes a constant, but %r4 read after the join is thread-varying (threads took different arms)', () => {
    expect(k.def('then arm', '%r4')).toBe('uniform');
    expect(k.def('else arm', '%r4')).toBe('uniform');
    expect(k.use('after join', '%r4')).toBe('thread-varying');
    expect(k.def('after join', '%r5')).toBe('thread-varying');
    expect(k.whyUse('after join', '%r4')).toBe('%r4 merged at line 22 after the branch at line 16 ← %p2 ← setp at line 15 ← %r1 ← %tid.x at line 9');
  });

  it('a constant written after the join is uniform', () => {
    expect(k.def('uniform after join', '%r6')).toBe('uniform');
  });
});

describe('merges under uniform and exit-only branches', () => {
  it('a value written under a uniform branch stays uniform after the join', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  setp.gt.u32 %p1, %r1, 4;
  @%p1 bra SKIP;                // uniform branch
  mov.u32 %r2, 5;
SKIP:
  add.s32 %r3, %r2, 1;          // after uniform join
  ret;
}`);
    expect(k.branch('uniform branch')).toBe('uniform');
    expect(k.use('after uniform join', '%r2')).toBe('uniform');
  });

  it('threads exiting early (a bounds check) do not make later values varying, but later blocks are reached under divergent control', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [n];
  setp.ge.u32 %p1, %r1, %r2;
  @%p1 exit;                    // bounds check
  mov.u32 %r3, 3;
  add.s32 %r4, %r3, %r2;        // after exit
  ret;
}`);
    expect(k.branch('bounds check')).toBe('thread-varying');
    expect(k.def('after exit', '%r4')).toBe('uniform');
    expect(k.divergence('after exit')).toBe('thread-varying');
  });
});

describe('loops', () => {
  it('a loop with a uniform trip count exits on a uniform condition; its counter is uniform inside and after', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
LOOP:
  add.s32 %r2, %r2, 1;          // counter
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;                // latch
  add.s32 %r3, %r2, 1;          // after loop
  ret;
}`);
    expect(k.loopExit('counter')).toBe('uniform');
    expect(k.def('counter', '%r2')).toBe('uniform');
    expect(k.use('after loop', '%r2')).toBe('uniform');
  });

  const varying = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r4, 0;
LOOP:
  add.s32 %r2, %r2, 1;          // counter
  mov.u32 %r4, %r2;             // copy of the counter
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;                // latch on tid
  add.s32 %r3, %r4, 1;          // after loop
  ret;
}`);

  it('the loop at line 13 exits on a thread-varying condition (the latch compares with %tid.x)', () => {
    expect(varying.line('counter')).toBe(13);
    expect(varying.loopExit('counter')).toBe('thread-varying');
  });

  it('inside that loop the counter is uniform (the threads still in it are in the same iteration)', () => {
    expect(varying.use('counter', '%r2')).toBe('uniform');
    expect(varying.def('copy of the counter', '%r4')).toBe('uniform');
  });

  it('a value carried out of that loop is thread-varying: threads left it after different iterations', () => {
    expect(varying.use('after loop', '%r4')).toBe('thread-varying');
    expect(varying.whyUse('after loop', '%r4')).toContain('merged at line 17 after the branch at line 16');
  });

  it('a loop left by a break under a thread-varying condition exits on a thread-varying condition', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r5, [n];
  mov.u32 %r2, 0;
LOOP:
  add.s32 %r2, %r2, 1;          // counter
  setp.eq.u32 %p2, %r2, %r1;
  @%p2 bra DONE;                // break on tid
  setp.lt.u32 %p1, %r2, %r5;
  @%p1 bra LOOP;                // uniform latch
DONE:
  add.s32 %r3, %r2, 1;          // after loop
  ret;
}`);
    expect(k.branch('uniform latch')).toBe('uniform');
    expect(k.branch('break on tid')).toBe('thread-varying');
    expect(k.loopExit('counter')).toBe('thread-varying');
    expect(k.use('counter', '%r2')).toBe('uniform');
    expect(k.use('after loop', '%r2')).toBe('thread-varying');
  });

  it('a value written on one side of a divergent branch in a loop is thread-varying when the other side reads it next iteration', () => {
    const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r5, [n];
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
LOOP:
  add.s32 %r2, %r2, 1;          // loop head
  and.b32 %r6, %r2, %r1;
  setp.eq.u32 %p2, %r6, 0;
  @%p2 bra ARM_B;               // divergent if
  add.s32 %r7, %r3, 1;          // arm A reads x
  bra.uni NEXT;
ARM_B:
  mov.u32 %r3, 9;               // arm B writes x
NEXT:
  setp.lt.u32 %p1, %r2, %r5;
  @%p1 bra LOOP;
  ret;
}`);
    expect(k.def('arm B writes x', '%r3')).toBe('uniform');
    expect(k.use('arm A reads x', '%r3')).toBe('thread-varying');
    expect(k.loopExit('loop head')).toBe('uniform');
  });
});

describe('guarded instructions', () => {
  const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [n];
  setp.eq.u32 %p1, %r1, 0;        // tid == 0
  setp.eq.u32 %p2, %r2, 0;        // n == 0
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
  @%p1 mov.u32 %r3, 1;            // guarded by tid
  @%p2 mov.u32 %r4, 1;            // guarded by n
  add.s32 %r5, %r3, %r4;          // both
  ret;
}`);

  it('a write guarded by a thread-varying predicate leaves the old value in some threads: thread-varying', () => {
    expect(k.def('guarded by tid', '%r3')).toBe('thread-varying');
    expect(k.use('both', '%r3')).toBe('thread-varying');
    expect(k.why('guarded by tid', '%r3')).toContain('%p1 ← setp at line');
  });

  it('a write guarded by a uniform predicate stays uniform', () => {
    expect(k.def('guarded by n', '%r4')).toBe('uniform');
    expect(k.use('both', '%r4')).toBe('uniform');
  });
});

describe('nested { } scopes', () => {
  const k = kernel(`
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;            // outer r1
  {
    .reg .b32 %r1;
    mov.u32 %r1, 5;               // inner r1
    add.s32 %r2, %r1, 1;          // reads inner
  }
  add.s32 %r3, %r1, 1;            // reads outer
  ret;
}`);

  it('an inner %r1 shadows the outer one: the inner is uniform, the outer stays thread-varying', () => {
    expect(k.def('inner r1', '%r1')).toBe('uniform');
    expect(k.def('reads inner', '%r2')).toBe('uniform');
    expect(k.use('reads outer', '%r1')).toBe('thread-varying');
  });
});

describe('calls', () => {
  const text = `
.func (.param .b32 ret) f(.param .b32 a)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [a];          // func param
  add.s32 %r2, %r1, 1;            // func arith
  st.param.b32 [ret], %r2;
  ret;
}
.func (.reg .b32 q) g(.reg .b32 b)
{
  add.s32 q, b, 1;                // reg param arith
  ret;
}
.visible .entry k(.param .u32 n)
{
  .reg .b32 %r<8>;
  ld.param.u32 %r1, [n];          // kernel param
  {
    .param .b32 arg;
    .param .b32 res;
    st.param.b32 [arg], %r1;
    call.uni (res), f, (arg);
    ld.param.b32 %r2, [res];      // call result
  }
  call.uni (%r3), g, (%r1);       // reg call
  ret;
}`;

  it('a .param read inside a .func is thread-varying: each calling thread passes its own argument', () => {
    const k = kernel(text, 'f');
    expect(k.def('func param', '%r1')).toBe('thread-varying');
    expect(k.why('func param', '%r1')).toContain('argument of a .func');
    expect(k.def('func arith', '%r2')).toBe('thread-varying');
  });

  it('a .reg parameter of a .func is thread-varying', () => {
    const k = kernel(text, 'g');
    expect(k.def('reg param arith', 'q')).toBe('thread-varying');
    expect(k.why('reg param arith', 'q')).toContain('parameter of a .func g');
  });

  it('in the kernel, ld.param of a kernel parameter is uniform, a call result is thread-varying', () => {
    const k = kernel(text, 'k');
    expect(k.def('kernel param', '%r1')).toBe('uniform');
    expect(k.def('call result', '%r2')).toBe('thread-varying');
    expect(k.def('reg call', '%r3')).toBe('thread-varying');
  });
});

describe('shared-memory broadcast', () => {
  const broadcast = (store: string, between = 'bar.sync 0;', extra = ''): Kernel => kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s_val;
  .shared .align 4 .b32 s_arr[64];
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r2, [%rd1];               // per-thread value
  setp.eq.u32 %p1, %r1, 0;
  ${store}
  ${between}
  ld.shared.u32 %r5, [s_val];               // broadcast read
  ${extra}
  ret;
}`);

  it('a value thread 0 stores, read at the same address after bar.sync, is uniform (a broadcast)', () => {
    const k = broadcast('@%p1 st.shared.u32 [s_val], %r2;');
    expect(k.def('broadcast read', '%r5')).toBe('uniform');
    expect(k.u.broadcasts).toEqual([k.a.at(k.line('broadcast read')).index]);
  });

  it('the same store under a branch around it (`@!p bra`) is single-threaded too', () => {
    const k = broadcast(`setp.ne.u32 %p2, %r1, 0;
  @%p2 bra SKIP;
  st.shared.u32 [s_val], %r2;
SKIP:`);
    expect(k.def('broadcast read', '%r5')).toBe('uniform');
  });

  it('without the barrier the read is thread-varying (it may see the value before or after the store)', () => {
    const k = broadcast('@%p1 st.shared.u32 [s_val], %r2;', '');
    expect(k.def('broadcast read', '%r5')).toBe('thread-varying');
  });

  it('a per-thread value stored by every thread is thread-varying (memory written per thread)', () => {
    const k = broadcast('st.shared.u32 [s_val], %r2;');
    expect(k.def('broadcast read', '%r5')).toBe('thread-varying');
  });

  it('a uniform value stored by every thread is uniform', () => {
    const k = broadcast('st.shared.u32 [s_val], 7;');
    expect(k.def('broadcast read', '%r5')).toBe('uniform');
  });

  it('another write to the same symbol at a non-constant offset may alias: thread-varying', () => {
    const k = broadcast(`@%p1 st.shared.u32 [s_val], %r2;
  mov.u32 %r6, s_val;
  shl.b32 %r7, %r1, 2;
  add.s32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r1;`);
    expect(k.def('broadcast read', '%r5')).toBe('thread-varying');
  });

  it('writes to another symbol do not matter', () => {
    const k = broadcast(`@%p1 st.shared.u32 [s_val], %r2;
  mov.u32 %r6, s_arr;
  shl.b32 %r7, %r1, 2;
  add.s32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r1;`);
    expect(k.def('broadcast read', '%r5')).toBe('uniform');
  });

  it('a store reachable from the read without a barrier (the next iteration) breaks the broadcast', () => {
    const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s_val;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r3, 0;
LOOP:
  ld.global.u32 %r2, [%rd1];
  @%p1 st.shared.u32 [s_val], %r2;
  bar.sync 0;
  ld.shared.u32 %r5, [s_val];               // read in loop
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 8;
  @%p2 bra LOOP;
  ret;
}`);
    expect(k.def('read in loop', '%r5')).toBe('thread-varying');
  });

  it('with a trailing barrier in the loop the read is a broadcast again', () => {
    const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b32 s_val;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd1, [out];
  setp.eq.u32 %p1, %r1, 0;
  mov.u32 %r3, 0;
LOOP:
  ld.global.u32 %r2, [%rd1];
  @%p1 st.shared.u32 [s_val], %r2;
  bar.sync 0;
  ld.shared.u32 %r5, [s_val];               // read in loop
  bar.sync 0;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, 8;
  @%p2 bra LOOP;
  ret;
}`);
    expect(k.def('read in loop', '%r5')).toBe('uniform');
  });
});

describe('warp collectives', () => {
  const k = kernel(`
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<8>;
  .reg .b32 %r<20>;
  mov.u32 %r1, %tid.x;
  ld.param.u32 %r2, [n];
  setp.lt.u32 %p1, %r1, %r2;
  vote.sync.ballot.b32 %r3, %p1, -1;         // ballot
  vote.sync.any.pred %p2, %p1, -1;           // any
  @%p2 bra SKIP;                              // branch on any
  mov.u32 %r4, 1;
SKIP:
  shfl.sync.idx.b32 %r5, %r1, 0, 31, -1;     // idx lane 0
  shfl.sync.idx.b32 %r6, %r2, 0, 31, -1;     // idx of uniform
  shfl.sync.idx.b32 %r7, %r1, %r1, 31, -1;   // idx varying lane
  shfl.sync.bfly.b32 %r8, %r1, 1, 31, -1;    // bfly
  shfl.sync.down.b32 %r9, %r2, 1, 31, -1;    // down
  redux.sync.add.u32 %r10, %r1, -1;          // redux
  activemask.b32 %r11;                       // activemask
  match.all.sync.b32 %r12|%p3, %r1, -1;      // match all
  match.any.sync.b32 %r13, %r1, -1;          // match any
  elect.sync %r14|%p4, -1;                   // elect
  bar.red.popc.u32 %r15, 0, %p1;             // bar.red
  shfl.sync.idx.b32 %r16, %r1, 0, 0x1c1f, -1; // idx with segments
  ret;
}`);

  it('vote.sync.ballot and vote.sync.any results are warp-uniform (CTA-varying)', () => {
    expect(k.def('ballot', '%r3')).toBe('warp-uniform');
    expect(k.def('any', '%p2')).toBe('warp-uniform');
    expect(k.why('ballot', '%r3')).toContain('warp collective');
    expect(k.branch('branch on any')).toBe('warp-uniform');
    expect(k.uniformAt('branch on any', '%p2', 'warp')).toBe(true);
    expect(k.uniformAt('branch on any', '%p2', 'cta')).toBe(false);
  });

  it('shfl.sync.idx from a uniform lane is warp-uniform, and uniform when the shuffled value is', () => {
    expect(k.def('idx lane 0', '%r5')).toBe('warp-uniform');
    expect(k.def('idx of uniform', '%r6')).toBe('uniform');
  });

  it('shfl.sync.idx from a varying lane, or with a segment mask, and shfl bfly/down are thread-varying', () => {
    expect(k.def('idx varying lane', '%r7')).toBe('thread-varying');
    expect(k.def('idx with segments', '%r16')).toBe('thread-varying');
    expect(k.def('bfly', '%r8')).toBe('thread-varying');
    expect(k.def('down', '%r9')).toBe('thread-varying');
    expect(k.why('down', '%r9')).toContain('lane-dependent shuffle');
  });

  it('redux.sync, activemask and both results of match.all are warp-uniform; match.any is thread-varying', () => {
    expect(k.def('redux', '%r10')).toBe('warp-uniform');
    expect(k.def('activemask', '%r11')).toBe('warp-uniform');
    expect(k.def('match all', '%r12')).toBe('warp-uniform');
    expect(k.def('match all', '%p3')).toBe('warp-uniform');
    expect(k.def('match any', '%r13')).toBe('thread-varying');
  });

  it('elect.sync: the elected lane is warp-uniform, the "is it me" predicate thread-varying', () => {
    expect(k.def('elect', '%r14')).toBe('warp-uniform');
    expect(k.def('elect', '%p4')).toBe('thread-varying');
  });

  it('a bar.red reduction over the CTA is uniform', () => {
    expect(k.def('bar.red', '%r15')).toBe('uniform');
  });
});

describe('describeUniformity', () => {
  it('prints one readable fact per value, branch, divergent block and loop', () => {
    const k = kernel(`
.visible .entry k()
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
LOOP:
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  ret;
}`);
    expect(describeUniformity(k.a.ctx, k.a.fn)).toEqual([
      'line 9: %r1 is thread-varying: %r1 ← %tid.x at line 9',
      'line 10: %r2 is uniform',
      'line 12: %r2 is uniform',
      'line 13: %p1 is thread-varying: %p1 ← setp at line 13 ← %r1 ← %tid.x at line 9',
      'line 14: branch is thread-varying: %p1 ← setp at line 13 ← %r1 ← %tid.x at line 9',
      'block at line 12 is reached under thread-varying control',
      'loop at line 12 exits on a thread-varying condition (branch at line 14)',
    ]);
  });
});

describe('the committed corpus', () => {
  const inputs = committedPtx();

  /** Everything the three analyses say about a module, as plain data. */
  const snapshot = (text: string): { facts: unknown[]; paramLoads: { name: string; line: number; variance: string }[]; instructions: number } => {
    const r = parsePtx(text);
    const ctx = new AnalysisContext(r.module);
    const facts: unknown[] = [];
    const paramLoads: { name: string; line: number; variance: string }[] = [];
    let instructions = 0;
    for (const fn of ctx.functions) {
      const rd = ctx.get(fn, reachingDefinitionsAnalysis);
      const live = ctx.get(fn, livenessAnalysis);
      const u = ctx.get(fn, uniformityAnalysis);
      const cfg = ctx.cfg(fn);
      instructions += fn.instructions.length;
      // Cost: each instruction is evaluated about once (a value's variance only grows, twice at most).
      expect(u.stats.evaluations).toBeLessThanOrEqual(4 * fn.instructions.length + 1);
      facts.push({
        fn: fn.name,
        reaching: [Array.from(rd.rdStart), Array.from(rd.rdDef)],
        live: [Array.from(live.registersBefore), Array.from(live.slotsBefore), Array.from(live.predicatesBefore), live.peak,
          cfg.blocks.map((b) => live.liveIn(b.id))],
        uniformity: describeUniformity(ctx, fn, u),
      });
      if (!fn.isEntry) continue;
      for (const ins of fn.instructions) {
        const node = ins.node;
        if (node.opcode !== 'ld' || !node.modifiers.includes('.param') || node.guard !== undefined) continue;
        const addr = node.operands[1];
        const base = addr?.kind === 'Address' ? addr.elements[0] : undefined;
        const name = base?.kind === 'Name' ? base : base?.kind === 'Binary' && base.left.kind === 'Name' ? base.left : undefined;
        const sym = name === undefined ? undefined : fn.resolve(name);
        if (sym?.kind !== 'variable' || !sym.isParam) continue;
        for (const e of node.operands[0]?.kind === 'Vector' ? node.operands[0].elements : [node.operands[0]!]) {
          const reg = e.kind === 'Name' ? fn.resolve(e) : undefined;
          if (reg?.kind !== 'register') continue;
          paramLoads.push({ name: `${fn.name}:${reg.name}`, line: node.range.line, variance: varianceWord(u.defVariance(ins.index, reg)) });
        }
      }
    }
    return { facts, paramLoads, instructions };
  };

  it('holds hand-written and llc PTX, with kernel parameter loads to check', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(20);
    const loads = inputs.reduce((sum, i) => sum + snapshot(i.text).paramLoads.length, 0);
    expect(loads).toBeGreaterThanOrEqual(50);
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s: the three analyses terminate, agree run to run, and kernel parameters load uniform', (_name, input) => {
    const first = snapshot(input.text);
    const second = snapshot(input.text);
    expect(second.facts).toEqual(first.facts);
    expect(first.paramLoads.filter((p) => p.variance !== 'uniform')).toEqual([]);
  });
});
