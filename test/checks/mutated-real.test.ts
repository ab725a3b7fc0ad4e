// The checks that real compilers never fail (malformed or mistyped PTX: F001-F020, F031, F065), failed on real compiler
// output with one slip made in it, the kind a hand edit or a generator bug makes: committed nvcc output
// (examples/block-reduce.ptx) and nvcc's output for corpus kernels with indirect calls and textures. Each mutation is asserted
// to land where it is meant to (the line holds the text it replaces), the check to report that line, and, where
// the check's rationale says ptxas rejects the slip, ptxas to reject the mutated file while it accepts the original.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import type { Check } from '../../src/checks/types.js';
import { compileCuda, NVCC, PTXAS, ptxasRejects, toolMissing } from '../helpers/toolchain.js';
import { outcomeOf } from './harness.js';
import { REAL } from './flow-kernel.js';

const BASE_PATH = 'examples/block-reduce.ptx';
const BASE = REAL(BASE_PATH);

interface Mutation {
  readonly id: string;
  readonly what: string;
  /** 1-based line of the edit, the text it replaces there and the replacement (every line when `line` is 0). */
  readonly line: number;
  readonly from: string;
  readonly to: string;
  /** Lines the check must report. */
  readonly lines: readonly number[];
  /** ptxas accepts the slip (the check is about something else than validity). */
  readonly ptxasAccepts?: boolean;
  /** The check is n/a on the original (it has nothing the check judges). */
  readonly naOnOriginal?: boolean;
}

const MUTATIONS: readonly Mutation[] = [
  { id: 'F001', what: 'kernels compiled as device functions', line: 0, from: '.visible .entry', to: '.func', lines: [9], ptxasAccepts: true },
  { id: 'F002', what: '.version below what .target sm_90 needs', line: 9, from: '.version 9.0', to: '.version 7.0', lines: [9] },
  { id: 'F003', what: '.address_size 32', line: 11, from: '.address_size 64', to: '.address_size 32', lines: [11] },
  { id: 'F004', what: 'a label defined twice', line: 64, from: '$L__BB0_4:', to: '$L__BB0_2:', lines: [64] },
  { id: 'F005', what: 'a branch to no label', line: 57, from: '$L__BB0_4', to: '$L__BB0_40', lines: [57] },
  { id: 'F006', what: 'a %r<N> range one short', line: 25, from: '%r<10>', to: '%r<9>', lines: [67, 68] },
  { id: 'F007', what: 'an add with one source', line: 42, from: '%r3, %r7, %r2', to: '%r3, %r7', lines: [42] },
  { id: 'F008', what: 'wgmma.fence on sm_90 (sm_90a only)', line: 71, from: 'bar.sync \t0;', to: 'wgmma.fence.sync.aligned;', lines: [71] },
  { id: 'F009', what: 'a misspelt opcode', line: 38, from: 'shl.b32', to: 'shlx.b32', lines: [38] },
  { id: 'F010', what: 'a byte-order mark', line: 1, from: '//', to: '\ufeff//', lines: [1] },
  { id: 'F011', what: 'a float register in an integer add', line: 42, from: '%r3, %r7, %r2', to: '%r3, %r7, %f6', lines: [42] },
  { id: 'F012', what: 'an .f64 load into an .f32 register', line: 50, from: 'ld.global.f32', to: 'ld.global.f64', lines: [50] },
  { id: 'F013', what: 'a 32-bit index added to a 64-bit address', line: 49, from: '%rd5, %rd1, %rd4', to: '%rd5, %rd1, %r4', lines: [49] },
  { id: 'F014', what: 'setp into a data register', line: 44, from: 'setp.ge.u32 \t%p1', to: 'setp.ge.u32 \t%r1', lines: [44] },
  { id: 'F015', what: 'cvta.to.global at 32 bits in a 64-bit module', line: 35, from: 'cvta.to.global.u64', to: 'cvta.to.global.u32', lines: [35] },
  { id: 'F016', what: 'a global load through a 32-bit register', line: 50, from: '[%rd5]', to: '[%r5]', lines: [50] },
  { id: 'F017', what: 'a guard on a data register', line: 46, from: '@%p1', to: '@%r1', lines: [46] },
  { id: 'F018', what: 'a .v2 load into one register', line: 50, from: 'ld.global.f32 \t%f6', to: 'ld.global.v2.f32 \t{%f6}', lines: [50] },
  { id: 'F019', what: 'a bitwise reduction on .f32', line: 69, from: 'st.shared.f32', to: 'red.shared.and.f32', lines: [69], naOnOriginal: true },
  { id: 'F020', what: 'a special register as an add operand', line: 42, from: '%r3, %r7, %r2', to: '%r3, %r7, %tid.x', lines: [42] },
];

