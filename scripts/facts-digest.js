// A digest of every fact the engine computes on a module: one line per function
// and analysis (CFG, dominators, post-dominators, loops, control dependence,
// reaching definitions, liveness, uniformity, provenance, taint, affine forms,
// value ranges) with the length and a hash of the facts' contents. Two builds
// that give the same file compute the same facts: the check for a change to the
// engine that must not change what it finds (docs/performance.md, session 14).
//
//   npm run build && node scripts/facts-digest.js FILE.ptx > before.txt
//   (change, build) node scripts/facts-digest.js FILE.ptx > after.txt && diff before.txt after.txt
//   --late digests after every function's analyses are done (facts must not share storage that a later
//   function's analysis reuses).
//
// The contents are walked generically: plain objects by sorted keys, arrays,
// typed arrays, maps and sets in order; registers, variables and labels by name;
// functions (query methods) skipped; back-references to the syntax tree and the
// function's model (keys in SKIP) left out, so a fact is what the analysis stored,
// not the tree it points into. Analyses whose facts are mostly query methods over
// closed-over tables (uniformity, value ranges, affine forms, liveness, reaching
// definitions, provenance, taint) also get a line `NAME:values` that digests the
// answers of those methods for every register each instruction reads and
// writes, every block and every symbol (QUERIES below): the first walk sees none
// of what the closures hold.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { parsePtx } from '../dist/parser/parse.js';
import { AnalysisContext, ENGINE_ANALYSES } from '../dist/cfg/context.js';
import { effects } from '../dist/cfg/dataflow/effects.js';

// ('engine': a shift symbol of the affine forms holds its analysis's engine, whose scratch state is not a fact.)
const SKIP = new Set(['fn', 'node', 'decl', 'declarator', 'range', 'scope', 'module', 'table', 'variable', 'register', 'cfg', 'spec', 'instruction', 'engine', 'slot']);
const MAX_DEPTH = 12;

/** Writes the facts' text to `out` piece by piece (a module's largest functions give texts past the longest
 *  string V8 makes): the same text, in the same order, as one string would be. */
function writeDigest(x, seen, depth, out) {
  if (x === null || x === undefined) return out.write(String(x));
  const t = typeof x;
  if (t === 'number' || t === 'boolean' || t === 'bigint') return out.write(String(x));
  if (t === 'string') return out.write(JSON.stringify(x));
  if (t === 'function' || t === 'symbol') return undefined;
  if (depth > MAX_DEPTH) return out.write('<deep>');
  if (ArrayBuffer.isView(x)) {
    out.write('[');
    for (let i = 0; i < x.length; i++) out.write(i === 0 ? String(x[i]) : `,${x[i]}`);
    return out.write(']');
  }
  if (seen.has(x)) return out.write('<seen>');
  seen.add(x);
  const inner = (v) => writeDigest(v, seen, depth + 1, out);
  if (x instanceof Map) {
    out.write('M{');
    let i = 0;
    for (const [k, v] of x) {
      if (i++ > 0) out.write(',');
      inner(k);
      out.write(':');
      inner(v);
    }
    out.write('}');
  } else if (x instanceof Set) {
    out.write('S{');
    let i = 0;
    for (const v of x) {
      if (i++ > 0) out.write(',');
      inner(v);
    }
    out.write('}');
  } else if (Array.isArray(x)) {
    out.write('[');
    for (let i = 0; i < x.length; i++) {
      if (i > 0) out.write(',');
      // (A hole writes nothing, as `map` and `join` leave it.)
      if (i in x) inner(x[i]);
    }
    out.write(']');
  } else if (x.kind === 'register' || x.kind === 'variable' || x.kind === 'label') {
    out.write(`<${x.kind} ${x.name}>`);
  } else {
    // (`slot`, in SKIP, numbers an operand source's cache entry: which sources share one is not a fact.)
    out.write('{');
    const keys = Object.keys(x).sort().filter((k) => !SKIP.has(k));
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) out.write(';');
      out.write(`${keys[i]}=`);
      inner(x[keys[i]]);
    }
    out.write('}');
  }
  seen.delete(x);
  return undefined;
}

const iv = (x) => (x === undefined ? 'u' : `${x.lo}:${x.hi}`);
const LEVELS = ['cta', 'warp'];

/** Per analysis, the answers of its query methods for every register each instruction reads (`uses`) and
 *  writes (`defs`), and every block, written to `out`. */
