// Address provenance on small hand-written kernels: each test names the line
// whose address (or register) it asks about and the origin it must have.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../../src/cfg/context.js';
import {
  PROV, TRUNCATED, WIDENED, atomsOf, formatProvenance, provenanceAnalysis, valueFlowAnalysis,
  type AddressAccess, type ProvenanceFacts,
} from '../../../src/cfg/dataflow/provenance.js';
import { taintAnalysis } from '../../../src/cfg/dataflow/taint.js';
import { parsePtx } from '../../../src/parser/parse.js';
import { analyze, lineOf, type Analyzed } from '../../helpers/analysis.js';
import { committedPtx, compiledCorpus } from '../../helpers/corpus.js';

const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

interface Kernel {
  readonly text: string;
  readonly a: Analyzed;
  readonly p: ProvenanceFacts;
  /** The line of the first line containing `needle`. */
  line(needle: string): number;
  /** The `k`-th address accessed by the instruction on the line containing `needle`. */
  address(needle: string, k?: number): AddressAccess;
  /** Atoms of register `reg` as read on the line containing `needle`. */
  value(needle: string, reg: string): string[];
}

function kernel(body: string, fnName?: string): Kernel {
  const text = HEADER + body;
  const a = analyze(text, fnName);
  const p = a.ctx.get(a.fn, provenanceAnalysis);
  const line = (needle: string): number => lineOf(text, needle);
  return {
    text, a, p, line,
    address: (needle, k = 0) => {
      const acc = p.accessesAt(a.at(line(needle)))[k];
      if (acc === undefined) throw new Error(`no address ${k} on line ${line(needle)}`);
      return acc;
    },
    value: (needle, reg) => atomsOf(p.valueAt(a.at(line(needle)), reg)),
  };
}

describe('shared memory addresses', () => {
  const k = kernel(`
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 smem[1024];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, smem;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;              // window store
  ld.shared.u32 %r5, [smem+4];           // symbol address
  mov.u64 %rd1, smem;
  cvta.shared.u64 %rd2, %rd1;
  st.u32 [%rd2], %r5;                    // generic store through cvta.shared
  st.shared.u32 [%rd2], %r5;             // shared store through a generic address
  st.u32 [%rd1], %r5;                    // generic store through a window address
  cvta.to.shared.u64 %rd3, %rd2;
  cvt.u32.u64 %r6, %rd3;
  ld.shared.u32 %r7, [%r6];              // back to a window
  ret;
}
`);

  it('the address of the window store is shared-window (smem + 4*tid.x)', () => {
    const acc = k.address('window store');
    expect(atomsOf(acc.provenance)).toEqual(['shared-window']);
    expect(acc.space).toBe('shared');
    expect(acc.agreement).toBe('match');
    expect(acc.register?.name).toBe('%r4');
  });

  it('shl of tid.x carries no address: the shared origin comes from mov of smem alone', () => {
    expect(k.value('add.s32 %r4', '%r2')).toEqual([]);
    expect(k.value('add.s32 %r4', '%r3')).toEqual(['shared-window']);
  });

  it('[smem+4] names the variable and is shared-window', () => {
    const acc = k.address('symbol address');
    expect(atomsOf(acc.provenance)).toEqual(['shared-window']);
    expect(acc.symbol?.name).toBe('smem');
  });

  it('the generic st writes through a generic address made by cvta.shared (F021 shape)', () => {
    const acc = k.address('generic store through cvta.shared');
    expect(acc.space).toBe('generic');
    expect(atomsOf(acc.provenance)).toEqual(['shared-generic']);
    expect(acc.agreement).toBe('match');
  });

  it('st.shared through the cvta.shared result is a mismatch', () => {
    const acc = k.address('shared store through a generic address');
    expect(acc.agreement).toBe('mismatch');
  });

  it('a generic st through a shared window (no cvta) is a mismatch (F023 shape)', () => {
    const acc = k.address('generic store through a window address');
    expect(atomsOf(acc.provenance)).toEqual(['shared-window']);
    expect(acc.agreement).toBe('mismatch');
  });

  it('cvta.to.shared then cvt.u32.u64 gives a 32-bit window, marked truncated', () => {
    const acc = k.address('back to a window');
    expect(atomsOf(acc.provenance)).toEqual(['shared-window']);
    expect(acc.provenance & TRUNCATED).toBe(TRUNCATED);
    expect(acc.agreement).toBe('match');
  });
});

