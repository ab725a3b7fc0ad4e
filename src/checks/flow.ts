// Shared helpers of the control-flow, data-flow, known-pattern and
// instrumentation checks (F061–F100): locations of instructions, registers
// and immediates of operands, the comparisons a predicate derives from, and
// backward data slices over reaching definitions.
import type * as A from '../parser/ast.js';
import type { FunctionModel, RegisterSymbol, VariableSymbol } from '../cfg/symbols.js';
import { ENTRY, reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import type { ChainStep, CheckContext, Location } from './types.js';

/** Instructions that end a thread's path on purpose. */
export const TERMINATORS: ReadonlySet<string> = new Set(['ret', 'exit', 'trap']);

/** Where an instruction is, mapped through `.loc`, with its function. */
export function at(ctx: CheckContext, fn: FunctionModel, index: number): { location: Location; function: string } {
  return { location: ctx.locate(fn.instructions[index]!.node.range, fn, index), function: fn.name };
}

/** One chain step at an instruction. */
export function stepAt(ctx: CheckContext, fn: FunctionModel, index: number, what?: string): ChainStep {
  const node = fn.instructions[index]!.node;
  return { location: ctx.locate(node.range, fn, index), what: what ?? `${node.opcode}${node.modifiers.join('')}` };
}

/** `opcode.mod1.mod2` of an instruction. */
export function mnemonic(node: A.Instruction): string {
  return `${node.opcode}${node.modifiers.join('')}`;
}

/** Registers named in an expression, in order, each once. */
export function registersIn(fn: FunctionModel, e: A.Expression, out: RegisterSymbol[] = []): RegisterSymbol[] {
  switch (e.kind) {
    case 'Name': {
      const s = fn.resolve(e);
      if (s?.kind === 'register' && !out.includes(s)) out.push(s);
      return out;
    }
    case 'Unary': case 'Cast': return registersIn(fn, e.arg, out);
    case 'Binary': registersIn(fn, e.left, out); return registersIn(fn, e.right, out);
    case 'Conditional': registersIn(fn, e.test, out); registersIn(fn, e.then, out); return registersIn(fn, e.otherwise, out);
    case 'Vector': case 'Address': case 'List': for (const x of e.elements) registersIn(fn, x, out); return out;
    case 'PredPair': registersIn(fn, e.first, out); return registersIn(fn, e.second, out);
    default: return out;
  }
}

/** Whether an expression names a variable `test` accepts (`mov.u64 %rd3, buf`, `[s+4]`). */
export function namesVariable(fn: FunctionModel, e: A.Expression, test: (v: VariableSymbol) => boolean): boolean {
  switch (e.kind) {
    case 'Name': {
      const s = fn.resolve(e);
      return s?.kind === 'variable' && test(s);
    }
    case 'Unary': case 'Cast': return namesVariable(fn, e.arg, test);
    case 'Binary': return namesVariable(fn, e.left, test) || namesVariable(fn, e.right, test);
    case 'Vector': case 'Address': case 'List':
      // (A loop, not `some` with a closure: called for every operand of every instruction.)
      for (const x of e.elements) if (namesVariable(fn, x, test)) return true;
      return false;
    default: return false;
  }
}

/** The value of an integer literal operand (`-1`, `0x1f`), else undefined. */
export function intValue(e: A.Expression | undefined): bigint | undefined {
  if (e === undefined) return undefined;
  if (e.kind === 'Int') return e.value;
  if (e.kind === 'Unary' && e.op === '-' && e.arg.kind === 'Int') return -e.arg.value;
  if (e.kind === 'List' && e.elements.length === 1) return intValue(e.elements[0]);
  return undefined;
}

/** The register a guard names. */
export function guardRegister(fn: FunctionModel, node: A.Instruction): RegisterSymbol | undefined {
  if (node.guard === undefined) return undefined;
  const g = fn.resolveGuard(node.guard);
  return g?.kind === 'register' ? g : undefined;
}

/** The instructions whose writes of `reg` reach its read at `ins` (no ENTRY). */
export function definitionsReaching(ctx: CheckContext, fn: FunctionModel, ins: number, reg: RegisterSymbol): number[] {
  return ctx.analysis.get(fn, reachingDefinitionsAnalysis).reaching(ins, reg).filter((d) => d !== ENTRY);
}

/** A `setp` a predicate derives from: its instruction and compared operands. */
export interface Comparison {
  readonly index: number;
  /** `.lt`, `.ge` ... */
  readonly cmp: string;
  readonly a: A.Expression;
  readonly b: A.Expression;
}

const COMPARE_OPS = new Set(['.eq', '.ne', '.lt', '.le', '.gt', '.ge', '.lo', '.ls', '.hi', '.hs', '.equ', '.neu', '.ltu', '.leu', '.gtu', '.geu']);

/**
 * The comparisons the predicate `reg` read at `ins` derives from: `setp`
 * (both of a pair's results, and its combining predicate `setp.lt.and`), and
 * through `and`/`or`/`xor`/`not`/`mov` of predicates, over every reaching
 * definition, up to `depth` steps.
 */
export function comparisonsOf(ctx: CheckContext, fn: FunctionModel, ins: number, reg: RegisterSymbol, depth = 6): Comparison[] {
  const out: Comparison[] = [];
  const seen = new Set<number>();
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const visit = (at: number, r: RegisterSymbol, d: number): void => {
    if (d < 0) return;
    for (const def of rd.reaching(at, r)) {
      if (def === ENTRY || seen.has(def)) continue;
      seen.add(def);
      const node = fn.instructions[def]!.node;
      const ops = node.operands;
      if (node.opcode === 'setp') {
        const cmp = node.modifiers.find((m) => COMPARE_OPS.has(m));
        if (cmp !== undefined && ops[1] !== undefined && ops[2] !== undefined) out.push({ index: def, cmp, a: ops[1], b: ops[2] });
        if (ops[3] !== undefined) for (const q of registersIn(fn, ops[3])) visit(def, q, d - 1);
      } else if ((node.opcode === 'and' || node.opcode === 'or' || node.opcode === 'xor' || node.opcode === 'not' || node.opcode === 'mov')
        && node.modifiers.includes('.pred')) {
        for (let k = 1; k < ops.length; k++) for (const q of registersIn(fn, ops[k]!)) visit(def, q, d - 1);
      }
    }
  };
  visit(ins, reg, depth);
  return out;
}

/** Opcodes whose result is data read from memory (a slice may stop there). */
export const LOADS: ReadonlySet<string> = new Set(['ld', 'ldu', 'atom', 'ldmatrix', 'tex', 'tld4', 'suld', 'shfl', 'multimem', 'wmma', 'mma', 'wgmma', 'tcgen05', 'call']);

/**
 * The instructions whose values flow into registers `regs` as read at `ins`,
 * through data dependence (reaching definitions, transitively), `ins`
 * excluded. Loads (and calls, collectives, matrix ops) are included but not
 * looked through when `throughLoads` is false. Undefined when the slice
 * grows past `limit` instructions.
 */
export function backwardSlice(
  ctx: CheckContext, fn: FunctionModel, ins: number, regs: readonly RegisterSymbol[],
  opts: { readonly throughLoads?: boolean; readonly limit?: number } = {},
): ReadonlySet<number> | undefined {
  const limit = opts.limit ?? 512;
  const key = `${ins}:${regs.map((r) => r.id).join(',')}:${opts.throughLoads === true ? 1 : 0}:${limit}`;
  let memo = SLICES.get(ctx.analysis)?.get(fn);
  if (memo === undefined) {
    let perFn = SLICES.get(ctx.analysis);
    if (perFn === undefined) SLICES.set(ctx.analysis, perFn = new WeakMap());
    perFn.set(fn, memo = new Map());
  }
  // (The slices are shared: no caller changes one.)
  if (memo.has(key)) return memo.get(key);
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const t = rd.table;
  const out = new Set<number>();
  const work: number[] = [];
  for (const r of regs) work.push(ins, r.id);
  let result: Set<number> | undefined = out;
  while (work.length > 0) {
    const r = work.pop()!;
    const i = work.pop()!;
    // The definitions reaching the read of r at i, straight from the def-use tables (no array per query).
    const s = t.useSlot(i, r);
    if (s === -1) continue;
    for (let k = rd.rdStart[s]!; k < rd.rdStart[s + 1]!; k++) {
      const d = rd.defIns[rd.rdDef[k]!]!;
      if (d === ENTRY || out.has(d)) continue;
      out.add(d);
      if (out.size > limit) { result = undefined; work.length = 0; break; }
      const node = fn.instructions[d]!.node;
      if (opts.throughLoads !== true && LOADS.has(node.opcode)) continue;
      for (let u = t.useStart[d]!; u < t.useStart[d + 1]!; u++) work.push(d, t.useReg[u]!);
    }
  }
  if (memo.size < 4096) memo.set(key, result);
  return result;
}

/** Slices already computed, per analysis context and function (checks ask for the same slice repeatedly). */
const SLICES = new WeakMap<CheckContext['analysis'], WeakMap<FunctionModel, Map<string, ReadonlySet<number> | undefined>>>();

/** Whether an operand names a special register whose name starts with one of `prefixes` (`%tid`, `%laneid`). */
export function readsSreg(fn: FunctionModel, node: A.Instruction, prefixes: readonly string[]): boolean {
  let hit = false;
  const visit = (e: A.Expression): void => {
    if (hit) return;
    if (e.kind === 'Name') {
      const s = fn.resolve(e);
      if (s?.kind === 'sreg' && prefixes.some((p) => s.name === p || s.name.startsWith(`${p}.`))) hit = true;
      return;
    }
    if (e.kind === 'Vector' || e.kind === 'Address' || e.kind === 'List') e.elements.forEach(visit);
    else if (e.kind === 'Unary' || e.kind === 'Cast') visit(e.arg);
    else if (e.kind === 'Binary') { visit(e.left); visit(e.right); }
  };
  node.operands.forEach(visit);
  return hit;
}

/** The state space an instruction names (`.global`, `.shared`, `.shared::cta` → `.shared`), or undefined (generic). */
export function spaceOf(node: A.Instruction): string | undefined {
  for (const m of node.modifiers) {
    const base = m.split('::')[0]!;
    if (base === '.global' || base === '.shared' || base === '.local' || base === '.const' || base === '.param') return base;
  }
  return undefined;
}

/** Kernels and device functions with bodies; n/a reason when none. */
export function noFunctions(ctx: CheckContext): string | undefined {
  return ctx.functions.length === 0 ? 'the module has no function bodies' : undefined;
}

/** A comparison that protects an instruction, and where its predicate is tested. */
export interface Protection {
  readonly comparison: Comparison;
  /** The guarded instruction or branch whose predicate derives from the comparison. */
  readonly at: number;
  readonly how: 'guard' | 'branch' | 'loop-exit';
}

/**
 * The comparisons whose outcome decides whether instruction `ins` runs: its
 * own guard's, those of the conditional branches (and guarded `ret`/`exit`)
 * ending the blocks that dominate its block, and those of the exit branches of
 * the loops around it.
 */
export function protections(ctx: CheckContext, fn: FunctionModel, ins: number): Protection[] {
  const out: Protection[] = [];
  const add = (i: number, how: Protection['how']): void => {
    const node = fn.instructions[i]!.node;
    const g = guardRegister(fn, node);
    if (g === undefined) return;
    for (const c of comparisonsOf(ctx, fn, i, g)) out.push({ comparison: c, at: i, how });
  };
  add(ins, 'guard');
  const cfg = ctx.analysis.cfg(fn);
  const dom = ctx.analysis.dominators(fn);
  const home = cfg.blockOf[ins]!;
  for (let b = dom.idom[home]!; b !== -1; b = b === dom.root ? -1 : dom.idom[b]!) {
    const blk = cfg.blocks[b]!;
    if (blk.end > blk.start && blk.succs.length > 1) add(blk.end - 1, 'branch');
  }
  const forest = ctx.analysis.loops(fn);
  for (let l = forest.loopOf[home]!; l !== -1; l = forest.loops[l]!.parent) {
    for (const [from] of forest.loops[l]!.exits) {
      const blk = cfg.blocks[from]!;
      if (blk.end > blk.start) add(blk.end - 1, 'loop-exit');
    }
  }
  return out;
}

/** Whether `e`, an operand of instruction `ins`, is an immediate or a register whose reaching definitions lie in `slice`. */
export function operandFrom(ctx: CheckContext, fn: FunctionModel, ins: number, e: A.Expression, slice: ReadonlySet<number>): boolean {
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  // (Loops over the cached lists: this is asked for every operand of every instruction of a slice.)
  for (const r of registersIn(fn, e)) for (const d of rd.reaching(ins, r)) if (d !== ENTRY && slice.has(d)) return true;
  return false;
}

/** Memory instructions: those with a bracketed address operand (and `[tmap, {..}]` forms). */
export function addressOperandIndex(node: A.Instruction, which = 0): number {
  let k = 0;
  for (let i = 0; i < node.operands.length; i++) {
    if (node.operands[i]!.kind === 'Address') {
      if (k === which) return i;
      k++;
    }
  }
  return -1;
}

/**
 * Follows the value `reg` written by `ins` forward along def-use chains
 * through instructions `through` accepts, to the first instruction that uses
 * it inside an address operand. Returns the path (instruction indices, `ins`
 * first, the address user last), or undefined.
 */
export function flowsIntoAddress(
  ctx: CheckContext, fn: FunctionModel, ins: number, reg: RegisterSymbol,
  through: (node: A.Instruction) => boolean, limit = 256,
): number[] | undefined {
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const prev = new Map<number, number>();
  const seen = new Set<string>([`${ins}:${reg.id}`]);
  const queue: [number, RegisterSymbol][] = [[ins, reg]];
  let steps = 0;
  while (queue.length > 0 && steps++ < limit) {
    const [i, r] = queue.shift()!;
    for (const u of rd.usesOf(i, r)) {
      const node = fn.instructions[u]!.node;
      if (!prev.has(u) && u !== ins) prev.set(u, i);
      const inAddress = node.operands.some((o) => o.kind === 'Address' && registersIn(fn, o).includes(r));
      if (inAddress) {
        const path = [u];
        for (let x = u; x !== ins;) { x = prev.get(x) ?? ins; path.unshift(x); }
        return path;
      }
      if (!through(node)) continue;
      const t = rd.table;
      for (let s = t.defStart[u]!; s < t.defStart[u + 1]!; s++) {
        const q = fn.registers[t.defReg[s]!]!;
        const key = `${u}:${q.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push([u, q]);
      }
    }
  }
  return undefined;
}
