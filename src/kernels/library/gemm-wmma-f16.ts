// gemm_wmma_f16: C (f32) = A·B with f16 inputs on tensor cores (wmma
// m16n16k16, f32 accumulation). A block of four warps computes a 32×32 tile of
// C; each k step stages a zero-padded 32×16 A tile and 16×32 B tile in shared
// memory, so sizes need not be multiples of 16.
import { ARCHS } from '../builder/index.js';
import type { DefectDef, KernelDef } from '../kernel.js';
import { ceilDiv, halfToFloat } from '../numeric.js';
import { index2, input, launchSpec, output, scalar, size, startModule, u16In } from './common.js';
import { GEMM_SIZES, gemmReference } from './gemm-reference.js';

const BT = 32;
const KT = 16;
const THREADS = 128;

const DEFECTS: readonly DefectDef[] = [
  {
    /** Tensor-core layout mismatch: B is loaded `.col` but the mma is `.row.row`; trips F088. */
    name: 'layout-mismatch',
    bugClass: 'wmma fragment layout mismatch',
    check: 'F088',
    description: 'the B fragment is loaded with layout .col while wmma.mma declares .row.row: the fragment holds B transposed '
      + 'and C is wrong, with no error from ptxas or the driver',
    ptxasAccepts: true,
  },
];

