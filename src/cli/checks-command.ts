// `ptx-debug checks [ID]`: the catalog, or one check's docs and examples.
import type { Command } from 'commander';
import { CATALOG, CATALOG_BY_ID } from '../checks/catalog.js';
import { renderCheckDoc } from '../checks/docs.js';
import { CHECKS } from '../checks/index.js';
import { InputError } from '../input.js';
import { EXIT_OK, type CliIO } from './io.js';

export function registerChecks(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('checks')
    .description('list the catalog of checks, or show one check\'s documentation')
    .argument('[id]', 'a check id such as F036')
    .action((id: string | undefined) => {
      const built = new Map(CHECKS.map((c) => [c.meta.id as string, c]));
      if (id === undefined) {
        const lines = CATALOG.map((e) => `${e.id}  ${e.name.padEnd(34)} ${e.severity.padEnd(8)} ${String(e.points).padStart(2)} pt  ${built.has(e.id) ? 'built' : 'not built yet'}`);
        lines.push('', `${built.size} of ${CATALOG.length} checks built. \`ptx-debug checks ID\` shows one check.`);
        io.out(lines.join('\n'));
        setExit(EXIT_OK);
        return;
      }
      const key = id.toUpperCase();
      const check = built.get(key);
      if (check !== undefined) {
        io.out(renderCheckDoc(check.meta));
      } else {
        const entry = CATALOG_BY_ID.get(key);
        if (entry === undefined) throw new InputError(`unknown check '${id}' (F001..F100)`);
        io.out(`# ${entry.id} ${entry.name}\n\nCategory: ${entry.category} · severity: ${entry.severity} · points: ${entry.points}\n\nFails when ${entry.rule}\n\nNot built yet: this check is absent from runs and reports name it.`);
      }
      setExit(EXIT_OK);
    });
}
