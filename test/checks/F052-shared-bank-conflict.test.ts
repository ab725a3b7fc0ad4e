import { describe, expect, it } from 'vitest';
import { F052 } from '../../src/checks/F052-shared-bank-conflict.js';
import { findKernel } from '../../src/kernels/library/index.js';
import { checkCases, outcomeOf } from './harness.js';
import { marked, module, PROLOGUE, PROLOGUE_2D, REAL } from './memory-kernel.js';

const TILE = '.shared .align 4 .f32 tile[1056];';
const at = (stride: number, opts: { bytes?: string; op?: string; twoD?: boolean } = {}): string[] => [
  ...(opts.twoD === true ? PROLOGUE_2D : PROLOGUE),
  'mov.u32 %r4, tile;',
  `mad.lo.s32 %r5, %r1, ${stride}, %r4;`,
  ...(opts.twoD === true ? ['shl.b32 %r6, %r2, 2;', 'add.s32 %r5, %r5, %r6;'] : []),
  `${opts.op ?? 'ld.shared.f32 %f1'}, [%r5]; // !`,
];

const column = module(at(128, { twoD: true }), { decls: [TILE], directives: '.reqntid 32, 32, 1' });
const stride64 = module(at(64), { decls: [TILE] });
const doubles = module(at(16, { op: 'ld.shared.f64 %fd1' }), { decls: ['.shared .align 16 .b8 tile[8192];'] });
const float4Gap = module(at(32, { op: 'ld.shared.v4.f32 {%f1, %f2, %f3, %f4}' }), { decls: ['.shared .align 16 .b8 tile[8192];'] });
const lane = module(['mov.u32 %r1, %laneid;', 'mov.u32 %r4, tile;', 'mad.lo.s32 %r5, %r1, 128, %r4;', 'mov.u32 %r2, %tid.y;', 'st.shared.u32 [%r5], %r2; // !'], { decls: ['.shared .align 4 .b32 tile[1024];'] });
const generic = module([
  ...PROLOGUE, 'mov.u64 %rd3, tile;', 'cvta.shared.u64 %rd4, %rd3;', 'mul.wide.u32 %rd5, %r1, 128;', 'add.s64 %rd6, %rd4, %rd5;', 'st.f32 [%rd6], %f1; // !',
], { decls: [TILE] });
const blockOption = module(at(128, { twoD: true }), { decls: [TILE] });

checkCases(F052, {
  fails: [
    { name: 'a column of a 32×32 float tile (lanes 128 bytes apart): 32-way', ptx: column, lines: marked(column) },
    { name: 'lanes 64 bytes apart in a 1-D kernel without a block size: 16-way', ptx: stride64, lines: marked(stride64) },
    { name: 'doubles 16 bytes apart (half-warp phases): 2-way', ptx: doubles, lines: marked(doubles) },
    { name: 'float4 32 bytes apart (quarter-warp phases): 2-way', ptx: float4Gap, lines: marked(float4Gap) },
    { name: 'a %laneid-indexed store needs no block size', ptx: lane, lines: marked(lane) },
    { name: 'a generic store through cvta.shared', ptx: generic, lines: marked(generic) },
    { name: 'a 2-D kernel is judged with --block', ptx: blockOption, lines: marked(blockOption), options: { block: [32, 8, 1] } },
  ],
  passes: [
    { name: 'consecutive floats', ptx: module(at(4), { decls: [TILE] }) },
    { name: 'a linear float4 access (4 wavefronts for 512 bytes: degree 1)', ptx: module(at(16, { op: 'ld.shared.v4.f32 {%f1, %f2, %f3, %f4}' }), { decls: ['.shared .align 16 .b8 tile[8192];'] }) },
    { name: 'consecutive doubles', ptx: module(at(8, { op: 'ld.shared.f64 %fd1' }), { decls: ['.shared .align 8 .b8 tile[8192];'] }) },
    { name: 'a row padded to 33 words', ptx: module(at(132, { twoD: true }), { decls: [TILE], directives: '.reqntid 32, 32, 1' }) },
    { name: 'lanes 3 words apart (odd stride)', ptx: module(at(12), { decls: [TILE] }) },
    { name: 'a broadcast (every lane reads one word)', ptx: module(at(0), { decls: [TILE] }) },
    { name: 'a 2-D kernel without a block size is not judged', ptx: module(at(128, { twoD: true }), { decls: [TILE] }), na: true },
    { name: 'no shared memory', ptx: module([...PROLOGUE, 'ld.global.f32 %f1, [%rd1];']), na: true },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'Triton matmul (XOR-swizzled tiles: not affine in the lane, not judged)', ptx: REAL('fixtures/corpus/triton/matmul.ptx'), na: true },
    { name: 'Triton softmax', ptx: REAL('fixtures/corpus/triton/softmax_rows.ptx') },
  ],
});

