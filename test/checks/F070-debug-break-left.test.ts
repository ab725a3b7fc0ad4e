import { F070 } from '../../src/checks/F070-debug-break-left.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F070, {
  fails: [
    failing('brkpt at the entry', kernel('', ['brkpt; //!', 'ret;'])),
    failing('a guarded brkpt', kernel('', ['mov.u32 %r1, %tid.x;', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 brkpt; //!', 'ret;'])),
    failing('brkpt in a branch and in a device function', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra A;', 'ret;', 'A:', 'brkpt; //!', 'ret;'])),
  ],
  passes: [
    { name: 'brkpt in dead code', ptx: kernel('', ['ret;', 'brkpt;']) },
    { name: 'no brkpt', ptx: kernel('', ['trap;']) },
    { name: 'brkpt after an unconditional exit', ptx: kernel('', ['exit;', 'brkpt;', 'ret;']) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
  ],
});

describeCudaFixtures('F070');
