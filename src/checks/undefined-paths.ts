// Path feasibility for F071: whether a path from the function entry on which
// a register is never written can really reach a read of it, when branches
// and guards are correlated. nvcc often tests one condition twice with two
// predicate registers (`setp.ge %p1, %r, %n; @%p1 bra A; mov %x, ..; A:
// setp.ge %p2, %r, %n; @%p2 bra B; .. read %x`) or writes a register under
// `@%p` and `@!%p`; reaching definitions alone see an undefined value there.
//
// The search walks paths forward from the entry with a small set of facts
// "condition C is true/false" learnt from the branches and guards taken.
// A condition is a predicate register's defining `setp` (comparison, type and
// operand values, a value being a register's set of reaching definitions), so
// two `setp`s of the same comparison on the same values are one condition
// (and `lt`/`ge` on integers its negation). A fact is dropped as soon as the
// path executes any instruction it depends on (the `setp` or a definition of
// an operand), so facts never outlive the values they are about.
import type * as A from '../parser/ast.js';
import type { FunctionAnalysis } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { ENTRY, reachingDefinitionsAnalysis, type ReachingDefinitions } from '../cfg/dataflow/reaching-definitions.js';
import { livenessAnalysis, type Liveness } from '../cfg/dataflow/liveness.js';
import type { CheckContext } from './types.js';

interface Condition {
  /** Equal keys denote equal truth values (while no dependency is re-executed). */
  readonly key: string;
  /** Whether the predicate is the negation of `key`. */
  readonly negated: boolean;
  /** Instructions whose execution changes the value. */
  readonly deps: readonly number[];
  /** The predicate register a condition known only by identity is about. */
  readonly reg?: number;
}

interface Fact { readonly value: boolean; readonly deps: readonly number[]; readonly reg?: number }

/** Integer comparisons and their negations (floats: the unordered counterpart). */
const INT_NEG: Readonly<Record<string, string>> = { eq: 'ne', lt: 'ge', le: 'gt', lo: 'hs', ls: 'hi' };
const FLOAT_NEG: Readonly<Record<string, string>> = { eq: 'neu', ne: 'equ', lt: 'geu', le: 'gtu', gt: 'leu', ge: 'ltu', num: 'nan' };

/** Each comparison's canonical form (a table's key) and whether it is that form's negation. */
function canonicalForms(table: Readonly<Record<string, string>>): ReadonlyMap<string, { cmp: string; negated: boolean }> {
  const out = new Map<string, { cmp: string; negated: boolean }>();
  // (Entries in table order: a comparison that is a key stays itself.)
  for (const [a, b] of Object.entries(table)) if (!out.has(b)) out.set(b, { cmp: a, negated: true });
  for (const a of Object.keys(table)) out.set(a, { cmp: a, negated: false });
  return out;
}
const INT_CANONICAL = canonicalForms(INT_NEG);
const FLOAT_CANONICAL = canonicalForms(FLOAT_NEG);

function canonical(cmp: string, type: string): { cmp: string; negated: boolean } {
  return (type.startsWith('.f') ? FLOAT_CANONICAL : INT_CANONICAL).get(cmp) ?? { cmp, negated: false };
}

/** (No path state yet: shared, never written.) */
const NO_WRITES: ReadonlyMap<number, number> = new Map();

/** The per-path state of the search. */
interface State {
  readonly block: number;
  /** What the path has learnt about conditions. */
  readonly facts: ReadonlyMap<string, Fact>;
  /** The last write of each watched register (a comparison operand with several definitions) on the path. */
  readonly last: ReadonlyMap<number, number>;
  /** The condition each predicate register holds, from a comparison executed on the path. */
  readonly preds: ReadonlyMap<number, Condition>;
}

class Conditions {
  /** Registers compared by some `setp` that have several definitions. */
  readonly watched = new Set<number>();
  /** The `setp`s whose comparison another `setp` may repeat. */
  private readonly recurring = new Set<number>();
  /** How many guards read each predicate register. */
  private readonly guardReads = new Map<number, number>();

  /** 1 for every instruction some condition made so far depends on: a fact or a predicate's condition can
   *  only depend on those, so executing any other drops nothing (most instructions, on every path). */
  readonly dependedOn: Uint8Array;

