// The CPU references on small inputs, checked against independent
// formulations: they are what GPU outputs will be judged by.
import { describe, expect, it } from 'vitest';
import { compareOutputs } from '../../src/kernels/compare.js';
import { generateInputs } from '../../src/kernels/inputs.js';
import { resolveSizes } from '../../src/kernels/library/common.js';
import { gemmReference } from '../../src/kernels/library/gemm-reference.js';
import { findKernel } from '../../src/kernels/library/index.js';
import { BLOCK_BYTES, dequantize, quantGemv, scaleMinK4 } from '../../src/kernels/library/kquant.js';
import {
  compressPage, compressPages, decompressBlock, generatePages, MATCH_SEARCH_LIMIT, OUT_STRIDE, PAGE,
} from '../../src/kernels/library/lz4.js';
import { floatToHalf, halfToFloat, Rng } from '../../src/kernels/numeric.js';

function kernel(name: string) {
  const k = findKernel(name);
  if (k === undefined) throw new Error(name);
  return k;
}

describe('numeric helpers', () => {
  it('round-trips halves and rounds to nearest even', () => {
    for (const x of [0, -0, 1, -2.5, 65504, 6.103515625e-5, 5.960464477539063e-8, 0.333251953125]) expect(halfToFloat(floatToHalf(x))).toBe(x);
    expect(floatToHalf(1 + 2 ** -11)).toBe(0x3c00); // tie: to even
    expect(floatToHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(floatToHalf(70000)).toBe(0x7c00);
    expect(Number.isNaN(halfToFloat(floatToHalf(NaN)))).toBe(true);
  });

  it('generates the same inputs from the same seed and different ones from another', () => {
    const spec = kernel('vector_add').launch({ n: 100 }, 5);
    expect(generateInputs(spec)['a']).toEqual(generateInputs(spec)['a']);
    expect(generateInputs(spec)['a']).not.toEqual(generateInputs(spec)['b']);
    expect(generateInputs({ ...spec, seed: 6 })['a']).not.toEqual(generateInputs(spec)['a']);
  });
});

describe('GEMM references', () => {
  it('match a plain triple loop', () => {
    const rng = new Rng(1);
    const [M, N, K] = [5, 7, 9];
    const A = Float32Array.from({ length: M * K }, () => rng.uniform(-1, 1));
    const B = Float32Array.from({ length: K * N }, () => rng.uniform(-1, 1));
    const C = gemmReference({ M, N, K }, (i) => A[i]!, (i) => B[i]!);
    for (let i = 0; i < M; i++) {
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let kk = 0; kk < K; kk++) s += A[i * K + kk]! * B[kk * N + j]!;
        expect(C[i * N + j]).toBeCloseTo(s, 5);
      }
    }
  });

  it('gemm_wmma_f16 reads its inputs as halves', () => {
    const k = kernel('gemm_wmma_f16');
    const sizes = { M: 2, N: 2, K: 2 };
    const A = Uint16Array.from([1, 2, 3, 4].map(floatToHalf));
    const B = Uint16Array.from([1, 0, 0, 1].map(floatToHalf));
    expect(Array.from(k.reference(sizes, { A, B })['C'] as Float32Array)).toEqual([1, 2, 3, 4]);
  });
});

