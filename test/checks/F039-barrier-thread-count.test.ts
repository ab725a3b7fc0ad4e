import { F039 } from '../../src/checks/F039-barrier-thread-count.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

const bar = (line: string, reqntid?: readonly number[]) => kernel({
  params: '.param .u32 n',
  ...(reqntid !== undefined ? { reqntid } : {}),
  body: ['.reg .b32 %r<4>;', 'ld.param.u32 %r2, [n];', 'mov.u32 %r1, %tid.x;', 'and.b32 %r3, %r1, 1;', 'shl.b32 %r3, %r3, 5;', line, 'ret;'],
});

checkCases(F039, {
  fails: [
    { name: 'a count that is not a multiple of 32', ptx: bar('bar.sync 1, 48;', [128, 1, 1]), lines: [lineOf(bar('bar.sync 1, 48;', [128, 1, 1]), 'bar.sync')] },
    { name: 'bar.arrive with a count larger than the block', ptx: bar('bar.arrive 1, 256;', [128, 1, 1]), lines: [lineOf(bar('bar.arrive 1, 256;', [128, 1, 1]), 'bar.arrive')] },
    { name: 'barrier.sync with a count larger than the block', ptx: bar('barrier.sync 2, 160;', [128, 1, 1]), lines: [lineOf(bar('barrier.sync 2, 160;', [128, 1, 1]), 'barrier.sync')] },
    { name: 'a count that differs between the lanes of a warp', ptx: bar('bar.sync 1, %r3;'), lines: [lineOf(bar('bar.sync 1, %r3;'), 'bar.sync')] },
    { name: 'an id that differs between the lanes of a warp', ptx: bar('bar.sync %r1, 64;'), lines: [lineOf(bar('bar.sync %r1, 64;'), 'bar.sync')] },
  ],
  passes: [
    { name: 'a multiple of 32 within the block', ptx: bar('bar.sync 1, 64;', [128, 1, 1]) },
    { name: 'a count equal to the block', ptx: bar('bar.sync 1, 128;', [128, 1, 1]) },
    { name: 'a count from a kernel parameter (uniform)', ptx: bar('bar.sync 1, %r2;') },
    { name: 'no block size: only the multiple of 32 is judged', ptx: bar('bar.sync 1, 2048;') },
    { name: 'no barrier', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/softmax_rows.ptx'),
    realOutput('fixtures/corpus/handwritten/control_sreg_misc_sm80.ptx'),
  ],
});

describeCudaFixtures('F039');
