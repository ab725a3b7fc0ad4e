// The launch spec: which kernel to run, how, and on what data. JSON validated
// with zod (exported by the package); the runner consumes it through plan.ts.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../input.js';

const dim3 = z.union([
  z.number().int().positive().transform((x): [number, number, number] => [x, 1, 1]),
  z.tuple([z.number().int().positive(), z.number().int().positive(), z.number().int().positive()]),
]);

const fill = z.union([
  z.literal('zeros'),
  z.literal('iota_u32'),
  z.literal('iota_f32'),
  z.object({ constant: z.number().int().min(0).max(0xffffffff) }),
  z.object({ random: z.enum(['u32', 'f32']), seed: z.number().int().min(0).default(1) }),
  z.object({ file: z.string() }),
]);

export const launchArgSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('buffer'),
    name: z.string(),
    bytes: z.number().int().positive(),
    fill: fill.default('zeros'),
    /** Write the buffer's contents after the run to `<outdir>/<name>.bin`. */
    capture: z.boolean().default(false),
  }),
  z.object({
    kind: z.literal('scalar'),
    name: z.string().optional(),
    type: z.enum(['u32', 's32', 'u64', 's64', 'f32', 'f64']),
    value: z.union([z.number(), z.string().regex(/^-?(0x[0-9a-fA-F]+|\d+(\.\d+)?)$/)]),
  }),
  z.object({
    /** The catalog's debug buffer: mapped, pinned host memory that survives a fault. */
    kind: z.literal('debug'),
    name: z.string().default('debug_buf'),
    words: z.number().int().positive(),
  }),
]);

export const launchSpecSchema = z.object({
  kernel: z.string(),
  grid: dim3.default([1, 1, 1]),
  block: dim3,
  sharedBytes: z.number().int().min(0).default(0),
  timeoutSeconds: z.number().positive().default(30),
  args: z.array(launchArgSchema),
}).strict();

export type LaunchSpec = z.infer<typeof launchSpecSchema>;
export type LaunchArg = z.infer<typeof launchArgSchema>;

export function parseLaunchSpec(value: unknown, where = 'launch spec'): LaunchSpec {
  const r = launchSpecSchema.safeParse(value);
  if (!r.success) throw new InputError(`${where}: ${r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ')}`);
  return r.data;
}

export function loadLaunchSpec(path: string): LaunchSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not valid JSON (${(err as Error).message})`}`);
  }
  return parseLaunchSpec(raw, path);
}
