// `ptx-debug emit`: PTX and launch specs from the bundled kernel library.
import type { Command } from 'commander';
import { InputError } from '../input.js';
import { EmitError, emitAll, emitKernel, listKernels, writeEmitted, type KernelListing } from '../kernels/emit.js';
import { EXIT_OK, type CliIO } from './io.js';

interface EmitFlags {
  arch?: string;
  ptxVersion?: string;
  param: string[];
  defect?: string;
  output?: string;
  list?: boolean;
  all?: boolean;
  json?: boolean;
  seed?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseParams(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(-?\d+)$/.exec(v.trim());
    if (m === null) throw new InputError(`--param: expected NAME=INTEGER, got '${v}'`);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

function renderList(list: readonly KernelListing[]): string {
  const lines: string[] = [];
  for (const k of list) {
    lines.push(`${k.name}: ${k.summary}`);
    lines.push(`  params:  ${k.params.map((p) => `${p.name}=${p.default}`).join(' ')}`);
    lines.push(`  defects: ${k.defects.length === 0 ? '-' : k.defects.map((d) => `${d.name} (${d.check}${d.ptxasAccepts ? '' : ', ptxas rejects'})`).join(', ')}`);
    lines.push(`  targets: ${k.archs.join(' ')}`);
  }
  return lines.join('\n');
}

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EmitError) throw new InputError(err.message);
    throw err;
  }
}

export function registerEmit(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('emit')
    .description('emit a kernel of the bundled library as PTX, with its launch spec')
    .argument('[kernel]', 'kernel name (see --list)')
    .option('--arch <sm_XX>', 'target: sm_75, sm_80, sm_90 or sm_90a (default sm_90)')
    .option('--ptx-version <X.Y>', 'the .version to write (default: the lowest the target accepts)')
    .option('--param <name=value>', 'a problem size for the launch spec (repeatable)', collect, [])
    .option('--defect <name>', 'emit the kernel with this known bug switched on')
    .option('-o, --output <path>', 'write the PTX here and the launch spec beside it (with --all: a directory)')
    .option('--seed <n>', 'seed recorded in the launch spec for random inputs')
    .option('--list', 'list the kernels, their parameters and defects')
    .option('--all', 'emit every clean kernel into the --output directory')
    .option('--json', 'with --list, print JSON')
    .action((kernel: string | undefined, opts: EmitFlags) => {
      const seed = opts.seed === undefined ? undefined : Number(opts.seed);
      if (seed !== undefined && (!Number.isInteger(seed) || seed < 0)) throw new InputError(`--seed: expected a non-negative integer, got '${opts.seed}'`);
      const common = {
        ...(opts.arch !== undefined ? { arch: opts.arch } : {}),
        ...(opts.ptxVersion !== undefined ? { version: opts.ptxVersion } : {}),
        ...(seed !== undefined ? { seed } : {}),
      };
      if (opts.list === true) {
        const list = listKernels();
        io.out(opts.json === true ? JSON.stringify(list, null, 2) : renderList(list));
        setExit(EXIT_OK);
        return;
      }
      if (opts.all === true) {
        if (kernel !== undefined) throw new InputError('emit --all takes no kernel name');
        if (opts.output === undefined) throw new InputError('emit --all needs -o DIR');
        if (opts.defect !== undefined || opts.param.length > 0) throw new InputError('emit --all emits clean kernels at default sizes: --defect and --param do not apply');
        const written = wrap(() => emitAll(opts.output!, common));
        io.err(`wrote ${written.length} kernels (PTX and launch spec each) to ${opts.output}`);
        setExit(EXIT_OK);
        return;
      }
      if (kernel === undefined) throw new InputError('emit: name a kernel, or use --list or --all -o DIR');
      const e = wrap(() => emitKernel(kernel, {
        ...common, sizes: parseParams(opts.param), ...(opts.defect !== undefined ? { defect: opts.defect } : {}),
      }));
      if (opts.output === undefined) io.out(e.ptx);
      else {
        const files = writeEmitted(e, opts.output);
        io.err(`wrote ${files.ptx} and ${files.spec}`);
      }
      setExit(EXIT_OK);
    });
}
