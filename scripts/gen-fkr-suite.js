// Writes the project's FKR suite under test/fkr-suite/: every bundled kernel
// (clean, and with each defect) as PTX, and the vitest file freezing its
// verdicts (run after `npm run build`). test/fkr/suite.test.ts fails when the
// committed files differ from what this would write.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fkrSuite, SUITE_DIR } from '../dist/fkr/suite.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = fkrSuite(root);
const wanted = new Set(files.map((f) => f.path));
let removed = 0;
for (const dir of [SUITE_DIR, `${SUITE_DIR}/kernels`]) {
  let names = [];
  try {
    names = readdirSync(join(root, dir));
  } catch {
    continue;
  }
  for (const name of names) {
    const path = `${dir}/${name}`;
    if ((name.endsWith('.fkr.test.ts') || name.endsWith('.ptx')) && !wanted.has(path)) {
      rmSync(join(root, path));
      removed++;
    }
  }
}
for (const f of files) {
  mkdirSync(dirname(join(root, f.path)), { recursive: true });
  writeFileSync(join(root, f.path), f.content);
}
console.log(`wrote ${files.length} files to ${SUITE_DIR}${removed > 0 ? ` (removed ${removed} stale)` : ''}`);
