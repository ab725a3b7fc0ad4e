import { describe, expect, it } from 'vitest';
import { F092 } from '../../src/checks/F092-low-occupancy.js';
import { occupancy, smLimits } from '../../src/checks/occupancy.js';
import type { ResourceUsage } from '../../src/checks/types.js';
import { checkCases, outcomeOf } from './harness.js';
import { module, REAL } from './memory-kernel.js';

/** A kernel keeping `n` loaded floats live at once (they are used in reverse order). */
function live(n: number, directives?: string): string {
  const body = ['ld.param.u64 %rd1, [p];'];
  for (let i = 0; i < n; i++) body.push(`ld.volatile.global.f32 %v${i}, [%rd1+${4 * i}];`);
  body.push(`mul.f32 %v${n}, %v${n - 1}, %v0;`);
  for (let i = 1; i < n; i++) body.push(`fma.rn.f32 %v${n + i}, %v${n - 1 - i}, %v${i}, %v${n + i - 1};`);
  body.push(`st.global.f32 [%rd1], %v${2 * n - 1};`);
  return module(body, { ...(directives !== undefined ? { directives } : {}) }).replace('{\n\t.reg', `{\n\t.reg .f32 %v<${2 * n}>;\n\t.reg`);
}

const ptxasSays = (registers: number, sharedBytes = 0): { resources: ResourceUsage } => ({
  resources: { status: 'ok', arch: 'sm_90', tool: 'ptxas', functions: { k: { name: 'k', kind: 'entry', registers, sharedBytes, spillStores: 0, spillLoads: 0, stackFrame: 0 } } },
});

const KERNEL_LINE = 4;
const manyLive = live(200, '.reqntid 256, 1, 1');
const bigShared = module(['mov.u32 %r1, a;', 'ld.shared.u32 %r2, [%r1];', 'call f;'], {
  decls: ['.shared .align 16 .b8 a[65536];', '.shared .align 16 .b8 b[65536];', '.func f()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, b;\n\tld.shared.u32 %r2, [%r1];\n\tret;\n}'],
  directives: '.reqntid 128, 1, 1',
});

checkCases(F092, {
  fails: [
    { name: '200 values live at once with 256 threads (estimate)', ptx: manyLive, lines: [KERNEL_LINE] },
    { name: 'ptxas: 168 registers with 256 threads', ptx: module(['ret;'], { directives: '.reqntid 256, 1, 1' }), lines: [KERNEL_LINE], options: ptxasSays(168) },
    { name: 'ptxas: 255 registers, any block size', ptx: module(['ret;']), lines: [KERNEL_LINE], options: ptxasSays(255) },
    { name: 'a 1024-thread block that does not fit (ptxas: 128 registers)', ptx: module(['ret;'], { directives: '.reqntid 1024, 1, 1' }), lines: [KERNEL_LINE], options: ptxasSays(128) },
    { name: '128 KB of static shared memory, half of it named by a callee', ptx: bigShared, lines: [bigShared.split('\n').findIndex((l) => l.includes('.entry k(')) + 1] },
  ],
  passes: [
    { name: 'the same kernel when ptxas needs 40 registers', ptx: manyLive, options: ptxasSays(40) },
    { name: '64 registers with 128 threads (ptxas)', ptx: module(['ret;'], { directives: '.reqntid 128, 1, 1' }), options: ptxasSays(64) },
    { name: 'a modest kernel of unknown block size', ptx: live(20) },
    { name: '48 KB of shared memory with 256 threads', ptx: module(['mov.u32 %r1, a;', 'ld.shared.u32 %r2, [%r1];'], { decls: ['.shared .align 16 .b8 a[49152];'], directives: '.reqntid 256, 1, 1' }) },
    { name: 'Triton matmul (136 values live, ptxas uses 96 registers: 31 %)', ptx: REAL('fixtures/corpus/triton/matmul.ptx') },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'no kernels', ptx: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .func f()\n{\n\tret;\n}\n', na: true },
  ],
});

describe('F092 occupancy arithmetic', () => {
  const sm90 = smLimits('sm_90')!.limits;
  it('matches the occupancy calculator', () => {
    // 168 registers: 5376 per warp, 12 warps fit; blocks of 8 warps: 1 block, 8/64.
    expect(occupancy(sm90, 256, 168, 0)).toMatchObject({ blocks: 1, warps: 8, fraction: 0.125, limiter: 'registers' });
    // 32 registers, 256 threads: 8 blocks by registers, 8 by warps: 100 %.
    expect(occupancy(sm90, 256, 32, 0).fraction).toBe(1);
    // 48 KB + 1 KB reserved per block: 4 blocks in 228 KB.
    expect(occupancy(sm90, 256, 32, 48 * 1024)).toMatchObject({ blocks: 4, limiter: 'shared memory' });
    expect(occupancy(sm90, 1024, 128, 0)).toMatchObject({ blocks: 0, limiter: 'launch' });
    expect(smLimits('sm_90a')!.limits.name).toBe('sm_90');
    expect(smLimits('sm_103a')).toEqual({ limits: smLimits('sm_100')!.limits, note: 'sm_103a taken with sm_100\'s limits' });
  });

  it('says where the registers come from', () => {
    expect(outcomeOf(F092, manyLive).findings[0]!.message).toMatch(/estimated occupancy 12\.5 % \(8 of 64 warps per SM on sm_90, 1 block\) with 256 threads per block, limited by registers: ≈142 registers per thread estimated from PTX liveness \(70 % of a peak of 203 live 32-bit values/);
    expect(outcomeOf(F092, module(['ret;'], { directives: '.reqntid 256, 1, 1' }), ptxasSays(168)).findings[0]!.message).toContain('168 registers per thread (ptxas -v)');
    expect(outcomeOf(F092, module(['ret;']), ptxasSays(255)).findings[0]!.message).toContain('even at its best block size');
  });
});
