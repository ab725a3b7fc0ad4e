// F058: a non-extern `.shared` variable read where nothing in the kernel has
// written it yet on some path from the kernel's entry.
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel, RegisterSymbol, VariableSymbol } from '../cfg/symbols.js';
import { affineAnalysis, type AffineFacts } from '../cfg/dataflow/affine.js';
import { ATOM_MASK, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { ENTRY, reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { solve } from '../cfg/dataflow/solver.js';
import { uniformityAnalysis } from '../cfg/dataflow/uniformity.js';
import { assumptionsAndSilencing, opText } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Instructions that read shared memory through their address (judged). */
const READS = new Set(['ld', 'ldu', 'ldmatrix']);
/** Instructions whose address operand is neither a read nor a write of its memory. */
const NEUTRAL = new Set(['prefetch', 'prefetchu', 'applypriority', 'discard', 'createpolicy', 'isspacep', 'cvta', 'mapa']);
const SHARED_ANY = PROV['shared-window'] | PROV['shared-generic'] | PROV['shared-cluster'] | PROV['shared-cluster-generic'];
const OPAQUE = PROV.unknown | PROV.generic;

interface Events {
  /** Per instruction: variable bits it writes (or ALL), or undefined. */
  readonly writes: Map<number, number[] | 'all'>;
  /** Writes guarded by a uniform predicate (`@p st` with p the same for the whole CTA): not definite writes. */
  readonly conditional: Map<number, { readonly w: number[] | 'all'; readonly pred: string; readonly negated: boolean }>;
  /** Per instruction: the variable it reads. */
  readonly reads: Map<number, VariableSymbol>;
}

/** The shared variable an address of instruction `i` is based on; null when unknown. */
function baseVar(af: AffineFacts, i: number, which: number): VariableSymbol | null {
  const f = af.addressOf(i, which);
  const b = f === undefined ? undefined : af.baseOf(f).base;
  return b !== undefined && (b.variable.space === '.shared') ? b.variable : null;
}

function events(ctx: AnalysisContext, fn: FunctionModel, bit: (v: VariableSymbol) => number): Events {
  const prov = ctx.get(fn, provenanceAnalysis);
  const writes = new Map<number, number[] | 'all'>();
  const conditional = new Map<number, { w: number[] | 'all'; pred: string; negated: boolean }>();
  const reads = new Map<number, VariableSymbol>();
  const u = ctx.get(fn, uniformityAnalysis);
  let af: AffineFacts | undefined;
  for (const ins of fn.instructions) {
    const n = ins.node;
    if (n.opcode === 'call') {
      writes.set(ins.index, 'all');
      continue;
    }
    if (NEUTRAL.has(n.opcode)) continue;
    const addrs = prov.accessesAt(ins.index);
    if (addrs.length === 0) continue;
    let which = -1;
    const w: number[] = [];
    let all = false;
    for (const a of addrs) {
      which++;
      if (a.kind !== 'memory') continue;
      const mask = a.provenance & ATOM_MASK;
      const named = a.space === 'shared' || a.space === 'shared::cluster';
      const maybeShared = named || (a.space === 'generic' && ((mask & SHARED_ANY) !== 0 || (mask & OPAQUE) !== 0 || mask === 0));
      if (!maybeShared) continue;
      af ??= ctx.get(fn, affineAnalysis);
      const v = baseVar(af, ins.index, which);
      if (READS.has(n.opcode) && which === 0) {
        if (a.space === 'shared' || (a.space === 'generic' && (mask & ~SHARED_ANY) === 0 && mask !== 0)) {
          if (v !== null && !v.decl.linkage.includes('.extern')) reads.set(ins.index, v);
        }
        continue;
      }
      if (v === null) all = true;
      else w.push(bit(v));
    }
    const what: number[] | 'all' | undefined = all ? 'all' : w.length > 0 ? w : undefined;
    if (what === undefined) continue;
    const g = n.guard === undefined ? undefined : fn.resolveGuard(n.guard);
    if (g?.kind === 'register' && u.useVariance(ins.index, g) === 0) conditional.set(ins.index, { w: what, pred: n.guard!.predicate, negated: n.guard!.negated });
    else writes.set(ins.index, what);
  }
  return { writes, conditional, reads };
}

const ALL = 0;

/** A write of the variable under the read's own uniform guard (`@p st [s]; ... @p ld [s]`), earlier on the way to it. */
function sameGuardWrite(ctx: AnalysisContext, fn: FunctionModel, ev: Events, read: number, b: number): boolean {
  const g = fn.instructions[read]!.node.guard;
  if (g === undefined || ev.conditional.size === 0) return false;
  const reg = fn.resolveGuard(g);
  if (reg?.kind !== 'register') return false;
  const rd = ctx.get(fn, reachingDefinitionsAnalysis);
  const defsAtRead = rd.reaching(read, reg).join();
  const cfg = ctx.cfg(fn);
  const dom = ctx.dominators(fn);
  for (const [i, c] of ev.conditional) {
    if (c.pred !== g.predicate || c.negated !== g.negated || (c.w !== 'all' && !c.w.includes(b))) continue;
    const before = cfg.blockOf[i] === cfg.blockOf[read] ? i < read : dom.dominates(cfg.blockOf[i]!, cfg.blockOf[read]!);
    if (before && rd.reaching(i, reg).join() === defsAtRead) return true;
  }
  return false;
}

/** The setp behind predicate `pred` read at `at` (through `not.pred`), with its polarity. */
function setpOf(ctx: AnalysisContext, fn: FunctionModel, at: number, reg: RegisterSymbol | undefined, negated: boolean, depth = 0): { index: number; negated: boolean } | undefined {
  if (reg === undefined || depth > 4) return undefined;
  const defs = ctx.get(fn, reachingDefinitionsAnalysis).reaching(at, reg);
  if (defs.length !== 1 || defs[0] === ENTRY) return undefined;
  const node = fn.instructions[defs[0]!]!.node;
  if (node.guard !== undefined) return undefined;
  if (node.opcode === 'not' && node.modifiers.includes('.pred') && node.operands[1]?.kind === 'Name') {
    const src = fn.resolve(node.operands[1]);
    return setpOf(ctx, fn, defs[0]!, src?.kind === 'register' ? src : undefined, !negated, depth + 1);
  }
  return node.opcode === 'setp' && node.operands.length === 3 ? { index: defs[0]!, negated } : undefined;
}

const CMPS: Readonly<Record<string, (d: number) => boolean>> = {
  '.lt': (d) => d < 0, '.lo': (d) => d < 0, '.le': (d) => d <= 0, '.ls': (d) => d <= 0, '.gt': (d) => d > 0, '.hi': (d) => d > 0,
  '.ge': (d) => d >= 0, '.hs': (d) => d >= 0, '.eq': (d) => d === 0, '.ne': (d) => d !== 0,
};

/** Loops whose exit test in the header sends the first arrival into the body
 *  (counters starting at constants), with the variables every iteration
 *  writes and the exit blocks entered only from that test. */
function enteredLoops(ctx: AnalysisContext, fn: FunctionModel, ev: Events): { exit: number; writes: number[] }[] {
  const out: { exit: number; writes: number[] }[] = [];
  const cfg = ctx.cfg(fn);
  const dom = ctx.dominators(fn);
  let af: AffineFacts | undefined;
  for (const loop of ctx.loops(fn).loops) {
    // The exit test: the header, or the end of a straight line from it (-G splits blocks at labels).
    let h = cfg.blocks[loop.header]!;
    for (let k = 0; k < 8 && h.succs.length === 1 && h.succs[0] !== cfg.exit && loop.blocks.includes(h.succs[0]!); k++) {
      const next = cfg.blocks[h.succs[0]!]!;
      if (next.preds.length !== 1) break;
      h = next;
    }
    const last = h.end > h.start ? fn.instructions[h.end - 1]! : undefined;
    const bra = last?.node;
    if (bra?.opcode !== 'bra' || bra.guard === undefined || h.succs.length !== 2) continue;
    const g = fn.resolveGuard(bra.guard);
    const sp = setpOf(ctx, fn, last!.index, g?.kind === 'register' ? g : undefined, bra.guard.negated);
    if (sp === undefined) continue;
    const setp = fn.instructions[sp.index]!.node;
    const cmp = setp.modifiers.map((m) => CMPS[m]).find((c) => c !== undefined);
    if (cmp === undefined || setp.modifiers.some((m) => m.startsWith('.f'))) continue;
    af ??= ctx.get(fn, affineAnalysis);
    const a = af.operand(sp.index, setp.operands[1]!);
    const b = af.operand(sp.index, setp.operands[2]!);
    if (a === undefined || b === undefined) continue;
    // The first arrival: counters of this loop at their start values.
    let d = a.c - b.c;
    let decided = true;
    for (const [f, k] of [[a, 1], [b, -1]] as const) {
      for (const t of f.terms) {
        const sym = af.symbols[t.sym]!;
        if (sym.kind === 'iv' && sym.block === loop.header && sym.init.terms.length === 0) d += k * t.coef * sym.init.c;
        else decided = false;
      }
    }
    if (!decided) continue;
    const holds = cmp(d) !== sp.negated;
    const target = bra.operands[0];
    const takenBlock = h.succs.find((x) => x !== cfg.exit && target?.kind === 'Name' && cfg.blocks[x]!.labels.includes(target.name));
    const first = holds ? takenBlock : h.succs.find((x) => x !== takenBlock);
    if (first === undefined || !loop.blocks.includes(first)) continue;
    const writes: number[] = [];
    for (const blk of loop.blocks) {
      if (!loop.backEdges.every(([tail]) => dom.dominates(blk, tail))) continue;
      const bb = cfg.blocks[blk]!;
      for (let i = bb.start; i < bb.end; i++) {
        const w = ev.writes.get(i);
        if (w === 'all') writes.push(ALL);
        else if (w !== undefined) writes.push(...w);
      }
    }
    if (writes.length === 0) continue;
    for (const x of h.succs) {
      if (x === cfg.exit || loop.blocks.includes(x) || cfg.blocks[x]!.preds.length !== 1) continue;
      out.push({ exit: x, writes });
    }
  }
  return out;
}

export const F058: Check = {
  meta: {
    id: 'F058',
    name: 'uninitialized-shared-read',
    category: 'memory',
    severity: 'medium',
    points: 1,
    description: 'A kernel reads a non-extern `.shared` variable on a path from its entry where nothing in the kernel has written that variable.',
    rationale: 'Shared memory starts with whatever the previous block left there: a tile read before it is filled (a missing initialization, a fill under a condition that can be false for the whole block, a loop that reads before its first store) gives garbage that changes from run to run.',
    remedy: 'Write the variable before reading it on every path: initialize accumulators and histograms (then `__syncthreads()`), move the fill out of the condition, or peel the first loop iteration.',
    notes: 'Precise rule: per kernel (`.entry`), a forward must-analysis of the shared variables written so far; a read (`ld`, `ldu`, `ldmatrix` of a '
      + 'non-extern `.shared` variable identified from its affine address) fails when some path from the entry reaches it with the variable '
      + 'unwritten. Writes are every other instruction with an address into shared memory (stores, atomics, `cp.async` and bulk copies, `stmatrix`, '
      + '`st.async`/`red.async`, `mbarrier.init`, `tcgen05.alloc`, `st.bulk`, remote `st.shared::cluster` ...), a write whose variable is unknown '
      + '(an opaque shared or generic pointer) writes every variable, and a `call` may write any. The kernel is judged as a CTA, not one thread: a '
      + 'write in a block that a thread-varying branch decides (`if (tid == 0) s = x;`) counts at that branch for every path after it, since some '
      + 'thread of the CTA makes it; only uniform branches make paths on which a variable stays unwritten. Likewise a write guarded by a '
      + 'thread-varying predicate counts, one guarded by a uniform predicate (`@p st` with p the same for the CTA) does not, except for a read '
      + 'under the same predicate. '
      + 'One finding per variable, at its first such read, naming the others. `.func` bodies are not judged (the caller may have written).'
      + assumptionsAndSilencing('F058', 'none about the block; the kernel is judged as a CTA (a write by some thread counts for all after a barrier).'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .u32 hist[256];\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, hist;\n\tshl.b32 %r3, %r1, 2;\n\tadd.s32 %r4, %r2, %r3;\n\tbar.sync 0;\n\tld.shared.u32 %r1, [%r4];\n'
        + '\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .u32 hist[256];\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, hist;\n\tshl.b32 %r3, %r1, 2;\n\tadd.s32 %r4, %r2, %r3;\n\tst.shared.u32 [%r4], 0;\n\tbar.sync 0;\n\tld.shared.u32 %r1, [%r4];\n'
        + '\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judgedReads = 0;
    for (const fn of ctx.functions) {
      if (!fn.isEntry) continue;
      const bits = new Map<VariableSymbol, number>();
      const bit = (v: VariableSymbol): number => {
        let b = bits.get(v);
        if (b === undefined) bits.set(v, (b = bits.size + 1));
        return b;
      };
      const ev = events(ctx.analysis, fn, bit);
      if (ev.reads.size === 0) continue;
      for (const v of ev.reads.values()) bit(v);
      judgedReads += ev.reads.size;
      const words = ((bits.size + 1) >> 5) + 1;
      const cfg = ctx.analysis.cfg(fn);
      const u = ctx.analysis.get(fn, uniformityAnalysis);
      const cd = ctx.analysis.controlDependence(fn);
      // Writes under a thread-varying branch count at that branch (some thread
      // of the CTA makes them), and at the thread-varying branches above it.
      const hoisted: (number[] | undefined)[] = new Array<number[] | undefined>(cfg.blocks.length);
      const atStartGen: (number[] | undefined)[] = new Array<number[] | undefined>(cfg.blocks.length);
      const varyingAbove = (b: number): number[] => {
        const out: number[] = [];
        const seen = new Set<number>();
        const work = [b];
        while (work.length > 0) {
          const x = work.pop()!;
          for (const c of cd[x] ?? []) {
            if (seen.has(c) || (u.branchOf(c)?.variance ?? 0) === 0) continue;
            seen.add(c);
            out.push(c);
            work.push(c);
          }
        }
        return out;
      };
      for (const [i, w] of ev.writes) {
        for (const c of varyingAbove(cfg.blockOf[i]!)) {
          const list = (hoisted[c] ??= []);
          if (w === 'all') list.push(ALL);
          else list.push(...w);
        }
      }
      // A loop whose first exit test provably enters it has run one whole
      // iteration when it leaves through that test: what every iteration
      // writes holds at the exit.
      for (const { exit, writes } of enteredLoops(ctx.analysis, fn, ev)) {
        const list = (atStartGen[exit] ??= []);
        list.push(...writes);
      }
      const set = (s: Uint32Array, b: number): void => { s[b >> 5]! |= 1 << (b & 31); };
      const has = (s: Uint32Array, b: number): boolean => (s[b >> 5]! & (1 << (b & 31))) !== 0;
      const apply = (s: Uint32Array, w: number[] | 'all'): void => {
        if (w === 'all') set(s, ALL);
        else for (const b of w) set(s, b);
      };
      const result = solve(cfg, {
        site: 'F058', direction: 'forward',
        boundary: () => new Uint32Array(words),
        initial: () => new Uint32Array(words).fill(0xffffffff),
        join: (a, b) => a.map((x, k) => x & b[k]!),
        equals: (a, b) => a.every((x, k) => x === b[k]),
        transfer: (block, input) => {
          const s = input.slice();
          for (const b of atStartGen[block.id] ?? []) set(s, b);
          for (let i = block.start; i < block.end; i++) {
            const w = ev.writes.get(i);
            if (w !== undefined) apply(s, w);
          }
          for (const b of hoisted[block.id] ?? []) set(s, b);
          return s;
        },
      });
      const unwritten = new Map<VariableSymbol, number[]>();
      for (const block of cfg.blocks) {
        if (!block.reachable) continue;
        const s = result.atStart[block.id]!.slice();
        for (const b of atStartGen[block.id] ?? []) set(s, b);
        for (let i = block.start; i < block.end; i++) {
          const v = ev.reads.get(i);
          if (v !== undefined && !has(s, ALL) && !has(s, bit(v)) && !sameGuardWrite(ctx.analysis, fn, ev, i, bit(v))) {
            const list = unwritten.get(v) ?? [];
            list.push(i);
            unwritten.set(v, list);
          }
          const w = ev.writes.get(i);
          if (w !== undefined) apply(s, w);
        }
      }
      for (const [v, list] of unwritten) {
        list.sort((a, b) => a - b);
        const first = fn.instructions[list[0]!]!;
        const never = ![...ev.writes.values()].some((w) => w === 'all' || w.includes(bit(v)));
        out.push({
          message: `${opText(first)} reads ${v.name}, which ${never ? 'nothing in the kernel ever writes' : 'is not written on some path from the kernel entry to here'}`
            + `${list.length > 1 ? ` (${list.length - 1} more such read${list.length > 2 ? 's' : ''})` : ''}`,
          location: ctx.locate(first.node.range, fn, first.index),
          function: fn.name,
          ...(list.length > 1 ? { related: list.slice(1).map((i) => ({ location: ctx.locate(fn.instructions[i]!.node.range, fn, i), message: `${opText(fn.instructions[i]!)} reads ${v.name} too` })) } : {}),
        });
      }
    }
    if (judgedReads === 0) return na('no kernel reads a non-extern .shared variable');
    return found(out);
  },
};
