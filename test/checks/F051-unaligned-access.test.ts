import { describe, expect, it } from 'vitest';
import { F051 } from '../../src/checks/F051-unaligned-access.js';
import { checkCases, outcomeOf } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const BUF = '.shared .align 16 .b8 buf[4096];';

/** %rd4 = p + stride·tid.x (global). */
const perThread = (stride: number): string[] => [...PROLOGUE, `mul.wide.u32 %rd3, %r1, ${stride};`, 'add.s64 %rd4, %rd1, %rd3;'];

const float4Offset = module([...perThread(16), 'ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+4]; // !']);
const sharedV2 = module(['mov.u32 %r4, buf;', 'ld.shared.v2.f32 {%f1, %f2}, [%r4+4]; // !'], { decls: [BUF] });
const laneStride = module([...PROLOGUE, 'mov.u32 %r4, buf;', 'mad.lo.s32 %r5, %r1, 2, %r4;', 'ld.shared.u32 %r6, [%r5]; // !'], { decls: [BUF] });
const local = module(['mov.u64 %rd3, arr;', 'ld.local.u64 %rd5, [%rd3+4]; // !'], { decls: ['.local .align 8 .b8 arr[64];'] });
const cpAsync = module([...perThread(16), 'mov.u32 %r4, buf;', 'shl.b32 %r5, %r1, 4;', 'add.s32 %r6, %r4, %r5;', 'cp.async.cg.shared.global [%r6], [%rd4+8], 16; // !'], { decls: [BUF] });
const storeV2 = module([...perThread(8), 'st.global.v2.u32 [%rd4+4], {%r1, %r3}; // !']);
const genericShared = module(['mov.u64 %rd3, buf;', 'cvta.shared.u64 %rd4, %rd3;', 'ld.f64 %fd1, [%rd4+4]; // !'], { decls: [BUF] });

checkCases(F051, {
  fails: [
    { name: 'a float4 load through p + 1 float', ptx: float4Offset, lines: marked(float4Offset) },
    { name: 'an 8-byte shared load 4 bytes into a 16-aligned array', ptx: sharedV2, lines: marked(sharedV2) },
    { name: 'u32 loads 2 bytes apart in convergent code (odd lanes misaligned)', ptx: laneStride, lines: marked(laneStride) },
    { name: 'a u64 local load 4 bytes into an 8-aligned array', ptx: local, lines: marked(local) },
    { name: 'a 16-byte cp.async from a source 8 bytes off', ptx: cpAsync, lines: marked(cpAsync) },
    { name: 'a v2.u32 store 4 bytes into 8-byte elements', ptx: storeV2, lines: marked(storeV2) },
    { name: 'a generic f64 load through cvta.shared, 4 bytes in', ptx: genericShared, lines: marked(genericShared) },
  ],
  passes: [
    { name: 'float4 loads at whole vectors', ptx: module([...perThread(16), 'ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16];']) },
    {
      name: 'loads 2 bytes apart under a lane-varying guard (only even lanes run)',
      ptx: module([...PROLOGUE, 'and.b32 %r7, %r1, 1;', 'setp.eq.u32 %p1, %r7, 0;', 'mov.u32 %r4, buf;', 'mad.lo.s32 %r5, %r1, 2, %r4;', '@%p1 ld.shared.u32 %r6, [%r5];'], { decls: [BUF] }),
    },
    { name: 'a pointer loaded from memory has no known alignment', ptx: module([...PROLOGUE, 'ld.global.u64 %rd5, [%rd1];', 'ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd5+4];']) },
    { name: 'a .func pointer parameter has no known alignment', ptx: module(['ld.param.u64 %rd1, [p];', 'ld.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+4];'], { func: true }) },
    { name: 'a .align 4 array proves nothing about 8-byte accesses', ptx: module(['mov.u64 %rd3, arr;', 'ld.local.u64 %rd5, [%rd3+4];'], { decls: ['.local .align 4 .b8 arr[64];'] }) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'Triton layer norm', ptx: REAL('fixtures/corpus/triton/layer_norm.ptx') },
    { name: 'Triton matmul', ptx: REAL('fixtures/corpus/triton/matmul.ptx') },
    { name: 'hand-written addressing forms', ptx: REAL('fixtures/corpus/handwritten/immediates_addressing.ptx') },
    { name: 'hand-written 256-bit accesses', ptx: REAL('fixtures/corpus/handwritten/wide_loads_sm100.ptx') },
  ],
});

describe('F051 messages', () => {
  it('say what is known and what is assumed', () => {
    const m = outcomeOf(F051, float4Offset).findings[0]!.message;
    expect(m).toContain('is 4 modulo 16 for every thread, not a multiple of the 16-byte access');
    expect(m).toContain('kernel pointer parameter p taken to point to the start of an allocation (256-byte aligned)');
    expect(outcomeOf(F051, laneStride).findings[0]!.message).toContain('lanes 1, 3, 5, 7 … (16 of 32) are misaligned');
  });
});
