// `ptx-debug parse <file> [--json]`: a summary of the module, or its AST.
import type { Command } from 'commander';
import { astToJson, cfgDot, formatErrors, InputError, parseFile, summarizeModule, type ModuleSummary } from '../api.js';
import { EXIT_INPUT, EXIT_OK, type CliIO } from './io.js';

function renderSummary(file: string, s: ModuleSummary): string {
  const lines = [
    `${file}: PTX ${s.version ?? '?'}, target ${s.targets.join(', ') || '?'}, address size ${s.addressSize ?? '?'}`,
    `  ${s.functions.length} function(s) (${s.functions.filter((f) => f.kind === 'entry').length} entry), ` +
      `${s.instructions} instruction(s), ${s.declarations} module-scope declaration(s)`,
  ];
  for (const f of s.functions) {
    const what = f.defined
      ? `${f.params} param(s), ${f.instructions} instruction(s), ${f.declarations} declaration(s), ${f.labels} label(s)`
      : `prototype, ${f.params} param(s)`;
    lines.push(`  .${f.kind} ${f.name} (line ${f.line}): ${what}`);
  }
  return lines.join('\n');
}

export function registerParse(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('parse')
    .description('parse a PTX file and print a summary, or the syntax tree with --json')
    .argument('<file>', 'PTX file, or - for standard input')
    .option('--json', 'print the syntax tree as JSON')
    .option('--cfg <format>', 'print each function\'s control-flow graph (format: dot)')
    .option('--function <name>', 'with --cfg, only this function')
    .action(async (file: string, opts: { json?: boolean; cfg?: string; function?: string }) => {
      if (opts.cfg !== undefined && opts.cfg !== 'dot') throw new InputError(`unknown --cfg format '${opts.cfg}' (supported: dot)`);
      const parsed = await parseFile(file);
      if (parsed.errors.length > 0) {
        for (const line of formatErrors(parsed)) io.err(line);
        io.err(`${parsed.file}: ${parsed.errors.length} error(s)`);
        setExit(EXIT_INPUT);
        return;
      }
      if (opts.cfg !== undefined) {
        io.out(cfgDot(parsed.module, opts.function).join('\n\n'));
        setExit(EXIT_OK);
        return;
      }
      io.out(opts.json === true ? astToJson({ file: parsed.file, module: parsed.module }) : renderSummary(parsed.file, summarizeModule(parsed.module)));
      setExit(EXIT_OK);
    });
}
