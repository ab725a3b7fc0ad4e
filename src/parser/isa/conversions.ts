// Which modifiers a `cvt` takes, per (destination, source) type pair: the
// rounding modes allowed and whether one is required, and whether `.sat`,
// `.ftz` and `.satfinite` apply. Measured with ptxas 13.0 (sm_90, PTX 8.0/8.1)
// over every pair of the base types; the PTX ISA manual states the same rules
// except where noted.
import { TYPES } from './type-rules.js';

/** Floating-point rounding modes (to the nearest representable value). */
export const FLOAT_ROUNDING: readonly string[] = ['.rn', '.rz', '.rm', '.rp'];
/** Integer rounding modes (to an integral value). */
export const INTEGER_ROUNDING: readonly string[] = ['.rni', '.rzi', '.rmi', '.rpi'];

export interface ConversionRule {
  /** The rounding modifiers allowed; empty when the conversion takes none. */
  readonly rounding: readonly string[];
  /** Whether one of them must be given. */
  readonly roundingRequired: boolean;
  /** Whether `.sat` is allowed; undefined when not judged. */
  readonly sat?: boolean;
  /** Whether `.ftz` is allowed; undefined when not judged. */
  readonly ftz?: boolean;
  /** `.satfinite` must be given (FP8 destinations). */
  readonly satfiniteRequired?: boolean;
  /** What kind of conversion it is, for messages ("float-to-integer"). */
  readonly kind: string;
}

const INT = new Set(['.u8', '.u16', '.u32', '.u64', '.s8', '.s16', '.s32', '.s64']);
const FLOAT = new Set(['.f16', '.bf16', '.f32', '.f64']);
const FP8X2 = new Set(['.e4m3x2', '.e5m2x2']);

const bits = (t: string): number => TYPES.get(t)?.bits ?? 0;
const signed = (t: string): boolean => t.startsWith('.s');

/** Whether every value of integer type `a` fits integer type `d` (then `.sat` has nothing to clamp and ptxas rejects it). */
function intContains(d: string, a: string): boolean {
  if (signed(d) === signed(a)) return bits(d) >= bits(a);
  return signed(d) && bits(d) > bits(a);
}

/**
 * The modifier rules of `cvt.dtype.atype`; undefined for pairs not judged
 * (FP4/FP6/UE8M0 and `.x4` packings, conversions ptxas has no form for).
 *
 * - integer → integer: no rounding; `.sat` only when the destination cannot
 *   hold every source value (`cvt.sat.s32.u32` yes, `cvt.sat.s64.s32` no).
 * - float → integer: an integer rounding (`.rni/.rzi/.rmi/.rpi`) is required.
 * - integer → float: a float rounding (`.rn/.rz/.rm/.rp`) is required.
 * - float → same float: no float rounding; an integer rounding may be given
 *   (round to an integral value).
 * - float → narrower float: a float rounding is required.
 * - float → wider float: no rounding, except that ptxas also takes an
 *   optional float rounding when `.bf16` is either side (`cvt.rn.f32.bf16`,
 *   `cvt.bf16.f16`), which the manual does not list.
 * - `.sat` is never allowed with `.bf16` on either side; `.ftz` only when
 *   `.f32` is the source or destination type.
 * - `.f16x2`/`.bf16x2` from two `.f32`: `.rn` or `.rz`; `.tf32` from `.f32`:
 *   `.rna`, `.rn` or `.rz`; `.e4m3x2`/`.e5m2x2` from `.f32` or `.f16x2`: `.rn`
 *   and `.satfinite`; `.f16x2` from `.e4m3x2`/`.e5m2x2`: `.rn`. None takes `.sat`.
 */
export function conversionRule(dtype: string, atype: string): ConversionRule | undefined {
  const satFloat = dtype !== '.bf16' && atype !== '.bf16';
  const ftz = dtype === '.f32' || atype === '.f32';
  if (INT.has(dtype) && INT.has(atype)) {
    return { kind: 'integer-to-integer', rounding: [], roundingRequired: false, sat: !intContains(dtype, atype), ftz: false };
  }
  if (INT.has(dtype) && FLOAT.has(atype)) {
    return { kind: 'float-to-integer', rounding: INTEGER_ROUNDING, roundingRequired: true, sat: satFloat, ftz };
  }
  if (FLOAT.has(dtype) && INT.has(atype)) {
    return { kind: 'integer-to-float', rounding: FLOAT_ROUNDING, roundingRequired: true, sat: satFloat, ftz };
  }
  if (FLOAT.has(dtype) && FLOAT.has(atype)) {
    if (dtype === atype) return { kind: 'float-to-same-float', rounding: INTEGER_ROUNDING, roundingRequired: false, sat: satFloat, ftz };
    if (bits(dtype) < bits(atype)) return { kind: 'narrowing float', rounding: FLOAT_ROUNDING, roundingRequired: true, sat: satFloat, ftz };
    const bf16 = dtype === '.bf16' || atype === '.bf16';
    return { kind: 'widening float', rounding: bf16 ? FLOAT_ROUNDING : [], roundingRequired: false, sat: satFloat, ftz };
  }
  if ((dtype === '.f16x2' || dtype === '.bf16x2') && atype === '.f32') {
    return { kind: 'packing float', rounding: ['.rn', '.rz'], roundingRequired: true, sat: false };
  }
  if (dtype === '.tf32' && atype === '.f32') {
    return { kind: 'float-to-tf32', rounding: ['.rna', '.rn', '.rz'], roundingRequired: true, sat: false };
  }
  if (FP8X2.has(dtype) && (atype === '.f32' || atype === '.f16x2')) {
    return { kind: 'float-to-fp8', rounding: ['.rn'], roundingRequired: true, sat: false, satfiniteRequired: true };
  }
  if (dtype === '.f16x2' && FP8X2.has(atype)) {
    return { kind: 'fp8-to-half', rounding: ['.rn'], roundingRequired: true, sat: false };
  }
  return undefined;
}
