import { F099 } from '../../src/checks/F099-marker-bounds.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, REAL } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 out, .param .u64 debug_buf, .param .u32 debug_cap';
const PRO = ['ld.param.u64 %rd2, [debug_buf];', 'ld.param.u32 %r1, [debug_cap];', 'mov.u32 %r2, %tid.x;', 'atom.global.add.u32 %r3, [%rd2], 1;', 'mul.wide.u32 %rd3, %r3, 8;', 'add.s64 %rd4, %rd2, %rd3;'];

checkCases(F099, {
  fails: [
    failing('no check at all', kernel(P, [...PRO, 'st.global.u32 [%rd4+4], 1; //!', 'st.global.u32 [%rd4+8], %r2; //!', 'ret;'])),
    failing('a check of something else', kernel(P, [...PRO, 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 st.global.u32 [%rd4+4], 1; //!', 'ret;'])),
    failing('the slot compared with a thread-varying value', kernel(P, [...PRO, 'setp.lt.u32 %p1, %r3, %r2;', '@%p1 st.global.u32 [%rd4+4], 1; //!', 'ret;'])),
  ],
  passes: [
    { name: 'a guarded record', ptx: kernel(P, [...PRO, 'setp.lt.u32 %p1, %r3, %r1;', '@%p1 st.global.u32 [%rd4+4], 1;', '@%p1 st.global.u32 [%rd4+8], %r2;', 'ret;']) },
    { name: 'a branch around the record', ptx: kernel(P, [...PRO, 'setp.ge.u32 %p1, %r3, %r1;', '@%p1 bra D;', 'st.global.u32 [%rd4+4], 1;', 'D:', 'ret;']) },
    { name: 'the hand-written instrumented fixture', ptx: REAL('fixtures/gpu/crash-markers.ptx') },
    { name: 'not instrumented', ptx: kernel('.param .u64 out', ['ret;']), na: true },
    ...committedReal(['examples/block-reduce.ptx', 'fixtures/corpus/triton/vector_add.ptx']).map((c) => ({ ...c, na: true })),
  ],
});

describeCudaFixtures('F099');
