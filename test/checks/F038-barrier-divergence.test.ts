import { readFileSync } from 'node:fs';
import { F038 } from '../../src/checks/F038-barrier-divergence.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

const DIVERGENCE = readFileSync('fixtures/gpu/barrier-divergence.ptx', 'utf8');

/** tid >= 16 branches to $J; the other side holds `inside`; $J holds `after`, then ret. */
const branch = (inside: readonly string[], after: readonly string[], reqntid: readonly number[] = [64, 1, 1], cond = 'setp.ge.u32 %p1, %r1, 16;') => kernel({
  reqntid,
  body: [
    '.reg .pred %p<3>;',
    '.reg .b32 %r<8>;',
    'mov.u32 %r1, %tid.x;',
    cond,
    '@%p1 bra $J;',
    ...inside,
    '$J:',
    ...after,
    'ret;',
  ],
});

const GUARDED = kernel({
  reqntid: [64, 1, 1],
  body: ['.reg .pred %p<2>;', '.reg .b32 %r<3>;', 'mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 32;', '@%p1 bar.sync 0;', 'add.u32 %r2, %r1, 1;', 'ret;'],
});

// (b) threads past n exit, the others exchange through shared memory across a barrier.
const EARLY_EXIT = (read: string) => kernel({
  params: '.param .u32 n',
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<2>;',
    '.reg .b32 %r<8>;',
    '.shared .align 4 .b8 s[516];',
    'ld.param.u32 %r7, [n];',
    'mov.u32 %r1, %tid.x;',
    'setp.ge.u32 %p1, %r1, %r7;',
    '@%p1 bra $DONE;',
    'shl.b32 %r2, %r1, 2;',
    'mov.u32 %r3, s;',
    'add.s32 %r4, %r3, %r2;',
    'st.shared.u32 [%r4], %r1;',
    'bar.sync 0;',
    `ld.shared.u32 %r5, ${read};`,
    '$DONE:',
    'ret;',
  ],
});

// A block-uniform branch (blockIdx.x) around a barrier.
const UNIFORM = kernel({
  params: '.param .u32 n',
  reqntid: [64, 1, 1],
  body: ['.reg .pred %p<2>;', '.reg .b32 %r<4>;', 'ld.param.u32 %r2, [n];', 'mov.u32 %r1, %ctaid.x;', 'setp.ge.u32 %p1, %r1, %r2;', '@%p1 bra $J;', 'bar.sync 0;', '$J:', 'add.u32 %r3, %r1, 1;', 'ret;'],
});

checkCases(F038, {
  fails: [
    { name: 'barrier-divergence.ptx: bar.sync skipped by live threads tid >= 16 (synccheck on an H200)', ptx: DIVERGENCE, lines: [25] },
    { name: 'a barrier guarded by a thread-varying predicate', ptx: GUARDED, lines: [lineOf(GUARDED, 'bar.sync')] },
    { name: '(b) an early exit before an exchange of neighbours\' elements', ptx: EARLY_EXIT('[%r4+4]'), lines: [lineOf(EARLY_EXIT('[%r4+4]'), '@%p1 bra')] },
    {
      name: 'a barrier with a thread count under a lane-varying branch (warp level)',
      ptx: branch(['bar.sync 1, 32;'], ['add.u32 %r2, %r1, 1;']),
      lines: [lineOf(branch(['bar.sync 1, 32;'], ['add.u32 %r2, %r1, 1;']), 'bar.sync')],
    },
  ],
  passes: [
    { name: 'barrier-divergence-fixed.ptx', ptx: readFileSync('fixtures/gpu/barrier-divergence-fixed.ptx', 'utf8') },
    { name: 'exit-only bypass: threads that skip the barrier only return', ptx: branch(['bar.sync 0;', 'add.u32 %r2, %r1, 1;'], []) },
    { name: '(b) an early exit before an exchange of each thread\'s own element', ptx: EARLY_EXIT('[%r4]') },
    { name: 'a block-uniform branch around the barrier', ptx: UNIFORM },
    { name: 'both arms synchronize on barrier 0', ptx: branch(['bar.sync 0;', 'bra $K;'], ['bar.sync 0;', '$K:', 'add.u32 %r2, %r1, 1;']) },
    { name: 'a counted barrier under a warp-uniform branch (whole warps of 32 take each side)', ptx: branch(['bar.sync 1, 32;'], ['add.u32 %r2, %r1, 1;'], [64, 1, 1], 'setp.ge.u32 %p1, %r1, 32;') },
    { name: 'no barrier', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
    realOutput('fixtures/corpus/triton/layer_norm.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F038');
