import { F062 } from '../../src/checks/F062-unreachable-code.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F062, {
  fails: [
    failing('code after an unconditional ret', kernel('', ['ret;', 'mov.u32 %r1, 1; //!', 'ret;'])),
    failing('a block jumped over and never targeted', kernel('', ['bra.uni END;', 'add.u32 %r1, %r1, 1; //!', 'END:', 'ret;'])),
    failing('two separate dead regions', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'bra.uni A;', 'mov.u32 %r2, 1; //!', 'A:', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra B;', 'ret;', 'mov.u32 %r3, 2; //!', 'B:', 'ret;'])),
    failing('a dead loop is one region', kernel('', ['ret;', 'L:', 'add.u32 %r1, %r1, 1; //!', 'bra.uni L;'])),
  ],
  passes: [
    { name: 'every block reachable', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra A;', 'add.u32 %r1, %r1, 1;', 'A:', 'ret;']) },
    { name: 'a lone ret after trap (a compiler epilogue) is not reported', ptx: kernel('', ['trap;', 'ret;']) },
    { name: 'nvcc\'s continuation after __trap() (inline-asm trap; then the reload it thought would run)', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'ld.global.u32 %r1, [%rd1];', 'setp.gt.s32 %p1, %r1, -1;', '@%p1 bra A;', 'trap;', 'ld.global.u32 %r1, [%rd1];', 'A:', 'st.global.u32 [%rd1], %r1;', 'ret;']) },
    { name: 'a label at the end is not code', ptx: kernel('', ['ret;', 'END:']) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
    ...(await nvccReal(['28-switch-dispatch.cu', '15-printf.cu', '10-cooperative-groups.cu'])),
  ],
});

describeCudaFixtures('F062');
