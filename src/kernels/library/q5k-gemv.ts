// q5k_gemv: y = W·x with W in GGUF Q5_K super-blocks (Q4_K plus a fifth bit per weight in qh).
import { kquantGemv } from './kquant-gemv.js';
import { dot45 } from './q4k-gemv.js';

export const q5kGemv = kquantGemv('q5k_gemv', 'q5_k', (env) => {
  const { k, blk, lane } = env;
  // qh byte p+i holds the fifth bit of weight 64g + p + i at bit 2g (low nibble) and 2g+1 (high nibble).
  const qhw = k.ld('global', 'u32', k.add('u64', blk, k.mulWide('u32', k.and('b32', lane, 7), 4)), 16);
  const twoG = k.shl('b32', k.shr('u32', lane, 3), 1);
  return dot45(env, 48, (i, upper) => k.shl('b32', k.bfe(qhw, k.add('u32', twoG, 8 * i + (upper ? 1 : 0)), 1), 4));
}, [], 'Layout as ggml block_q5_K: d, dmin, scales[12], qh[32] at byte 16, qs[128] at byte 48. Lane l also reads qh word '
  + 'l%8 for the fifth bits.');
