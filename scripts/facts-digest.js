// A digest of every fact the engine computes on a module: one line per function
// and analysis (CFG, dominators, post-dominators, loops, control dependence,
// reaching definitions, liveness, uniformity, provenance, taint, affine forms,
// value ranges) with the length and a hash of the facts' contents. Two builds
// that give the same file compute the same facts: the check for a change to the
// engine that must not change what it finds (docs/performance.md, session 14).
//
//   npm run build && node scripts/facts-digest.js FILE.ptx > before.txt
//   (change, build) node scripts/facts-digest.js FILE.ptx > after.txt && diff before.txt after.txt
//
// The contents are walked generically: plain objects by sorted keys, arrays,
// typed arrays, maps and sets in order; registers, variables and labels by name;
// functions (query methods) skipped; back-references to the syntax tree and the
// function's model (keys in SKIP) left out, so a fact is what the analysis stored,
// not the tree it points into.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parsePtx } from '../dist/parser/parse.js';
import { AnalysisContext } from '../dist/cfg/context.js';

const ANALYSES = ['cfg', 'dominators', 'postDominators', 'loops', 'controlDependence', 'reachingDefinitions', 'liveness', 'uniformity', 'provenance', 'taint', 'affine', 'ranges'];
const SKIP = new Set(['fn', 'node', 'decl', 'declarator', 'range', 'scope', 'module', 'table', 'variable', 'register', 'cfg', 'spec', 'instruction']);
const MAX_DEPTH = 12;

function digestOf(x, seen, depth) {
  if (x === null || x === undefined) return String(x);
  const t = typeof x;
  if (t === 'number' || t === 'boolean' || t === 'bigint') return String(x);
  if (t === 'string') return JSON.stringify(x);
  if (t === 'function' || t === 'symbol') return '';
  if (depth > MAX_DEPTH) return '<deep>';
  if (ArrayBuffer.isView(x)) return `[${Array.from(x).join(',')}]`;
  if (seen.has(x)) return '<seen>';
  seen.add(x);
  let out;
  const inner = (v) => digestOf(v, seen, depth + 1);
  if (x instanceof Map) out = `M{${[...x].map(([k, v]) => `${inner(k)}:${inner(v)}`).join(',')}}`;
  else if (x instanceof Set) out = `S{${[...x].map(inner).join(',')}}`;
  else if (Array.isArray(x)) out = `[${x.map(inner).join(',')}]`;
  else if (x.kind === 'register' || x.kind === 'variable' || x.kind === 'label') out = `<${x.kind} ${x.name}>`;
  else out = `{${Object.keys(x).sort().filter((k) => !SKIP.has(k)).map((k) => `${k}=${inner(x[k])}`).join(';')}}`;
  seen.delete(x);
  return out;
}

const file = process.argv[2];
if (file === undefined) {
  console.error('usage: node scripts/facts-digest.js FILE.ptx');
  process.exit(2);
}
const parsed = parsePtx(readFileSync(file, 'utf8'));
const ctx = new AnalysisContext(parsed.module);
for (const fn of ctx.functions) {
  for (const name of ANALYSES) {
    const text = digestOf(ctx[name](fn), new Set(), 0);
    process.stdout.write(`${fn.name} ${name} ${text.length} ${createHash('sha1').update(text).digest('hex').slice(0, 12)}\n`);
  }
}