describe('kernel parameters and global memory', () => {
  const k = kernel(`
.visible .entry k(.param .u64 in, .param .u64 .ptr .global .align 4 out, .param .u32 n)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.u32 %r2, [%rd5];              // through cvta.to.global
  st.global.u32 [%rd2], %r2;              // raw parameter, no cvta
  shl.b64 %rd6, %rd3, 1;
  ld.global.u32 %r3, [%rd6];              // shifted pointer
  mov.u64 %rd7, in;
  ld.param.u64 %rd8, [%rd7];              // parameter address in a register
  ret;
}
`);

  it('ld.param of the .u64 parameter is a generic-global pointer; .u32 n is no pointer', () => {
    expect(atomsOf(k.p.definedAt(k.a.at(k.line('ld.param.u64 %rd1')), '%rd1'))).toEqual(['generic-global']);
    expect(atomsOf(k.p.definedAt(k.a.at(k.line('ld.param.u32 %r1')), '%r1'))).toEqual([]);
  });

  it('the address at the ld.global is global (cvta.to.global + mul.wide offset)', () => {
    const acc = k.address('through cvta.to.global');
    expect(atomsOf(acc.provenance)).toEqual(['global']);
    expect(acc.agreement).toBe('match');
  });

  it('st.global through the raw parameter is generic-global (F029 shape), still a match', () => {
    const acc = k.address('raw parameter, no cvta');
    expect(atomsOf(acc.provenance)).toEqual(['generic-global']);
    expect(acc.agreement).toBe('match');
  });

  it('shl on an address loses its provenance', () => {
    expect(atomsOf(k.address('shifted pointer').provenance)).toEqual([]);
    expect(k.address('shifted pointer').agreement).toBe('unknown');
  });

  it('the address of ld.param is param provenance, from the symbol or from mov of it', () => {
    expect(atomsOf(k.address('ld.param.u64 %rd1').provenance)).toEqual(['param']);
    expect(atomsOf(k.address('parameter address in a register').provenance)).toEqual(['param']);
    expect(k.address('parameter address in a register').agreement).toBe('match');
  });
});

describe('several definitions reaching', () => {
  const k = kernel(`
.visible .entry k(.param .u64 g, .param .u32 f)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<10>;
  .shared .align 8 .b8 smem[256];
  ld.param.u64 %rd1, [g];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [f];
  setp.ne.u32 %p1, %r1, 0;
  mov.u64 %rd3, smem;
  selp.b64 %rd4, %rd3, %rd2, %p1;
  st.global.u32 [%rd4], %r1;              // selp store
  @%p1 bra THEN;
  mov.u64 %rd5, %rd2;
  bra JOIN;
THEN:
  mov.u64 %rd5, %rd3;
JOIN:
  st.u32 [%rd5], %r1;                     // phi store
  mov.u64 %rd6, %rd2;
  @%p1 mov.u64 %rd6, smem;
  st.u32 [%rd6], %r1;                     // guarded store
  ret;
}
`);

  it('selp of smem and gmem pointers gives {global, shared-window}', () => {
    const acc = k.address('selp store');
    expect(atomsOf(acc.provenance)).toEqual(['global', 'shared-window']);
    expect(acc.agreement).toBe('partial');
  });

  it('at the join, both branch definitions reach: {global, shared-window}', () => {
    expect(formatProvenance(k.address('phi store').provenance)).toBe('{global, shared-window}');
  });

  it('a guarded mov does not kill the earlier definition', () => {
    expect(atomsOf(k.address('guarded store').provenance)).toEqual(['global', 'shared-window']);
  });

  it('after the join the branch-local definitions are distinct values', () => {
    expect(k.value('mov.u64 %rd5, %rd2', '%rd2')).toEqual(['global']);
    expect(k.value('mov.u64 %rd5, %rd3', '%rd3')).toEqual(['shared-window']);
  });
});

