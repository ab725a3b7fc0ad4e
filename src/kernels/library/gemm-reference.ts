// CPU references for the GEMM kernels: C = A·B, row-major, accumulated in f64.
import type { Sizes } from '../kernel.js';
import { size } from './common.js';

/** C[M×N] = A[M×K] · B[K×N], row-major; `a(i)`/`b(i)` read elements as numbers. */
export function gemmReference(sizes: Sizes, a: (i: number) => number, b: (i: number) => number): Float32Array {
  const M = size(sizes, 'M');
  const N = size(sizes, 'N');
  const K = size(sizes, 'K');
  const c = new Float32Array(M * N);
  const row = new Float64Array(N);
  for (let i = 0; i < M; i++) {
    row.fill(0);
    for (let kk = 0; kk < K; kk++) {
      const av = a(i * K + kk);
      if (av === 0) continue;
      const off = kk * N;
      for (let j = 0; j < N; j++) row[j]! += av * b(off + j);
    }
    for (let j = 0; j < N; j++) c[i * N + j] = row[j]!;
  }
  return c;
}

/** Tolerance for an f32 GEMM with inner dimension K: rounding grows with K. */
export function gemmTolerance(K: number): { rel: number; abs: number } {
  return { rel: 1e-4, abs: 1e-6 * K + 1e-5 };
}

export const GEMM_SIZES = [
  { name: 'M', description: 'rows of A and C', default: 1024, min: 1 },
  { name: 'N', description: 'columns of B and C', default: 1024, min: 1 },
  { name: 'K', description: 'columns of A, rows of B', default: 1024, min: 1 },
] as const;
