import { F040 } from '../../src/checks/F040-named-barrier-pairing.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf } from './sync-ptx.js';

/** Warp 0 runs `producer`, the other warps `consumer`. */
const roles = (producer: readonly string[], consumer: readonly string[]) => kernel({
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<3>;', 'mov.u32 %r1, %tid.x;', 'shr.u32 %r2, %r1, 5;', 'setp.ne.u32 %p1, %r2, 0;', '@%p1 bra $CONSUMER;',
    ...producer, 'bra $DONE;', '$CONSUMER:', ...consumer, '$DONE:', 'ret;',
  ],
});

const NOBODY = roles(['bar.arrive 1, 128;'], ['bar.sync 2, 96;']);
const MISMATCH = roles(['bar.arrive 1, 64;'], ['bar.sync 1, 128;']);
const NO_COUNT = roles(['bar.arrive 1, 64;'], ['bar.sync 1;']);

checkCases(F040, {
  fails: [
    { name: 'arrive on an id nobody waits on', ptx: NOBODY, lines: [lineOf(NOBODY, 'bar.arrive')] },
    { name: 'arrive and sync on one id with different counts', ptx: MISMATCH, lines: [lineOf(MISMATCH, 'bar.arrive')] },
    { name: 'a sync with no count (the block, 128) against an arrive of 64', ptx: NO_COUNT, lines: [lineOf(NO_COUNT, 'bar.arrive')] },
  ],
  passes: [
    { name: 'arrive and sync on one id with one count', ptx: roles(['bar.arrive 1, 128;'], ['bar.sync 1, 128;']) },
    { name: 'barrier.arrive paired with bar.red on the id', ptx: roles(['barrier.arrive 3, 128;'], ['bar.red.popc.u32 %r1, 3, 128, %p1;']) },
    { name: 'no arrive: nothing to pair', ptx: kernel({ body: ['bar.sync 0;', 'ret;'] }), na: true },
  ],
});

describeCudaFixtures('F040');
