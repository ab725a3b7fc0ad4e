// F037: the write-after-read race of a tiled loop without its trailing
// barrier (confirmed by racecheck on an H200 for gemm_tiled --defect
// no-trailing-barrier), and the clean kernel.
import { F037 } from '../../src/checks/F037-missing-barrier-war.js';
import { emitKernel } from '../../src/kernels/emit.js';
import { checkCases, outcomeOf } from './harness.js';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

checkCases(F037, {
  fails: [],
  passes: [
    { name: 'nvcc block reduction', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'the clean tiled GEMM', ptx: emitKernel('gemm_tiled', { arch: 'sm_90' }).ptx },
  ],
});

describe('F037 on the emitter', () => {
  it('fails gemm_tiled without its trailing barrier, at the tile store of the next iteration', () => {
    const o = outcomeOf(F037, emitKernel('gemm_tiled', { arch: 'sm_90', defect: 'no-trailing-barrier' }).ptx);
    expect(o.status).toBe('fail');
    expect(o.findings.length).toBeGreaterThan(0);
    for (const f of o.findings) expect(f.related?.length ?? 0).toBeGreaterThan(0);
  });
});
