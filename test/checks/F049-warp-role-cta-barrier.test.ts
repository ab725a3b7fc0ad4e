import { F049 } from '../../src/checks/F049-warp-role-cta-barrier.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** Warp 0 runs `producer`, the others `consumer`, inside a loop of n iterations. */
const roles = (producer: readonly string[], consumer: readonly string[]) => kernel({
  params: '.param .u32 n',
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<3>;', '.reg .b32 %r<4>;', 'ld.param.u32 %r3, [n];', 'mov.u32 %r1, %tid.x;', 'shr.u32 %r2, %r1, 5;', 'setp.ne.u32 %p1, %r2, 0;',
    '@%p1 bra $CONSUMER;',
    '$P:', ...producer, 'add.u32 %r3, %r3, -1;', 'setp.ne.u32 %p2, %r3, 0;', '@%p2 bra $P;', 'bra $DONE;',
    '$CONSUMER:', '$C:', ...consumer, 'add.u32 %r3, %r3, -1;', 'setp.ne.u32 %p2, %r3, 0;', '@%p2 bra $C;',
    '$DONE:', 'ret;',
  ],
});

const DEADLOCK = roles(['bar.sync 0;'], ['bar.sync 1, 96;']);

checkCases(F049, {
  fails: [
    { name: 'the producer warp calls bar.sync 0 while the consumers loop on barrier 1', ptx: DEADLOCK, lines: [lineOf(DEADLOCK, 'bar.sync 0')] },
  ],
  passes: [
    { name: 'roles synchronized with a named barrier both count (arrive and sync on 1)', ptx: roles(['bar.arrive 1, 128;'], ['bar.sync 1, 128;']) },
    { name: 'both roles call bar.sync 0 each iteration', ptx: roles(['bar.sync 0;'], ['bar.sync 0;']) },
    { name: 'no full-CTA barrier', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F049');
