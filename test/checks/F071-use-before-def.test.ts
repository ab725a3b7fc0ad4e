import { F071 } from '../../src/checks/F071-use-before-def.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, nvccReal, TRITON } from './flow-kernel.js';

checkCases(F071, {
  fails: [
    failing('an accumulator never initialized', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'ld.global.f32 %f2, [%rd1];', 'add.f32 %f3, %f1, %f2; //!', 'st.global.f32 [%rd1], %f3;', 'ret;'])),
    failing('defined on one branch only', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra A;', 'mov.u32 %r2, 5;', 'A:', 'add.u32 %r3, %r2, 1; //!', 'st.global.u32 [%rd1], %r3; //!', 'ret;'])),
    failing('a guarded definition and an unguarded store of it', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 4;', '@%p1 ld.global.u32 %r2, [%rd1];', 'st.global.u32 [%rd1], %r2; //!', 'ret;'])),
    failing('defined when one bound holds, read when a different bound holds', kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r5, %tid.x;', 'setp.ge.s32 %p1, %r5, %r1;', '@%p1 bra A;', 'mov.u32 %r2, 5;', 'A:', 'setp.ge.s32 %p2, %r5, 32;', '@%p2 bra B;', 'st.global.u32 [%rd1], %r2; //!', 'B:', 'ret;'])),
    failing('a partial tile stored to global memory', kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r5, %tid.x;', 'setp.ge.s32 %p1, %r5, %r1;', '@%p1 bra A;', 'ld.global.u32 %r2, [%rd1];', 'A:', 'st.global.u32 [%rd1+4], %r2; //!', 'ret;'])),
    failing('a loop counter read before its first write', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'L:', 'add.u32 %r2, %r2, 1; //!', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'ret;'])),
  ],
  passes: [
    { name: 'initialized before the loop', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'mov.u32 %r2, 0;', 'L:', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, %r1;', '@%p1 bra L;', 'ret;']) },
    { name: 'a definition and a use under the same guard', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 4;', '@%p1 ld.global.u32 %r2, [%rd1];', '@%p1 st.global.u32 [%rd1+4], %r2;', 'ret;']) },
    { name: 'a use on the side of a branch where the guard held', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 4;', '@%p1 ld.global.u32 %r2, [%rd1];', '@!%p1 bra D;', 'st.global.u32 [%rd1+4], %r2;', 'D:', 'ret;']) },
    { name: 'undefined lanes that only reach instructions under the guard (Triton reductions)', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, %tid.x;', 'setp.lt.u32 %p1, %r1, 4;', 'setp.eq.u32 %p3, %r1, 0;', 'and.pred %p2, %p1, %p3;', '@%p1 ld.shared.b32 %r2, [%r1];', 'shfl.sync.bfly.b32 %r3, %r2, 1, 31, -1;', 'add.f32 %f1, %r2, %r3;', '@%p2 st.shared.b32 [%r1], %f1;', 'ret;']) },
    { name: 'never-written registers that only pad vector operands (LLVM undef lanes)', ptx: kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'mov.u32 %r1, 1;', 'st.global.v2.u32 [%rd1], {%r1, %r9};', 'ret;']) },
    { name: 'the same comparison tested twice with two predicates (nvcc)', ptx: kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r5, %tid.x;', 'setp.ge.s32 %p1, %r5, %r1;', '@%p1 bra A;', 'mov.u32 %r2, 5;', 'add.s32 %r5, %r5, 256;', 'A:', 'setp.ge.s32 %p2, %r5, %r1;', '@%p2 bra B;', 'st.global.u32 [%rd1], %r2;', 'B:', 'ret;']) },
    { name: 'a comparison repeated on a copy of its operand', ptx: kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r5, %tid.x;', 'setp.ge.s32 %p1, %r5, %r1;', 'mov.u32 %r6, %r5;', '@%p1 bra A;', 'mov.u32 %r2, 5;', 'add.s32 %r6, %r5, 256;', 'A:', 'setp.lt.s32 %p2, %r6, %r1;', '@!%p2 bra B;', 'st.global.u32 [%rd1], %r2;', 'B:', 'ret;']) },
    { name: 'writes under @p and @!p that together cover', ptx: kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 mov.u32 %r2, 1;', '@!%p1 mov.u32 %r2, 2;', 'st.global.u32 [%rd1], %r2;', 'ret;']) },
    { name: 'a partial tile exchanged through shared memory (CUB BlockLoad)', ptx: kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'mov.u32 %r5, %tid.x;', 'setp.ge.s32 %p1, %r5, %r1;', '@%p1 bra A;', 'ld.global.u32 %r2, [%rd1];', 'A:', 'st.shared.u32 [%r5], %r2;', 'ret;']) },
    { name: 'an undefined struct padding word shuffled and never used (CUB)', ptx: kernel('.param .u32 n', ['shfl.sync.down.b32 %r2, %r3, 1, 31, -1;', 'ret;']) },
    { name: '.func register parameters are defined on entry', ptx: kernel('.reg .b32 x', ['add.u32 %r1, x, 1;', 'ret;'], { func: true }) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC, 'fixtures/corpus/llvm/ptx/float_vector_types.sm_80.O0.ptx']),
    ...(await nvccReal(['06-wmma-half-float.cu', '07-mma-sync-inline-asm.cu', '26-layernorm.cu'])),
  ],
});
