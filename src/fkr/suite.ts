// The project's own FKR suite (dogfooding): every kernel of the bundled
// library, clean and with each defect switched on, emitted for the default
// target as PTX under test/fkr-suite/kernels/, and beside them the vitest
// file freezing each one's verdicts, importing the API from the repository's
// sources. `scripts/gen-fkr-suite.js` writes it; a test regenerates it in
// memory and fails where the committed files differ.
import { join } from 'node:path';
import { analyzeText } from '../analyze.js';
import { emitKernel } from '../kernels/emit.js';
import { KERNELS } from '../kernels/library/index.js';
import { generateFkr } from './generate.js';

/** Where the suite lives, relative to the repository root. */
export const SUITE_DIR = 'test/fkr-suite';
/** How its files name the command that rewrites them. */
export const SUITE_REGENERATE = 'npm run build && node scripts/gen-fkr-suite.js';

export interface SuiteFile {
  /** Relative to the repository root, `/`-separated. */
  readonly path: string;
  readonly content: string;
}

/** Every file of the suite, PTX and tests, in a stable order. */
export function fkrSuite(root: string): SuiteFile[] {
  const files: SuiteFile[] = [];
  for (const kernel of KERNELS) {
    for (const defect of [undefined, ...kernel.defects.map((d) => d.name)]) {
      const name = defect === undefined ? kernel.name : `${kernel.name}.${defect}`;
      const ptx = emitKernel(kernel.name, defect === undefined ? {} : { defect }).ptx;
      const ptxPath = `${SUITE_DIR}/kernels/${name}.ptx`;
      const testPath = `${SUITE_DIR}/${name}.fkr.test.ts`;
      const analysis = analyzeText(ptx, join(root, ptxPath));
      files.push({ path: ptxPath, content: ptx });
      files.push({
        path: testPath,
        content: generateFkr({
          ptx: ptxPath,
          output: testPath,
          base: root,
          importFrom: '../../src/api.js',
          analysis,
          regenerate: SUITE_REGENERATE,
          regenerateFrom: 'the repository root',
        }),
      });
    }
  }
  return files;
}
