// `ptx-debug analyze`: options to AnalyzeOptions, the run, the chosen format.
import { writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { availableParallelism } from 'node:os';
import { loadBaseline, writeBaseline } from '../baseline.js';
import { confirmFindings } from '../gpu/confirm.js';
import { Option, type Command } from 'commander';
import { analyzeFiles, sourceLineReader, type AnalyzeOptions } from '../analyze.js';
import { DEFAULT_PART_THREADS } from '../checks/parallel.js';
import { CATALOG_BY_ID } from '../checks/catalog.js';
import { findConfig, loadConfig, type Config } from '../config.js';
import { InputError } from '../input.js';
import { mark } from '../timeline.js';
import { formatHtml } from '../report/html.js';
import { formatJson } from '../report/json.js';
import { formatJunit } from '../report/junit.js';
import { formatSarif } from '../report/sarif.js';
import { formatText } from '../report/text.js';
import { formatTsv } from '../report/tsv.js';
import type { CliIO } from './io.js';

interface AnalyzeFlags {
  falsify?: boolean;
  minScore?: string;
  profile?: 'default' | 'seeds';
  format: 'text' | 'json' | 'sarif' | 'html' | 'junit' | 'tsv';
  output?: string;
  json?: string;
  sarif?: string;
  html?: string;
  junit?: string;
  only?: string;
  disable?: string;
  kernel?: string;
  block?: string;
  config?: string;
  color: boolean;
  quiet?: boolean;
  jobs?: string;
  timeout?: string;
  confirm?: boolean;
  launch?: string;
  arch?: string;
  baseline?: string;
  writeBaseline?: string;
  ptxas?: boolean;
}

function parseIds(flag: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = value.split(',').map((s) => s.trim().toUpperCase()).filter((s) => s.length > 0);
  for (const id of ids) if (!CATALOG_BY_ID.has(id)) throw new InputError(`${flag}: unknown check id '${id}' (F001..F100)`);
  return ids;
}

function parseBlock(value: string): [number, number, number] {
  const parts = value.split(',').map((s) => Number(s.trim()));
  if (parts.length < 1 || parts.length > 3 || parts.some((n) => !Number.isInteger(n) || n < 1 || n > 1024)) {
    throw new InputError(`--block: expected X[,Y[,Z]] with positive integers, got '${value}'`);
  }
  return [parts[0]!, parts[1] ?? 1, parts[2] ?? 1];
}

function parseMinScore(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new InputError(`--min-score: expected a number from 0 to 100, got '${value}'`);
  return n;
}

function parseJobs(value: string | undefined): number {
  if (value === undefined) return Math.max(1, availableParallelism());
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InputError(`--jobs: expected a number of threads from 1 to 256, got '${value}'`);
  return n;
}

function parseTimeout(value: string): number {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) throw new InputError(`--timeout: expected seconds, got '${value}'`);
  return n;
}

export function toOptions(flags: AnalyzeFlags, config: Config): AnalyzeOptions {
  const minScore = flags.minScore !== undefined ? parseMinScore(flags.minScore) : config.minScore;
  const block = flags.block !== undefined ? parseBlock(flags.block) : config.block;
  const only = parseIds('--only', flags.only);
  const disable = parseIds('--disable', flags.disable);
  const profile = flags.profile ?? config.profile;
  return {
    ...(minScore !== undefined ? { minScore } : {}),
    ...(block !== undefined ? { block } : {}),
    ...(only !== undefined ? { only } : {}),
    ...(disable !== undefined ? { disable } : {}),
    ...(profile !== undefined ? { profile } : {}),
    ...(config.checks !== undefined ? { overrides: config.checks } : {}),
    ...(config.ignore !== undefined ? { ignore: config.ignore } : {}),
    ...(flags.kernel !== undefined ? { kernel: flags.kernel } : {}),
    ...((flags.arch ?? config.arch) !== undefined ? { arch: (flags.arch ?? config.arch)! } : {}),
    ...(flags.ptxas === true ? { ptxas: true } : {}),
  };
}

/**
 * One file is analyzed in this process when its estimated need is under half this process's heap limit
 * (no analysis process to start, no report to copy back); not when the environment configures the analysis
 * processes (PTX_DEBUG_MEMORY_MB, PTX_DEBUG_V8_FLAGS): those then apply as they say.
 */
function inProcessLimit(): { inProcessBelowMb?: number } {
  if (process.env['PTX_DEBUG_MEMORY_MB'] !== undefined || process.env['PTX_DEBUG_V8_FLAGS'] !== undefined) return {};
  return { inProcessBelowMb: Math.floor(getHeapStatistics().heap_size_limit / 2 ** 21) };
}