export const gemmWmmaF16: KernelDef = {
  name: 'gemm_wmma_f16',
  summary: 'C (f32) = A·B with f16 A and B on tensor cores (wmma m16n16k16, f32 accumulate)',
  notes: 'Block of 128 threads (4 warps, `.reqntid`), grid (ceil(N/32), ceil(M/32)); warp w computes the 16×16 '
    + 'sub-tile (w>>1, w&1). Each k step loads a 32×16 tile of A and a 16×32 tile of B into shared memory (elements '
    + 'outside the matrices as +0), a barrier, `wmma.load` of both fragments (row-major, strides 16 and 32), '
    + '`wmma.mma.sync` accumulating in place, and a trailing barrier. The result goes through a 32×32 f32 shared '
    + 'tile so that the global stores can be bounds-checked element by element. Halves move as `.b16`. '
    + 'Accumulation is in f32 (F080 passes).',
  sizes: GEMM_SIZES,
  defects: DEFECTS,
  archs: ARCHS,
  testSizes: [{ M: 64, N: 64, K: 64 }, { M: 50, N: 70, K: 40 }],
  build(opts) {
    const { m, defect } = startModule('gemm_wmma_f16', opts, DEFECTS);
    const As = m.shared('wmma_As', 'b16', BT * KT, 128);
    const Bs = m.shared('wmma_Bs', 'b16', KT * BT, 128);
    const Cs = m.shared('wmma_Cs', 'f32', BT * BT, 128);
    m.kernel('gemm_wmma_f16', { A: 'u64', B: 'u64', C: 'u64', M: 'u32', N: 'u32', K: 'u32' }, { reqntid: [THREADS, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const warp = k.shr('u32', tid, 5);
      const wm = k.shr('u32', warp, 1);
      const wn = k.and('b32', warp, 1);
      const bm = k.mulLo('u32', k.sreg('ctaid.y'), BT);
      const bn = k.mulLo('u32', k.sreg('ctaid.x'), BT);
      const M = k.ldParam(p.M);
      const N = k.ldParam(p.N);
      const K = k.ldParam(p.K);
      const A = k.globalPtr(p.A);
      const B = k.globalPtr(p.B);
      const C = k.globalPtr(p.C);
      const asBase = k.addrOf(As);
      const bsBase = k.addrOf(Bs);
      const csBase = k.addrOf(Cs);
      // This warp's fragment addresses: A rows wm*16 (stride 16 halves), B columns wn*16 (stride 32 halves).
      const aFrag = k.madLo('u32', wm, 16 * KT * 2, asBase);
      const bFrag = k.madLo('u32', wn, 16 * 2, bsBase);
      const acc = Array.from({ length: 8 }, () => k.mov('f32', 0));
      const steps = k.div('u32', k.add('u32', K, KT - 1), KT);
      k.forRange('k_step_loop', 0, steps, (s) => {
        const k0 = k.mulLo('u32', s, KT);
        for (let j = 0; j < (BT * KT) / THREADS; j++) {
          const e = k.add('u32', tid, THREADS * j);
          // A tile: 32 rows × 16 columns.
          const ar = k.shr('u32', e, 4);
          const ac = k.and('b32', e, 15);
          const gRow = k.add('u32', bm, ar);
          const gk = k.add('u32', k0, ac);
          const inA = k.andPred(k.setp('lt', 'u32', gRow, M), k.setp('lt', 'u32', gk, K));
          const a = k.mov('b16', 0);
          k.guard(inA, () => k.ldInto('global', 'b16', a, k.madLo('u64', index2(k, gRow, K, gk), 2, A), 0, { nc: true }));
          k.sts('b16', k.madLo('u32', e, 2, asBase), a);
          // B tile: 16 rows × 32 columns.
          const br = k.shr('u32', e, 5);
          const bc = k.and('b32', e, 31);
          const gkb = k.add('u32', k0, br);
          const gCol = k.add('u32', bn, bc);
          const inB = k.andPred(k.setp('lt', 'u32', gkb, K), k.setp('lt', 'u32', gCol, N));
          const b = k.mov('b16', 0);
          k.guard(inB, () => k.ldInto('global', 'b16', b, k.madLo('u64', index2(k, gkb, N, gCol), 2, B), 0, { nc: true }));
          k.sts('b16', k.madLo('u32', e, 2, bsBase), b);
        }
        k.barSync(0);
        const fa = k.wmmaLoad('a', 'row', 'shared', aFrag, KT);
        const fb = k.wmmaLoad('b', defect === 'layout-mismatch' ? 'col' : 'row', 'shared', bFrag, BT);
        k.wmmaMma('row', 'row', acc, fa, fb, acc);
        k.barSync(0);
      });
      const cFrag = k.madLo('u32', k.madLo('u32', wm, 16 * BT, k.mulLo('u32', wn, 16)), 4, csBase);
      k.wmmaStore('row', 'shared', cFrag, acc, BT);
      k.barSync(0);
      for (let j = 0; j < (BT * BT) / THREADS; j++) {
        const e = k.add('u32', tid, THREADS * j);
        const gRow = k.add('u32', bm, k.shr('u32', e, 5));
        const gCol = k.add('u32', bn, k.and('b32', e, 31));
        const inC = k.andPred(k.setp('lt', 'u32', gRow, M), k.setp('lt', 'u32', gCol, N));
        const v = k.lds('f32', k.madLo('u32', e, 4, csBase));
        const skip = k.newLabel('store_skip');
        k.braIf(inC, skip, true);
        k.st('global', 'f32', k.madLo('u64', index2(k, gRow, N, gCol), 4, C), v);
        k.place(skip);
      }
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [M, N, K] = [size(sizes, 'M'), size(sizes, 'N'), size(sizes, 'K')];
    return launchSpec({
      kernel: 'gemm_wmma_f16', sizes, grid: [ceilDiv(N, BT), ceilDiv(M, BT), 1], block: [THREADS, 1, 1],
      args: [input('A', 'f16', M * K), input('B', 'f16', K * N), output('C', 'f32', M * N), scalar('M', 'u32', M), scalar('N', 'u32', N), scalar('K', 'u32', K)],
      // f16 products are exact in f32; the tensor core's accumulation order and rounding differ from the reference.
      tolerance: { rel: 1e-3, abs: 1e-5 * K + 1e-4 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const A = u16In(inputs, 'A');
    const B = u16In(inputs, 'B');
    return { C: gemmReference(sizes, (i) => halfToFloat(A[i]!), (i) => halfToFloat(B[i]!)) };
  },
};
