import { F067 } from '../../src/checks/F067-uni-on-divergent.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F067, {
  fails: [
    failing('bra.uni on a %tid predicate', kernel('', ['mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 16;', '@%p1 bra.uni A; //!', 'mov.u32 %r2, 0;', 'A:', 'ret;'])),
    failing('bra.uni on a loaded value', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'mul.wide.u32 %rd2, %r1, 4;', 'add.s64 %rd3, %rd1, %rd2;', 'ld.global.u32 %r2, [%rd3];', 'setp.eq.u32 %p1, %r2, 0;', '@!%p1 bra.uni A; //!', 'A:', 'ret;'])),
    failing('call.uni on a lane predicate', kernel('', ['mov.u32 %r1, %laneid;', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 call.uni g, (); //!', 'ret;'], { prelude: '.func g()\n{\n\tret;\n}' })),
    failing('brx.idx.uni on a thread-varying index', kernel('', ['mov.u32 %r1, %tid.x;', 'and.b32 %r2, %r1, 1;', 'T: .branchtargets A, B;', 'brx.idx.uni %r2, T; //!', 'A:', 'ret;', 'B:', 'ret;'])),
    failing('bra.uni on an atomic result', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'atom.global.add.u32 %r1, [%rd1], 1;', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra.uni A; //!', 'A:', 'ret;'])),
  ],
  passes: [
    { name: 'bra.uni on a parameter', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra.uni A;', 'A:', 'ret;']) },
    { name: 'bra.uni on %ctaid', ptx: kernel('', ['mov.u32 %r1, %ctaid.x;', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra.uni A;', 'A:', 'ret;']) },
    { name: 'bra.uni on a vote.any result (warp-uniform)', ptx: kernel('', ['mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 5;', 'vote.sync.any.pred %p2, %p1, 0xffffffff;', '@%p2 bra.uni A;', 'A:', 'ret;']) },
    { name: 'a plain bra on a varying predicate', ptx: kernel('', ['mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 16;', '@%p1 bra A;', 'A:', 'bra.uni B;', 'B:', 'ret;']), na: true },
    ...committedReal(TRITON.slice(0, 2)).map((c) => ({ ...c, na: true })),
    ...(await nvccReal(['02-saxpy-grid-stride.cu', '04-block-reduce-shared.cu'])).map((c) => ({ ...c, na: true })),
  ],
});

describeCudaFixtures('F067');