const byId = (id: string): Check => CHECKS.find((c) => c.meta.id === id)!;

function mutate(text: string, m: Pick<Mutation, 'line' | 'from' | 'to'>): string {
  if (m.line === 0) {
    expect(text).toContain(m.from);
    return text.replaceAll(m.from, m.to);
  }
  const lines = text.split('\n');
  expect(lines[m.line - 1], `line ${m.line}`).toContain(m.from);
  lines[m.line - 1] = lines[m.line - 1]!.replace(m.from, m.to);
  return lines.join('\n');
}

describe(`checks that real compilers never fail, on ${BASE_PATH} with one slip`, () => {
  it('the original passes every one of them (F019 n/a: it has no atomics)', () => {
    for (const m of MUTATIONS) expect(outcomeOf(byId(m.id), BASE).status, m.id).toBe(m.naOnOriginal === true ? 'na' : 'pass');
  });
  for (const m of MUTATIONS) {
    it(`${m.id} fails: ${m.what} (line ${m.lines.join(', ')})`, () => {
      const o = outcomeOf(byId(m.id), mutate(BASE, m));
      expect(o.status).toBe('fail');
      expect(o.findings.map((f) => f.location.line)).toEqual(m.lines);
      for (const f of o.findings) expect(f.id).toBe(m.id);
    });
  }
});

const ptxasMissing = toolMissing(PTXAS);
if (ptxasMissing !== undefined) console.log(`skipping the ptxas cross-check of the mutations: ${ptxasMissing}`);

describe.skipIf(ptxasMissing !== undefined)('ptxas agrees the slips are errors', () => {
  it('ptxas accepts the original', async () => {
    expect(await ptxasRejects(BASE, 'sm_90')).toBeUndefined();
  });
  for (const m of MUTATIONS) {
    it(`${m.id}: ptxas ${m.ptxasAccepts === true ? 'accepts' : 'rejects'} ${m.what}`, async () => {
      const verdict = await ptxasRejects(mutate(BASE, m), 'sm_90');
      if (m.ptxasAccepts === true) expect(verdict).toBeUndefined();
      else expect(verdict).toBeDefined();
    });
  }
});

const nvccMissing = toolMissing(NVCC);
if (nvccMissing !== undefined) console.log(`skipping F065 on mutated nvcc output: ${nvccMissing}`);

describe.skipIf(nvccMissing !== undefined)('F065 on nvcc output of 27-function-pointers.cu with a prototype dropped', () => {
  it('the indirect call without its .callprototype operand is reported at the call; ptxas rejects it too', async () => {
    const ptx = await compileCuda('fixtures/corpus/cuda/27-function-pointers.cu', 'sm_90');
    const lines = ptx.split('\n');
    const end = lines.findIndex((l) => l.trim() === ', prototype_0;');
    expect(end).toBeGreaterThan(0);
    let call = end;
    while (call > 0 && !lines[call]!.trim().startsWith('call')) call--;
    expect(outcomeOf(byId('F065'), ptx).status).toBe('pass');
    const mutated = mutate(ptx, { line: end + 1, from: ', prototype_0;', to: ';' });
    const o = outcomeOf(byId('F065'), mutated);
    expect(o.status).toBe('fail');
    expect(o.findings.map((f) => [f.id, f.location.line])).toEqual([['F065', call + 1]]);
    if (ptxasMissing === undefined) expect(await ptxasRejects(mutated, 'sm_90')).toBeDefined();
  });
});

describe.skipIf(nvccMissing !== undefined)('F031 on nvcc output of 16-textures.cu with a surface reference for a texture', () => {
  it('a tex through a declared .surfref is reported at the tex; ptxas rejects it too', async () => {
    const ptx = await compileCuda('fixtures/corpus/cuda/16-textures.cu', 'sm_90');
    // (nvcc 13 emits texture objects, 64-bit handles that F031 judges and passes; it emits no references: the
    // declaration is part of the slip.)
    expect(outcomeOf(byId('F031'), ptx).status).toBe('pass');
    const declared = mutate(ptx, { line: 0, from: '.address_size 64\n', to: '.address_size 64\n.global .surfref sref;\n' });
    const lines = declared.split('\n');
    const tex = lines.findIndex((l) => l.trim().startsWith('tex.1d.'));
    expect(tex).toBeGreaterThan(0);
    const mutated = mutate(declared, { line: tex + 1, from: '[%rd1,', to: '[sref,' });
    const o = outcomeOf(byId('F031'), mutated);
    expect(o.status).toBe('fail');
    expect(o.findings.map((f) => [f.id, f.location.line])).toEqual([['F031', tex + 1]]);
    if (ptxasMissing === undefined) expect(await ptxasRejects(mutated, 'sm_90')).toBeDefined();
  });
});
