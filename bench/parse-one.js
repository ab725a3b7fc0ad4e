// Child process of bench/run.js: parses one file `runs` times and reports the
// best time and this process's peak RSS, so each file's memory is measured alone.
import { readFileSync } from 'node:fs';
import { parsePtx } from '../dist/parser/parse.js';

const [file, runsArg, mode] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const text = readFileSync(file, 'utf8');
let best = Infinity;
let errors = 0;
let statements = 0;
for (let i = 0; i < runs; i++) {
  const t0 = process.hrtime.bigint();
  const r = parsePtx(text, mode === 'reference' ? { reference: true } : undefined);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  best = Math.min(best, ms);
  errors = r.errors.length;
  statements = r.module.statements.length;
}
const rssBytes = process.resourceUsage().maxRSS * 1024;
process.stdout.write(JSON.stringify({ file, bytes: Buffer.byteLength(text), ms: best, errors, statements, rssBytes }));
