import { F098 } from '../../src/checks/F098-marker-protocol.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, REAL } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 out, .param .u64 debug_buf, .param .u32 debug_cap';
const PRO = ['ld.param.u64 %rd2, [debug_buf];', 'ld.param.u32 %r1, [debug_cap];', 'mov.u32 %r2, %tid.x;'];

checkCases(F098, {
  fails: [
    failing('a record at a thread-derived slot', kernel(P, [...PRO, 'mul.wide.u32 %rd3, %r2, 8;', 'add.s64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4+4], 1; //!', 'st.global.u32 [%rd4+8], %r2; //!', 'ret;'])),
    failing('a record at a fixed offset', kernel(P, [...PRO, 'st.global.u32 [%rd2+4], 1; //!', 'ret;'])),
    failing('a slot from an atomic on the wrong word (itself a write into a record)', kernel(P, [...PRO, 'atom.global.add.u32 %r3, [%rd2+4], 1; //!', 'mul.wide.u32 %rd3, %r3, 8;', 'add.s64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4+12], 1; //!', 'ret;'])),
  ],
  passes: [
    { name: 'the protocol', ptx: kernel(P, [...PRO, 'atom.global.add.u32 %r3, [%rd2], 1;', 'setp.lt.u32 %p1, %r3, %r1;', 'mul.wide.u32 %rd3, %r3, 8;', 'add.s64 %rd4, %rd2, %rd3;', '@%p1 st.global.u32 [%rd4+4], 1;', '@%p1 st.global.u32 [%rd4+8], %r2;', 'ret;']) },
    { name: 'the protocol through cvta.to.global', ptx: kernel(P, ['ld.param.u64 %rd9, [debug_buf];', 'cvta.to.global.u64 %rd2, %rd9;', 'ld.param.u32 %r1, [debug_cap];', 'atom.global.add.u32 %r3, [%rd2], 1;', 'setp.lt.u32 %p1, %r3, %r1;', 'mul.wide.u32 %rd3, %r3, 8;', 'add.s64 %rd4, %rd2, %rd3;', '@%p1 st.global.u32 [%rd4+4], 1;', 'ret;']) },
    { name: 'the hand-written instrumented fixture', ptx: REAL('fixtures/gpu/crash-markers.ptx') },
    { name: 'a buffer but no writes', ptx: kernel(P, ['ret;']), na: true },
    ...committedReal(['examples/block-reduce.ptx', 'fixtures/corpus/triton/vector_add.ptx']).map((c) => ({ ...c, na: true })),
  ],
});

describeCudaFixtures('F098');
