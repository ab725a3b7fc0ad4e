// A kernel skeleton for the address-space and loaded-value checks' tests
// (F021–F035, F081–F083, F090): module declarations on line 4, function-scope
// declarations on line 8, a global pointer in %rd2 and %tid.x in %r1, and
// body line i (0-based) on line BODY + i. Plus the real compiler output every
// one of these checks must pass.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/checks/types.js';
import { compiledCorpus } from '../helpers/corpus.js';
import { outcomeOf, type PassCase } from './harness.js';

export const REGS = '.reg .pred %p<8>; .reg .b16 %h<8>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<16>; .reg .f16 %hf<8>;';

/** The line of body line 0. */
export const BODY = 12;

export interface KernelOptions {
  readonly target?: string;
  readonly version?: string;
  /** Module-scope declarations (one line). */
  readonly module?: string;
  /** Function-scope declarations (one line). */
  readonly locals?: string;
  /** Text after the `.target` architecture (`, debug`). */
  readonly targetSuffix?: string;
}

export function kernel(body: readonly string[], opts: KernelOptions = {}): string {
  return [
    `.version ${opts.version ?? '8.0'}`,
    `.target ${opts.target ?? 'sm_90'}${opts.targetSuffix ?? ''}`,
    '.address_size 64',
    opts.module ?? '// no module declarations',
    '.visible .entry k(.param .u64 p, .param .u64 q, .param .u32 n)',
    '{',
    `\t${REGS}`,
    `\t${opts.locals ?? '// no local declarations'}`,
    '\tld.param.u64 %rd1, [p];',
    '\tcvta.to.global.u64 %rd2, %rd1;',
    '\tmov.u32 %r1, %tid.x;',
    ...body.map((l) => `\t${l}`),
    '\tret;',
    '}',
    '',
  ].join('\n');
}

/** Replaces line 4 (the module-declarations line) with a header comment, keeping every line number. */
export function withHeader(ptx: string, comment: string): string {
  const lines = ptx.split('\n');
  lines[3] = `// ${comment}`;
  return lines.join('\n');
}

export const REAL = (path: string): string => readFileSync(path, 'utf8');

/** Committed real output: nvcc (examples), llc (fixtures/corpus/llvm/ptx) and Triton. */
const COMMITTED = [
  'examples/block-reduce.ptx',
  'fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx',
  'fixtures/corpus/llvm/ptx/reduce_shared.sm_80.O0.ptx',
  'fixtures/corpus/llvm/ptx/globals_annotations.sm_80.ptx',
  'fixtures/corpus/llvm/ptx/recursion_local.sm_80.ptx',
  'fixtures/corpus/triton/histogram.ptx',
  'fixtures/corpus/triton/layer_norm.ptx',
  'fixtures/corpus/triton/matmul.ptx',
  'fixtures/corpus/triton/softmax_rows.ptx',
];

/** nvcc output of the CUDA corpus that exercises shared memory, for sm_90 (and the debug build of two). */
const NVCC = [
  'cuda/04-block-reduce-shared.cu@sm_90', 'cuda/05-tiled-gemm-shared.cu@sm_90', 'cuda/12-dynamic-shared.cu@sm_90',
  'cuda/22-histogram-shared-atomics.cu@sm_90', 'cuda/23-blelloch-scan.cu@sm_90', 'cuda/24-transpose-padded-tile.cu@sm_90',
  'cuda/32-cluster-mbarrier-sm90.cu@sm_90', 'cuda/16-textures.cu@sm_90', 'cuda/17-surfaces.cu@sm_90', 'cuda/18-half-bf16.cu@sm_90',
  'cuda/21-local-array-dynamic-index.cu@sm_90', 'cuda/20-constant-memory.cu@sm_90',
  'cuda-G/04-block-reduce-shared.cu@sm_90', 'cuda-G/05-tiled-gemm-shared.cu@sm_90',
];

/** Real compiler output as pass cases, less the named inputs (which really have a check's pattern). */
export async function realPasses(except: readonly string[] = []): Promise<PassCase[]> {
  const compiled = await compiledCorpus();
  const byName = new Map(compiled.inputs.map((i) => [i.name, i.text]));
  const out: PassCase[] = [];
  for (const path of COMMITTED) if (!except.includes(path)) out.push({ name: `real output: ${path}`, ptx: REAL(path) });
  for (const name of NVCC) {
    const text = byName.get(name);
    if (text !== undefined && !except.includes(name)) out.push({ name: `nvcc output: ${name}`, ptx: text });
  }
  for (const [name, text] of byName) {
    if (name.startsWith('llvm/') && name.endsWith('@sm_80') && !except.includes(name)) out.push({ name: `llc output: ${name}`, ptx: text });
  }
  return out;
}

/**
 * Real compiler output the check must not fail on (pass, or n/a where its
 * rule says so), less the named inputs that really have its pattern.
 */
export async function expectQuietOnRealOutput(check: Check, except: readonly string[] = []): Promise<void> {
  const cases = await realPasses(except);
  describe(`${check.meta.id} on real compiler output`, () => {
    it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const o = outcomeOf(check, c.ptx);
      expect(o.findings.map((f) => `${f.location.line}: ${f.message}`)).toEqual([]);
      expect(o.reason ?? '').not.toMatch(/^the check failed/);
    });
  });
}

/** The chain of the finding on `line`: `what@line` per step. */
export function chainAt(check: Check, ptx: string, line: number): string[] {
  const f = outcomeOf(check, ptx).findings.find((x) => x.location.line === line);
  return (f?.chain ?? []).map((s) => `${s.what}@${s.location.line}`);
}
