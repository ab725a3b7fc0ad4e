import { F100 } from '../../src/checks/F100-line-info.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, kernel, nvccReal, REAL, TRITON } from './flow-kernel.js';

checkCases(F100, {
  fails: [
    { name: 'a hand-written kernel', ptx: kernel('', ['ret;']), lines: [4] },
    { name: 'llc output without debug info', ptx: REAL('fixtures/corpus/llvm/ptx/vector_add.sm_80.ptx'), lines: [13] },
    { name: 'two kernels, one with .loc', ptx: `${kernel('', ['ret;'], { prelude: '.file 1 "a.cu"' }).replace('\tret;', '\t.loc 1 1 1\n\tret;')}${kernel('', ['ret;'], { name: 'k2' }).split('\n').slice(3).join('\n')}`, lines: [11] },
  ],
  passes: [
    { name: 'a .loc before the first instruction', ptx: kernel('', ['.loc 1 3 1', 'ret;'], { prelude: '.file 1 "k.cu"' }) },
    { name: 'no kernel with instructions', ptx: kernel('', ['ret;'], { func: true }), na: true },
    ...committedReal([EXAMPLE, ...TRITON, 'fixtures/corpus/llvm/ptx/debug_info.sm_80.ptx']),
    ...(await nvccReal(['01-elementwise-add.cu', '05-tiled-gemm-shared.cu'])),
  ],
});
