// softmax_shared: one block per row; max and sum by a shared-memory tree reduction.
import { ARCHS, type F32, type FunctionBuilder, type SharedVar, type U32 } from '../builder/index.js';
import type { DefectDef, KernelDef } from '../kernel.js';
import { elemAddr, f32In, input, LOG2E, launchSpec, output, scalar, size, startModule } from './common.js';
import { ROW_SIZES, softmaxReference } from './norm-reference.js';

const THREADS = 256;

const DEFECTS: readonly DefectDef[] = [
  {
    /** Read-after-write race in the tree reduction: no barrier between its steps; trips F036. */
    name: 'no-barrier',
    bugClass: 'MissingBarrierSync (read-after-write)',
    check: 'F036',
    description: 'the barriers between the steps of the shared-memory tree reduction are missing: a thread reads '
      + 'red[tid + s] before its owner has stored the previous step',
    ptxasAccepts: true,
  },
];

/**
 * Tree reduction over `THREADS` values in `red`: red[tid] = op(red[tid], red[tid+s]) for s = 128..1,
 * with a barrier after each step; every thread then reads red[0] (a broadcast).
 */
function treeReduce(k: FunctionBuilder, op: 'sum' | 'max', value: F32, red: SharedVar, tid: U32, withBarriers: boolean): F32 {
  const base = k.addrOf(red);
  const mine = k.madLo('u32', tid, 4, base);
  k.sts('f32', mine, value);
  k.barSync(0);
  for (let s = THREADS / 2; s >= 1; s /= 2) {
    const active = k.setp('lt', 'u32', tid, s);
    const skip = k.newLabel(`tree_${op}_${s}`);
    k.braIf(active, skip, true);
    const a = k.lds('f32', mine);
    const b = k.lds('f32', mine, 4 * s);
    k.sts('f32', mine, op === 'sum' ? k.add('f32', a, b) : k.max('f32', a, b));
    k.place(skip);
    if (withBarriers || s === 1) k.barSync(0);
  }
  const result = k.lds('f32', base);
  // Everyone has read red[0] before the next reduction overwrites it.
  k.barSync(0);
  return result;
}

export const softmaxShared: KernelDef = {
  name: 'softmax_shared',
  summary: 'row softmax, one block of 256 per row, shared-memory tree reductions',
  notes: 'Block of 256 threads (`.reqntid`), grid = rows. The row index is ctaid.x, so the bounds exit at the top '
    + 'is uniform over the block. Each reduction stores one value per thread, then 8 halving steps '
    + '(red[tid] = op(red[tid], red[tid+s]) under tid < s) each followed by a barrier outside the guard; a final '
    + 'barrier after everyone read red[0] lets the second reduction reuse the array.',
  sizes: ROW_SIZES,
  defects: DEFECTS,
  archs: ARCHS,
  testSizes: [{ rows: 5, cols: 1000 }, { rows: 13, cols: 77 }],
  build(opts) {
    const { m, defect } = startModule('softmax_shared', opts, DEFECTS);
    const red = m.shared('softmax_red', 'f32', THREADS, 16);
    m.kernel('softmax_shared', { x: 'u64', y: 'u64', rows: 'u32', cols: 'u32' }, { reqntid: [THREADS, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const row = k.sreg('ctaid.x');
      const rows = k.ldParam(p.rows);
      const cols = k.ldParam(p.cols);
      const done = k.newLabel('done');
      k.braIf(k.setp('ge', 'u32', row, rows), done);
      const rowOff = k.shl('b64', k.mulWide('u32', row, cols), 2);
      const xRow = k.add('u64', k.globalPtr(p.x), rowOff);
      const yRow = k.add('u64', k.globalPtr(p.y), rowOff);
      const mx = k.mov('f32', -Infinity);
      k.forRange('max_loop', tid, cols, (c) => { k.max('f32', mx, k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true }), mx); }, THREADS);
      const rowMax = treeReduce(k, 'max', mx, red, tid, defect !== 'no-barrier');
      const expAt = (c: U32): F32 => k.ex2(k.mul('f32', k.sub('f32', k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true }), rowMax), LOG2E));
      const sum = k.mov('f32', 0);
      k.forRange('sum_loop', tid, cols, (c) => { k.add('f32', sum, expAt(c), sum); }, THREADS);
      const inv = k.rcp(treeReduce(k, 'sum', sum, red, tid, defect !== 'no-barrier'));
      k.forRange('store_loop', tid, cols, (c) => { k.st('global', 'f32', elemAddr(k, yRow, c, 4), k.mul('f32', expAt(c), inv)); }, THREADS);
      k.place(done);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [rows, cols] = [size(sizes, 'rows'), size(sizes, 'cols')];
    return launchSpec({
      kernel: 'softmax_shared', sizes, grid: [rows, 1, 1], block: [THREADS, 1, 1],
      args: [input('x', 'f32', rows * cols), output('y', 'f32', rows * cols), scalar('rows', 'u32', rows), scalar('cols', 'u32', cols)],
      tolerance: { rel: 2e-5, abs: 1e-7 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    return { y: softmaxReference(sizes, f32In(inputs, 'x')) };
  },
};
