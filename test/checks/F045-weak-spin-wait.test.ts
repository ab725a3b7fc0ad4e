import { F045 } from '../../src/checks/F045-weak-spin-wait.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

const spin = (load: string, extra: readonly string[] = []) => kernel({
  params: '.param .u64 flag',
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<4>;', '.reg .b64 %rd<3>;', 'ld.param.u64 %rd1, [flag];', 'cvta.to.global.u64 %rd2, %rd1;', 'mov.u32 %r3, 0;',
    '$SPIN:', ...extra, load, 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra $SPIN;', 'ret;',
  ],
});

const WEAK = spin('ld.global.u32 %r1, [%rd2];');
const SLEEPING = spin('ld.global.u32 %r1, [%rd2];', ['nanosleep.u32 64;']);
const BOUNDED = kernel({
  params: '.param .u64 flag',
  body: [
    '.reg .pred %p<4>;', '.reg .b32 %r<4>;', '.reg .b64 %rd<3>;', 'ld.param.u64 %rd1, [flag];', 'cvta.to.global.u64 %rd2, %rd1;', 'mov.u32 %r3, 0;',
    '$SPIN:', 'ld.global.u32 %r1, [%rd2];', 'add.u32 %r3, %r3, 1;', 'setp.eq.u32 %p1, %r1, 0;', 'setp.lt.u32 %p2, %r3, 100;', 'and.pred %p3, %p1, %p2;', '@%p3 bra $SPIN;', 'ret;',
  ],
});

checkCases(F045, {
  fails: [
    { name: 'a plain ld.global of a flag the loop never writes', ptx: WEAK, lines: [lineOf(WEAK, 'ld.global')] },
    { name: 'nanosleep does not keep the load in the loop', ptx: SLEEPING, lines: [lineOf(SLEEPING, 'ld.global')] },
  ],
  passes: [
    { name: 'ld.volatile', ptx: spin('ld.volatile.global.u32 %r1, [%rd2];') },
    { name: 'ld.relaxed.gpu', ptx: spin('ld.relaxed.gpu.global.u32 %r1, [%rd2];') },
    { name: 'ld.acquire.gpu', ptx: spin('ld.acquire.gpu.global.u32 %r1, [%rd2];') },
    { name: 'an atomic read', ptx: spin('atom.global.add.u32 %r1, [%rd2], 0;') },
    { name: 'a fence in the loop', ptx: spin('ld.global.u32 %r1, [%rd2];', ['membar.gl;']) },
    { name: 'a bounded retry (a counter in the exit condition)', ptx: BOUNDED },
    { name: 'no loop', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx'),
  ],
});

describeCudaFixtures('F045');