/** `analyze ... -- FLAGS`: main() splits these off before commander parses, for nvcc. */
export function registerAnalyze(program: Command, io: CliIO, setExit: (code: number) => void, version: string, afterDashDash: readonly string[] = []): void {
  program
    .command('analyze')
    .description('run the falsification checks on PTX files or directories, score them, and exit with the CI gate code')
    .argument('<inputs...>', 'PTX or CUDA files, directories (walked for *.ptx and *.cu), or - for standard input; after --, flags for nvcc')
    .option('--falsify', 'print the whole scorecard: every hypothesis with pass, fail or n/a and why')
    .option('--min-score <n>', 'exit 2 below this score (default 70; a CI gate uses 90)')
    .addOption(new Option('--profile <name>', 'severity profile').choices(['default', 'seeds']))
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json', 'sarif', 'html', 'junit', 'tsv']).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of standard output')
    .option('--json <file>', 'also write the JSON report to a file')
    .option('--sarif <file>', 'also write the SARIF 2.1.0 report to a file')
    .option('--html <file>', 'also write the HTML report to a file')
    .option('--junit <file>', 'also write the JUnit XML report to a file')
    .option('--only <ids>', 'run only these checks (comma-separated ids)')
    .option('--disable <ids>', 'turn these checks off (comma-separated ids)')
    .option('--kernel <name>', 'report only this kernel')
    .option('--block <x,y,z>', 'block size for kernels without .reqntid/.maxntid')
    .option('--config <file>', `config file (default: the nearest ${'ptx-debug.config.json'} upward)`)
    .option('--jobs <n>', `parallel jobs: files in child processes, or the parts of one large module in worker threads (default: the number of cores; at most ${DEFAULT_PART_THREADS} for one module)`)
    .option('--timeout <seconds>', 'report a file that takes longer as not analyzed')
    .option('--confirm', 'try each finding that has a runtime witness on the GPU (needs --launch)')
    .option('--launch <spec>', 'launch spec for --confirm (JSON; an `emit` spec brings a CPU reference)')
    .option('--arch <sm_XX>', 'target for CUDA sources (nvcc -arch)')
    .option('--ptxas', 'run ptxas -v on each module for registers, spills and shared memory (F091, F092); off by default')
    .option('--baseline <file>', 'known findings: reported as known, left out of the score and the exit code')
    .option('--write-baseline <file>', 'record the current findings as the baseline')
    .option('--no-color', 'no colour, even on a terminal')
    .option('--quiet', 'print only scores and exit reasons')
    .action(async (inputs: string[], flags: AnalyzeFlags) => {
      const nvccFlags = afterDashDash;
      const configPath = flags.config ?? findConfig();
      const config = configPath === undefined ? {} : loadConfig(configPath);
      const options = toOptions(flags, config);
      const knownFindings = flags.baseline !== undefined ? loadBaseline(flags.baseline) : undefined;
      if (flags.confirm === true && flags.launch === undefined) throw new InputError('--confirm needs --launch SPEC');
      mark('command');
      const analyzed = await analyzeFiles(inputs, {
        ...options,
        jobs: parseJobs(flags.jobs),
        // One module's parts: DEFAULT_PART_THREADS at most (docs/performance.md).
        ...(flags.jobs === undefined ? { partJobs: Math.min(DEFAULT_PART_THREADS, parseJobs(undefined)) } : {}),
        isolate: true, compactHeap: true, ...inProcessLimit(),
        ...(process.env['PTX_DEBUG_MEMORY_MB'] !== undefined ? { memoryLimitMb: Number(process.env['PTX_DEBUG_MEMORY_MB']) } : {}),
        ...(flags.timeout !== undefined ? { timeoutSeconds: parseTimeout(flags.timeout) } : {}),
        ...(nvccFlags.length > 0 ? { nvccFlags } : {}),
        ...(knownFindings !== undefined ? { knownFindings } : {}),
        ...(io.progress !== undefined ? { onFile: io.progress } : {}),
      });
      mark('results received');
      // Confirmation adds evidence; the exit code stays the static result's.
      const result = flags.confirm === true
        ? { ...analyzed, files: await confirmFindings(analyzed.files, flags.launch!, io.progress !== undefined ? { onStep: (w) => io.err(`confirm: ${w}`) } : {}) }
        : analyzed;
      if (flags.writeBaseline !== undefined) writeBaseline(flags.writeBaseline, result);
      const color = flags.color && process.env['NO_COLOR'] === undefined && flags.output === undefined && io.isProcess === true && process.stdout.isTTY === true;
      const htmlOptions = { version, ...(options.minScore !== undefined ? { minScore: options.minScore } : {}) };
      const report = flags.format === 'json' ? formatJson(result, version)
        : flags.format === 'sarif' ? formatSarif(result, { version })
          : flags.format === 'html' ? await formatHtml(result, htmlOptions)
            : flags.format === 'junit' ? formatJunit(result)
              : flags.format === 'tsv' ? formatTsv(result)
                : formatText(result, { source: sourceLineReader(), falsify: flags.falsify === true, color, quiet: flags.quiet === true, ...(options.minScore !== undefined ? { minScore: options.minScore } : {}) });
      mark('report formatted');
      if (flags.output !== undefined) writeFileSync(flags.output, `${report}\n`);
      else io.out(report);
      mark('report written');
      if (flags.json !== undefined) writeFileSync(flags.json, `${formatJson(result, version)}\n`);
      if (flags.sarif !== undefined) writeFileSync(flags.sarif, `${formatSarif(result, { version })}\n`);
      if (flags.html !== undefined) writeFileSync(flags.html, `${await formatHtml(result, htmlOptions)}\n`);
      if (flags.junit !== undefined) writeFileSync(flags.junit, `${formatJunit(result)}\n`);
      setExit(result.summary.exitCode);
    });
}
