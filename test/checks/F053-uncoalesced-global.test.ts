import { describe, expect, it } from 'vitest';
import { F053 } from '../../src/checks/F053-uncoalesced-global.js';
import { checkCases, outcomeOf } from './harness.js';
import { marked, module, PROLOGUE, PROLOGUE_2D, REAL } from './memory-kernel.js';

/** Loads (or stores) at %rd1 + stride·tid.x + each offset. */
const strided = (stride: number, offsets: readonly number[], opts: { op?: string; mark?: readonly number[]; twoD?: boolean } = {}): string => module([
  ...(opts.twoD === true ? PROLOGUE_2D : PROLOGUE),
  `mul.wide.u32 %rd3, %r1, ${stride};`,
  'add.s64 %rd4, %rd1, %rd3;',
  ...offsets.map((o, i) => `${opts.op ?? 'ld.global.f32'} %f${i + 1}, [%rd4+${o}];${(opts.mark ?? [0]).includes(i) ? ' // !' : ''}`),
]);

const aosOneField = strided(16, [0]);
const column = strided(4096, [0]);
const stride12 = strided(12, [0]);
const twoFieldsOf8 = strided(32, [0, 4]);
const laneStore = module(['ld.param.u64 %rd1, [p];', 'mov.u32 %r1, %laneid;', 'mul.wide.u32 %rd3, %r1, 64;', 'add.s64 %rd4, %rd1, %rd3;', 'st.global.u32 [%rd4], %r1; // !']);
const genericLoad = module(['ld.param.u64 %rd1, [p];', 'mov.u32 %r1, %tid.x;', 'mul.wide.u32 %rd3, %r1, 128;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.f32 %f1, [%rd4]; // !']);

checkCases(F053, {
  fails: [
    { name: 'one field of a 16-byte structure (array of structures)', ptx: aosOneField, lines: marked(aosOneField) },
    { name: 'a column of a row-major matrix (lanes 4096 bytes apart)', ptx: column, lines: marked(column) },
    { name: 'one float of each 12-byte element', ptx: stride12, lines: marked(stride12) },
    { name: 'two fields of a 32-byte structure, pooled: one finding', ptx: twoFieldsOf8, lines: marked(twoFieldsOf8) },
    { name: 'a %laneid-indexed store 64 bytes apart', ptx: laneStore, lines: marked(laneStore) },
    { name: 'a generic load whose provenance is a kernel pointer', ptx: genericLoad, lines: marked(genericLoad) },
  ],
  passes: [
    { name: 'consecutive floats', ptx: strided(4, [0]) },
    { name: 'consecutive float4', ptx: strided(16, [0], { op: 'ld.global.v4.f32' }).replace('%f1, [', '{%f1, %f2, %f3, %f4}, [') },
    { name: 'all four fields of a 16-byte structure (pooled: 16 sectors for 512 bytes)', ptx: strided(16, [0, 4, 8, 12]) },
    { name: 'every other float (8 sectors for 4: exactly twice, not more)', ptx: strided(8, [0]) },
    { name: 'a broadcast', ptx: strided(0, [0]) },
    { name: 'a 2-D kernel without a block size is not judged', ptx: strided(128, [0], { twoD: true }).replace('mul.wide.u32 %rd3, %r1, 128', 'mad.lo.s32 %r5, %r2, 32, %r1;\n\tmul.wide.u32 %rd3, %r5, 128'), na: true },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'Triton vector add (lane offsets built with or/and masks: not affine, not judged)', ptx: REAL('fixtures/corpus/triton/vector_add.ptx'), na: true },
    { name: 'Triton layer norm (four scalar loads of consecutive words per lane, pooled)', ptx: REAL('fixtures/corpus/triton/layer_norm.ptx') },
    { name: 'Triton softmax', ptx: REAL('fixtures/corpus/triton/softmax_rows.ptx') },
  ],
});

describe('F053 sector counts', () => {
  it('match a hand calculation', () => {
    const msg = (ptx: string): string => outcomeOf(F053, ptx).findings[0]!.message;
    // 32 lanes × 16 bytes apart, 4 bytes each: 16 sectors; 128 bytes need 4.
    expect(msg(aosOneField)).toContain('touches 16 sectors of 32 bytes where 4 would hold its bytes (4.0×)');
    expect(msg(aosOneField)).toContain('.v4');
    // 4096 bytes apart: every lane its own sector.
    expect(msg(column)).toContain('touches 32 sectors of 32 bytes where 4 would hold its bytes (8.0×)');
    // 12 bytes apart: lanes span 31·12 + 4 = 376 bytes, 12 sectors.
    expect(msg(stride12)).toContain('touches 12 sectors of 32 bytes where 4 would hold its bytes (3.0×)');
    // Two fields of 32-byte elements: 32 sectors, 256 bytes need 8.
    expect(msg(twoFieldsOf8)).toContain('2 loads at');
    expect(msg(twoFieldsOf8)).toContain('touches 32 sectors of 32 bytes where 8 would hold its bytes (4.0×)');
  });
});
