import { F096 } from '../../src/checks/F096-missing-debug-instrumentation.js';
import { checkCases } from './harness.js';
import { committedReal, kernel, nvccReal, REAL } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const LOOP = ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'ret;'];
const SHARED_LOOP = ['.shared .align 4 .b32 s[32];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', 'st.shared.u32 [s], %r2;', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'ret;'];
const LONG_LOOP = ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', ...Array.from({ length: 200 }, () => 'add.u32 %r3, %r3, 1;'), 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'ret;'];

checkCases(F096, {
  fails: [
    { name: 'a loop over shared memory', ptx: kernel('.param .u32 n', SHARED_LOOP), lines: [4] },
    { name: 'a loop in a 200-instruction kernel', ptx: kernel('.param .u32 n', LONG_LOOP), lines: [4] },
    { name: 'nvcc output of block reductions (true, info)', ptx: REAL('examples/block-reduce.ptx'), lines: [194] },
  ],
  passes: [
    { name: 'instrumented (debug_buf parameter)', ptx: kernel('.param .u32 n, .param .u64 debug_buf, .param .u32 debug_cap', SHARED_LOOP) },
    {
      name: 'instrumented by hand (a module variable debug_buf, as nvcc keeps a __device__ array)',
      ptx: kernel('.param .u32 n', ['mov.u64 %rd1, debug_buf;', 'atom.global.add.u32 %r4, [%rd1], 1;', ...SHARED_LOOP], { prelude: '.global .align 4 .b8 debug_buf[32772];' }),
    },
    { name: 'the hand-written instrumented fixture', ptx: REAL('fixtures/gpu/crash-markers.ptx'), na: true },
    { name: 'a short loop without shared memory is not complex', ptx: kernel('.param .u32 n', LOOP), na: true },
    { name: 'shared memory without a loop is not complex', ptx: kernel('', ['.shared .align 4 .b32 s[32];', 'st.shared.u32 [s], 0;', 'ret;']), na: true },
    ...committedReal(['fixtures/corpus/triton/vector_add.ptx']).map((c) => ({ ...c, na: true })),
    ...(await nvccReal(['01-elementwise-add.cu'])).map((c) => ({ ...c, na: true })),
  ],
});

describeCudaFixtures('F096');
