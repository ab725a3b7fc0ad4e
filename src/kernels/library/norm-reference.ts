// CPU references for the row-wise kernels (softmax, layernorm, rmsnorm), in f64.
import type { Sizes } from '../kernel.js';
import { size } from './common.js';

export const ROW_SIZES = [
  { name: 'rows', description: 'rows', default: 4096, min: 1 },
  { name: 'cols', description: 'elements per row', default: 1024, min: 1 },
] as const;

export function softmaxReference(sizes: Sizes, x: Float32Array): Float32Array {
  const rows = size(sizes, 'rows');
  const cols = size(sizes, 'cols');
  const y = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let m = -Infinity;
    for (let c = 0; c < cols; c++) m = Math.max(m, x[r * cols + c]!);
    let s = 0;
    for (let c = 0; c < cols; c++) s += Math.exp(x[r * cols + c]! - m);
    for (let c = 0; c < cols; c++) y[r * cols + c] = Math.exp(x[r * cols + c]! - m) / s;
  }
  return y;
}

export function layernormReference(sizes: Sizes, x: Float32Array, gamma: Float32Array, beta: Float32Array, eps: number): Float32Array {
  const rows = size(sizes, 'rows');
  const cols = size(sizes, 'cols');
  const y = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let mean = 0;
    for (let c = 0; c < cols; c++) mean += x[r * cols + c]!;
    mean /= cols;
    let v = 0;
    for (let c = 0; c < cols; c++) v += (x[r * cols + c]! - mean) ** 2;
    const rstd = 1 / Math.sqrt(v / cols + eps);
    for (let c = 0; c < cols; c++) y[r * cols + c] = (x[r * cols + c]! - mean) * rstd * gamma[c]! + beta[c]!;
  }
  return y;
}

export function rmsnormReference(rows: number, cols: number, x: Float32Array, gamma: Float32Array, eps: number): Float32Array {
  const y = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let c = 0; c < cols; c++) ss += x[r * cols + c]! ** 2;
    const inv = 1 / Math.sqrt(ss / cols + eps);
    for (let c = 0; c < cols; c++) y[r * cols + c] = x[r * cols + c]! * inv * gamma[c]!;
  }
  return y;
}