  constructor(private readonly fn: FunctionModel, private readonly rd: ReachingDefinitions) {
    this.dependedOn = new Uint8Array(fn.instructions.length);
    const groups = new Map<string, { ins: number; a: string; b: string }[]>();
    fn.instructions.forEach((ins, i) => {
      if (ins.node.guard !== undefined) {
        const p = fn.resolveGuard(ins.node.guard);
        if (p?.kind === 'register') this.guardReads.set(p.id, (this.guardReads.get(p.id) ?? 0) + 1);
      }
      const c = ins.node.opcode === 'setp' ? this.compute(i, NO_WRITES) : undefined;
      if (c === undefined) return;
      const g = groups.get(c.op) ?? [];
      g.push({ ins: i, a: c.a, b: c.b });
      groups.set(c.op, g);
    });
    // Only comparisons that recur (operands equal, or one side has several definitions) can correlate
    // branches: keep those, and watch their operands with several definitions.
    const same = (x: string, y: string): boolean => x === y || x === '*' || y === '*';
    for (const g of groups.values()) {
      if (g.length > 256) continue;
      for (let i = 0; i < g.length; i++) {
        for (let j = i + 1; j < g.length; j++) {
          if (same(g[i]!.a, g[j]!.a) && same(g[i]!.b, g[j]!.b)) { this.recurring.add(g[i]!.ins); this.recurring.add(g[j]!.ins); }
        }
      }
    }
    for (const i of this.recurring) {
      for (const o of fn.instructions[i]!.node.operands.slice(1)) {
        const r = o.kind === 'Name' ? fn.resolve(o) : undefined;
        if (r?.kind === 'register' && rd.reaching(i, r).length > 1) this.watched.add(r.id);
      }
    }
  }

  /** The value of operand `e` read at `ins` on a path (key) and statically (shape), adding what it depends on to `deps`. */
  private operand(ins: number, e: A.Expression, last: ReadonlyMap<number, number>, deps: number[], depth = 4): { key: string; shape: string } | undefined {
    if (e.kind === 'Int' || e.kind === 'Float') return { key: e.text, shape: e.text };
    if (e.kind !== 'Name') return undefined;
    const s = this.fn.resolve(e);
    if (s?.kind !== 'register') {
      const k = e.component === undefined ? e.name : `${e.name}.${e.component}`;
      return { key: k, shape: k };
    }
    if (e.component !== undefined) return undefined;
    const defs = this.rd.reaching(ins, s);
    const l = last.get(s.id);
    const used = defs.length > 1 && l !== undefined && defs.includes(l) ? [l] : defs;
    for (const d of used) if (d !== ENTRY) deps.push(d);
    const key = `${s.id}@${used.join(',')}`;
    if (used.length === 1 && used[0] !== ENTRY && depth > 0) {
      // A copy (`mov %r2, %r1`, `mov %r2, %tid.x`) has its source's value.
      const node = this.fn.instructions[used[0]!]!.node;
      const src = node.operands[1];
      const from = src?.kind === 'Name' ? this.fn.resolve(src) : undefined;
      if (node.opcode === 'mov' && node.guard === undefined && node.operands.length === 2 && src !== undefined
        && (from?.kind !== 'register' || this.rd.reaching(used[0]!, from).length === 1)) {
        const k = this.operand(used[0]!, src, NO_WRITES, deps, depth - 1);
        if (k !== undefined) return { key: k.key, shape: defs.length > 1 ? '*' : k.shape };
      }
    }
    return { key, shape: defs.length > 1 ? '*' : key };
  }

  private compute(ins: number, last: ReadonlyMap<number, number>): (Condition & { op: string; a: string; b: string }) | undefined {
    const node = this.fn.instructions[ins]!.node;
    const cmp = node.modifiers[0]?.slice(1);
    const type = node.modifiers[node.modifiers.length - 1];
    if (node.opcode !== 'setp' || node.guard !== undefined || node.modifiers.length !== 2 || cmp === undefined || type === undefined
      || node.operands.length !== 3 || node.operands[0]!.kind !== 'Name') return undefined;
    const deps = [ins];
    const a = this.operand(ins, node.operands[1]!, last, deps);
    const b = this.operand(ins, node.operands[2]!, last, deps);
    if (a === undefined || b === undefined) return undefined;
    const c = canonical(cmp, type);
    for (const d of deps) this.dependedOn[d] = 1;
    return { key: `${c.cmp}${type}(${a.key};${b.key})`, op: `${c.cmp}${type}`, a: a.shape, b: b.shape, negated: c.negated, deps };
  }

