// The numbers in F052's, F053's and F091's findings on the labelled CUDA
// kernels (fixtures/checks/memory), against a hand calculation written next to
// each expectation, and F091's spill figures against what `ptxas -v` prints.
// Shared memory: 32 banks of 4 bytes; a phase is 32 lanes (≤ 4-byte accesses),
// 16 (8-byte) or 8 (16-byte); wavefronts = Σ over phases of the most distinct
// words in one bank; required = max(1, 32·size/128); degree = wavefronts/required.
// Global memory: sectors = distinct 32-byte sectors the 32 lanes touch;
// minimal = ceil(distinct bytes / 32).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import type { Finding } from '../../src/checks/types.js';
import { compileCuda, NVCC, PTXAS, toolMissing } from '../helpers/toolchain.js';

const DIR = 'fixtures/checks/memory';

async function findings(file: string, id: string, opts: { block?: [number, number, number]; ptxas?: boolean } = {}): Promise<Map<string, Finding[]>> {
  const ptx = await compileCuda(join(DIR, file), 'sm_90');
  const r = analyzeText(ptx, file, { only: [id], ...opts });
  expect(r.error).toBeUndefined();
  const out = new Map<string, Finding[]>();
  for (const f of r.report!.findings) out.set(f.function ?? '?', [...(out.get(f.function ?? '?') ?? []), f]);
  return out;
}

const nvcc = toolMissing(NVCC);
describe.skipIf(nvcc !== undefined)('F052 degrees on bank-conflicts.cu (--block 32,8,1)', () => {
  it('match the hand calculation', async () => {
    const byFn = await findings('bank-conflicts.cu', 'F052', { block: [32, 8, 1] });
    // transpose_tile, tile[threadIdx.x][threadIdx.y + j] (float tile[32][32]): lanes differ in
    // threadIdx.x, 32 floats = 128 bytes apart; word 32·l + c is in bank c for every lane l:
    // 32 distinct words in one bank = 32 wavefronts; required max(1, 32·4/128) = 1; degree 32.
    // Padding the row to 33 words puts lane l in bank (33·l + c) mod 32 = l + c: 1 wavefront.
    // The four unrolled copies (j = 0, 8, 16, 24: +0, +32, +64, +96 bytes) are one finding.
    const t = byFn.get('transpose_tile')!;
    expect(t.length).toBe(1);
    expect(t[0]!.message).toMatch(/^32-way bank conflict: ld\.shared\.f32 .* lanes 128 bytes apart; the warp needs 32 wavefronts where 1 would do \(degree 32\); 3 more accesses/);
    expect(t[0]!.message).toContain('pad the row to 33 words (132 bytes between lanes, +4): conflict-free');
    expect(t[0]!.related?.length).toBe(3);
    // transpose_tile_padded: tile[32][33], lanes 132 bytes = 33 words apart: banks l + c, all
    // distinct: 1 wavefront, degree 1 (no finding).
    expect(byFn.get('transpose_tile_padded')).toBeUndefined();
    // column_sums_stride32, t[threadIdx.x][k] (float t[32][32]): 128 bytes apart, 32-way as above.
    const c = byFn.get('column_sums_stride32')!;
    expect(c.length).toBe(1);
    expect(c[0]!.message).toContain('lanes 128 bytes apart; the warp needs 32 wavefronts where 1 would do (degree 32)');
    // column_sums_stride33: 33 words apart: conflict-free.
    expect(byFn.get('column_sums_stride33')).toBeUndefined();
    // doubles_two_apart, d[2·t] (double): lanes 16 bytes apart, 8 bytes each, served per half
    // warp. Lanes 0..15 touch words 4l and 4l+1: banks 4l mod 32 and 4l+1 mod 32, so lanes l
    // and l+8 share two banks with different words: 2 wavefronts per half, 4 for the warp;
    // required 32·8/128 = 2; degree 2. Padding to 24 bytes (6 words): lanes 0..15 at words
    // 6l, 6l+1 cover 32 distinct banks: 1 per half, degree 1. The store is one finding, the
    // two loads (d[2t], d[2t+1]: +0 and +8) another.
    const d = byFn.get('doubles_two_apart')!;
    expect(d.length).toBe(2);
    for (const f of d) {
      expect(f.message).toContain('moves 8 bytes per lane with lanes 16 bytes apart; its 2 phases of 16 lanes need 4 wavefronts where 2 would do (degree 2)');
      expect(f.message).toContain('pad the row to 6 words (24 bytes between lanes, +8): conflict-free');
    }
    expect(d.map((f) => f.message.slice(0, 23)).sort()).toEqual(['2-way bank conflict: ld', '2-way bank conflict: st']);
    // float4_linear, v[t] (float4): lanes 16 bytes apart, 16 bytes each, per quarter warp:
    // 8 lanes cover 128 consecutive bytes = 32 banks once: 1 wavefront per quarter, 4 in all;
    // required 32·16/128 = 4: degree 1 (no finding).
    expect(byFn.get('float4_linear')).toBeUndefined();
    // float4_two_apart, v[2·t] and v[2·t + 1] (float4): lanes 32 bytes apart, 16 bytes each,
    // per quarter warp: lanes 0..7 touch words 8l..8l+3, banks 0-3, 8-11, 16-19, 24-27, and
    // lanes 4..7 the same banks one row down: 2 wavefronts per quarter, 8 in all; required 4;
    // degree 2. A 48-byte stride (12 words) spreads the 8 lanes over all 32 banks: degree 1.
    const f4 = byFn.get('float4_two_apart')!;
    expect(f4.length).toBe(2);
    for (const f of f4) {
      expect(f.message).toContain('moves 16 bytes per lane with lanes 32 bytes apart; its 4 phases of 8 lanes need 8 wavefronts where 4 would do (degree 2)');
      expect(f.message).toContain('pad the row to 12 words (48 bytes between lanes, +16): conflict-free');
    }
    expect(f4[0]!.related?.length).toBe(1);
    // transpose_tile_swizzled, tile[x][y ^ x]: the XOR is not affine in the lane, so it is
    // not judged (column c ^ l puts lane l in bank c ^ l: 32 distinct banks, 1 wavefront).
    expect(byFn.get('transpose_tile_swizzled')).toBeUndefined();
  }, 120_000);
});

