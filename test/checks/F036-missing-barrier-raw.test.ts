// F036 on the fixtures racecheck confirmed on an H200 (docs/gpu-validation.md),
// their fixed versions, and real compiler output.
import { readFileSync } from 'node:fs';
import { F036 } from '../../src/checks/F036-missing-barrier-raw.js';
import { checkCases } from './harness.js';

const read = (f: string): string => readFileSync(f, 'utf8');

checkCases(F036, {
  fails: [
    { name: 'st.shared tile[tid] then ld.shared tile[tid+1] with no barrier (racecheck: lines 22/23)', ptx: read('fixtures/gpu/race-raw.ptx'), lines: [23] },
  ],
  passes: [
    { name: 'the same exchange with bar.sync between', ptx: read('fixtures/gpu/race-raw-fixed.ptx') },
    { name: 'nvcc block reduction with __syncthreads()', ptx: read('examples/block-reduce.ptx') },
    { name: 'a barrier divergence fixture (no race: each thread reads its own slot)', ptx: read('fixtures/gpu/barrier-divergence-fixed.ptx') },
  ],
});
