// q4k_gemv: y = W·x with W in GGUF Q4_K super-blocks.
import type { F32, FunctionBuilder, Pred, U32 } from '../builder/index.js';
import type { DefectDef } from '../kernel.js';
import { kquantGemv, loadHalf, type DotEnv } from './kquant-gemv.js';

export const Q4K_DEFECTS: readonly DefectDef[] = [
  {
    /** GenericAddressCorruption: x is staged and read through a `cvta.shared` generic pointer; trips F021. */
    name: 'generic-shared',
    bugClass: 'GenericAddressCorruption (generic access to shared memory)',
    check: 'F021',
    description: 'the staged x values are stored and loaded with generic ld/st through a cvta.shared pointer instead '
      + 'of ld/st.shared with a 32-bit offset (correct on sm_90, but the pattern the LZ4 spec blamed for address 0x1)',
    ptxasAccepts: true,
  },
  {
    /** SharedMemU64Addressing: ld/st.shared take a 64-bit address register; trips F022. */
    name: 'u64-shared',
    bugClass: 'SharedMemU64Addressing',
    check: 'F022',
    description: 'the shared window address of x is kept in a 64-bit register and ld/st.shared use it (legal; a '
      + '32-bit offset is the idiom)',
    ptxasAccepts: true,
  },
  {
    /** Half loaded with an `.f16` memory type (the `ld.global.f16` bug); trips F090. */
    name: 'f16-load',
    bugClass: 'ld.global.f16 (half memory type)',
    check: 'F090',
    description: 'the super-block scales d and dmin are loaded with ld.global.f16, which the ISA does not define '
      + '(halves move as .b16): ptxas rejects the module',
    ptxasAccepts: false,
  },
  {
    /** Rounding modifier on a widening conversion (`cvt.rn.f32.f16`); trips F015. */
    name: 'widening-round',
    bugClass: 'invalid conversion rounding (widening cvt with .rn)',
    check: 'F015',
    description: 'the scales are widened with cvt.rn.f32.f16; a widening float conversion takes no rounding '
      + 'modifier: ptxas rejects the module',
    ptxasAccepts: false,
  },
];

/** The 6-bit scale and min of sub-blocks j = 2g (+1) from the 12 packed bytes (ggml's get_scale_min_k4), branch-free. */
export function scaleMin(k: FunctionBuilder, sw: readonly [U32, U32, U32], q: U32, high: Pred): { sc: F32; m: F32 } {
  const pos = k.shl('b32', q, 3);
  const b0 = k.bfe(sw[0], pos, 8);
  const b1 = k.bfe(sw[1], pos, 8);
  const b2 = k.bfe(sw[2], pos, 8);
  const scLo = k.and('b32', b0, 63);
  const mLo = k.and('b32', b1, 63);
  const scHi = k.or('b32', k.and('b32', b2, 15), k.shl('b32', k.shr('u32', b0, 6), 4));
  const mHi = k.or('b32', k.shr('u32', b2, 4), k.shl('b32', k.shr('u32', b1, 6), 4));
  return {
    sc: k.cvt('f32', 'u32', k.selp('u32', scHi, scLo, high)),
    m: k.cvt('f32', 'u32', k.selp('u32', mHi, mLo, high)),
  };
}

/**
 * The Q4_K/Q5_K lane step: lane l takes qs word l (bytes 4l..4l+3 = weights p..p+3 of group g = l/8, p = 4(l%8),
 * low nibbles, and the same positions + 32 from the high nibbles). `high5(i, upper)` adds Q5_K's fifth bit.
 */
export function dot45(env: DotEnv, qsOffset: number, high5?: (i: number, upper: boolean) => U32): F32 {
  const { k, blk, lane, xs, defect } = env;
  const d = loadHalf(k, blk, 0, defect);
  const dmin = loadHalf(k, blk, 2, defect);
  const sw = [k.ld('global', 'u32', blk, 4), k.ld('global', 'u32', blk, 8), k.ld('global', 'u32', blk, 12)] as const;
  const g = k.shr('u32', lane, 3);
  const high = k.setp('ge', 'u32', g, 2);
  const q0 = k.and('b32', k.shl('b32', g, 1), 3);
  const s0 = scaleMin(k, sw, q0, high);
  const s1 = scaleMin(k, sw, k.add('u32', q0, 1), high);
  const qw = k.ld('global', 'u32', k.add('u64', blk, k.mulWide('u32', lane, 4)), qsOffset);
  const xi = k.madLo('u32', g, 64, k.shl('b32', k.and('b32', lane, 7), 2));
  const xlo = xs.load4(xi, 0);
  const xhi = xs.load4(xi, 32);
  const sums = [k.mov('f32', 0), k.mov('f32', 0)];
  const xsum = [k.mov('f32', 0), k.mov('f32', 0)];
  for (let i = 0; i < 4; i++) {
    for (const upper of [false, true]) {
      let q = k.bfe(qw, 8 * i + (upper ? 4 : 0), 4);
      if (high5 !== undefined) q = k.add('u32', q, high5(i, upper));
      const xv = (upper ? xhi : xlo)[i]!;
      const h = upper ? 1 : 0;
      k.fma('f32', k.cvt('f32', 'u32', q), xv, sums[h]!, sums[h]!);
      k.add('f32', xsum[h]!, xv, xsum[h]!);
    }
  }
  // d·sc·Σq·x − dmin·m·Σx for the two sub-blocks.
  const part0 = k.sub('f32', k.mul('f32', k.mul('f32', d, s0.sc), sums[0]!), k.mul('f32', k.mul('f32', dmin, s0.m), xsum[0]!));
  const part1 = k.sub('f32', k.mul('f32', k.mul('f32', d, s1.sc), sums[1]!), k.mul('f32', k.mul('f32', dmin, s1.m), xsum[1]!));
  return k.add('f32', part0, part1);
}

export const q4kGemv = kquantGemv('q4k_gemv', 'q4_k', (env) => dot45(env, 16), Q4K_DEFECTS,
  'Lane l reads qs word l (the 128 quant bytes are one coalesced 128-byte access) and the matching x values as two '
  + '16-byte ld.shared.v4 (conflict-free per quarter warp); scale words are warp-uniform loads, unpacked with bfe.');