describe.skipIf(nvcc !== undefined)('F053 sectors on coalescing.cu', () => {
  it('match the hand calculation', async () => {
    const byFn = await findings('coalescing.cu', 'F053');
    const msg = (fn: string): string => {
      const fs = byFn.get(fn)!;
      expect(fs.length, fn).toBe(1);
      return fs[0]!.message;
    };
    // aos_one_field, p[i].x (16-byte Particle): lane l reads bytes [16l, 16l+4): sector
    // floor(16l/32) = floor(l/2): 16 sectors; 32·4 = 128 bytes need 4: 4.0×; one .v4 load per
    // lane (16 sectors for 512 bytes) or a structure of arrays (4 for 128) removes it.
    expect(msg('aos_one_field')).toContain('with lanes 16 bytes apart; a warp touches 16 sectors of 32 bytes where 4 would hold its bytes (4.0×)');
    expect(msg('aos_one_field')).toContain('.v4');
    // column_of_matrix, m[i·1024] (float): lanes 4096 bytes apart: 32 sectors for 4: 8.0×.
    expect(msg('column_of_matrix')).toContain('with lanes 4096 bytes apart; a warp touches 32 sectors of 32 bytes where 4 would hold its bytes (8.0×)');
    // scatter_every_eighth, out[8·i]: lanes 32 bytes apart, one sector each: 32 for 4: 8.0×.
    expect(msg('scatter_every_eighth')).toContain('with lanes 32 bytes apart; a warp touches 32 sectors of 32 bytes where 4 would hold its bytes (8.0×)');
    // soa_one_field and row_of_matrix (4 bytes apart: 4 sectors for 4) and aos_whole_element
    // (one .v4 per lane, 16 bytes apart: 16 sectors for 512 bytes = 16) are coalesced.
    for (const fn of ['soa_one_field', 'row_of_matrix', 'aos_whole_element']) expect(byFn.get(fn), fn).toBeUndefined();
  }, 120_000);
});

const ptxas = toolMissing(PTXAS);
describe.skipIf(nvcc !== undefined || ptxas !== undefined)('F091 on occupancy-spills.cu (--ptxas)', () => {
  it('reports exactly the spill figures ptxas -v prints', async () => {
    const ptx = await compileCuda(join(DIR, 'occupancy-spills.cu'), 'sm_90');
    const dir = mkdtempSync(join(tmpdir(), 'f091-'));
    let log = '';
    try {
      writeFileSync(join(dir, 'k.ptx'), ptx);
      // ptxas -v prints to standard error.
      log = execFileSync('sh', ['-c', `"${PTXAS}" -v -arch=sm_90 "${join(dir, 'k.ptx')}" -o "${join(dir, 'k.cubin')}" 2>&1`], { encoding: 'utf8' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // The "Function properties for <fn>" block's "N bytes spill stores, M bytes spill loads".
    const spills = new Map<string, [number, number]>();
    let fn: string | undefined;
    for (const line of log.split('\n')) {
      const p = /Function properties for (\S+)/.exec(line);
      if (p !== null) fn = p[1];
      const s = /(\d+) bytes spill stores, (\d+) bytes spill loads/.exec(line);
      if (s !== null && fn !== undefined) spills.set(fn, [Number(s[1]), Number(s[2])]);
    }
    const spilling = [...spills].filter(([, [st, ld]]) => st > 0 || ld > 0);
    expect(spilling.length).toBeGreaterThan(0);
    const r = analyzeText(ptx, 'occupancy-spills.cu', { only: ['F091'], ptxas: true });
    const got = r.report!.findings.map((f) => [f.function, /(\d+) bytes spill stores, (\d+) bytes spill loads/.exec(f.message)?.slice(1).map(Number)]);
    const byName = (a: readonly unknown[], b: readonly unknown[]): number => String(a[0]).localeCompare(String(b[0]));
    expect(got.sort(byName)).toEqual(spilling.map(([name, figures]) => [name, figures]).sort(byName));
    // Three kernels spill (spills_under_launch_bounds, spills_at_32_registers, spills_with_wide_accumulators).
    expect(got.length).toBe(3);
  }, 120_000);
});
