// q6k_gemv: y = W·x with W in GGUF Q6_K super-blocks (6-bit signed weights, int8 sub-block scales).
import type { F32 } from '../builder/index.js';
import { kquantGemv, loadHalf } from './kquant-gemv.js';

export const q6kGemv = kquantGemv('q6k_gemv', 'q6_k', ({ k, blk, lane, xs, defect }) => {
  const blkL = k.add('u64', blk, k.cvt('u64', 'u32', lane));
  const blkIs = k.add('u64', blk, k.cvt('u64', 'u32', k.shr('u32', lane, 4)));
  const acc = k.mov('f32', 0);
  for (let n = 0; n < 2; n++) {
    // Lane l: ql[64n + l], ql[64n + 32 + l], qh[32n + l] give weights 128n + l + 32t, t = 0..3.
    const a = k.ld('global', 'u8', blkL, 64 * n);
    const b = k.ld('global', 'u8', blkL, 64 * n + 32);
    const h = k.ld('global', 'u8', blkL, 128 + 32 * n);
    const parts = [[a, 0], [b, 0], [a, 4], [b, 4]] as const;
    for (let t = 0; t < 4; t++) {
      const [src, shift] = parts[t]!;
      const q6 = k.or('b32', k.bfe(src, shift, 4), k.shl('b32', k.bfe(h, 2 * t, 2), 4));
      const q = k.sub('s32', q6, 32);
      const sc = k.ld('global', 's8', blkIs, 192 + 8 * n + 2 * t);
      const x: F32 = xs.load(lane, 128 * n + 32 * t);
      k.fma('f32', k.cvt('f32', 's32', k.mulLo('s32', sc, q)), x, acc, acc);
    }
  }
  // Q6_K has one f16 scale, d, at byte 208 (and no dmin).
  return k.mul('f32', acc, loadHalf(k, blk, 208, defect));
}, [], 'Layout as ggml block_q6_K (210 bytes, so super-blocks are only 2-byte aligned): lane l reads bytes ql[64n+l], '
  + 'ql[64n+32+l] and qh[32n+l] (consecutive across the warp: one coalesced access each) and the int8 scales '
  + 'with ld.global.s8. Byte-wide loads are required by the alignment.',
{ F095: 'the quant bytes are loaded one byte per lane because 210-byte super-blocks are only 2-byte aligned; each load is one coalesced access across the warp' });

