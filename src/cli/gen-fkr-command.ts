// `ptx-debug gen-fkr`: the test file that freezes a PTX file's verdicts
// (vitest, or Rust with --lang rust), written to -o FILE or standard output.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Option, type Command } from 'commander';
import { findConfig, loadConfig } from '../config.js';
import { DEFAULT_IMPORT, generateFkr, type FkrLang } from '../fkr/generate.js';
import type { FkrAnalyzeOptions } from '../fkr/input.js';
import { InputError } from '../input.js';
import { toOptions } from './analyze-command.js';
import { EXIT_OK, type CliIO } from './io.js';

interface GenFkrFlags {
  output?: string;
  lang: FkrLang;
  import: string;
  gpu?: boolean;
  launch?: string;
  reference?: string;
  tolerance?: string;
  profile?: 'default' | 'seeds';
  only?: string;
  disable?: string;
  kernel?: string;
  block?: string;
  minScore?: string;
  config?: string;
}

function parseTolerance(value: string): { rel: number; abs: number } {
  const parts = value.split(',').map((s) => Number(s.trim()));
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new InputError(`--tolerance: expected REL,ABS (non-negative numbers), got '${value}'`);
  }
  return { rel: parts[0]!, abs: parts[1]! };
}

export function registerGenFkr(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('gen-fkr')
    .description('write a test file that freezes the verdict of every hypothesis on a PTX file (vitest, or Rust)')
    .argument('<file>', 'PTX file')
    .option('-o, --output <file>', 'write the test file here (the paths it names are relative to it); default: standard output')
    .addOption(new Option('--lang <lang>', 'test language').choices(['vitest', 'rust']).default('vitest'))
    .option('--import <module>', 'vitest: module the generated file imports the API from (a package name, or a path relative to the test file)', DEFAULT_IMPORT)
    .option('--gpu', 'also write runtime tests: run the kernel through the GPU runner and compare captured outputs with reference files')
    .option('--launch <spec>', 'with --gpu: the launch spec (as `run --launch` takes)')
    .option('--reference <dir>', 'with --gpu: reference outputs, <buffer>.bin each (default: <ptx name>.reference beside the test file)')
    .option('--tolerance <rel,abs>', 'with --gpu: compare captured buffers as f32 within abs + rel*|want| (default: byte for byte)')
    .addOption(new Option('--profile <name>', 'severity profile').choices(['default', 'seeds']))
    .option('--only <ids>', 'run only these checks (comma-separated ids)')
    .option('--disable <ids>', 'turn these checks off (comma-separated ids)')
    .option('--kernel <name>', 'only this kernel\'s findings')
    .option('--block <x,y,z>', 'block size for kernels without .reqntid/.maxntid')
    .option('--min-score <n>', 'the score below which the band is block (default 70)')
    .option('--config <file>', 'config file (default: the nearest ptx-debug.config.json upward)')
    .action((file: string, flags: GenFkrFlags) => {
      if (flags.gpu === true && flags.launch === undefined) throw new InputError('gen-fkr --gpu needs --launch SPEC');
      if (flags.gpu !== true && (flags.launch !== undefined || flags.reference !== undefined || flags.tolerance !== undefined)) {
        throw new InputError('--launch, --reference and --tolerance go with --gpu');
      }
      if (flags.lang === 'rust' && flags.import !== DEFAULT_IMPORT) throw new InputError('--import is for the vitest output');
      const configPath = flags.config ?? findConfig();
      const config = configPath === undefined ? {} : loadConfig(configPath);
      const o = toOptions({ ...flags, format: 'text', color: false }, config);
      const analyze: FkrAnalyzeOptions = {
        ...(o.profile !== undefined ? { profile: o.profile } : {}),
        ...(o.only !== undefined ? { only: o.only } : {}),
        ...(o.disable !== undefined ? { disable: o.disable } : {}),
        ...(o.block !== undefined ? { block: o.block } : {}),
        ...(o.kernel !== undefined ? { kernel: o.kernel } : {}),
        ...(o.minScore !== undefined ? { minScore: o.minScore } : {}),
        ...(o.overrides !== undefined ? { overrides: o.overrides } : {}),
      };
      const text = generateFkr({
        ptx: file,
        lang: flags.lang,
        importFrom: flags.import,
        analyze,
        ...(flags.output !== undefined ? { output: flags.output } : {}),
        ...(configPath !== undefined ? { config: configPath } : {}),
        ...(flags.gpu === true ? {
          gpu: {
            launch: flags.launch!,
            ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
            ...(flags.tolerance !== undefined ? { tolerance: parseTolerance(flags.tolerance) } : {}),
          },
        } : {}),
      });
      if (flags.output === undefined) io.out(text);
      else {
        mkdirSync(dirname(flags.output), { recursive: true });
        writeFileSync(flags.output, text);
        io.err(`wrote ${flags.output}`);
      }
      setExit(EXIT_OK);
    });
}
