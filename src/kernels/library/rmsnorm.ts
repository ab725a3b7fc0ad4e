// rmsnorm: one warp per row; the sum of squares is reduced by a `.func`
// (warp_sum) that the kernel calls, exercising the builder's call sequence.
import { ARCHS, warpReduce, type PtxModule } from '../builder/index.js';
import type { KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { elemAddr, f32In, input, launchSpec, output, scalar, size, startModule } from './common.js';
import { rmsnormReference, ROW_SIZES } from './norm-reference.js';

const WARPS = 8;
const EPS = 1e-6;

/** `.func (.param .b32 r) warp_sum(.param .b32 v)`: a butterfly sum over the calling warp (call with all 32 lanes). */
function defineWarpSum(m: PtxModule) {
  return m.func('warp_sum', ['f32'] as const, ['f32'] as const, (f, [v], [r]) => {
    f.stParam(r, warpReduce(f, 'sum', f.ldParam(v)));
    f.ret();
  });
}

export const rmsnorm: KernelDef = {
  name: 'rmsnorm',
  summary: 'y = x·rsqrt(mean(x²) + eps)·gamma per row; one warp per row, reduction in a .func',
  notes: 'Block of 256 threads = 8 rows (`.reqntid`), grid ceil(rows/8). As in softmax_warp, a warp whose row is '
    + 'past the end gets an empty range rather than an exit, so all 32 lanes call warp_sum (a `.func` holding the '
    + 'butterfly shuffles; its `.param` argument is thread-varying, as it should be).',
  sizes: ROW_SIZES,
  defects: [],
  archs: ARCHS,
  testSizes: [{ rows: 19, cols: 300 }, { rows: 8, cols: 4096 }],
  build(opts) {
    const { m } = startModule('rmsnorm', opts, []);
    const warpSum = defineWarpSum(m);
    m.kernel('rmsnorm', { x: 'u64', gamma: 'u64', y: 'u64', rows: 'u32', cols: 'u32', eps: 'f32' }, { reqntid: [32 * WARPS, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const lane = k.and('b32', tid, 31);
      const row = k.madLo('u32', k.sreg('ctaid.x'), WARPS, k.shr('u32', tid, 5));
      const rows = k.ldParam(p.rows);
      const cols = k.ldParam(p.cols);
      const eps = k.ldParam(p.eps);
      const gamma = k.globalPtr(p.gamma);
      const n = k.selp('u32', cols, 0, k.setp('lt', 'u32', row, rows));
      const rowOff = k.shl('b64', k.mulWide('u32', row, cols), 2);
      const xRow = k.add('u64', k.globalPtr(p.x), rowOff);
      const yRow = k.add('u64', k.globalPtr(p.y), rowOff);
      const ss = k.mov('f32', 0);
      k.forRange('sq_loop', lane, n, (c) => {
        const v = k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true });
        k.fma('f32', v, v, ss, ss);
      }, 32);
      const [total] = k.call(warpSum, [ss] as const);
      const inv = k.rsqrt(k.fma('f32', total, k.rcp(k.cvt('f32', 'u32', cols)), eps));
      k.forRange('store_loop', lane, n, (c) => {
        const v = k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true });
        const g = k.ld('global', 'f32', elemAddr(k, gamma, c, 4), 0, { nc: true });
        k.st('global', 'f32', elemAddr(k, yRow, c, 4), k.mul('f32', k.mul('f32', v, inv), g));
      }, 32);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [rows, cols] = [size(sizes, 'rows'), size(sizes, 'cols')];
    return launchSpec({
      kernel: 'rmsnorm', sizes, grid: [ceilDiv(rows, WARPS), 1, 1], block: [32 * WARPS, 1, 1],
      args: [input('x', 'f32', rows * cols), input('gamma', 'f32', cols), output('y', 'f32', rows * cols),
        scalar('rows', 'u32', rows), scalar('cols', 'u32', cols), scalar('eps', 'f32', EPS)],
      tolerance: { rel: 1e-4, abs: 1e-6 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    return { y: rmsnormReference(size(sizes, 'rows'), size(sizes, 'cols'), f32In(inputs, 'x'), f32In(inputs, 'gamma'), EPS) };
  },
};
