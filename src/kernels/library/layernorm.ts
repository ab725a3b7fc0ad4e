// layernorm: one block per row; mean and variance by two-level reductions
// (butterfly shuffles within each warp, then the 8 warp partials through shared memory).
import { ARCHS, blockReduce } from '../builder/index.js';
import type { KernelDef } from '../kernel.js';
import { elemAddr, f32In, input, launchSpec, output, scalar, size, startModule } from './common.js';
import { layernormReference, ROW_SIZES } from './norm-reference.js';

const THREADS = 256;
const EPS = 1e-5;

export const layernorm: KernelDef = {
  name: 'layernorm',
  summary: 'y = (x − mean)·rsqrt(var + eps)·gamma + beta per row; block per row, two-level reductions',
  notes: 'Block of 256 threads (`.reqntid`), grid = rows; uniform bounds exit on ctaid.x. Two passes over the row '
    + '(mean, then the centred variance, which avoids the cancellation of E[x²] − mean²). Each block reduction is '
    + 'a warp butterfly, lane 0 of each warp storing its partial in an 8-float scratch, a barrier, every thread '
    + 'summing the 8 partials, and a barrier before the scratch is reused. eps is a kernel parameter (default 1e-5).',
  sizes: ROW_SIZES,
  defects: [],
  archs: ARCHS,
  testSizes: [{ rows: 7, cols: 1000 }, { rows: 20, cols: 33 }],
  build(opts) {
    const { m } = startModule('layernorm', opts, []);
    const scratch = m.shared('layernorm_red', 'f32', THREADS / 32, 16);
    m.kernel('layernorm', { x: 'u64', gamma: 'u64', beta: 'u64', y: 'u64', rows: 'u32', cols: 'u32', eps: 'f32' }, { reqntid: [THREADS, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const row = k.sreg('ctaid.x');
      const rows = k.ldParam(p.rows);
      const cols = k.ldParam(p.cols);
      const eps = k.ldParam(p.eps);
      const done = k.newLabel('done');
      k.braIf(k.setp('ge', 'u32', row, rows), done);
      const gamma = k.globalPtr(p.gamma);
      const beta = k.globalPtr(p.beta);
      const rowOff = k.shl('b64', k.mulWide('u32', row, cols), 2);
      const xRow = k.add('u64', k.globalPtr(p.x), rowOff);
      const yRow = k.add('u64', k.globalPtr(p.y), rowOff);
      const n = k.cvt('f32', 'u32', cols);
      const sum = k.mov('f32', 0);
      k.forRange('sum_loop', tid, cols, (c) => { k.add('f32', sum, k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true }), sum); }, THREADS);
      const mean = k.div('f32', blockReduce(k, 'sum', sum, scratch, tid, THREADS / 32), n);
      const sq = k.mov('f32', 0);
      k.forRange('var_loop', tid, cols, (c) => {
        const d = k.sub('f32', k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true }), mean);
        k.fma('f32', d, d, sq, sq);
      }, THREADS);
      const variance = k.div('f32', blockReduce(k, 'sum', sq, scratch, tid, THREADS / 32), n);
      const rstd = k.rsqrt(k.add('f32', variance, eps));
      k.forRange('store_loop', tid, cols, (c) => {
        const v = k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true });
        const g = k.ld('global', 'f32', elemAddr(k, gamma, c, 4), 0, { nc: true });
        const b = k.ld('global', 'f32', elemAddr(k, beta, c, 4), 0, { nc: true });
        const norm = k.mul('f32', k.sub('f32', v, mean), rstd);
        k.st('global', 'f32', elemAddr(k, yRow, c, 4), k.fma('f32', norm, g, b));
      }, THREADS);
      k.place(done);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [rows, cols] = [size(sizes, 'rows'), size(sizes, 'cols')];
    return launchSpec({
      kernel: 'layernorm', sizes, grid: [rows, 1, 1], block: [THREADS, 1, 1],
      args: [input('x', 'f32', rows * cols), input('gamma', 'f32', cols), input('beta', 'f32', cols), output('y', 'f32', rows * cols),
        scalar('rows', 'u32', rows), scalar('cols', 'u32', cols), scalar('eps', 'f32', EPS)],
      tolerance: { rel: 1e-4, abs: 1e-5 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    return { y: layernormReference(sizes, f32In(inputs, 'x'), f32In(inputs, 'gamma'), f32In(inputs, 'beta'), EPS) };
  },
};
