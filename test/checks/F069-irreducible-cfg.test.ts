import { F069 } from '../../src/checks/F069-irreducible-cfg.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, nvccReal, REAL, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F069, {
  fails: [
    failing('a cycle entered at two blocks (reported at the edge that enters it a second time)', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.s32 %p1, %r1, 0;', '@%p1 bra B;', 'A:', 'add.s32 %r1, %r1, 1; //!', 'B:', 'add.s32 %r1, %r1, 2;', 'setp.lt.s32 %p2, %r1, 100;', '@%p2 bra A;', 'ret;'])),
    failing('a jump into the middle of a loop body', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.s32 %p1, %r1, 0;', '@%p1 bra M;', 'H:', 'add.s32 %r1, %r1, 1; //!', 'M:', 'add.s32 %r1, %r1, 3;', 'setp.lt.s32 %p2, %r1, 50;', '@%p2 bra H;', 'ret;'])),
    { name: 'the CFG fixture', ptx: REAL('fixtures/cfg/irreducible.ptx'), lines: [16] },
  ],
  passes: [
    { name: 'a natural loop', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'A:', 'add.s32 %r1, %r1, 2;', 'setp.lt.s32 %p2, %r1, 100;', '@%p2 bra A;', 'ret;']) },
    { name: 'nested natural loops', ptx: kernel('', ['O:', 'I:', 'add.s32 %r1, %r1, 1;', 'setp.lt.s32 %p1, %r1, 4;', '@%p1 bra I;', 'add.s32 %r2, %r2, 1;', 'setp.lt.s32 %p2, %r2, 4;', '@%p2 bra O;', 'ret;']) },
    { name: 'straight-line code', ptx: kernel('', ['ret;']) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
    ...(await nvccReal(['28-switch-dispatch.cu', '23-blelloch-scan.cu'])),
  ],
});

describeCudaFixtures('F069');
