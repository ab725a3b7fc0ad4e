import { F072 } from '../../src/checks/F072-unused-param.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, kernel, marked, nvccReal, REAL } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const multi = [
  '.version 8.0', '.target sm_90', '.address_size 64',
  '.visible .entry k(', '\t.param .u64 a,', '\t.param .u32 n, //!', '\t.param .u64 b //!', ')', '{', '\t.reg .b64 %rd<2>;', '\tld.param.u64 %rd1, [a];', '\tret;', '}', '',
].join('\n');

checkCases(F072, {
  fails: [
    { name: 'two unused parameters', ptx: multi, lines: marked(multi) },
    { name: 'an unused size parameter', ptx: kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'st.global.u32 [%rd1], 0;', 'ret;']), lines: [4] },
    { name: 'Triton\'s two trailing scratch-buffer parameters (real output: true, info)', ptx: REAL('fixtures/corpus/triton/vector_add.ptx'), lines: [16, 17] },
    { name: 'a kernel that reads nothing', ptx: kernel('.param .u64 a', ['ret;']), lines: [4] },
  ],
  passes: [
    { name: 'every parameter loaded', ptx: kernel('.param .u64 a, .param .u32 n', ['ld.param.u64 %rd1, [a];', 'ld.param.u32 %r1, [n];', 'ret;']) },
    { name: 'a parameter whose address is taken', ptx: kernel('.param .u64 a', ['mov.u64 %rd1, a;', 'ret;']) },
    { name: 'device function parameters are not judged', ptx: kernel('.param .u64 a', ['ret;'], { func: true }), na: true },
    ...committedReal([EXAMPLE, 'fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx']),
    ...(await nvccReal(['01-elementwise-add.cu', '05-tiled-gemm-shared.cu'])),
  ],
});

describeCudaFixtures('F072');
