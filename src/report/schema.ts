// The JSON report's schema (zod), versioned and exported from the package:
// tools that read `--format json` validate against it.
import { z } from 'zod';

export const JSON_SCHEMA_VERSION = 1;

const severity = z.enum(['critical', 'high', 'medium', 'low', 'info']);
const location = z.object({
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
  source: z.object({ file: z.string(), line: z.number().int(), column: z.number().int() }).optional(),
});

export const findingSchema = z.object({
  id: z.string().regex(/^F\d{3}$/),
  severity,
  message: z.string(),
  location,
  function: z.string().optional(),
  related: z.array(z.object({ location, message: z.string() })).optional(),
  chain: z.array(z.object({ location, what: z.string() })).optional(),
  suppressed: z.object({ by: z.enum(['config', 'comment', 'baseline']), reason: z.string().optional() }).optional(),
  fingerprint: z.string().optional(),
  confirmation: z.object({
    status: z.enum(['confirmed', 'not-reproduced', 'inconclusive', 'not-run']),
    tool: z.string().optional(),
    device: z.string().optional(),
    evidence: z.string(),
  }).optional(),
});

export const checkResultSchema = z.object({
  id: z.string(),
  name: z.string(),
  severity,
  points: z.number(),
  status: z.enum(['pass', 'fail', 'na', 'off', 'not-built']),
  reason: z.string().optional(),
  findings: z.number().int(),
});

export const fileSchema = z.object({
  file: z.string(),
  exitCode: z.number().int(),
  error: z.object({ message: z.string(), diagnostics: z.array(z.string()) }).optional(),
  score: z.number().optional(),
  band: z.enum(['pass', 'warn', 'block', 'critical']).optional(),
  scoreNote: z.string().optional(),
  findings: z.array(findingSchema),
  checks: z.array(checkResultSchema),
  kernels: z.array(z.object({
    name: z.string(),
    isEntry: z.boolean(),
    line: z.number().int(),
    failing: z.array(z.string()),
  })),
  timings: z.object({ parseMs: z.number(), checksMs: z.number() }),
});

export const reportSchema = z.object({
  schemaVersion: z.literal(JSON_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('ptx-debug'), version: z.string() }),
  files: z.array(fileSchema),
  summary: z.object({
    files: z.number().int(),
    analyzed: z.number().int(),
    lowestScore: z.number().optional(),
    meanScore: z.number().optional(),
    exitCode: z.number().int(),
  }),
  notBuilt: z.array(z.string()),
});

export type JsonReport = z.infer<typeof reportSchema>;
