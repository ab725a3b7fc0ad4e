// Compares a kernel's outputs with its CPU reference under the launch spec's
// rules: `exact` buffers bit for bit, `approx` ones within |got − want| ≤
// abs + rel·|want| (f16 decoded first). The GPU runner and the tests use it.
import type { BufferData, Buffers } from './kernel.js';
import type { LaunchSpec } from './launch-spec.js';
import { halfToFloat } from './numeric.js';

export interface BufferComparison {
  readonly name: string;
  readonly count: number;
  readonly mismatches: number;
  /** The first mismatching index, with both values. */
  readonly first?: { readonly index: number; readonly got: number | bigint; readonly want: number | bigint };
  /** Largest |got − want| over the buffer (approx buffers). */
  readonly maxAbsError: number;
}

function value(data: BufferData, i: number, f16: boolean): number | bigint {
  const v = data[i]!;
  return f16 && typeof v === 'number' ? halfToFloat(v) : v;
}

/** One comparison per output and inout buffer of `spec`. */
export function compareOutputs(spec: LaunchSpec, got: Buffers, want: Buffers): BufferComparison[] {
  const results: BufferComparison[] = [];
  for (const arg of spec.args) {
    if (arg.kind !== 'buffer' || arg.role === 'input') continue;
    const g = got[arg.name];
    const w = want[arg.name];
    if (g === undefined || w === undefined) throw new Error(`output '${arg.name}' missing from ${g === undefined ? 'the results' : 'the reference'}`);
    const exact = (arg.compare ?? (arg.type === 'f32' || arg.type === 'f16' ? 'approx' : 'exact')) === 'exact';
    const f16 = arg.type === 'f16';
    let mismatches = 0;
    let first: BufferComparison['first'];
    let maxAbsError = 0;
    const n = Math.min(arg.count, g.length, w.length);
    for (let i = 0; i < n; i++) {
      const gv = value(g, i, f16);
      const wv = value(w, i, f16);
      let bad: boolean;
      if (typeof gv === 'bigint' || typeof wv === 'bigint') bad = gv !== wv;
      else if (exact) bad = !Object.is(gv, wv) && gv !== wv;
      else {
        const err = Math.abs(gv - wv);
        if (Number.isFinite(err)) maxAbsError = Math.max(maxAbsError, err);
        bad = !(err <= spec.tolerance.abs + spec.tolerance.rel * Math.abs(wv));
      }
      if (bad) {
        mismatches++;
        first ??= { index: i, got: gv, want: wv };
      }
    }
    mismatches += Math.abs(g.length - w.length);
    results.push({ name: arg.name, count: arg.count, mismatches, maxAbsError, ...(first !== undefined ? { first } : {}) });
  }
  return results;
}
