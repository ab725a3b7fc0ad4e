import { F068 } from '../../src/checks/F068-divergent-branch-in-loop.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const LOOP = (branch: string[]): string[] => ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, %tid.x;', 'mov.u32 %r3, 0;', 'L:', ...branch, 'add.u32 %r3, %r3, 1;', 'setp.lt.u32 %p2, %r3, %r1;', '@%p2 bra L;', 'ret;'];

checkCases(F068, {
  fails: [
    failing('an if on %tid inside a loop', kernel('.param .u32 n', LOOP(['setp.lt.u32 %p1, %r3, %r2;', '@%p1 bra S; //!', 'add.u32 %r2, %r2, 1;', 'S:']))),
    failing('a thread-varying loop exit', kernel('.param .u32 n', ['mov.u32 %r2, %tid.x;', 'L:', 'add.u32 %r2, %r2, 32;', 'setp.lt.u32 %p1, %r2, 1000;', '@%p1 bra L; //!', 'ret;'])),
    failing('a guarded exit on a loaded value inside a loop', kernel('.param .u32 n, .param .u64 a', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r3, 0;', 'L:', 'ld.global.u32 %r4, [%rd1];', 'setp.eq.u32 %p1, %r4, 0;', '@%p1 exit; //!', 'add.u32 %r3, %r3, 1;', 'setp.lt.u32 %p2, %r3, %r1;', '@%p2 bra L;', 'ret;'])),
  ],
  passes: [
    { name: 'a uniform loop with a uniform if', ptx: kernel('.param .u32 n', LOOP(['setp.eq.u32 %p1, %r3, 5;', '@%p1 bra S;', 'add.u32 %r4, %r4, 1;', 'S:'])) },
    { name: 'a divergent if outside any loop', ptx: kernel('', ['mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 3;', '@%p1 bra S;', 'L:', 'add.u32 %r3, %r3, 1;', 'setp.lt.u32 %p2, %r3, 8;', '@%p2 bra L;', 'S:', 'ret;']) },
    { name: 'no loops at all', ptx: kernel('', ['ret;']), na: true },
    ...committedReal(['fixtures/corpus/triton/vector_add.ptx']).map((c) => ({ ...c, na: true })),
  ],
});

describeCudaFixtures('F068');