describe('F052 on the tiled GEMM family', () => {
  it('fails gemm_tiled with one 32-way conflict for the four unrolled transposed stores of the A tile', () => {
    const o = outcomeOf(F052, findKernel('gemm_tiled')!.build({ arch: 'sm_90' }));
    expect(o.status).toBe('fail');
    expect(o.findings.length).toBe(1);
    expect(o.findings[0]!.related?.length).toBe(3);
    expect(o.findings[0]!.message).toContain('3 more accesses of this pattern');
    for (const f of o.findings) {
      expect(f.message).toMatch(/^32-way bank conflict: st\.shared\.f32/);
      expect(f.message).toContain('32 wavefronts where 1 would do (degree 32)');
      expect(f.message).toContain('pad the row to 33 words');
      expect(f.message).toContain('XOR-swizzle');
    }
  });

  it.each(['gemm_tiled_padded', 'gemm_swizzled'])('passes %s', (name) => {
    expect(outcomeOf(F052, findKernel(name)!.build({ arch: 'sm_90' })).status).toBe('pass');
  });

  it('reports the degrees a hand calculation gives', () => {
    const degree = (ptx: string): string[] => outcomeOf(F052, ptx).findings.map((f) => /^(\d+)-way/.exec(f.message)?.[1] ?? '?');
    expect(degree(column)).toEqual(['32']);
    expect(degree(stride64)).toEqual(['16']);
    expect(degree(doubles)).toEqual(['2']);
    expect(degree(float4Gap)).toEqual(['2']);
    expect(outcomeOf(F052, float4Gap).findings[0]!.message).toContain('its 4 phases of 8 lanes need 8 wavefronts where 4 would do');
  });
});

describe('F052 reports one finding per distinct pattern', () => {
  // Column reads of a 32-float tile at +0, +4, +8 (three unrolled copies): one finding, two related.
  const copies = module([...PROLOGUE, 'mov.u32 %r4, tile;', 'mad.lo.s32 %r5, %r1, 128, %r4;',
    'ld.shared.f32 %f1, [%r5]; // !', 'ld.shared.f32 %f2, [%r5+4];', 'ld.shared.f32 %f3, [%r5+8];'], { decls: [TILE] });
  // The same column read once before a loop and once in it: two patterns.
  const twoPlaces = module([...PROLOGUE, 'mov.u32 %r4, tile;', 'mad.lo.s32 %r5, %r1, 128, %r4;', 'ld.shared.f32 %f1, [%r5]; // !', 'mov.u32 %r6, 0;',
    '$loop:', 'ld.shared.f32 %f2, [%r5+4]; // !', 'add.s32 %r6, %r6, 1;', 'setp.lt.u32 %p1, %r6, %r3;', '@%p1 bra $loop;'], { decls: [TILE] });
  // u16 at lanes 38 bytes apart (a 19-halfword row): lane l reads word floor(9.5·l); words 0 and 256 (lanes 0, 27),
  // 19 and 275 (lanes 2, 29), 38 and 294 (lanes 4, 31) share banks 0, 19 and 6: 2 wavefronts where 1 would do.
  const halfwords = module([...PROLOGUE, 'mov.u32 %r4, tile;', 'mad.lo.s32 %r5, %r1, 38, %r4;', 'ld.shared.u16 %h1, [%r5]; // !'], { decls: ['.shared .align 4 .b8 tile[2048];'] });

  it('reports unrolled copies once, with the others as related', () => {
    const o = outcomeOf(F052, copies);
    expect(o.findings.map((f) => f.location.line)).toEqual(marked(copies));
    expect(o.findings[0]!.related?.length).toBe(2);
    expect(o.findings[0]!.message).toContain('32-way bank conflict');
    expect(o.findings[0]!.message).toContain('2 more accesses of this pattern');
  });

  it('reports the same access in different loops separately', () => {
    expect(outcomeOf(F052, twoPlaces).findings.map((f) => f.location.line)).toEqual(marked(twoPlaces));
  });

  it('gives the padding in bytes when the row is not a whole number of words', () => {
    const o = outcomeOf(F052, halfwords);
    expect(o.findings.map((f) => f.location.line)).toEqual(marked(halfwords));
    expect(o.findings[0]!.message).toContain('the warp needs 2 wavefronts where 1 would do (degree 2)');
    expect(o.findings[0]!.message).toMatch(/pad the row to \d+ bytes between lanes \(\+\d+\)/);
  });
});
