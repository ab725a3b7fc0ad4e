// gemm_naive: one thread per C element, a K loop over global memory.
import { ARCHS } from '../builder/index.js';
import type { KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { f32In, index2, input, launchSpec, output, scalar, size, startModule } from './common.js';
import { GEMM_SIZES, gemmReference, gemmTolerance } from './gemm-reference.js';

const T = 16;

export const gemmNaive: KernelDef = {
  name: 'gemm_naive',
  summary: 'C = A·B (f32, row-major), one thread per output, no shared memory',
  notes: 'Block 16×16, grid (ceil(N/16), ceil(M/16)). Threads outside C exit at once (the kernel has no barrier). '
    + 'Row offsets use `mad.wide.u32` so row·K cannot wrap. Reads of B are coalesced along N; reads of A are '
    + 'warp-broadcasts per row.',
  sizes: GEMM_SIZES,
  defects: [],
  archs: ARCHS,
  testSizes: [{ M: 64, N: 48, K: 80 }, { M: 100, N: 33, K: 77 }],
  build(opts) {
    const { m } = startModule('gemm_naive', opts, []);
    m.kernel('gemm_naive', { A: 'u64', B: 'u64', C: 'u64', M: 'u32', N: 'u32', K: 'u32' }, { reqntid: [T, T, 1] }, (k, p) => {
      const col = k.madLo('u32', k.sreg('ctaid.x'), T, k.sreg('tid.x'));
      const row = k.madLo('u32', k.sreg('ctaid.y'), T, k.sreg('tid.y'));
      const M = k.ldParam(p.M);
      const N = k.ldParam(p.N);
      const K = k.ldParam(p.K);
      const done = k.newLabel('done');
      k.braIf(k.setp('ge', 'u32', row, M), done);
      k.braIf(k.setp('ge', 'u32', col, N), done);
      const A = k.globalPtr(p.A);
      const B = k.globalPtr(p.B);
      const C = k.globalPtr(p.C);
      const aPtr = k.madLo('u64', k.mulWide('u32', row, K), 4, A);
      const bPtr = k.madLo('u64', k.cvt('u64', 'u32', col), 4, B);
      const bStride = k.mulWide('u32', N, 4);
      const acc = k.mov('f32', 0);
      k.forRange('k_loop', 0, K, () => {
        const a = k.ld('global', 'f32', aPtr, 0, { nc: true });
        const b = k.ld('global', 'f32', bPtr, 0, { nc: true });
        k.fma('f32', a, b, acc, acc);
        k.add('u64', aPtr, 4, aPtr);
        k.add('u64', bPtr, bStride, bPtr);
      });
      k.st('global', 'f32', k.madLo('u64', index2(k, row, N, col), 4, C), acc);
      k.place(done);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [M, N, K] = [size(sizes, 'M'), size(sizes, 'N'), size(sizes, 'K')];
    return launchSpec({
      kernel: 'gemm_naive', sizes, grid: [ceilDiv(N, T), ceilDiv(M, T), 1], block: [T, T, 1],
      args: [input('A', 'f32', M * K), input('B', 'f32', K * N), output('C', 'f32', M * N), scalar('M', 'u32', M), scalar('N', 'u32', N), scalar('K', 'u32', K)],
      tolerance: gemmTolerance(K), ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const A = f32In(inputs, 'A');
    const B = f32In(inputs, 'B');
    return { C: gemmReference(sizes, (i) => A[i]!, (i) => B[i]!) };
  },
};