describe('loops', () => {
  const k = kernel(`
.visible .entry k(.param .u64 g, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b8 tile[512];
  ld.param.u64 %rd1, [g];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
  mov.u32 %r3, tile;
LOOP:
  ld.global.u32 %r4, [%rd2];              // loop load
  st.shared.u32 [%r3], %r4;               // loop store
  add.s64 %rd2, %rd2, 4;
  add.s32 %r3, %r3, 4;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  ret;
}
`);

  it('a pointer bumped around the loop keeps its origin on the back edge', () => {
    expect(atomsOf(k.address('loop load').provenance)).toEqual(['global']);
    expect(atomsOf(k.address('loop store').provenance)).toEqual(['shared-window']);
  });

  it('the loop-carried register has two reaching definitions at the load', () => {
    const flow = k.a.ctx.get(k.a.fn, valueFlowAnalysis);
    const i = k.a.at(k.line('loop load')).index;
    const reg = k.a.fn.registers.find((r) => r.name === '%rd2')!;
    const u = flow.useOf(i, reg.id);
    expect(flow.useDefStart[u + 1]! - flow.useDefStart[u]!).toBe(2);
  });
});

describe('nested scopes', () => {
  const k = kernel(`
.visible .entry k(.param .u64 g)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<2>;
  .shared .align 4 .b8 smem[64];
  ld.param.u64 %rd1, [g];
  cvta.to.global.u64 %rd2, %rd1;
  {
    .reg .b64 %rd2;
    mov.u64 %rd2, smem;
    st.shared.u32 [%rd2], %r1;            // inner rd2
  }
  st.global.u32 [%rd2], %r1;              // outer rd2
  ret;
}
`);

  it('an inner %rd2 shadows the outer one: each store sees its own', () => {
    expect(atomsOf(k.address('inner rd2').provenance)).toEqual(['shared-window']);
    expect(atomsOf(k.address('outer rd2').provenance)).toEqual(['global']);
  });

  it('64-bit shared addressing keeps the window (F022 shape: a .b64 register)', () => {
    const acc = k.address('inner rd2');
    expect(acc.register?.type).toBe('.b64');
    expect(acc.agreement).toBe('match');
  });
});

describe('calls and device functions', () => {
  const k = kernel(`
.func (.param .b64 ret) pick(.param .b64 p, .param .b32 i)
{
  .reg .b64 %rd<4>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [i];
  st.u32 [%rd1], %r1;                     // func param store
  st.param.b64 [ret], %rd1;
  ret;
}
.func (.reg .b64 q) regs(.reg .b64 a)
{
  add.s64 q, a, 8;                        // register param
  ret;
}
.visible .entry k(.param .u64 g)
{
  .reg .b64 %rd<6>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [g];
  {
    .param .b64 p0;
    .param .b32 p1;
    .param .b64 r0;
    st.param.b64 [p0], %rd1;
    st.param.b32 [p1], 0;
    call.uni (r0), pick, (p0, p1);
    ld.param.b64 %rd2, [r0];
  }
  st.u32 [%rd2], %r1;                     // call result store
  call.uni (%rd3), regs, (%rd1);
  st.u32 [%rd3], %r1;                     // register call result
  ret;
}
`, 'k');

  it('a .func pointer parameter is unknown provenance (and so is a .b32 one: it may be a shared window)', () => {
    const fn = k.a.ctx.function('pick')!;
    const p = k.a.ctx.get(fn, provenanceAnalysis);
    const i = fn.instructions.find((x) => x.node.range.line === k.line('func param store'))!;
    expect(atomsOf(p.accessesAt(i)[0]!.provenance)).toEqual(['unknown']);
    expect(p.accessesAt(i)[0]!.agreement).toBe('unknown');
    expect(atomsOf(p.valueAt(i, '%r1'))).toEqual(['unknown']);
  });

  it('a .reg parameter has unknown provenance on entry and through add', () => {
    const fn = k.a.ctx.function('regs')!;
    const p = k.a.ctx.get(fn, provenanceAnalysis);
    const i = fn.instructions[0]!;
    expect(atomsOf(p.valueAt(i, 'a'))).toEqual(['unknown']);
    expect(atomsOf(p.definedAt(i, 'q'))).toEqual(['unknown']);
  });

  it('a value returned by a call (ld.param of the return slot, or a .reg return) is unknown', () => {
    expect(atomsOf(k.address('call result store').provenance)).toEqual(['unknown']);
    expect(atomsOf(k.address('register call result').provenance)).toEqual(['unknown']);
  });
});

