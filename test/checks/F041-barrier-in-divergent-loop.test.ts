import { F041 } from '../../src/checks/F041-barrier-in-divergent-loop.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** A loop from `start` step 64 below n with a barrier inside, then `after`. */
const loop = (start: string, after: readonly string[]) => kernel({
  params: '.param .u32 n',
  reqntid: [64, 1, 1],
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<5>;', 'ld.param.u32 %r3, [n];', `mov.u32 %r1, ${start};`,
    '$LOOP:', 'bar.sync 0;', 'add.u32 %r1, %r1, 64;', 'setp.lt.u32 %p1, %r1, %r3;', '@%p1 bra $LOOP;',
    ...after, 'ret;',
  ],
});

const VARYING = loop('%tid.x', ['add.u32 %r2, %r1, 1;', 'bar.sync 0;']);

checkCases(F041, {
  fails: [
    { name: 'a loop from %tid.x: threads leave at different iterations and run on', ptx: VARYING, lines: [lineOf(VARYING, 'bar.sync')] },
  ],
  passes: [
    { name: 'a loop every thread runs the same number of times', ptx: loop('0', ['add.u32 %r2, %r1, 1;', 'bar.sync 0;']) },
    { name: 'threads that leave the loop only exit (exit-only, not waited for)', ptx: loop('%tid.x', []) },
    { name: 'no CTA-wide barrier', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F041');
