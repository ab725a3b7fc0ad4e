// The commander program: options and commands only, no analysis logic.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { InputError } from '../input.js';
import { EXIT_INPUT, EXIT_OK, processIO, type CliIO } from './io.js';
import { registerParse } from './parse-command.js';
import { registerAnalyze } from './analyze-command.js';
import { registerChecks } from './checks-command.js';
import { registerRun } from './run-command.js';
import { registerEmit } from './emit-command.js';
import { registerGenFkr } from './gen-fkr-command.js';
import { registerInstrument } from './instrument-command.js';

/** The package version: package.json two levels up from dist/cli (or one up from a bundle). */
function packageVersion(): string {
  for (const rel of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'ptx-debug' && pkg.version !== undefined) return pkg.version;
    } catch {
      // try the next place
    }
  }
  return 'unknown';
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  let exitCode = EXIT_OK;
  const setExit = (code: number): void => { exitCode = Math.max(exitCode, code); };
  const program = new Command();
  program
    .name('ptx-debug')
    .description('PTX static analyzer and falsification scorer')
    .version(packageVersion(), '-V, --version')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(s),
      // Commander's own errors become one line; usage is not repeated.
      writeErr: (s) => { if (!s.startsWith('Usage')) io.err(s); },
      outputError: (s, write) => write(s.replace(/\n+$/, '')),
    })
    .showSuggestionAfterError(true);
  // `analyze k.cu -- -O3 -DN=4`: what follows `--` is for nvcc, not for us.
  const dash = argv.indexOf('--');
  const nvccFlags = dash === -1 ? [] : argv.slice(dash + 1);
  const ours = dash === -1 ? argv : argv.slice(0, dash);
  registerAnalyze(program, io, setExit, packageVersion(), nvccFlags);
  registerChecks(program, io, setExit);
  registerParse(program, io, setExit);
  registerRun(program, io, setExit);
  registerEmit(program, io, setExit);
  registerGenFkr(program, io, setExit);
  registerInstrument(program, io, setExit);
  try {
    if (ours.length <= 2) {
      io.out(program.helpInformation());
      return EXIT_OK;
    }
    await program.parseAsync([...ours]);
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help'
        ? EXIT_OK : EXIT_INPUT;
    }
    if (err instanceof InputError) {
      io.err(`ptx-debug: ${err.message}`);
      return EXIT_INPUT;
    }
    io.err(`ptx-debug: internal error: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_INPUT;
  }
}
