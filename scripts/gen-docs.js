// Writes docs/checks/F0xx.md for every built check from its meta (run after
// `npm run build`; `npm run docs` does both). A test fails when they drift.
import { writeFileSync, mkdirSync } from 'node:fs';
import { CHECKS } from '../dist/checks/index.js';
import { renderCheckDoc } from '../dist/checks/docs.js';

mkdirSync('docs/checks', { recursive: true });
for (const check of CHECKS) {
  writeFileSync(`docs/checks/${check.meta.id}.md`, renderCheckDoc(check.meta));
}
console.log(`wrote ${CHECKS.length} check docs`);

const { KERNELS } = await import('../dist/kernels/library/index.js');
const { renderKernelsDoc } = await import('../dist/kernels/docs.js');
writeFileSync('docs/kernels.md', renderKernelsDoc(KERNELS));
console.log('wrote docs/kernels.md');