const QUERIES = {
  reachingDefinitions: (f, fn, ctx, out) => eachIns(fn, (i, uses, defs) => {
    for (const u of uses) out.write(`${f.reaching(i, u).join(',')};`);
    for (const d of defs) out.write(`${f.usesOf(i, d).join(',')};`);
  }),
  liveness: (f, fn, ctx, out) => {
    for (const b of ctx.cfg(fn).blocks) out.write(`B${f.liveIn(b.id).join(',')}|${f.liveOut(b.id).join(',')}`);
    for (let i = 0; i < fn.instructions.length; i++) out.write(`${f.liveBefore(i).join(',')}|${f.liveAfter(i).join(',')};`);
  },
  uniformity: (f, fn, ctx, out) => {
    eachIns(fn, (i, uses, defs) => {
      for (const u of uses) out.write(`${f.useVariance(i, u)}${LEVELS.map((l) => f.explainUse(i, u, l) ?? '').join('/')};`);
      for (const d of defs) out.write(`${f.defVariance(i, d)}${LEVELS.map((l) => f.explainDef(i, d, l) ?? '').join('/')};`);
      out.write(`${f.branchVariance(i)}.`);
    });
    for (const b of ctx.cfg(fn).blocks) out.write(`B${f.blockDivergence(b.id)}${LEVELS.map((l) => f.explainBranch(b.id, l) ?? '').join('/')}`);
  },
  provenance: (f, fn, ctx, out) => eachIns(fn, (i, uses, defs) => {
    for (const u of uses) out.write(`${f.valueAt(i, u)};`);
    for (const d of defs) out.write(`${f.definedAt(i, d)};`);
    out.write(`${f.accessesAt(i).length}.`);
  }),
  taint: (f, fn, ctx, out) => eachIns(fn, (i, uses) => {
    for (const u of uses) {
      const t = f.at(i, u);
      out.write(`${t.any}/${t.moved};`);
    }
    const w = (t) => (t === undefined ? 'u' : JSON.stringify(t));
    out.write(`${w(f.storedValue(i))}${w(f.address(i))}${w(f.condition(i))}.`);
  }),
  affine: (f, fn, ctx, out) => {
    const form = (x) => (x === undefined ? 'u' : f.format(x));
    eachIns(fn, (i, uses, defs) => {
      for (const u of uses) out.write(`${form(f.formAt(i, u))};`);
      for (const d of defs) out.write(`${form(f.formAfter(i, d))};`);
      const a = f.addressOf(i);
      out.write(`${form(a)}${a === undefined ? '' : JSON.stringify(f.laneStride(a) ?? null)}.`);
    });
    for (const s of f.symbols) out.write(`S${s.kind}:${s.name}:${s.threadDependent}:${s.uniform}`);
  },
  ranges: (f, fn, ctx, out) => {
    const aff = ctx.affine(fn);
    eachIns(fn, (i, uses, defs) => {
      for (const u of uses) {
        out.write(`${iv(f.rangeAt(i, u))},${iv(f.viewAt(i, u, true))},${iv(f.viewAt(i, u, false))}`);
        const fm = aff.formAt(i, u);
        out.write(fm === undefined ? ';' : `F${iv(f.formRange(fm))};`);
      }
      for (const d of defs) out.write(`${iv(f.rangeAfter(i, d))};`);
    });
    for (const b of ctx.cfg(fn).blocks) {
      out.write(`B${b.id}`);
      for (const reg of fn.registers) out.write(`${iv(f.rangeAtBlockStart(b.id, reg))},`);
    }
    for (const sym of aff.symbols) out.write(`S${iv(f.symbolRange(sym))}`);
  },
};

function eachIns(fn, visit) {
  for (let i = 0; i < fn.instructions.length; i++) {
    const fx = effects(fn, fn.instructions[i]);
    visit(i, fx.uses, fx.defs);
  }
}

/** A hash of written text and its length, fed in chunks. */
class Digest {
  hash = createHash('sha1');
  length = 0;
  buffer = '';
  write(s) {
    this.length += s.length;
    this.buffer += s;
    if (this.buffer.length > 1 << 16) {
      this.hash.update(this.buffer);
      this.buffer = '';
    }
  }
  hex() {
    this.hash.update(this.buffer);
    this.buffer = '';
    return this.hash.digest('hex').slice(0, 12);
  }
}

const args = process.argv.slice(2);
// --late: every analysis of every function first, the digests after, so that facts which share storage with
// a later function's analysis (scratch kept from function to function) show as a difference.
const late = args.includes('--late');
const file = args.find((a) => a !== '--late');
if (file === undefined) {
  console.error('usage: node scripts/facts-digest.js [--late] FILE.ptx');
  process.exit(2);
}
const parsed = parsePtx(readFileSync(file, 'utf8'));
const ctx = new AnalysisContext(parsed.module);
if (late) for (const fn of ctx.functions) for (const name of ENGINE_ANALYSES) ctx[name](fn);
for (const fn of ctx.functions) {
  for (const name of ENGINE_ANALYSES) {
    const d = new Digest();
    const facts = ctx[name](fn);
    writeDigest(facts, new Set(), 0, d);
    process.stdout.write(`${fn.name} ${name} ${d.length} ${d.hex()}\n`);
    if (QUERIES[name] !== undefined) {
      const q = new Digest();
      QUERIES[name](facts, fn, ctx, q);
      process.stdout.write(`${fn.name} ${name}:values ${q.length} ${q.hex()}\n`);
    }
  }
}