  /** The condition a `setp` at `ins` computes on a path, when it recurs (others cannot correlate branches). */
  compare(ins: number, last: ReadonlyMap<number, number>): Condition | undefined {
    const c = this.compute(ins, last);
    return c !== undefined && this.recurring.has(ins) ? { key: c.key, negated: c.negated, deps: c.deps } : undefined;
  }

  /** The condition a guard `@[!]p` at `ins` tests on a path, or undefined when unknown or tested only once. */
  of(ins: number, guard: A.Guard, state: State): Condition | undefined {
    const p = this.fn.resolveGuard(guard);
    if (p?.kind !== 'register') return undefined;
    let c = state.preds.get(p.id);
    if (c === undefined) {
      const defs = this.rd.reaching(ins, p.id);
      if (defs.length === 0) return undefined;
      c = defs.length === 1 && defs[0] !== ENTRY ? this.compare(defs[0]!, NO_WRITES) : undefined;
      if (c === undefined && (this.guardReads.get(p.id) ?? 0) < 2) return undefined;
      if (c === undefined) {
        const deps = defs.filter((d) => d !== ENTRY);
        for (const d of deps) this.dependedOn[d] = 1;
        c = { key: `p${p.id}@${defs.join(',')}`, negated: false, deps, reg: p.id };
      }
    }
    return guard.negated ? { ...c, negated: !c.negated } : c;
  }
}

type Facts = ReadonlyMap<string, Fact>;

/** What the facts say about a condition: true, false or unknown. */
function truth(facts: Facts, c: Condition): boolean | undefined {
  const f = facts.get(c.key);
  return f === undefined ? undefined : f.value !== c.negated;
}

function assume(facts: Facts, c: Condition, value: boolean): Map<string, Fact> {
  const out = new Map(facts);
  if (out.size >= 24) out.delete(out.keys().next().value!);
  out.set(c.key, { value: value !== c.negated, deps: c.deps, ...(c.reg !== undefined ? { reg: c.reg } : {}) });
  return out;
}

/** Facts that survive executing instruction `ins` (those not depending on it). */
function forget(facts: Facts, ins: number): Facts {
  let out: Map<string, Fact> | undefined;
  // (Keys, then get: an entries loop makes a pair per fact, and this runs for every instruction on every path.)
  for (const k of facts.keys()) {
    if (facts.get(k)!.deps.includes(ins)) (out ??= new Map(facts)).delete(k);
  }
  return out ?? facts;
}

/**
 * The states a search has visited, each once. Two states are the same when they are at the same block and
 * their maps hold the same entries (a fact: its condition key and value; a last write: register and
 * instruction; a predicate's condition: register, key and negation), whatever the maps' order. A state is
 * found by a hash of its entries (a sum over entries: no order, no sort) and compared entry by entry; a
 * map's hash is computed once (successor states share their predecessor's maps when nothing changes).
 * Texts of the sorted entries did the same work in a third of F071's time on large kernels.
 */
class VisitedStates {
  size = 0;
  private readonly byHash = new Map<number, State[]>();
  private readonly keyHashes = new Map<string, number>();
  private readonly mapHashes = new WeakMap<object, number>();

  /** Adds `st`; false when an equal state was visited. */
  add(st: State): boolean {
    const h = mix(st.block + mix(this.factsHash(st.facts) + mix(this.lastHash(st.last) + mix(this.predsHash(st.preds)))));
    const same = this.byHash.get(h);
    if (same === undefined) this.byHash.set(h, [st]);
    else {
      for (const o of same) if (sameState(o, st)) return false;
      same.push(st);
    }
    this.size++;
    return true;
  }

  /** A number for a condition key (one search's keys numbered in turn, mixed). */
  private keyHash(key: string): number {
    let h = this.keyHashes.get(key);
    if (h === undefined) this.keyHashes.set(key, h = mix(this.keyHashes.size + 0x51ed27));
    return h;
  }

