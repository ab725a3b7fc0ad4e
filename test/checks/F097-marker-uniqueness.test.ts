import { F097 } from '../../src/checks/F097-marker-uniqueness.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, REAL } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 out, .param .u64 debug_buf, .param .u32 debug_cap';
/** One protocol marker write of `m` (six lines). */
const marker = (m: number, tag = ''): string[] => [
  'atom.global.add.u32 %r3, [%rd2], 1;', 'setp.lt.u32 %p1, %r3, %r1;', 'mul.wide.u32 %rd3, %r3, 8;', 'add.s64 %rd4, %rd2, %rd3;',
  `@%p1 st.global.u32 [%rd4+4], ${m};${tag}`, '@%p1 st.global.u32 [%rd4+8], %r2;',
];
const PRO = ['ld.param.u64 %rd2, [debug_buf];', 'ld.param.u32 %r1, [debug_cap];', 'mov.u32 %r2, %tid.x;'];

checkCases(F097, {
  fails: [
    failing('the same marker at two sites', kernel(P, [...PRO, ...marker(1), ...marker(1, ' //!'), 'ret;'])),
    failing('three sites, two duplicates', kernel(P, [...PRO, ...marker(4), ...marker(4, ' //!'), ...marker(4, ' //!'), 'ret;'])),
    failing('the marker moved into a register first (as nvcc stores it)', kernel(P, [...PRO, 'mov.u32 %r9, 5;', ...marker(5).map((l) => l.replace(', 5;', ', %r9;')), 'mov.u32 %r10, 5;', ...marker(5, ' //!').map((l) => l.replace(', 5;', ', %r10;')), 'ret;'])),
    failing('duplicates across kernels', `${kernel(P, [...PRO, ...marker(9), 'ret;'])}${kernel(P, [...PRO, ...marker(9, ' //!'), 'ret;'], { name: 'k2' }).split('\n').slice(3).join('\n')}`),
  ],
  passes: [
    { name: 'distinct markers', ptx: kernel(P, [...PRO, ...marker(1), ...marker(2), ...marker(3), 'ret;']) },
    { name: 'the hand-written instrumented fixture', ptx: REAL('fixtures/gpu/crash-markers.ptx') },
    { name: 'a register marker with two reaching values is no constant', ptx: kernel(P, [...PRO, 'mov.u32 %r9, 5;', 'setp.eq.u32 %p2, %r2, 0;', '@%p2 mov.u32 %r9, 6;', ...marker(5).map((l) => l.replace(', 5;', ', %r9;')), ...marker(5), 'ret;']) },
    { name: 'not instrumented', ptx: kernel('.param .u64 out', ['ret;']), na: true },
    ...committedReal(['examples/block-reduce.ptx', 'fixtures/corpus/triton/vector_add.ptx']).map((c) => ({ ...c, na: true })),
  ],
});

describeCudaFixtures('F097');
