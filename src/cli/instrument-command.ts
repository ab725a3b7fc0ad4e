// `ptx-debug instrument <file.ptx> -o OUT.ptx [--markers MAP.json] [--at blocks|loops|barriers]`:
// adds the catalog's debug-buffer protocol (debug_buf/debug_cap parameters and
// a marker write per site) to every kernel, and writes the marker map that
// `crash-analyze --markers` reads.
import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { formatErrors, parseFile } from '../api.js';
import { InputError } from '../input.js';
import { InstrumentError, instrumentModule, type InstrumentSites } from '../instrument/instrument.js';
import { EXIT_INPUT, EXIT_OK, type CliIO } from './io.js';

/** `out.ptx` → `out.markers.json` (the map's default place). */
export function markersPath(out: string): string {
  return out.endsWith('.ptx') ? `${out.slice(0, -4)}.markers.json` : `${out}.markers.json`;
}

export function registerInstrument(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('instrument')
    .description('add debug-buffer marker writes (the catalog\'s protocol) to every kernel, for crash-analyze')
    .argument('<file>', 'PTX file, or - for standard input')
    .requiredOption('-o, --output <file>', 'the instrumented PTX')
    .option('--markers <file>', 'the marker map (JSON); default: OUTPUT with .markers.json')
    .addOption(new Option('--at <sites>', 'where markers go').choices(['blocks', 'loops', 'barriers']).default('blocks'))
    .action(async (file: string, opts: { output: string; markers?: string; at: InstrumentSites }) => {
      const parsed = await parseFile(file);
      if (parsed.errors.length > 0) {
        for (const line of formatErrors(parsed)) io.err(line);
        io.err(`${parsed.file}: ${parsed.errors.length} error(s)`);
        setExit(EXIT_INPUT);
        return;
      }
      let result;
      try {
        result = instrumentModule(parsed.module, parsed.text, { at: opts.at, file: opts.output });
      } catch (err) {
        if (err instanceof InstrumentError) throw new InputError(`${parsed.file}: ${err.message}`);
        throw err;
      }
      const mapFile = opts.markers ?? markersPath(opts.output);
      try {
        writeFileSync(opts.output, result.text);
        writeFileSync(mapFile, `${JSON.stringify(result.map, null, 2)}\n`);
      } catch (err) {
        throw new InputError(`cannot write the output: ${(err as Error).message}`);
      }
      io.out(`${parsed.file}: ${result.map.markers.length} marker(s) at ${opts.at} in ${result.kernels.length} kernel(s) → ${opts.output} (map: ${mapFile})\n`
        + `  each kernel now takes two more parameters: .param .u64 debug_buf (u32 words, zeroed word 0), .param .u32 debug_cap (records)`);
      setExit(EXIT_OK);
    });
}
