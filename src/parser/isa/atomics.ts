// Which operation/type combinations `atom` and `red` accept, and from which
// target: the ISA manual's tables (9.7.13.5, 9.7.13.6), checked against
// ptxas 13.0 on sm_75, sm_80, sm_86 and sm_90 (CUDA 13 has no older target).

/** How one type may be used with one operation. */
export interface AtomicTypeRule {
  /** The lowest SM number that has it. */
  readonly sm: number;
  /** `.noftz` must be given (the half-precision types); it is illegal elsewhere. */
  readonly noftz?: boolean;
  /** Scalar form allowed (min/max of half types exist only as vectors). */
  readonly scalar: boolean;
  /** The vector widths allowed (`.v2`...), `.global` only, sm_90+. */
  readonly vectors: readonly string[];
}

const r = (sm: number, scalar: boolean, vectors: readonly string[] = [], noftz = false): AtomicTypeRule =>
  noftz ? { sm, scalar, vectors, noftz } : { sm, scalar, vectors };

const BITWISE = { '.b32': r(0, true), '.b64': r(0, true) };
const MINMAX = {
  '.u32': r(0, true), '.s32': r(0, true), '.u64': r(0, true), '.s64': r(0, true),
  '.f16': r(90, false, ['.v2', '.v4', '.v8'], true), '.bf16': r(90, false, ['.v2', '.v4', '.v8'], true),
  '.f16x2': r(90, false, ['.v2', '.v4'], true), '.bf16x2': r(90, false, ['.v2', '.v4'], true),
};

/** Operation → type → rule. An absent pair is invalid. */
export const ATOMIC_TYPES: Readonly<Record<string, Readonly<Record<string, AtomicTypeRule>>>> = {
  '.and': BITWISE,
  '.or': BITWISE,
  '.xor': BITWISE,
  '.cas': { '.b16': r(70, true), '.b32': r(0, true), '.b64': r(0, true), '.b128': r(90, true) },
  '.exch': { '.b32': r(0, true), '.b64': r(0, true), '.b128': r(90, true) },
  '.add': {
    '.u32': r(0, true), '.s32': r(0, true), '.u64': r(0, true),
    '.f32': r(20, true, ['.v2', '.v4']), '.f64': r(60, true),
    '.f16': r(70, true, ['.v2', '.v4', '.v8'], true), '.f16x2': r(60, true, ['.v2', '.v4'], true),
    '.bf16': r(90, true, ['.v2', '.v4', '.v8'], true), '.bf16x2': r(90, true, ['.v2', '.v4'], true),
  },
  '.inc': { '.u32': r(0, true) },
  '.dec': { '.u32': r(0, true) },
  '.min': MINMAX,
  '.max': MINMAX,
};

/** Operations `red` does not have. */
export const ATOM_ONLY_OPERATIONS: ReadonlySet<string> = new Set(['.cas', '.exch']);

/** Vector atomics (PTX 8.1): sm_90 and `.global` only. */
export const VECTOR_ATOMICS_SM = 90;
