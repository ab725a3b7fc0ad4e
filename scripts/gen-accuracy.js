// Writes docs/accuracy.md from the fixture corpus (run after `npm run build`;
// `npm run accuracy` does both). A test fails when the committed file drifts.
import { writeFileSync } from 'node:fs';
import { renderAccuracy } from '../dist/accuracy.js';

writeFileSync('docs/accuracy.md', renderAccuracy());
console.log('wrote docs/accuracy.md');