describe('distributed shared memory', () => {
  const k = kernel(`
.visible .entry k()
.reqnctapercluster 2, 1, 1
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<6>;
  .shared .align 8 .b8 buf[64];
  mov.u32 %r1, buf;
  mov.u32 %r2, %cluster_ctarank;
  xor.b32 %r3, %r2, 1;
  mapa.shared::cluster.u32 %r4, %r1, %r3;
  st.shared::cluster.u32 [%r4], %r2;      // remote window store
  mov.u64 %rd1, buf;
  cvta.shared.u64 %rd2, %rd1;
  mapa.u64 %rd3, %rd2, %r3;
  st.u32 [%rd3], %r2;                     // remote generic store
  ld.shared::cluster.u32 %r5, [%r1];      // own window through cluster space
  ret;
}
`);

  it('mapa.shared::cluster gives a shared-cluster address, used by st.shared::cluster', () => {
    const acc = k.address('remote window store');
    expect(atomsOf(acc.provenance)).toEqual(['shared-cluster']);
    expect(acc.space).toBe('shared::cluster');
    expect(acc.agreement).toBe('match');
  });

  it('generic mapa gives a generic address into cluster shared memory', () => {
    expect(atomsOf(k.address('remote generic store').provenance)).toEqual(['shared-cluster-generic']);
    expect(k.address('remote generic store').agreement).toBe('match');
  });

  it('an own-CTA window is a valid .shared::cluster address', () => {
    expect(k.address('own window through cluster space').agreement).toBe('match');
  });
});

describe("LLVM's local depot", () => {
  const k = kernel(`
.visible .entry k(.param .u64 g)
{
  .local .align 8 .b8 __local_depot0[32];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  mov.u32 %r1, %tid.x;
  st.volatile.u32 [%SP+0], %r1;           // generic stack store
  ld.volatile.u32 %r2, [%SP+0];
  add.u64 %rd1, %SPL, 8;
  st.local.u32 [%rd1], %r2;               // local window store
  add.u64 %rd2, %SP, 16;
  cvta.to.local.u64 %rd3, %rd2;
  ld.local.u32 %r3, [%rd3];               // back to the window
  st.global.u32 [%SPL], %r3;              // local window used as global
  ret;
}
`);

  it('%SP (cvta.local of the depot) is local-generic; a generic access through it matches', () => {
    const acc = k.address('generic stack store');
    expect(atomsOf(acc.provenance)).toEqual(['local-generic']);
    expect(acc.agreement).toBe('match');
  });

  it('%SPL plus an offset is a local window used by st.local', () => {
    expect(atomsOf(k.address('local window store').provenance)).toEqual(['local']);
    expect(k.address('local window store').agreement).toBe('match');
    expect(atomsOf(k.address('back to the window').provenance)).toEqual(['local']);
  });

  it('a local window used by st.global is a mismatch (F024 shape)', () => {
    expect(k.address('local window used as global').agreement).toBe('mismatch');
  });
});

