// The launch spec: how to run one emitted kernel (grid, block, shared memory,
// ordered arguments with their buffers' sizes, contents and roles) and how to
// compare its outputs with the CPU reference. `emit` writes it beside the PTX;
// the GPU runner reads it. Validated with zod.
import { z } from 'zod';

/** Named input generators for buffers whose contents must follow a format (see inputs.ts). */
export const GENERATORS = ['q4_k', 'q5_k', 'q6_k', 'lz4-pages', 'lz4-blocks', 'lz4-block-lengths'] as const;
export type GeneratorName = (typeof GENERATORS)[number];

export const SCALAR_TYPES = ['u32', 's32', 'f32', 'u64'] as const;
export const BUFFER_TYPES = ['f32', 'f16', 'u8', 'u16', 'u32', 's32', 'u64'] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];
export type BufferType = (typeof BUFFER_TYPES)[number];

const dim3 = z.tuple([z.number().int().positive(), z.number().int().positive(), z.number().int().positive()]);

export const scalarArgSchema = z.object({
  kind: z.literal('scalar'),
  name: z.string().min(1),
  type: z.enum(SCALAR_TYPES),
  value: z.number(),
}).strict();

/**
 * How a buffer starts: `random` (floats uniform in [-1, 1), integers uniform
 * over their range, from the spec's seed), `zeros`, the bytes of a file, or a
 * named generator for formatted data (K-quant super-blocks, LZ4 pages and blocks).
 */
export const initSchema = z.union([
  z.literal('random'),
  z.literal('zeros'),
  z.object({ file: z.string().min(1) }).strict(),
  z.object({ generator: z.enum(GENERATORS) }).strict(),
]);

export const bufferArgSchema = z.object({
  kind: z.literal('buffer'),
  name: z.string().min(1),
  type: z.enum(BUFFER_TYPES),
  /** Number of elements of `type`. */
  count: z.number().int().nonnegative(),
  init: initSchema,
  role: z.enum(['input', 'output', 'inout']),
  /**
   * For outputs: whether the kernel writes every element (the runner may fill
   * the buffer with a sentinel to check). False where only a prefix is defined
   * (LZ4 output slots); the reference then gives zeros past it and `init` is zeros.
   */
  fullyWritten: z.boolean().optional(),
  /** For outputs: `exact` (integers, bytes) or `approx` (the spec's tolerance). */
  compare: z.enum(['exact', 'approx']).optional(),
}).strict();

export const toleranceSchema = z.object({
  /** |got − want| ≤ abs + rel·|want| for every element compared with `approx`. */
  rel: z.number().nonnegative(),
  abs: z.number().nonnegative(),
}).strict();

export const launchSpecSchema = z.object({
  version: z.literal(1),
  kernel: z.string().min(1),
  /** The PTX file, relative to the spec. */
  ptx: z.string().optional(),
  arch: z.string().optional(),
  /** The library sizes the spec was made for (M, N, K, ...). */
  sizes: z.record(z.string(), z.number()),
  grid: dim3,
  block: dim3,
  dynamicSharedBytes: z.number().int().nonnegative(),
  /** Kernel arguments in parameter order. */
  args: z.array(z.discriminatedUnion('kind', [scalarArgSchema, bufferArgSchema])).min(1),
  tolerance: toleranceSchema,
  /** Seed for `random` and generated buffers. */
  seed: z.number().int().nonnegative(),
}).strict();

export type ScalarArg = z.infer<typeof scalarArgSchema>;
export type BufferArg = z.infer<typeof bufferArgSchema>;
export type LaunchArg = ScalarArg | BufferArg;
export type Tolerance = z.infer<typeof toleranceSchema>;
export type LaunchSpec = z.infer<typeof launchSpecSchema>;
export type BufferInit = z.infer<typeof initSchema>;

/** Parses and validates a launch spec (JSON text or an object); throws with zod's message. */
export function parseLaunchSpec(input: unknown): LaunchSpec {
  const value = typeof input === 'string' ? JSON.parse(input) as unknown : input;
  return launchSpecSchema.parse(value);
}

/** Bytes per element of a buffer type. */
export function bufferElementBytes(t: BufferType): number {
  switch (t) {
    case 'u8': return 1;
    case 'f16': case 'u16': return 2;
    case 'u64': return 8;
    default: return 4;
  }
}
