// ptx-debug.config.json: found upward from the working directory (or given
// with --config), validated with zod; errors name the file and the field.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { InputError } from './input.js';

export const CONFIG_FILE = 'ptx-debug.config.json';

const severityOrOff = z.enum(['critical', 'high', 'medium', 'low', 'info', 'off']);

export const configSchema = z.object({
  minScore: z.number().min(0).max(100).optional(),
  profile: z.enum(['default', 'seeds']).optional(),
  /** Per check: a severity override, or "off". */
  checks: z.record(z.string().regex(/^F\d{3}$/, 'a check id like F052'), severityOrOff).optional(),
  block: z.tuple([z.number().int().positive(), z.number().int().positive(), z.number().int().positive()]).optional(),
  arch: z.string().regex(/^sm_\d+[af]?$/, 'a target like sm_90').optional(),
  ptxas: z.boolean().optional(),
  /** Globs of files to skip when walking directories. */
  ignore: z.array(z.string()).optional(),
}).strict();

export type Config = z.infer<typeof configSchema>;

/** The nearest config file from `start` upward, if any. */
export function findConfig(start: string = process.cwd()): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const p = join(dir, CONFIG_FILE);
    if (existsSync(p)) return p;
    if (dirname(dir) === dir) return undefined;
  }
}

export function loadConfig(path: string): Config {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not valid JSON (${(err as Error).message})`;
    throw new InputError(`${path}: ${why}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new InputError(`${path}: ${issues.join('; ')}`);
  }
  return parsed.data;
}