describe('row-wise references', () => {
  it('softmax rows sum to 1 and keep order', () => {
    const k = kernel('softmax_warp');
    const sizes = resolveSizes(k.name, k.sizes, { rows: 3, cols: 50 });
    const spec = k.launch(sizes);
    const inputs = generateInputs(spec);
    const y = k.reference(sizes, inputs)['y'] as Float32Array;
    const x = inputs['x'] as Float32Array;
    for (let r = 0; r < 3; r++) {
      const row = y.subarray(r * 50, r * 50 + 50);
      expect(row.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
      expect(row[0]! > row[1]!).toBe(x[r * 50]! > x[r * 50 + 1]!);
    }
  });

  it('layernorm rows have mean beta-weighted 0 and unit variance with gamma 1, beta 0', () => {
    const k = kernel('layernorm');
    const cols = 64;
    const x = Float32Array.from({ length: cols }, (_, i) => Math.sin(i) * 3 + 2);
    const y = k.reference({ rows: 1, cols }, { x, gamma: new Float32Array(cols).fill(1), beta: new Float32Array(cols) })['y'] as Float32Array;
    const mean = y.reduce((a, b) => a + b, 0) / cols;
    expect(mean).toBeCloseTo(0, 5);
    expect(y.reduce((a, b) => a + b * b, 0) / cols).toBeCloseTo(1, 3);
  });

  it('rmsnorm and the persistent decoder agree, and the decoder\'s counter ends past the last token', () => {
    const x = Float32Array.from({ length: 3 * 8 }, (_, i) => i - 7);
    const gamma = new Float32Array(8).fill(2);
    const a = kernel('rmsnorm').reference({ rows: 3, cols: 8 }, { x, gamma })['y'];
    const b = kernel('persistent_decoder').reference({ num_tokens: 3, hidden: 8, blocks: 2 }, { input: x, gamma });
    expect(b['output']).toEqual(a);
    expect(Array.from(b['work_counter'] as Uint32Array)).toEqual([5]);
  });

  it('attention of a single key returns its value row', () => {
    const k = kernel('flash_attention');
    const D = 4;
    const Q = Float32Array.from([0.5, -1, 2, 0]);
    const K = Float32Array.from([1, 1, 1, 1]);
    const V = Float32Array.from([3, -2, 0.25, 7]);
    expect(Array.from(k.reference({ heads: 1, seq_len: 1, head_dim: D }, { Q, K, V })['O'] as Float32Array)).toEqual([3, -2, 0.25, 7]);
  });
});

describe('K-quant references', () => {
  it('unpack the 6-bit scales and mins as ggml does', () => {
    // Sub-blocks 0..3 in the low 6 bits of bytes 0..7; 4..7 split over bytes 8..11 and the top bits of 0..7.
    const s = Uint8Array.from([0xc1, 2, 3, 4, 0x45, 6, 7, 8, 0x9a, 0, 0, 0]);
    expect(scaleMinK4(0, s, 0)).toEqual([1, 5]);
    expect(scaleMinK4(4, s, 0)).toEqual([0xa | (3 << 4), 0x9 | (1 << 4)]);
  });

  it('dequantize a hand-made Q4_K block', () => {
    const w = new Uint8Array(BLOCK_BYTES.q4_k);
    w.set([0x00, 0x3c], 0); // d = 1
    w.set([0x00, 0x38], 2); // dmin = 0.5
    w[4] = 2; // scale of sub-block 0
    w[8] = 3; // min of sub-block 0
    w[16] = 0x57; // weight 0: nibble 7; weight 32: nibble 5 (sub-block 1: scale 0, min 0)
    const y = dequantize('q4_k', w, 0);
    expect(y[0]).toBe(1 * 2 * 7 - 0.5 * 3);
    expect(y[1]).toBe(-1.5);
    expect(y[32]).toBe(0);
  });

  it('dequantize a hand-made Q6_K block with its signed offset', () => {
    const w = new Uint8Array(BLOCK_BYTES.q6_k);
    w.set([0x00, 0x40], 208); // d = 2
    w[192] = 0xff; // scale of weights 0..15: -1
    w[0] = 0x0f; // low 4 bits of weight 0: 15
    w[128] = 0x03; // high 2 bits of weight 0: 3 -> q = 63 - 32 = 31
    const y = dequantize('q6_k', w, 0);
    expect(y[0]).toBe(2 * -1 * 31);
    expect(y[1]).toBe(2 * -1 * -32);
  });

  it('GEMV equals dequantize-then-dot for all three formats', () => {
    for (const name of ['q4k_gemv', 'q5k_gemv', 'q6k_gemv']) {
      const k = kernel(name);
      const sizes = resolveSizes(name, k.sizes, { N: 3, K: 512 });
      const spec = k.launch(sizes);
      const inputs = generateInputs(spec);
      const W = inputs['W'] as Uint8Array;
      const x = inputs['x'] as Float32Array;
      const format = name === 'q4k_gemv' ? 'q4_k' : name === 'q5k_gemv' ? 'q5_k' : 'q6_k';
      const y = quantGemv(format, W, x, 3, 512);
      for (let r = 0; r < 3; r++) {
        let s = 0;
        for (let b = 0; b < 2; b++) {
          const v = dequantize(format, W, (r * 2 + b) * BLOCK_BYTES[format]);
          for (let i = 0; i < 256; i++) s += v[i]! * x[b * 256 + i]!;
        }
        expect(y[r]).toBeCloseTo(s, 3);
        expect(Number.isFinite(y[r])).toBe(true);
      }
      expect(k.reference(sizes, inputs)['y']).toEqual(y);
    }
  });
});

describe('LZ4', () => {
  const pages = generatePages(10, new Rng(42));

  it('round-trips every kind of generated page', () => {
    for (let p = 0; p < 10; p++) {
      const block = compressPage(pages, p * PAGE);
      const r = decompressBlock(block, 0, block.length);
      expect(r.length).toBe(PAGE);
      expect(r.out).toEqual(pages.subarray(p * PAGE, (p + 1) * PAGE));
    }
  });

  it('compresses the compressible kinds and bounds the incompressible one', () => {
    const { lengths } = compressPages(pages);
    expect(lengths[2]).toBeLessThan(40); // zero page
    expect(lengths[0]).toBeLessThan(PAGE * 0.6); // text
    expect(lengths[1]).toBeGreaterThan(PAGE); // random bytes: literals plus length bytes
    expect(Math.max(...lengths)).toBeLessThanOrEqual(OUT_STRIDE);
  });

  it('follows the block format: last 5 bytes literal, no match starting in the last 12', () => {
    const zero = new Uint8Array(PAGE);
    const block = compressPage(zero, 0);
    // One sequence: 1 literal then a match to byte 4091, then 5 literals.
    expect(block[0]).toBe(0x1f);
    const r = decompressBlock(block, 0, block.length);
    expect(r.length).toBe(PAGE);
    expect(MATCH_SEARCH_LIMIT).toBe(PAGE - 12);
    const last = block[block.length - 6];
    expect(last).toBe(0x50); // final token: 5 literals, no match
  });

  it('decodes overlapping matches and fails malformed blocks', () => {
    // "ab" then a match of 8 at offset 2: "ababababab"
    const block = Uint8Array.from([0x24, 0x61, 0x62, 0x02, 0x00, 0x50, 1, 2, 3, 4, 5]);
    const r = decompressBlock(block, 0, block.length);
    expect(Array.from(r.out.subarray(0, 15))).toEqual([0x61, 0x62, 0x61, 0x62, 0x61, 0x62, 0x61, 0x62, 0x61, 0x62, 1, 2, 3, 4, 5]);
    expect(r.length).toBe(15);
    expect(decompressBlock(Uint8Array.from([0x14, 0x61, 0x05, 0x00]), 0, 4).length).toBeUndefined(); // offset before the start
    expect(decompressBlock(Uint8Array.from([0xf0, 0xff]), 0, 2).length).toBeUndefined(); // length runs off the end
    expect(decompressBlock(Uint8Array.from([0x30, 0x61]), 0, 2).length).toBeUndefined(); // literals past the end
  });

  it('lz4_compress and lz4_decompress references invert each other on generated inputs', () => {
    const c = kernel('lz4_compress');
    const d = kernel('lz4_decompress');
    const specC = c.launch({ pages: 6 });
    const inC = generateInputs(specC);
    const outC = c.reference({ pages: 6 }, inC);
    // The decompressor's own generated blocks decode to whole pages.
    const inD = generateInputs(d.launch({ pages: 6 }));
    expect(Array.from(d.reference({ pages: 6 }, inD)['out_lengths'] as Uint32Array)).toEqual(new Array(6).fill(PAGE));
    const outD = d.reference({ pages: 6 }, { blocks: outC['out']!, block_lengths: outC['lengths']! });
    expect(outD['out']).toEqual(inC['pages']);
    expect(Array.from(outD['out_lengths'] as Uint32Array)).toEqual(new Array(6).fill(PAGE));
  });
});

describe('compareOutputs', () => {
  it('applies the spec tolerance to approx buffers and exact equality to the rest', () => {
    const spec = kernel('lz4_decompress').launch({ pages: 1 });
    const want = { out: new Uint8Array(PAGE), out_lengths: Uint32Array.of(PAGE) };
    const got = { out: new Uint8Array(PAGE), out_lengths: Uint32Array.of(PAGE - 1) };
    got.out[9] = 1;
    const r = compareOutputs(spec, got, want);
    expect(r.map((x) => [x.name, x.mismatches, x.first?.index])).toEqual([['out', 1, 9], ['out_lengths', 1, 0]]);
    const g = kernel('gemm_naive').launch({ M: 1, N: 2, K: 1000 });
    const near = compareOutputs(g, { C: Float32Array.of(1 + 5e-5, 2.002) }, { C: Float32Array.of(1, 2) });
    expect(near[0]!.mismatches).toBe(1);
    expect(near[0]!.first?.index).toBe(1);
  });
});
