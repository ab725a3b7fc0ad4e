// PTX builders for the control-flow, data-flow, known-pattern and
// instrumentation checks' tests (F061–F100): a kernel from its parameters and
// body, and the lines of a text marked with `//!`, so expected lines follow
// the text instead of being counted by hand.
import { readFileSync } from 'node:fs';

export const REGS = '.reg .pred %p<8>; .reg .b16 %h<8>; .reg .b32 %r<32>; .reg .b64 %rd<32>; .reg .f32 %f<32>; .reg .f64 %fd<8>;';

export interface KernelOptions {
  readonly target?: string;
  readonly version?: string;
  /** Extra module-scope text before the kernel. */
  readonly prelude?: string;
  /** Directives after the parameter list (`.reqntid 128`). */
  readonly directives?: string;
  readonly name?: string;
  /** `.func` instead of `.entry`. */
  readonly func?: boolean;
}

/** A module with one kernel: `params` inside the parentheses, `body` one statement per line. */
export function kernel(params: string, body: readonly string[], opts: KernelOptions = {}): string {
  return [
    `.version ${opts.version ?? '8.0'}`,
    `.target ${opts.target ?? 'sm_90'}`,
    '.address_size 64',
    ...(opts.prelude === undefined ? [] : [opts.prelude]),
    `.visible ${opts.func === true ? '.func' : '.entry'} ${opts.name ?? 'k'}(${params})${opts.directives === undefined ? '' : `\n${opts.directives}`}`,
    '{',
    `\t${REGS}`,
    ...body.map((l) => (/^[$\w]+:/.test(l) ? l : `\t${l}`)),
    '}',
    '',
  ].join('\n');
}

/** The 1-based lines of `text` that contain `//!`, in order. */
export function marked(text: string): number[] {
  return text.split('\n').flatMap((l, i) => (l.includes('//!') ? [i + 1] : []));
}

/** A failing case whose expected lines are the `//!` marks. */
export function failing(name: string, ptx: string): { name: string; ptx: string; lines: number[] } {
  return { name, ptx, lines: marked(ptx) };
}

/** Committed real compiler output. */
export const REAL = (path: string): string => readFileSync(path, 'utf8');

/** The grid-wide index `i = ctaid.x * ntid.x + tid.x` in %r1 (four lines). */
export const GLOBAL_INDEX = ['mov.u32 %r10, %ctaid.x;', 'mov.u32 %r11, %ntid.x;', 'mov.u32 %r12, %tid.x;', 'mad.lo.s32 %r1, %r10, %r11, %r12;'];

/** Pass cases from real compiler output: committed Triton, llc and nvcc-example PTX. */
export function committedReal(paths: readonly string[]): { name: string; ptx: string }[] {
  return paths.map((p) => ({ name: `real output: ${p}`, ptx: REAL(p) }));
}

/** Pass cases from nvcc output of corpus CUDA files (cached compilations; none when nvcc is missing). */
export async function nvccReal(files: readonly string[], arch = 'sm_90'): Promise<{ name: string; ptx: string }[]> {
  const { compileCuda, toolMissing, NVCC } = await import('../helpers/toolchain.js');
  if (toolMissing(NVCC) !== undefined) return [];
  return Promise.all(files.map(async (f) => ({ name: `nvcc ${arch}: ${f}`, ptx: await compileCuda(`fixtures/corpus/cuda/${f}`, arch) })));
}

export const TRITON = ['fixtures/corpus/triton/vector_add.ptx', 'fixtures/corpus/triton/softmax_rows.ptx', 'fixtures/corpus/triton/layer_norm.ptx', 'fixtures/corpus/triton/matmul.ptx', 'fixtures/corpus/triton/histogram.ptx'];
export const LLC = ['fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx', 'fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx', 'fixtures/corpus/llvm/ptx/vector_add.sm_80.O0.ptx', 'fixtures/corpus/llvm/ptx/switch_select_ints.sm_80.ptx'];
export const EXAMPLE = 'examples/block-reduce.ptx';