describe('widths, packs and shuffles', () => {
  const k = kernel(`
.visible .entry k(.param .u64 g)
{
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<2>;
  .shared .align 4 .b8 smem[128];
  mov.u32 %r1, smem;
  cvt.u64.u32 %rd1, %r1;
  ld.shared.u32 %r2, [%rd1];              // widened window
  ld.param.u64 %rd2, [g];
  cvta.to.global.u64 %rd3, %rd2;
  mov.b64 {%r3, %r4}, %rd3;
  shfl.sync.idx.b32 %r5, %r3, 0, 31, -1;
  shfl.sync.idx.b32 %r6, %r4, 0, 31, -1;
  mov.b64 %rd4, {%r5, %r6};
  st.global.u32 [%rd4], %r2;              // repacked pointer
  cvta.shared.u64 %rd5, %rd1;
  cvt.u32.u64 %r7, %rd5;
  cvt.rn.f32.u64 %f1, %rd3;
  ret;
}
`);

  it('cvt.u64.u32 of a window keeps shared-window and records the widening', () => {
    const acc = k.address('widened window');
    expect(atomsOf(acc.provenance)).toEqual(['shared-window']);
    expect(acc.provenance & WIDENED).toBe(WIDENED);
  });

  it('mov.b64 {lo, hi}: the low half keeps the origin (truncated), the high half none', () => {
    const i = k.a.at(k.line('mov.b64 {%r3'));
    expect(k.p.definedAt(i, '%r3')).toBe(PROV.global | TRUNCATED);
    expect(k.p.definedAt(i, '%r4')).toBe(0);
  });

  it('a pointer split, shuffled and repacked is global again, without the truncation flag', () => {
    const acc = k.address('repacked pointer');
    expect(formatProvenance(acc.provenance)).toBe('{global}');
  });

  it('a generic shared address truncated to 32 bits is flagged; a float conversion is no address', () => {
    expect(formatProvenance(k.p.definedAt(k.a.at(k.line('cvt.u32.u64 %r7')), '%r7'))).toBe('{shared-generic, +truncated, +widened}');
    expect(k.p.definedAt(k.a.at(k.line('cvt.rn.f32.u64')), '%f1')).toBe(0);
  });
});

describe('other spaces and multi-address instructions', () => {
  const k = kernel(`
.const .align 4 .b32 table[16];
.global .align 4 .b32 counter;
.visible .entry k(.param .u64 g)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 stage[256];
  mov.u64 %rd1, table;
  ld.const.u32 %r1, [%rd1+8];             // const window
  st.global.u32 [%rd1], %r1;              // writing through const
  mov.u64 %rd2, counter;
  atom.global.add.u32 %r2, [%rd2], 1;     // global symbol atom
  ld.param.u64 %rd3, [g];
  cvta.to.global.u64 %rd4, %rd3;
  mov.u32 %r3, stage;
  cp.async.ca.shared.global [%r3], [%rd4], 16;
  ld.global.u64 %rd5, [%rd4];
  ld.u32 %r4, [%rd5];                     // loaded pointer
  ret;
}
`);

  it('a .const symbol is const; st.global through it is a mismatch (F026 shape)', () => {
    expect(atomsOf(k.address('const window').provenance)).toEqual(['const']);
    expect(k.address('const window').agreement).toBe('match');
    expect(k.address('writing through const').agreement).toBe('mismatch');
  });

  it('a .global symbol taken by mov is global', () => {
    expect(atomsOf(k.address('global symbol atom').provenance)).toEqual(['global']);
  });

  it('cp.async has two addresses: the shared destination and the global source', () => {
    const i = k.a.at(k.line('cp.async'));
    const acc = k.p.accessesAt(i);
    expect(acc.map((x) => [x.space, atomsOf(x.provenance), x.agreement])).toEqual([
      ['shared', ['shared-window'], 'match'],
      ['global', ['global'], 'match'],
    ]);
  });

  it('a pointer loaded from memory is a generic address of unknown space', () => {
    expect(atomsOf(k.address('loaded pointer').provenance)).toEqual(['generic']);
  });
});

// ---------------------------------------------------------------- corpus

