import { F084 } from '../../src/checks/F084-loop-branch-to-end.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u32 n';

checkCases(F084, {
  fails: [
    failing('a loop with a break that makes it run once', kernel(P, ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', 'add.u32 %r2, %r2, 1;', 'bra.uni END; //!', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'END:', 'ret;'])),
    failing('an unconditional branch past an unconditional back edge', kernel(P, ['ld.param.u32 %r1, [n];', 'L:', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra DONE;', 'add.u32 %r1, %r1, -1;', 'bra DONE; //!', 'bra.uni L;', 'DONE:', 'ret;'])),
    failing('the exit jump deep in the body', kernel(P, ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', 'setp.eq.u32 %p2, %r2, 7;', '@%p2 bra SKIP;', 'add.u32 %r3, %r3, 1;', 'SKIP:', 'add.u32 %r2, %r2, 1;', 'bra.uni OUT; //!', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'OUT:', 'ret;'])),
  ],
  passes: [
    { name: 'a guarded exit branch (a real break)', ptx: kernel(P, ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', 'add.u32 %r2, %r2, 1;', 'setp.eq.u32 %p2, %r2, 5;', '@%p2 bra END;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'END:', 'ret;']) },
    { name: 'a rotated loop with its back edge reachable', ptx: kernel(P, ['ld.param.u32 %r1, [n];', 'L:', 'add.u32 %r2, %r2, 1;', 'setp.ge.u32 %p1, %r2, %r1;', '@%p1 bra END;', 'bra.uni L;', 'END:', 'ret;']) },
    { name: 'dead code that is not a loop', ptx: kernel(P, ['bra.uni END;', 'mov.u32 %r1, 1;', 'END:', 'ret;']) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
    ...(await nvccReal(['02-saxpy-grid-stride.cu', '28-switch-dispatch.cu', '23-blelloch-scan.cu'])),
  ],
});

describeCudaFixtures('F084');
