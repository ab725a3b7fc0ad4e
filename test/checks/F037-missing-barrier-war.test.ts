import { F037 } from '../../src/checks/F037-missing-barrier-war.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** A tiled loop: each thread stores tile[tid], a barrier, reads tile[(tid+1)], then `tail`, and loops. */
const tiled = (tail: readonly string[]) => kernel({
  params: '.param .u32 n',
  reqntid: [64, 1, 1],
  body: [
    '.reg .pred %p<2>;',
    '.reg .b32 %r<10>;',
    '.shared .align 4 .b8 tile[260];',
    'ld.param.u32 %r9, [n];',
    'mov.u32 %r1, %tid.x;',
    'shl.b32 %r2, %r1, 2;',
    'mov.u32 %r3, tile;',
    'add.s32 %r4, %r3, %r2;',
    'mov.u32 %r6, 0;',
    '$LOOP:',
    'st.shared.u32 [%r4], %r6;',
    'bar.sync 0;',
    'ld.shared.u32 %r5, [%r4+4];',
    'add.s32 %r6, %r6, %r5;',
    ...tail,
    'add.s32 %r9, %r9, -1;',
    'setp.ne.s32 %p1, %r9, 0;',
    '@%p1 bra $LOOP;',
    'ret;',
  ],
});

// Read the right neighbour, then overwrite the own slot, no barrier in between.
const IN_PLACE = kernel({
  reqntid: [128, 1, 1],
  body: [
    '.reg .b32 %r<7>;',
    '.shared .align 4 .b8 s[516];',
    'mov.u32 %r1, %tid.x;',
    'shl.b32 %r2, %r1, 2;',
    'mov.u32 %r3, s;',
    'add.s32 %r4, %r3, %r2;',
    'ld.shared.u32 %r5, [%r4+4];',
    'shr.u32 %r6, %r5, 1;',
    'st.shared.u32 [%r4], %r6;',
    'ret;',
  ],
});

checkCases(F037, {
  fails: [
    { name: 'tiled loop without the trailing barrier: the next iteration overwrites what others still read', ptx: tiled([]), lines: [lineOf(tiled([]), 'st.shared')] },
    { name: 'read the neighbour, then overwrite the own slot', ptx: IN_PLACE, lines: [lineOf(IN_PLACE, 'st.shared')] },
  ],
  passes: [
    { name: 'the trailing barrier in place', ptx: tiled(['bar.sync 0;']) },
    { name: 'no shared variable', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('fixtures/gpu/race-raw-fixed.ptx'),
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
    realOutput('fixtures/corpus/triton/histogram.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F037');