/** Every fact of both analyses, as plain data, for comparing two runs. */
function snapshot(text: string): string {
  const ctx = new AnalysisContext(parsePtx(text).module);
  const out: unknown[] = [];
  for (const fn of ctx.functions) {
    const p = ctx.get(fn, provenanceAnalysis);
    const t = ctx.get(fn, taintAnalysis);
    out.push(fn.name, Array.from(p.defValue), p.accesses.map((x) => [x.index, x.operand, x.space, x.provenance]),
      Array.from(t.anyMask), Array.from(t.movedMask));
  }
  return JSON.stringify(out);
}

/** Accesses of nvcc output without clean provenance, as `line: text`. Clean:
 *  every `ld/st.global` address is global (or a raw kernel parameter,
 *  generic-global), every `ld/st.shared` address shared-window, and no other
 *  access disagrees with its space (an address nvcc builds from `%envreg`,
 *  cooperative groups' grid workspace, has no known origin: allowed). */
function uncleanAccesses(text: string): string[] {
  const ctx = new AnalysisContext(parsePtx(text).module);
  const bad: string[] = [];
  for (const fn of ctx.functions) {
    for (const acc of ctx.get(fn, provenanceAnalysis).accesses) {
      const node = fn.instructions[acc.index]!.node;
      const strict = (node.opcode === 'ld' || node.opcode === 'st') && (acc.space === 'global' || acc.space === 'shared');
      const atoms = atomsOf(acc.provenance);
      const clean = strict
        ? acc.agreement === 'match' && (acc.space === 'global'
          ? atoms.every((x) => x === 'global' || x === 'generic-global')
          : atoms.length === 1 && atoms[0] === 'shared-window')
        : acc.agreement === 'match' || acc.agreement === 'unknown';
      if (!clean) bad.push(`${node.range.line}: ${node.opcode}${node.modifiers.join('')} ${formatProvenance(acc.provenance)} ${acc.agreement}`);
    }
  }
  return bad;
}

describe('corpus', () => {
  const inputs = committedPtx();

  it('both analyses terminate on every committed fixture and give identical results twice', () => {
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) {
      expect(snapshot(input.text), input.name).toBe(snapshot(input.text));
    }
  });

  it('no access in the parser corpus (compiler output, hand-written forms) disagrees with its space', () => {
    // Other fixture folders hold deliberate bugs (invalid/, gpu/ reproductions).
    const corpus = inputs.filter((x) => x.name.startsWith('fixtures/corpus/'));
    expect(corpus.length).toBeGreaterThan(10);
    for (const input of corpus) {
      const ctx = new AnalysisContext(parsePtx(input.text).module);
      for (const fn of ctx.functions) {
        const bad = ctx.get(fn, provenanceAnalysis).accesses.filter((x) => x.agreement === 'mismatch' || x.agreement === 'partial');
        expect(bad.map((x) => fn.instructions[x.index]!.node.range.line), `${input.name} ${fn.name}`).toEqual([]);
      }
    }
  });

  it('nvcc output gives clean facts: ld/st.global addresses are global, ld/st.shared shared-window', () => {
    const text = readFileSync('examples/block-reduce.ptx', 'utf8');
    expect(uncleanAccesses(text)).toEqual([]);
    const ctx = new AnalysisContext(parsePtx(text).module);
    const kinds = new Set(ctx.functions.flatMap((fn) => ctx.get(fn, provenanceAnalysis).accesses.map((x) => x.space)));
    expect([...kinds].sort()).toEqual(['global', 'param', 'shared']);
  });
});

describe('nvcc corpus', () => {
  // Compiler outputs are cached (shared with the parser's corpus test); a
  // cold cache compiles them first, hence the long timeout.
  it('every kernel nvcc compiles from fixtures/corpus/cuda gives clean facts', async () => {
    const { inputs, skipped } = await compiledCorpus();
    for (const s of skipped) console.log(s);
    const cuda = inputs.filter((x) => x.name.startsWith('cuda/'));
    for (const input of cuda) expect(uncleanAccesses(input.text), input.name).toEqual([]);
  }, 600_000);
});
