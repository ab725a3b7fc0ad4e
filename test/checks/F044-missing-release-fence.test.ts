import { F044 } from '../../src/checks/F044-missing-release-fence.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** Each block stores part[ctaid], then `between`, then a signal (`signal` lines); the last ticket holder reads part[0]. */
const ticket = (between: readonly string[], atom = 'atom.global.add.u32 %r2, [%rd4], 1;') => kernel({
  params: '.param .u64 part, .param .u64 count, .param .u64 out',
  reqntid: [32, 1, 1],
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<4>;', '.reg .b64 %rd<9>;',
    'ld.param.u64 %rd1, [part];', 'cvta.to.global.u64 %rd2, %rd1;', 'ld.param.u64 %rd3, [count];', 'cvta.to.global.u64 %rd4, %rd3;',
    'mov.u32 %r1, %ctaid.x;', 'mul.wide.u32 %rd5, %r1, 4;', 'add.s64 %rd6, %rd2, %rd5;', 'st.global.u32 [%rd6], %r1;',
    ...between,
    atom,
    'setp.ne.u32 %p1, %r2, 7;', '@%p1 bra $DONE;', 'ld.global.u32 %r3, [%rd2];',
    'ld.param.u64 %rd7, [out];', 'cvta.to.global.u64 %rd8, %rd7;', 'st.global.u32 [%rd8], %r3;',
    '$DONE:', 'ret;',
  ],
});

/** A block stores its aggregate and raises a flag; the kernel also polls the previous block's flag. */
const flag = (between: readonly string[]) => kernel({
  params: '.param .u64 agg, .param .u64 flags',
  reqntid: [32, 1, 1],
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<5>;', '.reg .b64 %rd<9>;',
    'ld.param.u64 %rd1, [agg];', 'cvta.to.global.u64 %rd2, %rd1;', 'ld.param.u64 %rd3, [flags];', 'cvta.to.global.u64 %rd4, %rd3;',
    'mov.u32 %r1, %ctaid.x;', 'mul.wide.u32 %rd5, %r1, 4;', 'add.s64 %rd6, %rd2, %rd5;', 'add.s64 %rd7, %rd4, %rd5;',
    '$POLL:', 'ld.volatile.global.u32 %r2, [%rd4];', 'setp.eq.u32 %p1, %r2, 0;', '@%p1 bra $POLL;', 'ld.global.u32 %r3, [%rd2];',
    'st.global.u32 [%rd6], %r3;', ...between, 'mov.u32 %r4, 1;', 'st.volatile.global.u32 [%rd7], %r4;', 'ret;',
  ],
});

checkCases(F044, {
  fails: [
    { name: 'a last-block ticket after the partial store, no fence', ptx: ticket([]), lines: [lineOf(ticket([]), 'atom.global')] },
    { name: 'bar.sync orders only the CTA, not other CTAs', ptx: ticket(['bar.sync 0;']), lines: [lineOf(ticket(['bar.sync 0;']), 'atom.global')] },
    { name: 'membar.cta is not enough', ptx: ticket(['membar.cta;']), lines: [lineOf(ticket(['membar.cta;']), 'atom.global')] },
    { name: 'a volatile flag store right after the data', ptx: flag([]), lines: [lineOf(flag([]), 'st.volatile.global')] },
  ],
  passes: [
    { name: 'membar.gl between the data and the ticket', ptx: ticket(['membar.gl;']) },
    { name: 'fence.acq_rel.gpu between', ptx: ticket(['fence.acq_rel.gpu;']) },
    { name: 'the ticket is a release atomic', ptx: ticket([], 'atom.release.gpu.global.add.u32 %r2, [%rd4], 1;') },
    { name: 'membar.gl before the flag', ptx: flag(['membar.gl;']) },
    { name: 'no atomic or flag store', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('fixtures/corpus/triton/histogram.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx'),
    realOutput('fixtures/corpus/handwritten/memory_atomics_sm80.ptx'),
  ],
});

describeCudaFixtures('F044');
