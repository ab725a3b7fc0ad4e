// softmax_warp: one warp per row; max and sum by butterfly shuffles, no shared memory.
import { ARCHS, warpReduce, type F32, type FunctionBuilder, type U32, type U64 } from '../builder/index.js';
import type { DefectDef, KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { elemAddr, f32In, input, LOG2E, launchSpec, output, scalar, size, startModule } from './common.js';
import { ROW_SIZES, softmaxReference } from './norm-reference.js';

const WARPS = 8;
const NEG_INF = -Infinity;

const DEFECTS: readonly DefectDef[] = [
  {
    /** Warp collective skipped by some lanes: lanes without an element leave before the shuffles; trips F042. */
    name: 'divergent-shuffle',
    bugClass: 'shuffle under divergence (lanes exit before a full-mask shfl.sync)',
    check: 'F042',
    description: 'lanes with lane >= cols jump past the reductions, yet the shuffles name all 32 lanes in their mask: '
      + 'for rows shorter than 32 the shuffles read exited lanes (undefined values) and the behaviour is undefined',
    ptxasAccepts: true,
  },
  {
    /** Pre-Volta warp-synchronous code: `shfl.bfly.b32` without `.sync`; trips F043 (also deprecated: F087). */
    name: 'legacy-shuffle',
    bugClass: 'legacy warp-synchronous shuffle (no .sync)',
    check: 'F043',
    description: 'the reductions use shfl.bfly.b32 without .sync and a member mask, which assumes lockstep warps; '
      + 'ptxas 13 rejects it for sm_70+ from PTX 6.4 and warns for PTX 6.3 (sm_75)',
    ptxasAccepts: false,
  },
];

function legacyReduce(k: FunctionBuilder, op: 'sum' | 'max', value: F32): F32 {
  let v = value;
  for (const offset of [16, 8, 4, 2, 1]) {
    const other = k.reg('f32');
    k.raw('shfl.bfly.b32', [other.name, v.name, String(offset), '31']);
    v = op === 'sum' ? k.add('f32', v, other) : k.max('f32', v, other);
  }
  return v;
}

/** Loops c = lane, lane+32, ... < n over a row, giving each element's address. */
function rowLoop(k: FunctionBuilder, name: string, lane: U32, n: U32, base: U64, body: (addr: U64) => void): void {
  k.forRange(name, lane, n, (c) => body(elemAddr(k, base, c, 4)), 32);
}

export const softmaxWarp: KernelDef = {
  name: 'softmax_warp',
  summary: 'row softmax, one warp per row, butterfly-shuffle max and sum',
  notes: 'Block of 256 threads = 8 rows (`.reqntid`), grid ceil(rows/8). Lanes stride the row by 32. A warp whose '
    + 'row is past the end runs its loops zero times but still executes every shuffle with the full mask, so no '
    + 'lane ever leaves before a collective; its stores are skipped by the same empty loops. exp is ex2.approx of '
    + 'x·log2(e) after subtracting the row max.',
  sizes: ROW_SIZES,
  defects: DEFECTS,
  archs: ARCHS,
  testSizes: [{ rows: 37, cols: 100 }, { rows: 16, cols: 1000 }, { rows: 9, cols: 20 }],
  build(opts) {
    const { m, defect } = startModule('softmax_warp', opts, DEFECTS);
    m.kernel('softmax_warp', { x: 'u64', y: 'u64', rows: 'u32', cols: 'u32' }, { reqntid: [32 * WARPS, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const lane = k.and('b32', tid, 31);
      const row = k.madLo('u32', k.sreg('ctaid.x'), WARPS, k.shr('u32', tid, 5));
      const rows = k.ldParam(p.rows);
      const cols = k.ldParam(p.cols);
      const x = k.globalPtr(p.x);
      const y = k.globalPtr(p.y);
      // Rows past the end get an empty range instead of an exit: every lane reaches every shuffle.
      const n = k.selp('u32', cols, 0, k.setp('lt', 'u32', row, rows));
      const rowOff = k.shl('b64', k.mulWide('u32', row, cols), 2);
      const xRow = k.add('u64', x, rowOff);
      const yRow = k.add('u64', y, rowOff);
      const reduce = (op: 'sum' | 'max', v: F32): F32 => (defect === 'legacy-shuffle' ? legacyReduce(k, op, v) : warpReduce(k, op, v));
      const done = k.newLabel('done');
      if (defect === 'divergent-shuffle') k.braIf(k.setp('ge', 'u32', lane, n), done);
      const mx = k.mov('f32', NEG_INF);
      rowLoop(k, 'max_loop', lane, n, xRow, (a) => { k.max('f32', mx, k.ld('global', 'f32', a, 0, { nc: true }), mx); });
      const rowMax = reduce('max', mx);
      const sum = k.mov('f32', 0);
      const expOf = (a: U64): F32 => k.ex2(k.mul('f32', k.sub('f32', k.ld('global', 'f32', a, 0, { nc: true }), rowMax), LOG2E));
      rowLoop(k, 'sum_loop', lane, n, xRow, (a) => { k.add('f32', sum, expOf(a), sum); });
      const inv = k.rcp(reduce('sum', sum));
      k.forRange('store_loop', lane, n, (c) => {
        const e = expOf(elemAddr(k, xRow, c, 4));
        k.st('global', 'f32', elemAddr(k, yRow, c, 4), k.mul('f32', e, inv));
      }, 32);
      k.place(done);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [rows, cols] = [size(sizes, 'rows'), size(sizes, 'cols')];
    return launchSpec({
      kernel: 'softmax_warp', sizes, grid: [ceilDiv(rows, WARPS), 1, 1], block: [32 * WARPS, 1, 1],
      args: [input('x', 'f32', rows * cols), output('y', 'f32', rows * cols), scalar('rows', 'u32', rows), scalar('cols', 'u32', cols)],
      tolerance: { rel: 2e-5, abs: 1e-7 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    return { y: softmaxReference(sizes, f32In(inputs, 'x')) };
  },
};
