// Baselines (a known finding stays known across line shifts, a fixed one is
// counted, a new one fails the gate), CUDA sources as input (findings at the
// .cu line), and Triton cache directories (results named by kernel).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { reportSchema } from '../../src/report/schema.js';
import { toolMissing, NVCC } from '../helpers/toolchain.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['node', 'ptx-debug', ...args], { out: (s) => { out += `${s}\n`; }, err: (s) => { err += `${s}\n`; } });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-baseline-'));
const H = '.version 8.0\n.target sm_90\n.address_size 64\n';
const kernel = (body: string): string => `${H}.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<4>;\n${body}\tret;\n}\n`;

describe('baselines', () => {
  it('records findings, then reports them as known across line shifts; a fix and a new finding are counted', async () => {
    const file = join(dir, 'k.ptx');
    const baseline = join(dir, 'baseline.json');
    // Two findings: an undeclared register (F006) and a typo'd opcode (F009).
    writeFileSync(file, kernel('\tmov.u32 %r1, %q9;\n\tadd.s32 %r2, %r1, 1;\n\tld.shraed.u32 %r3, [%r2];\n'));
    const first = await cli('analyze', file, '--write-baseline', baseline, '--only', 'F006,F009', '--format', 'json');
    expect(first.code).toBe(2);
    const recorded = JSON.parse(readFileSync(baseline, 'utf8')) as { findings: { id: string }[] };
    expect(recorded.findings.map((f) => f.id).sort()).toEqual(['F006', 'F009']);

    // Same file, shifted by two new lines: both findings stay known, the gate passes.
    writeFileSync(file, kernel('\tadd.s32 %r0, %r0, 0;\n\tadd.s32 %r0, %r0, 0;\n\tmov.u32 %r1, %q9;\n\tadd.s32 %r2, %r1, 1;\n\tld.shraed.u32 %r3, [%r2];\n'));
    const shifted = await cli('analyze', file, '--baseline', baseline, '--only', 'F006,F009');
    expect(shifted.code).toBe(0);
    expect(shifted.out).toContain('baseline: 2 known finding(s) matched (left out of the score), 0 fixed since, 0 new');

    // The typo fixed, a new undeclared register added: one known, one fixed, one new.
    writeFileSync(file, kernel('\tmov.u32 %r1, %q9;\n\tadd.s32 %r2, %r1, 1;\n\tld.shared.u32 %r3, [%r2];\n\tmov.u32 %r3, %zz;\n'));
    const edited = await cli('analyze', file, '--baseline', baseline, '--only', 'F006,F009', '--format', 'json');
    const json = reportSchema.parse(JSON.parse(edited.out));
    expect(json.files[0]!.findings.map((f) => [f.id, f.location.line, f.suppressed?.by ?? 'new'])).toEqual([
      ['F006', 7, 'baseline'], ['F006', 10, 'new'],
    ]);
    expect(edited.code).toBe(2);
    const text = await cli('analyze', file, '--baseline', baseline, '--only', 'F006,F009');
    expect(text.out).toContain('baseline: 1 known finding(s) matched (left out of the score), 1 fixed since, 1 new');
  });

  it('rejects a file that is not a baseline', async () => {
    const bad = join(dir, 'not-baseline.json');
    writeFileSync(bad, '{"hello": 1}');
    const r = await cli('analyze', 'examples/block-reduce.ptx', '--baseline', bad);
    expect(r.code).toBe(4);
    expect(r.err).toContain('not a ptx-debug baseline');
  });
});

