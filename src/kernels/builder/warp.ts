// Warp-shuffle reductions and the two-level (warp, then shared memory) block
// reduction that the norm, softmax and decoder kernels share.
import type { FunctionBuilder, SharedVar } from './function.js';
import type { F32, U32 } from './types.js';

export type ReduceOp = 'sum' | 'max';

/**
 * Reduces `value` over the 32 lanes of a warp with `shfl.sync.bfly` (offsets
 * 16, 8, 4, 2, 1). Every lane ends with the result, so no broadcast is needed.
 * Every lane of the warp must execute it (full mask).
 */
export function warpReduce(k: FunctionBuilder, op: ReduceOp, value: F32): F32 {
  let v = value;
  for (const offset of [16, 8, 4, 2, 1]) {
    const other = k.shfl('bfly', v, offset);
    v = op === 'sum' ? k.add('f32', v, other) : k.max('f32', v, other);
  }
  return v;
}

/**
 * Reduces `value` over the whole CTA: a warp reduction, lane 0 of each warp
 * writes its partial to `scratch[warp]`, a barrier, then every thread reads
 * all `warps` partials (uniform addresses: broadcasts), and a second barrier
 * so the scratch can be reused. Must be reached by every thread of the CTA.
 */
export function blockReduce(k: FunctionBuilder, op: ReduceOp, value: F32, scratch: SharedVar, tid: U32, warps: number): F32 {
  const warpValue = warpReduce(k, op, value);
  const lane = k.and('b32', tid, 31);
  const warp = k.shr('u32', tid, 5);
  const base = k.addrOf(scratch);
  const slot = k.madLo('u32', warp, 4, base);
  const isLane0 = k.setp('eq', 'u32', lane, 0);
  k.guard(isLane0, () => k.sts('f32', slot, warpValue));
  k.barSync(0);
  let total = k.lds('f32', base, 0);
  for (let w = 1; w < warps; w++) {
    const part = k.lds('f32', base, 4 * w);
    total = op === 'sum' ? k.add('f32', total, part) : k.max('f32', total, part);
  }
  k.barSync(0);
  return total;
}
