import { describeCudaFixtures } from './labelled-cuda.js';
import { F083 } from '../../src/checks/F083-cvta-shared-in-loop.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const XS = '.shared .align 16 .b8 xs[1024];';
const loop = (body: readonly string[], pre: readonly string[] = []): string[] => [
  ...pre, 'mov.u32 %r2, 0;', 'LOOP:', ...body, 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, 8;', '@%p1 bra LOOP;',
];

checkCases(F083, {
  fails: [
    { name: 'cvta.shared in the loop body', ptx: kernel(loop(['cvta.shared.u64 %rd3, xs;', 'st.u32 [%rd3], %r2;']), { locals: XS }), lines: [L + 2] },
    {
      name: 'an inner loop of a nest',
      ptx: kernel([
        'mov.u32 %r3, 0;', 'OUTER:', 'mov.u32 %r2, 0;', 'INNER:', 'mov.u32 %r4, xs;', 'cvt.u64.u32 %rd3, %r4;', 'cvta.shared.u64 %rd4, %rd3;',
        'ld.u32 %r5, [%rd4];', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, 8;', '@%p1 bra INNER;', 'add.u32 %r3, %r3, 1;',
        'setp.lt.u32 %p2, %r3, 8;', '@%p2 bra OUTER;',
      ], { locals: XS }),
      lines: [L + 6],
    },
  ],
  passes: [
    { name: 'hoisted before the loop', ptx: kernel(loop(['st.u32 [%rd3], %r2;'], ['cvta.shared.u64 %rd3, xs;']), { locals: XS }) },
    { name: 'cvta.to.shared in a loop', ptx: kernel(loop(['cvta.to.shared.u64 %rd3, %rd2;', 'st.shared.u32 [%rd3], %r2;'])) },
    { name: 'a conversion for mapa (cluster.map_shared_rank)', ptx: kernel(loop(['cvta.shared.u64 %rd3, xs;', 'mapa.u64 %rd4, %rd3, %r2;', 'atom.add.u32 %r3, [%rd4], 1;']), { locals: XS }) },
    { name: 'a debug build (nvcc -G) is n/a', ptx: kernel(loop(['cvta.shared.u64 %rd3, xs;', 'st.u32 [%rd3], %r2;']), { locals: XS, targetSuffix: ', debug' }), na: true },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

await expectQuietOnRealOutput(F083);

describeCudaFixtures('F083');
