// Numeric helpers shared by the CPU references and the input generators:
// IEEE half conversions, f32 rounding, and a small seeded generator.

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Rounds a number to the nearest f32. */
export const toF32 = Math.fround;

/** The f32 value of IEEE binary16 bits. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac === 0 ? sign * Infinity : NaN;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** IEEE binary16 bits of a number, round to nearest even (as `cvt.rn.f16.f32`). */
export function floatToHalf(x: number): number {
  f32[0] = x;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exp = (bits >>> 23) & 0xff;
  let mant = bits & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant !== 0 ? 0x200 : 0);
  let e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let r = mant >> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && (r & 1) === 1)) r++;
    return sign | r;
  }
  let r = mant >> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (r & 1) === 1)) {
    r++;
    if (r === 0x400) {
      r = 0;
      e++;
      if (e >= 31) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | r;
}

/** A deterministic 32-bit generator (mulberry32). */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 2 ** 32;
  }
  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Uniform f32 in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return toF32(lo + (hi - lo) * this.next());
  }
}

/** Seed of the `index`th buffer of a spec: distinct streams from one seed. */
export function bufferSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

/** ceil(a / b) for positive integers. */
export function ceilDiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}
