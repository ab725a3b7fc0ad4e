import { F076 } from '../../src/checks/F076-register-pressure.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, kernel, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

/** N live 32-bit values summed after all are loaded. */
function pressure(n: number, directives?: string): string {
  const loads = Array.from({ length: n }, (_, i) => `ld.global.u32 %v${i}, [%rd1+${4 * i}];`);
  const sums = Array.from({ length: n }, (_, i) => `add.u32 %r1, %r1, %v${i};`);
  return kernel('.param .u64 a', [`.reg .b32 %v<${n}>;`, 'ld.param.u64 %rd1, [a];', 'mov.u32 %r1, 0;', ...loads, ...sums, 'st.global.u32 [%rd1], %r1;', 'ret;'], directives === undefined ? {} : { directives });
}

checkCases(F076, {
  fails: [
    { name: '300 values live at once', ptx: pressure(300), lines: [309] },
    { name: 'over .maxnreg 32', ptx: pressure(40, '.maxnreg 32'), lines: [50] },
    { name: '.b64 values count two slots', ptx: kernel('.param .u64 a', ['.reg .b64 %w<140>;', 'ld.param.u64 %rd1, [a];', ...Array.from({ length: 140 }, (_, i) => `ld.global.u64 %w${i}, [%rd1+${8 * i}];`), ...Array.from({ length: 140 }, (_, i) => `add.u64 %rd2, %rd2, %w${i};`), 'st.global.u64 [%rd1], %rd2;', 'ret;']), lines: [148] },
  ],
  passes: [
    { name: '200 values live at once', ptx: pressure(200) },
    { name: '40 values without a .maxnreg', ptx: pressure(40) },
    { name: '20 values under .maxnreg 32', ptx: pressure(20, '.maxnreg 32') },
    ...committedReal([EXAMPLE, ...TRITON]),
    ...(await nvccReal(['05-tiled-gemm-shared.cu', '30-launch-bounds.cu', '07-mma-sync-inline-asm.cu'])),
  ],
});

describeCudaFixtures('F076');
