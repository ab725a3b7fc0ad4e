import { F063 } from '../../src/checks/F063-infinite-loop.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, nvccReal, REAL, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F063, {
  fails: [
    failing('a spin with no exit', kernel('', ['L:', 'nanosleep.u32 100; //!', 'bra.uni L;'])),
    failing('a self loop', kernel('', ['mov.u32 %r1, 0;', 'L:', 'bra.uni L; //!'])),
    failing('a two-block cycle whose inner branch stays inside', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'A:', 'add.u32 %r1, %r1, 1; //!', 'setp.lt.u32 %p1, %r1, 9;', '@%p1 bra A;', 'bra.uni A;'])),
    failing('an irreducible cycle without exit', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra B;', 'A:', 'add.u32 %r1, %r1, 1; //!', 'B:', 'add.u32 %r1, %r1, 2;', 'bra.uni A;'])),
    { name: 'the CFG fixture', ptx: REAL('fixtures/cfg/infinite-loop.ptx'), lines: [18] },
  ],
  passes: [
    { name: 'a spin-wait with an exit test', ptx: kernel('.param .u64 f', ['ld.param.u64 %rd1, [f];', 'L:', 'ld.volatile.global.u32 %r1, [%rd1];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra L;', 'ret;']) },
    { name: 'a persistent loop left by a guarded exit', ptx: kernel('.param .u64 f', ['ld.param.u64 %rd1, [f];', 'L:', 'atom.global.add.u32 %r1, [%rd1], 1;', 'setp.gt.u32 %p1, %r1, 100;', '@%p1 exit;', 'bra.uni L;']) },
    { name: 'a loop that calls a function that may exit', ptx: kernel('', ['L:', 'call.uni stop, ();', 'bra.uni L;'], { prelude: '.func stop()\n{\n\texit;\n}' }) },
    { name: 'a loop ending in trap', ptx: kernel('', ['L:', 'trap;', 'bra.uni L;']) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
    ...(await nvccReal(['31-nanosleep-clock64.cu', '02-saxpy-grid-stride.cu', '32-cluster-mbarrier-sm90.cu'])),
  ],
});

describeCudaFixtures('F063');