describe.skipIf(toolMissing(NVCC) !== undefined)('CUDA sources', () => {
  it('compiles with -lineinfo and reports findings at the .cu line, nvcc flags after --', async () => {
    const cu = join(dir, 'asm.cu');
    // Inline PTX that nvcc passes through unchecked: a 64-bit move between 32-bit registers (F011).
    writeFileSync(cu, [
      'extern "C" __global__ void k(unsigned *out) {',
      '  unsigned x = threadIdx.x, y;',
      '#ifdef BAD',
      '  asm volatile("mov.u64 %0, %1;" : "=r"(y) : "r"(x));',
      '#else',
      '  y = x;',
      '#endif',
      '  out[threadIdx.x] = y;',
      '}',
      '',
    ].join('\n'));
    const clean = await cli('analyze', cu, '--only', 'F011', '--format', 'json');
    expect(reportSchema.parse(JSON.parse(clean.out)).files[0]!.findings).toEqual([]);
    const r = await cli('analyze', cu, '--only', 'F011', '--format', 'json', '--arch', 'sm_80', '--', '-DBAD');
    const f = reportSchema.parse(JSON.parse(r.out)).files[0]!;
    expect(f.file).toBe(cu);
    expect(f.findings.length).toBeGreaterThan(0); // one per mismatched operand
    for (const x of f.findings) expect(x.location.source).toMatchObject({ line: 4 });
    expect(f.findings[0]!.location.source!.file).toMatch(/asm\.cu$/);
    const text = await cli('analyze', cu, '--only', 'F011', '--', '-DBAD');
    expect(text.out).toMatch(/asm\.cu:4 \| asm volatile/);
  }, 60_000);

  it('reports a shared-memory race at the racing CUDA lines', async () => {
    const r = await cli('analyze', 'fixtures/cuda-inputs/neighbour-race.cu', '--only', 'F036', '--block', '256', '--format', 'json');
    const f = reportSchema.parse(JSON.parse(r.out)).files[0]!;
    expect(f.findings.map((x) => [x.id, x.location.source?.line])).toEqual([['F036', 7]]);
    expect(f.findings[0]!.related?.[0]?.location.source?.line).toBe(6);
    expect(r.code).toBe(3);
  }, 60_000);

  it('says clearly when nvcc fails', async () => {
    const cu = join(dir, 'broken.cu');
    writeFileSync(cu, '__global__ void k( {\n');
    const r = await cli('analyze', cu);
    expect(r.code).toBe(4);
    expect(r.out).toMatch(/broken\.cu: nvcc failed: .*error/);
  }, 60_000);
});

describe('Triton caches', () => {
  it('finds the PTX in a Triton cache, names each result by its kernel, and maps to the Python lines', async () => {
    const r = await cli('analyze', 'fixtures/triton-cache', '--format', 'json');
    const json = reportSchema.parse(JSON.parse(r.out));
    expect(json.files.map((f) => f.file.split('/').pop()).sort()).toEqual(['histogram.ptx', 'layer_norm.ptx', 'matmul.ptx', 'softmax_rows.ptx', 'vector_add.ptx']);
    const text = await cli('analyze', 'fixtures/triton-cache');
    expect(text.out).toContain('vector_add (Triton cache)');
  });
});

describe('Triton line information', () => {
  it('maps Triton PTX instructions through .loc to the Python source lines', async () => {
    const { parsePtx } = await import('../../src/parser/parse.js');
    const { AnalysisContext } = await import('../../src/cfg/context.js');
    const text = readFileSync('fixtures/corpus/triton/vector_add.ptx', 'utf8');
    const ctx = new AnalysisContext(parsePtx(text).module);
    const fn = ctx.functions[0]!;
    const located = fn.instructions.map((i) => ctx.locate(fn, i)).filter((l) => l.source !== undefined);
    expect(located.length).toBeGreaterThan(fn.instructions.length / 2);
    // gen_ptx.py lines 18-25 hold vector_add's body.
    for (const l of located) {
      expect(l.source!.file).toMatch(/gen_ptx\.py$/);
      expect(l.source!.line).toBeGreaterThanOrEqual(18);
      expect(l.source!.line).toBeLessThanOrEqual(25);
    }
    const loads = fn.instructions.filter((i) => i.node.opcode === 'ld').map((i) => ctx.locate(fn, i).source?.line);
    expect(loads).toContain(22); // x = tl.load(x_ptr + offs, mask=mask)
  });
});