  /** A map's hash: the sum of its entries' (in any order), computed once per map. */
  private hashOf<K, V>(m: ReadonlyMap<K, V>, entry: (k: K, v: V) => number): number {
    if (m.size === 0) return 0;
    let h = this.mapHashes.get(m);
    if (h === undefined) {
      h = 0;
      for (const k of m.keys()) h = (h + mix(entry(k, m.get(k)!))) | 0;
      this.mapHashes.set(m, h);
    }
    return h;
  }

  private factsHash(m: Facts): number {
    return this.hashOf(m, this.factEntry);
  }

  private lastHash(m: ReadonlyMap<number, number>): number {
    return this.hashOf(m, lastEntry);
  }

  private predsHash(m: ReadonlyMap<number, Condition>): number {
    return this.hashOf(m, this.predEntry);
  }

  private readonly factEntry = (k: string, f: Fact): number => this.keyHash(k) + (f.value ? 1 : 0);
  private readonly predEntry = (r: number, c: Condition): number => Math.imul(r, 0x85ebca6b) ^ (this.keyHash(c.key) + (c.negated ? 1 : 0));
}

const lastEntry = (r: number, d: number): number => Math.imul(r, 0x9e3779b1) ^ d;

/** A 32-bit integer mixer (murmur3's finalizer). */
function mix(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

function sameState(a: State, b: State): boolean {
  return a.block === b.block && sameFacts(a.facts, b.facts) && sameLast(a.last, b.last) && samePreds(a.preds, b.preds);
}

function sameFacts(a: Facts, b: Facts): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const k of a.keys()) {
    const f = b.get(k);
    if (f === undefined || f.value !== a.get(k)!.value) return false;
  }
  return true;
}

function sameLast(a: ReadonlyMap<number, number>, b: ReadonlyMap<number, number>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const r of a.keys()) if (b.get(r) !== a.get(r)) return false;
  return true;
}

function samePreds(a: ReadonlyMap<number, Condition>, b: ReadonlyMap<number, Condition>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const r of a.keys()) {
    const x = a.get(r)!;
    const y = b.get(r);
    if (y === undefined || y.key !== x.key || y.negated !== x.negated) return false;
  }
  return true;
}

/**
 * Whether a path from the entry on which register `reg` is never written may
 * reach its read at instruction `use`, given correlated branches and guards.
 * True when such a path is found or the search exceeds its budget (its own, or what is left of the
 * function's `shared` one): a read not proven safe is reported.
 */
export interface SearchBudget {
  /** Path states the searches of one function may still visit; when spent, reads are reported unsearched. */
  left: number;
}

/** Path states per function (all its searches together) and per search. */
export const FUNCTION_SEARCH_BUDGET = 3_000;
const SEARCH_BUDGET = 1_000;

/** A function's conditions, made once per function by the analysis context (a search per read made them
 *  again, a walk over the whole function each time). They hold nothing a search changes. */
const conditionsAnalysis: FunctionAnalysis<Conditions> = {
  name: 'checks/undefined-path-conditions',
  compute: (ctx, fn) => new Conditions(fn, ctx.get(fn, reachingDefinitionsAnalysis)),
};

