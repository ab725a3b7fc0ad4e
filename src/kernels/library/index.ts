// The kernel library: every kernel `emit` knows, in the order `emit --list` shows them.
import type { KernelDef } from '../kernel.js';
import { flashAttention } from './flash-attention.js';
import { gemmNaive } from './gemm-naive.js';
import { gemmSwizzled } from './gemm-swizzled.js';
import { gemmTiled } from './gemm-tiled.js';
import { gemmTiledPadded } from './gemm-tiled-padded.js';
import { gemmWmmaF16 } from './gemm-wmma-f16.js';
import { layernorm } from './layernorm.js';
import { lz4Compress } from './lz4-compress.js';
import { lz4Decompress } from './lz4-decompress.js';
import { persistentDecoder } from './persistent-decoder.js';
import { q4kGemv } from './q4k-gemv.js';
import { q5kGemv } from './q5k-gemv.js';
import { q6kGemv } from './q6k-gemv.js';
import { relu } from './relu.js';
import { rmsnorm } from './rmsnorm.js';
import { softmaxShared } from './softmax-shared.js';
import { softmaxWarp } from './softmax-warp.js';
import { vectorAdd } from './vector-add.js';

export const KERNELS: readonly KernelDef[] = [
  vectorAdd,
  relu,
  gemmNaive,
  gemmTiled,
  gemmTiledPadded,
  gemmSwizzled,
  gemmWmmaF16,
  softmaxWarp,
  softmaxShared,
  layernorm,
  rmsnorm,
  flashAttention,
  q4kGemv,
  q5kGemv,
  q6kGemv,
  lz4Compress,
  lz4Decompress,
  persistentDecoder,
];

/** The kernel named `name`, or undefined. */
export function findKernel(name: string): KernelDef | undefined {
  return KERNELS.find((k) => k.name === name);
}
