import { F050 } from '../../src/checks/F050-exit-before-shuffle.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** Lanes >= 20 exit, then `after`. */
const exitThen = (after: readonly string[]) => kernel({
  body: ['.reg .pred %p<2>;', '.reg .b32 %r<5>;', 'mov.u32 %r1, %laneid;', 'setp.ge.u32 %p1, %r1, 20;', '@%p1 ret;', 'activemask.b32 %r3;', ...after, 'ret;'],
});

const DOWN = exitThen(['shfl.sync.down.b32 %r2, %r1, 1, 31, %r3;']);
const ROTATE = exitThen(['add.u32 %r4, %r1, 1;', 'shfl.sync.idx.b32 %r2, %r1, %r4, 31, %r3;']);

checkCases(F050, {
  fails: [
    { name: 'shfl.down with the active mask after lanes 20-31 exited', ptx: DOWN, lines: [lineOf(DOWN, 'shfl.sync')] },
    { name: 'shfl.idx from the next lane (lane-varying source)', ptx: ROTATE, lines: [lineOf(ROTATE, 'shfl.sync')] },
  ],
  passes: [
    { name: 'shfl.idx from lane 0 (a warp-uniform source, taken to be live)', ptx: exitThen(['shfl.sync.idx.b32 %r2, %r1, 0, 31, %r3;']) },
    { name: 'a ballot after the exit (exited lanes are excluded; no shuffle to judge)', ptx: exitThen(['vote.sync.ballot.b32 %r2, %p1, %r3;']), na: true },
    { name: 'the shuffle before any lane exits', ptx: kernel({ body: ['.reg .pred %p<2>;', '.reg .b32 %r<3>;', 'mov.u32 %r1, %laneid;', 'shfl.sync.down.b32 %r2, %r1, 1, 31, -1;', 'setp.ge.u32 %p1, %r1, 20;', '@%p1 ret;', 'ret;'] }) },
    { name: 'no shfl.sync', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/softmax_rows.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F050');
