// Small constructors that keep the opcode tables terse. They only build data:
// every table entry is still a plain OpcodeSpec object.
import type {
  Availability,
  ModifierGroup,
  OperandKind,
  OperandSpec,
  PtxVersion,
} from '../types.js';

/** Availability shorthand: `v('7.8', 90)`. */
export function v(ptx: PtxVersion, sm?: number, targets?: readonly string[]): Availability {
  const a: { ptx: PtxVersion; sm?: number; targets?: readonly string[] } = { ptx };
  if (sm !== undefined) a.sm = sm;
  if (targets !== undefined) a.targets = targets;
  return a;
}

interface GroupOptions {
  readonly required?: boolean;
  readonly since?: Readonly<Record<string, Availability>>;
}

function group(
  name: string,
  kind: 'type' | 'modifier',
  values: readonly string[],
  opts: GroupOptions,
  defaultRequired: boolean,
): ModifierGroup {
  const g: {
    name: string;
    kind: 'type' | 'modifier';
    values: readonly string[];
    required?: boolean;
    since?: Readonly<Record<string, Availability>>;
  } = { name, kind, values };
  const required = opts.required ?? defaultRequired;
  if (required) g.required = true;
  if (opts.since !== undefined) g.since = opts.since;
  return g;
}

/** A type slot; required unless told otherwise. */
export function types(name: string, values: readonly string[], opts: GroupOptions = {}): ModifierGroup {
  return group(name, 'type', values, opts, true);
}

/** A plain modifier group; optional unless told otherwise. */
export function mods(name: string, values: readonly string[], opts: GroupOptions = {}): ModifierGroup {
  return group(name, 'modifier', values, opts, false);
}

interface OperandOptions {
  readonly optional?: boolean;
  readonly pairedWith?: string;
}

/** One operand position. */
export function op(
  name: string,
  kinds: readonly OperandKind[],
  type?: string,
  opts: OperandOptions = {},
): OperandSpec {
  const o: {
    name: string;
    kinds: readonly OperandKind[];
    type?: string;
    optional?: boolean;
    pairedWith?: string;
  } = { name, kinds };
  if (type !== undefined) o.type = type;
  if (opts.optional === true) o.optional = true;
  if (opts.pairedWith !== undefined) o.pairedWith = opts.pairedWith;
  return o;
}

// Operand-kind shorthands.
export const R: readonly OperandKind[] = ['reg'];
export const RI: readonly OperandKind[] = ['reg', 'imm'];
export const RIS: readonly OperandKind[] = ['reg', 'imm', 'sreg'];
export const P: readonly OperandKind[] = ['pred'];
export const PI: readonly OperandKind[] = ['pred', 'imm'];
export const A: readonly OperandKind[] = ['addr'];
export const V: readonly OperandKind[] = ['vec'];
export const RV: readonly OperandKind[] = ['reg', 'vec'];
export const I: readonly OperandKind[] = ['imm'];
export const RS: readonly OperandKind[] = ['reg', 'sink'];

/** `d = op a` / `d = a op b` / `d = a op b op c` with every operand of one type group. */
export function unary(type = 'type'): readonly OperandSpec[] {
  return [op('d', R, type), op('a', RI, type)];
}
export function binary(type = 'type'): readonly OperandSpec[] {
  return [op('d', R, type), op('a', RI, type), op('b', RI, type)];
}
export function ternary(type = 'type'): readonly OperandSpec[] {
  return [op('d', R, type), op('a', RI, type), op('b', RI, type), op('c', RI, type)];
}

// Common value sets.
export const U16_64 = ['.u16', '.u32', '.u64'] as const;
export const S16_64 = ['.s16', '.s32', '.s64'] as const;
export const B16_64 = ['.b16', '.b32', '.b64'] as const;
export const INT = [...U16_64, ...S16_64] as const;
export const BITS = ['.b8', '.b16', '.b32', '.b64', '.b128'] as const;
export const ALL_LDST_TYPES = [
  '.b8', '.b16', '.b32', '.b64', '.b128',
  '.u8', '.u16', '.u32', '.u64',
  '.s8', '.s16', '.s32', '.s64',
  '.f16', '.f16x2', '.f32', '.f64',
] as const;
export const RND = ['.rn', '.rz', '.rm', '.rp'] as const;
export const IRND = ['.rni', '.rzi', '.rmi', '.rpi'] as const;
export const SCOPES = ['.cta', '.cluster', '.gpu', '.sys'] as const;
export const SCOPE_SINCE = { '.cluster': v('7.8', 90) } as const;

// Arch-specific target sets, as ptxas 13 names them (CUDA 13 dropped sm_101*,
// renamed sm_110*). An `a` target accepts only itself; an `f` target accepts
// its family (sm_100f covers sm_100 and sm_103).
export const SM100_FAMILY = ['sm_100a', 'sm_100f', 'sm_103a', 'sm_103f'] as const;
export const SM110_FAMILY = ['sm_110a', 'sm_110f'] as const;
export const SM120_FAMILY = ['sm_120a', 'sm_120f', 'sm_121a', 'sm_121f'] as const;
/** Blackwell datacenter parts: tcgen05 and friends. */
export const SM100_SM110 = [...SM100_FAMILY, ...SM110_FAMILY] as const;
/** Every Blackwell arch-specific target. */
export const BLACKWELL_ARCH = [...SM100_FAMILY, ...SM110_FAMILY, ...SM120_FAMILY] as const;
/** Hopper and every Blackwell arch-specific target (setmaxnreg, tensormap.replace). */
export const HOPPER_BLACKWELL_ARCH = ['sm_90a', ...BLACKWELL_ARCH] as const;
