import { F046 } from '../../src/checks/F046-global-rmw-race.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** out + offset(%r1 = tid, %r4 = ctaid) loaded, incremented and stored back; `guard` before it. */
const rmw = (index: readonly string[], guard: readonly string[] = []) => kernel({
  params: '.param .u64 out, .param .u64 keys',
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<8>;', '.reg .b64 %rd<8>;',
    'ld.param.u64 %rd1, [out];', 'cvta.to.global.u64 %rd2, %rd1;', 'ld.param.u64 %rd5, [keys];', 'cvta.to.global.u64 %rd6, %rd5;',
    'mov.u32 %r1, %tid.x;', 'mov.u32 %r4, %ctaid.x;',
    ...guard,
    ...index,
    'add.s64 %rd4, %rd2, %rd3;', 'ld.global.u32 %r2, [%rd4];', 'add.s32 %r3, %r2, 1;', 'st.global.u32 [%rd4], %r3;',
    '$DONE:', 'ret;',
  ],
});

const UNIFORM = rmw(['mov.u64 %rd3, 0;']);
const HIST = rmw(['mul.wide.u32 %rd7, %r1, 4;', 'add.s64 %rd7, %rd6, %rd7;', 'ld.global.nc.u32 %r5, [%rd7];', 'mul.wide.u32 %rd3, %r5, 4;']);
const THREAD0 = rmw(['mov.u64 %rd3, 0;'], ['setp.ne.u32 %p1, %r1, 0;', '@%p1 bra $DONE;']);
const WARP_INDEX = rmw(['shr.u32 %r6, %r1, 5;', 'mad.lo.u32 %r7, %r4, 4, %r6;', 'mul.wide.u32 %rd3, %r7, 4;']);

checkCases(F046, {
  fails: [
    { name: 'sum[0] += x by every thread', ptx: UNIFORM, lines: [lineOf(UNIFORM, 'st.global')] },
    { name: 'hist[key]++ with a loaded key', ptx: HIST, lines: [lineOf(HIST, 'st.global')] },
    { name: 'out[0] += x under tid == 0: one thread per CTA, but every CTA', ptx: THREAD0, lines: [lineOf(THREAD0, 'st.global')] },
    { name: 'out[ctaid*4 + tid/32] += x: the 32 lanes of a warp share an element', ptx: WARP_INDEX, lines: [lineOf(WARP_INDEX, 'st.global')] },
  ],
  passes: [
    { name: 'out[ctaid] += x under tid == 0: one thread per element', ptx: rmw(['mul.wide.u32 %rd3, %r4, 4;'], ['setp.ne.u32 %p1, %r1, 0;', '@%p1 bra $DONE;']) },
    { name: 'out[ctaid*128 + tid] += x: one thread per element', ptx: rmw(['mad.lo.u32 %r6, %r4, 128, %r1;', 'mul.wide.u32 %rd3, %r6, 4;']) },
    { name: 'an atomic instead', ptx: kernel({ params: '.param .u64 out', body: ['.reg .b64 %rd<3>;', 'ld.param.u64 %rd1, [out];', 'cvta.to.global.u64 %rd2, %rd1;', 'red.global.add.u32 [%rd2], 1;', 'ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx'),
    realOutput('fixtures/corpus/handwritten/memory_atomics_sm80.ptx'),
  ],
});

describeCudaFixtures('F046');
