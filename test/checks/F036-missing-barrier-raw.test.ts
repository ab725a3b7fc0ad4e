import { readFileSync } from 'node:fs';
import { F036 } from '../../src/checks/F036-missing-barrier-raw.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

const RACE_RAW = readFileSync('fixtures/gpu/race-raw.ptx', 'utf8');

/** st [4*tid], then `between`, then ld [4*tid + offset]; 256 threads, a 1028-byte tile. */
const neighbour = (between: readonly string[], offset = 4, reqntid: readonly number[] = [256, 1, 1]) => kernel({
  reqntid,
  body: [
    '.reg .b32 %r<8>;',
    '.shared .align 4 .b8 tile[1028];',
    'mov.u32 %r1, %tid.x;',
    'shl.b32 %r2, %r1, 2;',
    'mov.u32 %r3, tile;',
    'add.s32 %r4, %r3, %r2;',
    'st.shared.u32 [%r4], %r1;',
    ...between,
    `ld.shared.u32 %r5, [%r4+${offset}];`,
    'ret;',
  ],
});

const IN_LOOP = kernel({
  params: '.param .u32 n',
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<2>;',
    '.reg .b32 %r<10>;',
    '.shared .align 4 .b8 buf[516];',
    'ld.param.u32 %r9, [n];',
    'mov.u32 %r1, %tid.x;',
    'shl.b32 %r2, %r1, 2;',
    'mov.u32 %r3, buf;',
    'add.s32 %r4, %r3, %r2;',
    'mov.u32 %r6, 0;',
    '$LOOP:',
    'ld.shared.u32 %r5, [%r4+4];',
    'add.s32 %r6, %r6, %r5;',
    'bar.sync 0;',
    'st.shared.u32 [%r4], %r6;',
    'add.s32 %r9, %r9, -1;',
    'setp.ne.s32 %p1, %r9, 0;',
    '@%p1 bra $LOOP;',
    'ret;',
  ],
});

// A generic (cvta.shared) store and a .shared load of the same variable.
const GENERIC = kernel({
  reqntid: [64, 1, 1],
  body: [
    '.reg .b32 %r<6>;',
    '.reg .b64 %rd<6>;',
    '.shared .align 4 .b8 s[260];',
    'mov.u32 %r1, %tid.x;',
    'mov.u64 %rd1, s;',
    'cvta.shared.u64 %rd2, %rd1;',
    'mul.wide.u32 %rd3, %r1, 4;',
    'add.s64 %rd4, %rd2, %rd3;',
    'st.u32 [%rd4], %r1;',
    'shl.b32 %r2, %r1, 2;',
    'mov.u32 %r3, s;',
    'add.s32 %r4, %r3, %r2;',
    'ld.shared.u32 %r5, [%r4+4];',
    'ret;',
  ],
});

// Two extern shared arrays alias the same dynamic shared memory.
const EXTERN_ALIAS = [
  '.version 8.0', '.target sm_90', '.address_size 64',
  '.extern .shared .align 16 .b8 smem_a[];',
  '.extern .shared .align 16 .b8 smem_b[];',
  '.visible .entry k()', '.reqntid 64, 1, 1', '{',
  '\t.reg .b32 %r<6>;',
  '\tmov.u32 %r1, %tid.x;',
  '\tshl.b32 %r2, %r1, 2;',
  '\tmov.u32 %r3, smem_a;',
  '\tadd.s32 %r4, %r3, %r2;',
  '\tst.shared.u32 [%r4], %r1;',
  '\tld.shared.u32 %r5, [smem_b];',
  '\tret;', '}', '',
].join('\n');

// Shared atomics then a plain read of another thread's counter.
const ATOMIC_THEN_READ = kernel({
  reqntid: [256, 1, 1],
  body: [
    '.reg .b32 %r<6>;',
    '.shared .align 4 .b8 h[1024];',
    'mov.u32 %r1, %tid.x;',
    'and.b32 %r2, %r1, 15;',
    'shl.b32 %r3, %r2, 2;',
    'mov.u32 %r4, h;',
    'add.s32 %r4, %r4, %r3;',
    'atom.shared.add.u32 %r5, [%r4], 1;',
    'ld.shared.u32 %r5, [h+8];',
    'ret;',
  ],
});

// Only thread 0 writes and reads back: one thread, no race.
const SINGLE_THREAD = kernel({
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<2>;',
    '.reg .b32 %r<4>;',
    '.shared .align 4 .b32 v[2];',
    'mov.u32 %r1, %tid.x;',
    'setp.ne.u32 %p1, %r1, 0;',
    '@%p1 bra $DONE;',
    'st.shared.u32 [v], %r1;',
    'ld.shared.u32 %r2, [v];',
    '$DONE:',
    'ret;',
  ],
});

checkCases(F036, {
  fails: [
    { name: 'race-raw.ptx: st.shared [4*tid], ld.shared [4*tid+4] (racecheck on an H200: 1020 hazards)', ptx: RACE_RAW, lines: [23] },
    { name: 'neighbour read with no barrier', ptx: neighbour([]), lines: [lineOf(neighbour([]), 'ld.shared')] },
    { name: 'other instructions between do not order the accesses', ptx: neighbour(['add.s32 %r6, %r1, 1;']), lines: [lineOf(neighbour(['add.s32 %r6, %r1, 1;']), 'ld.shared')] },
    { name: 'a read at the top of a loop sees the previous iteration\'s write of the neighbour (around the back edge)', ptx: IN_LOOP, lines: [lineOf(IN_LOOP, 'ld.shared')] },
    { name: 'a generic store through cvta.shared and a .shared load of the same variable', ptx: GENERIC, lines: [lineOf(GENERIC, 'ld.shared')] },
    { name: 'extern shared arrays alias each other', ptx: EXTERN_ALIAS, lines: [lineOf(EXTERN_ALIAS, 'ld.shared')] },
    { name: 'a shared atomic then a plain read of a counter other threads update', ptx: ATOMIC_THEN_READ, lines: [lineOf(ATOMIC_THEN_READ, 'ld.shared')] },
  ],
  passes: [
    { name: 'race-raw-fixed.ptx: bar.sync 0 between', ptx: readFileSync('fixtures/gpu/race-raw-fixed.ptx', 'utf8') },
    { name: 'each thread reads back its own slot', ptx: neighbour([], 0) },
    { name: 'bar.sync between the write and the read', ptx: neighbour(['bar.sync 0;']) },
    { name: 'barrier.sync.aligned between', ptx: neighbour(['barrier.sync.aligned 0;']) },
    { name: 'bar.warp.sync between (a warp-local exchange, by the documented assumption)', ptx: neighbour(['bar.warp.sync -1;']) },
    { name: 'a read 1024 bytes away is beyond every one of the 256 threads\' writes', ptx: neighbour([], 1024) },
    { name: 'a single thread writes and reads back', ptx: SINGLE_THREAD },
    { name: 'no shared variable at all', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
    realOutput('fixtures/corpus/triton/softmax_rows.ptx'),
    realOutput('fixtures/corpus/triton/layer_norm.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F036');
