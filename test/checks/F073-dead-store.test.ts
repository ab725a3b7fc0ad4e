import { F073 } from '../../src/checks/F073-dead-store.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F073, {
  fails: [
    failing('a result nobody reads', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'add.u32 %r2, %r1, 1; //!', 'st.global.u32 [%rd1], %r1;', 'ret;'])),
    failing('a value overwritten before any read', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, 1; //!', 'mov.u32 %r1, 2;', 'st.global.u32 [%rd1], %r1;', 'ret;'])),
    failing('an unused load', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'ld.global.u32 %r1, [%rd1]; //!', 'ret;'])),
  ],
  passes: [
    { name: 'every value read', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'add.u32 %r2, %r1, 1;', 'st.global.u32 [%rd1], %r2;', 'ret;']) },
    { name: 'an atomic whose old value is unused', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'atom.global.add.u32 %r1, [%rd1], 1;', 'ret;']) },
    { name: 'a vector load with some lanes used', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];', 'st.global.u32 [%rd1], %r2;', 'ret;']) },
    { name: 'a volatile load (a poll)', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'ld.volatile.global.u32 %r1, [%rd1];', 'ret;']) },
    ...committedReal([EXAMPLE, ...TRITON.slice(0, 3)]),
    ...(await nvccReal(['04-block-reduce-shared.cu', '25-softmax-warp.cu', '08-atomics.cu'])),
  ],
});

describeCudaFixtures('F073');
