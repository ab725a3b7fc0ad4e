// GGUF K-quant super-blocks (ggml's block_q4_K, block_q5_K, block_q6_K): byte
// layouts, dequantization on the CPU (as ggml's dequantize_row_q*_K) and a
// generator of valid random blocks. 256 weights per super-block.
//
//   q4_K, 144 bytes: d f16 @0, dmin f16 @2, scales[12] @4, qs[128] @16
//   q5_K, 176 bytes: d f16 @0, dmin f16 @2, scales[12] @4, qh[32] @16, qs[128] @48
//   q6_K, 210 bytes: ql[128] @0, qh[64] @128, scales[16] (int8) @192, d f16 @208
//
// (The seed spec lists q5_K with qs before qh; ggml, and so GGUF files, put qh first.)
import { floatToHalf, halfToFloat, type Rng } from '../numeric.js';

export const QK_K = 256;
export type QuantFormat = 'q4_k' | 'q5_k' | 'q6_k';
export const BLOCK_BYTES: Readonly<Record<QuantFormat, number>> = { q4_k: 144, q5_k: 176, q6_k: 210 };

/** ggml's get_scale_min_k4: the 6-bit scale and min of sub-block j (0..7) from the 12 packed bytes. */
export function scaleMinK4(j: number, s: Uint8Array, at: number): [number, number] {
  if (j < 4) return [s[at + j]! & 63, s[at + j + 4]! & 63];
  const sc = (s[at + j + 4]! & 0xf) | ((s[at + j - 4]! >> 6) << 4);
  const m = (s[at + j + 4]! >> 4) | ((s[at + j]! >> 6) << 4);
  return [sc, m];
}

/** The 256 weights of the super-block at byte `at`. */
export function dequantize(format: QuantFormat, w: Uint8Array, at: number): Float64Array {
  const y = new Float64Array(QK_K);
  if (format === 'q6_k') {
    const d = halfToFloat(w[at + 208]! | (w[at + 209]! << 8));
    for (let n = 0; n < 2; n++) {
      const ql = at + 64 * n;
      const qh = at + 128 + 32 * n;
      const sc = at + 192 + 8 * n;
      for (let l = 0; l < 32; l++) {
        const is = l >> 4;
        const q1 = ((w[ql + l]! & 0xf) | (((w[qh + l]! >> 0) & 3) << 4)) - 32;
        const q2 = ((w[ql + l + 32]! & 0xf) | (((w[qh + l]! >> 2) & 3) << 4)) - 32;
        const q3 = ((w[ql + l]! >> 4) | (((w[qh + l]! >> 4) & 3) << 4)) - 32;
        const q4 = ((w[ql + l + 32]! >> 4) | (((w[qh + l]! >> 6) & 3) << 4)) - 32;
        const s = (i: number): number => ((w[sc + is + i]! << 24) >> 24);
        y[128 * n + l] = d * s(0) * q1;
        y[128 * n + l + 32] = d * s(2) * q2;
        y[128 * n + l + 64] = d * s(4) * q3;
        y[128 * n + l + 96] = d * s(6) * q4;
      }
    }
    return y;
  }
  const d = halfToFloat(w[at]! | (w[at + 1]! << 8));
  const dmin = halfToFloat(w[at + 2]! | (w[at + 3]! << 8));
  const qs = at + (format === 'q4_k' ? 16 : 48);
  const qh = at + 16;
  for (let g = 0; g < 4; g++) {
    const [sc0, m0] = scaleMinK4(2 * g, w, at + 4);
    const [sc1, m1] = scaleMinK4(2 * g + 1, w, at + 4);
    for (let l = 0; l < 32; l++) {
      const byte = w[qs + 32 * g + l]!;
      let lo = byte & 0xf;
      let hi = byte >> 4;
      if (format === 'q5_k') {
        lo += (w[qh + l]! >> (2 * g)) & 1 ? 16 : 0;
        hi += (w[qh + l]! >> (2 * g + 1)) & 1 ? 16 : 0;
      }
      y[64 * g + l] = d * sc0 * lo - dmin * m0;
      y[64 * g + 32 + l] = d * sc1 * hi - dmin * m1;
    }
  }
  return y;
}

/** y[r] = Σ_k W[r][k]·x[k] for N rows of K/256 super-blocks each. */
export function quantGemv(format: QuantFormat, w: Uint8Array, x: Float32Array, N: number, K: number): Float32Array {
  const nb = K / QK_K;
  const y = new Float32Array(N);
  for (let r = 0; r < N; r++) {
    let acc = 0;
    for (let b = 0; b < nb; b++) {
      const v = dequantize(format, w, (r * nb + b) * BLOCK_BYTES[format]);
      for (let i = 0; i < QK_K; i++) acc += v[i]! * x[b * QK_K + i]!;
    }
    y[r] = acc;
  }
  return y;
}

/** `bytes` of random super-blocks whose f16 scales are small positive numbers (never NaN or infinity). */
export function generateQuantBlocks(format: QuantFormat, bytes: number, rng: Rng): Uint8Array {
  const size = BLOCK_BYTES[format];
  if (bytes % size !== 0) throw new Error(`${format}: ${bytes} bytes is not a whole number of ${size}-byte super-blocks`);
  const w = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) w[i] = rng.nextU32() & 0xff;
  const put = (at: number, v: number): void => {
    const h = floatToHalf(v);
    w[at] = h & 0xff;
    w[at + 1] = h >> 8;
  };
  for (let at = 0; at < bytes; at += size) {
    if (format === 'q6_k') {
      put(at + 208, rng.uniform(0.001, 0.01));
    } else {
      put(at, rng.uniform(0.002, 0.02));
      put(at + 2, rng.uniform(0.001, 0.01));
    }
  }
  return w;
}