export function undefinedReadFeasible(ctx: CheckContext, fn: FunctionModel, use: number, reg: number, shared: SearchBudget = { left: FUNCTION_SEARCH_BUDGET }): boolean {
  if (shared.left <= 0) return true;
  const budget = SEARCH_BUDGET;
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const cfg = ctx.analysis.cfg(fn);
  const t = rd.table;
  const conds = ctx.analysis.get(fn, conditionsAnalysis);
  const live = ctx.analysis.get(fn, livenessAnalysis);
  const seen = new VisitedStates();
  const work: State[] = [{ block: 0, facts: new Map(), last: new Map(), preds: new Map() }];
  while (work.length > 0) {
    const state = work.pop()!;
    if (state.block === cfg.exit) continue;
    if (!seen.add(state)) continue;
    if (seen.size > budget || --shared.left < 0) return true;
    const b = cfg.blocks[state.block]!;
    let facts = state.facts;
    // Copied when first changed: a block that changes neither passes its maps on, and states that share
    // a map share its hash (`VisitedStates`).
    let last: ReadonlyMap<number, number> = state.last;
    let ownLast: Map<number, number> | undefined;
    let preds: ReadonlyMap<number, Condition> = state.preds;
    let ownPreds: Map<number, Condition> | undefined;
    const writableLast = (): Map<number, number> => (last = ownLast ??= new Map(last));
    const writablePreds = (): Map<number, Condition> => (preds = ownPreds ??= new Map(preds));
    let dead = false;
    for (let i = b.start; i < b.end && !dead; i++) {
      const node = fn.instructions[i]!.node;
      const guard = node.guard === undefined ? undefined : conds.of(i, node.guard, { block: state.block, facts, last, preds });
      const runs = node.guard === undefined ? true : guard === undefined ? undefined : truth(facts, guard);
      if (i === use && runs !== false) return true;
      if (runs === false) continue;
      const slot = t.defSlot(i, reg);
      if (slot !== -1) {
        if (t.defKills[slot] === 1 || (runs === true && !partial(fn, node))) dead = true;
        else if (guard !== undefined && !partial(fn, node)) facts = assume(facts, guard, false);
      }
      if (t.defStart[i + 1]! === t.defStart[i]!) continue;
      const depended = conds.dependedOn[i] === 1;
      if (depended) facts = forget(facts, i);
      let drop = false;
      if (depended) for (const p of preds.keys()) if (preds.get(p)!.deps.includes(i)) { drop = true; break; }
      if (drop) {
        const own = writablePreds();
        for (const p of [...own.keys()]) if (own.get(p)!.deps.includes(i)) own.delete(p);
      }
      for (let s = t.defStart[i]!; s < t.defStart[i + 1]!; s++) {
        const x = t.defReg[s]!;
        if (conds.watched.has(x)) {
          if (runs === true && t.defKills[s] === 1) {
            if (last.get(x) !== i) writableLast().set(x, i);
          } else if (last.has(x)) writableLast().delete(x);
        }
        if (preds.has(x)) writablePreds().delete(x);
      }
      if (node.opcode === 'setp' && runs === true) {
        const c = conds.compare(i, last);
        const p = node.operands[0]!.kind === 'Name' ? fn.resolve(node.operands[0]!) : undefined;
        if (c !== undefined && p?.kind === 'register') writablePreds().set(p.id, c);
      }
    }
    if (dead) continue;
    const here: State = { block: state.block, facts, last, preds };
    const lastNode = b.end > b.start ? fn.instructions[b.end - 1]!.node : undefined;
    const cond = lastNode?.opcode === 'bra' && lastNode.guard !== undefined && b.succs.length === 2 ? conds.of(b.end - 1, lastNode.guard, here) : undefined;
    for (const s of b.succs) {
      if (s === cfg.exit) continue;
      // Registers dead at the successor's start say nothing about the rest of the path.
      const at: State = { block: s, facts: aliveFacts(facts, s, live), last: alive(last, s, live), preds: alive(preds, s, live) };
      if (cond === undefined) { work.push(at); continue; }
      const taken = cfg.edgeKind(state.block, s) === 'branch';
      const known = truth(facts, cond);
      if (known === undefined) work.push({ ...at, facts: aliveFacts(assume(facts, cond, taken), s, live) });
      else if (known === taken) work.push(at);
    }
  }
  return false;
}

/** The entries of `m` whose register is live at the start of `block`. */
function alive<T>(m: ReadonlyMap<number, T>, block: number, live: Liveness): ReadonlyMap<number, T> {
  let out: Map<number, T> | undefined;
  for (const r of m.keys()) if (!live.isLiveIn(block, r)) (out ??= new Map(m)).delete(r);
  return out ?? m;
}

/** The facts still worth keeping at the start of `block`: those about a predicate only by identity need it live. */
function aliveFacts(facts: Facts, block: number, live: Liveness): Facts {
  let out: Map<string, Fact> | undefined;
  for (const k of facts.keys()) {
    const f = facts.get(k)!;
    if (f.reg !== undefined && !live.isLiveIn(block, f.reg)) (out ??= new Map(facts)).delete(k);
  }
  return out ?? facts;
}

/** Whether a guarded write may write only part of its destination (a vector component). */
function partial(fn: FunctionModel, node: A.Instruction): boolean {
  const d = node.operands[0];
  return d?.kind !== 'Name' || d.component !== undefined || fn.resolve(d)?.kind !== 'register';
}
