// Reaching definitions and def-use chains over registers, on the one solver
// (its gen/kill form, `solveBits`).
//
// A definition is an (instruction, register) write, or the register's entry
// value (a `.func` parameter, or whatever an undefined register holds), which
// counts as one distinct "entry" definition per register (instruction ENTRY).
// Definition ids are grouped by register: the ids of register r are
// [regBase[r], regBase[r+1]), its entry definition first, so a kill is one
// bit-range clear. A write kills the register's other definitions unless it
// may leave the old value in place: a guarded instruction (`@p`), or a write
// to one component of a vector register (`%v.x`).
//
// Facts are dense: per instruction, its read registers (use slots, the guard
// included, each register once) and written registers (def slots), and per
// use slot the definitions that reach it; the inverse (the use slots each
// definition reaches) is the def-use chain.
//
// Cost: compiler output is mostly in SSA form, so a register written once by
// a whole, unguarded write that dominates all its reads ("simple") is answered
// directly: its reads see that write. Only the other registers' definitions
// take bits in the solver's per-block bit sets.
import type * as A from '../../parser/ast.js';
import { AnalysisBudgetExceeded, MAX_BITSET_WORDS, MAX_DEF_USE_PAIRS } from '../budget.js';
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import { keepCompiled } from '../keep-compiled.js';
import { int32Scratch, uint32Scratch } from '../scratch.js';
import { typeBytes, type FunctionModel, type RegisterSymbol } from '../symbols.js';
import { solveBits } from './solver.js';
import { sortAscending } from './sort.js';
import { holds, IntBuffer } from './int-buffer.js';

/** The instruction of an entry definition (parameter or undefined value). */
export const ENTRY = -1;


/** Every instruction's register reads and writes, in dense arrays. */
export interface RegisterTable {
  readonly instructionCount: number;
  readonly registerCount: number;
  /** Use slots of instruction i: [useStart[i], useStart[i+1]); each names one register, once. */
  readonly useStart: Int32Array;
  readonly useReg: Int32Array;
  /** The instruction of each use slot. */
  readonly useIns: Int32Array;
  /** Def slots of instruction i: [defStart[i], defStart[i+1]). */
  readonly defStart: Int32Array;
  readonly defReg: Int32Array;
  /** 1 when the write replaces the old value (no guard, the whole register). */
  readonly defKills: Uint8Array;
  /** 32-bit slots each register occupies by its declared type (.b64 = 2,
   *  .b128 = 4, 8/16-bit = 1, times vector lanes); 0 for predicates. Only
   *  registers some instruction reads or writes are filled in. */
  readonly slots: Uint8Array;
  /** The use slot of `reg` in instruction `ins`, or -1. */
  useSlot(ins: number, reg: number): number;
  /** The def slot of `reg` in instruction `ins`, or -1. */
  defSlot(ins: number, reg: number): number;
}


const REACHING = new IntBuffer();

// Transient arrays from src/cfg/scratch.ts (this analysis made ~32 per function).
const SEEN = uint32Scratch();

function buildRegisterTable(fn: FunctionModel): RegisterTable {
  const n = fn.instructions.length;
  const regs = fn.registers;
  const R = regs.length;
  // From the model's register ids (no register object per slot, no syntax node per instruction but for a write
  // to a vector register); each register once per instruction.
  const fx = fn.effectTable;
  const fxUseStart = fx.useStart;
  const fxUses = fx.useIds;
  const fxDefStart = fx.defStart;
  const fxDefs = fx.defIds;
  const maxU = fxUses.length;
  const maxD = fxDefs.length;
  // The table's arrays are views of one buffer (one backing store, not eight), its lists written in place:
  // each at most the model's length (a register named twice by one instruction is rare), the slack unused.
  const oDefStart = n + 1;
  const oUse = 2 * (n + 1);
  const oUseIns = oUse + maxU;
  const oDef = oUseIns + maxU;
  const ints = oDef + maxD;
  const buffer = new ArrayBuffer(4 * ints + R + maxD);
  const all = new Int32Array(buffer, 0, ints);
  const bytes = new Uint8Array(buffer, 4 * ints, R + maxD);
  // (bytes: the slots of the R registers, then the kill flag of each def slot from R.)
  const seen = SEEN.get(R).fill(0, 0, R);
  let ul = oUse;
  let dl = oDef;
  for (let i = 0; i < n; i++) {
    all[i] = ul - oUse;
    const u0 = ul;
    for (let k = fxUseStart[i]!; k < fxUseStart[i + 1]!; k++) {
      const id = fxUses[k]!;
      if (holds(all, u0, ul, id)) continue;
      all[oUseIns + ul - oUse] = i;
      all[ul++] = id;
      if (seen[id] === 0) {
        seen[id] = 1;
        bytes[id] = slotsOf(regs[id]!);
      }
    }
    all[oDefStart + i] = dl - oDef;
    const k0 = fxDefStart[i]!;
    const k1 = fxDefStart[i + 1]!;
    if (k0 === k1) continue;
    const d0 = dl;
    const guarded = fx.guarded[i] !== 0;
    for (let k = k0; k < k1; k++) {
      const id = fxDefs[k]!;
      if (holds(all, d0, dl, id)) continue;
      const r = regs[id]!;
      bytes[R + dl - oDef] = guarded || (r.vector !== undefined && writesComponent(fn, fn.instructions[i]!.node.operands[0], r)) ? 0 : 1;
      all[dl++] = id;
      if (seen[id] === 0) {
        seen[id] = 1;
        bytes[id] = slotsOf(r);
      }
    }
  }
  const U = ul - oUse;
  const DS = dl - oDef;
  all[n] = U;
  all[oDefStart + n] = DS;
  const useStart = new Int32Array(buffer, 0, n + 1);
  const defStart = new Int32Array(buffer, 4 * oDefStart, n + 1);
  const useReg = new Int32Array(buffer, 4 * oUse, U);
  const useIns = new Int32Array(buffer, 4 * oUseIns, U);
  const defReg = new Int32Array(buffer, 4 * oDef, DS);
  return {
    instructionCount: n,
    registerCount: R,
    useStart, useReg, useIns, defStart, defReg,
    defKills: new Uint8Array(buffer, 4 * ints + R, DS),
    slots: new Uint8Array(buffer, 4 * ints, R),
    useSlot(ins, reg) {
      for (let s = useStart[ins]!; s < useStart[ins + 1]!; s++) if (useReg[s] === reg) return s;
      return -1;
    },
    defSlot(ins, reg) {
      for (let s = defStart[ins]!; s < defStart[ins + 1]!; s++) if (defReg[s] === reg) return s;
      return -1;
    },
  };
}

// The last register type `slotsOf` sized, and its size: a module's registers are declared in runs of one
// type (`.reg .b32 %r<100>;`), and a lookup of the type's bytes by name is a megamorphic keyed load
// (~140 machine instructions, once per register read or written).
let lastType: string | undefined;
let lastSlots = 0;

/** 32-bit slots of a register (0 for a predicate). */
export function slotsOf(r: RegisterSymbol): number {
  if (r.vector === undefined) {
    if (r.type !== lastType) {
      lastSlots = slotsOfType(r);
      lastType = r.type;
    }
    return lastSlots;
  }
  return slotsOfType(r);
}

function slotsOfType(r: RegisterSymbol): number {
  if (r.type === '.pred') return 0;
  const bytes = typeBytes(r.type) ?? 4;
  const lanes = r.vector === undefined ? 1 : Number(r.vector.slice(2)) || 1;
  return Math.max(1, Math.ceil(bytes / 4)) * lanes;
}

/** Whether the destination writes only a component (`%v.x`) of vector register `r`. */
function writesComponent(fn: FunctionModel, dest: A.Expression | undefined, r: RegisterSymbol): boolean {
  if (dest === undefined) return false;
  if (dest.kind === 'Name') return dest.component !== undefined && fn.resolve(dest) === r;
  if (dest.kind === 'Vector' || dest.kind === 'List') return dest.elements.some((e) => writesComponent(fn, e, r));
  if (dest.kind === 'PredPair') return writesComponent(fn, dest.first, r) || writesComponent(fn, dest.second, r);
  return false;
}

/** The register table of a function, cached by the context. */
export const registerTableAnalysis: FunctionAnalysis<RegisterTable> = {
  name: 'registerTable',
  compute: (_ctx, fn) => buildRegisterTable(fn),
};

// ---------------------------------------------------------------- bit sets

/** Words of a bit set of `bits` bits. */
export function bitWords(bits: number): number {
  return (bits + 31) >>> 5;
}

/** Clears bits [from, to) of the set at word `base` of `a`. */
function clearRange(a: Uint32Array, base: number, from: number, to: number): void {
  if (from >= to) return;
  const fw = base + (from >>> 5);
  const tw = base + ((to - 1) >>> 5);
  const fmask = ~0 << (from & 31);
  const tmask = (to & 31) === 0 ? ~0 : ~(~0 << (to & 31));
  if (fw === tw) {
    a[fw]! &= ~(fmask & tmask);
    return;
  }
  a[fw]! &= ~fmask;
  for (let w = fw + 1; w < tw; w++) a[w] = 0;
  a[tw]! &= ~tmask;
}

/** Sets bits [from, to) of the set at word `base` of `a`. */
function setRange(a: Uint32Array, base: number, from: number, to: number): void {
  if (from >= to) return;
  const fw = base + (from >>> 5);
  const tw = base + ((to - 1) >>> 5);
  const fmask = ~0 << (from & 31);
  const tmask = (to & 31) === 0 ? ~0 : ~(~0 << (to & 31));
  if (fw === tw) {
    a[fw]! |= fmask & tmask;
    return;
  }
  a[fw]! |= fmask;
  for (let w = fw + 1; w < tw; w++) a[w] = ~0;
  a[tw]! |= tmask;
}

/** Writes `map` of each set bit in [from, to) into `out` from `at`, in bit order (room for to - from made);
 *  returns the index after the last. */
function collectRange(a: Uint32Array, from: number, to: number, map: Int32Array, out: Int32Array, at: number): number {
  for (let b = from; b < to;) {
    const word = a[b >>> 5]! >>> (b & 31);
    if (word === 0) {
      b = (b | 31) + 1;
      continue;
    }
    if ((word & 1) !== 0) out[at++] = map[b]!;
    b++;
  }
  return at;
}

const EMPTY = new Uint32Array(0);

// ---------------------------------------------------------------- reaching definitions

export interface ReachingDefinitions {
  readonly fn: FunctionModel;
  readonly table: RegisterTable;
  readonly definitionCount: number;
  /** Definition ids of register r: [regBase[r], regBase[r+1]); regBase[r] is its entry definition. */
  readonly regBase: Int32Array;
  /** Instruction of each definition (ENTRY for an entry definition). */
  readonly defIns: Int32Array;
  /** Register of each definition. */
  readonly defRegOf: Int32Array;
  /** Definition id of each def slot of the table. */
  readonly defIdOfSlot: Int32Array;
  /** Definitions reaching each use slot: rdDef[rdStart[s], rdStart[s+1]). */
  readonly rdStart: Int32Array;
  readonly rdDef: Int32Array;
  /** Use slots each definition reaches: duUse[duStart[d], duStart[d+1]). */
  readonly duStart: Int32Array;
  readonly duUse: Int32Array;
  /** 1 for a register in SSA form here: written at most once, by a whole,
   *  unguarded write that dominates every read (or never written). Its reads
   *  see that one definition; it takes no part in the bit-set dataflow. */
  readonly simple: Uint8Array;
  /** Bit of each definition in the dataflow bit sets (-1 for a simple register's). */
  readonly bitOfDef: Int32Array;
  /** Words per block in `atBlockStart`. */
  readonly bitWords: number;
  /** Definitions (of non-simple registers) reaching each block's start, by
   *  bit: block b's set is words [b * bitWords, (b + 1) * bitWords). */
  readonly atBlockStart: Uint32Array;
  /** Block visits the solver needed. */
  readonly visits: number;
  /** Whether definition `d` reaches the start of `block` (simple registers: undefined; ask liveness). */
  reachesBlockStart(d: number, block: number): boolean | undefined;
  /** Instructions whose definitions of `reg` reach its read at `ins` (ENTRY for the entry value), ascending. */
  reaching(ins: number, reg: number | RegisterSymbol): readonly number[];
  /** Instructions reading the value `ins` writes into `reg`, ascending. */
  usesOf(ins: number, reg: number | RegisterSymbol): number[];
  /** Instructions writing `reg` (ENTRY first, for its entry value). */
  definitionsOf(reg: number | RegisterSymbol): number[];
}

const regId = (r: number | RegisterSymbol): number => (typeof r === 'number' ? r : r.id);
const NONE: readonly number[] = [];

const HEAD = int32Scratch();
const NEXT_SIBLING = int32Scratch();
const CHILD = int32Scratch();
const STACK = int32Scratch();
const PRE = int32Scratch();
const POST = int32Scratch();

/** Pre/post numbers of the dominator tree, for O(1) dominance: in PRE's and POST's scratch (-1 for a block
 *  the tree does not reach). */
function domNumbers(idom: Int32Array, root: number, count: number): { pre: Int32Array; post: Int32Array } {
  const head = HEAD.get(count).fill(-1, 0, count);
  const nextSibling = NEXT_SIBLING.get(count).fill(-1, 0, count);
  for (let b = count - 1; b >= 0; b--) {
    const p = idom[b]!;
    if (b === root || p < 0) continue;
    nextSibling[b] = head[p]!;
    head[p] = b;
  }
  const pre = PRE.get(count).fill(-1, 0, count);
  const post = POST.get(count).fill(-1, 0, count);
  let clock = 0;
  // (Each block is pushed once: count entries suffice.)
  const stack = STACK.get(count);
  let top = 0;
  stack[top++] = root;
  const child = CHILD.get(count).fill(-2, 0, count);
  pre[root] = clock++;
  while (top > 0) {
    const x = stack[top - 1]!;
    const c = child[x] === -2 ? head[x]! : nextSibling[child[x]!]!;
    if (c === -1) {
      post[x] = clock++;
      top--;
      continue;
    }
    child[x] = c;
    pre[c] = clock++;
    stack[top++] = c;
  }
  return { pre, post };
}

const NEXT = int32Scratch();
const BIT_BASE = int32Scratch();
const BIT_END = int32Scratch();
const BIT_TO_DEF = int32Scratch();
const GEN = uint32Scratch();
const KILL = uint32Scratch();
const BOUNDARY = uint32Scratch();
const STATE = uint32Scratch();
const FILL = int32Scratch();

function computeReachingDefinitions(ctx: AnalysisContext, fn: FunctionModel): ReachingDefinitions {
  const cfg = ctx.cfg(fn);
  const t = ctx.get(fn, registerTableAnalysis);
  const R = t.registerCount;
  const n = t.instructionCount;
  const { defStart, defReg, defKills, useStart, useReg, useIns } = t;
  const defSlots = defReg.length;
  const U = useReg.length;
  // Definition ids grouped by register, entry definition first: one per register and one per def slot.
  const D = R === 0 ? 0 : R + defSlots;
  // The facts' arrays of known length are views of one buffer (one backing store, not eight).
  const oDefIns = R + 1;
  const oDefRegOf = oDefIns + D;
  const oDefIdOfSlot = oDefRegOf + D;
  const oBitOfDef = oDefIdOfSlot + defSlots;
  const oRdStart = oBitOfDef + D;
  const oDuStart = oRdStart + U + 1;
  const ints = oDuStart + D + 1;
  const buffer = new ArrayBuffer(4 * ints + R);
  const regBase = new Int32Array(buffer, 0, R + 1);
  const defIns = new Int32Array(buffer, 4 * oDefIns, D);
  const defRegOf = new Int32Array(buffer, 4 * oDefRegOf, D);
  const defIdOfSlot = new Int32Array(buffer, 4 * oDefIdOfSlot, defSlots);
  const bitOfDef = new Int32Array(buffer, 4 * oBitOfDef, D).fill(-1);
  const rdStart = new Int32Array(buffer, 4 * oRdStart, U + 1);
  const duStart = new Int32Array(buffer, 4 * oDuStart, D + 1);
  const simple = new Uint8Array(buffer, 4 * ints, R);
  for (let s = 0; s < defSlots; s++) regBase[defReg[s]! + 1]!++;
  for (let r = 0; r < R; r++) regBase[r + 1]! += regBase[r]! + 1;
  const next = NEXT.get(R);
  for (let r = 0; r < R; r++) {
    const d0 = regBase[r]!;
    defIns[d0] = ENTRY;
    next[r] = d0 + 1;
    for (let d = d0; d < regBase[r + 1]!; d++) defRegOf[d] = r;
  }
  for (let i = 0; i < n; i++) {
    for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
      const d = next[defReg[s]!]!++;
      defIns[d] = i;
      defIdOfSlot[s] = d;
    }
  }

  // Simple registers: no write, or one killing write dominating every read.
  const dom = ctx.dominators(fn);
  const { pre, post } = domNumbers(dom.idom, dom.root, cfg.blocks.length + 1);
  const blockOf = cfg.blockOf;
  for (let r = 0; r < R; r++) {
    const count = regBase[r + 1]! - regBase[r]! - 1;
    if (count === 0) simple[r] = 1;
    else if (count === 1) simple[r] = 2; // candidate: checked against every read below
  }
  for (let s = 0; s < defSlots; s++) if (defKills[s] === 0) simple[defReg[s]!] = 0;
  for (let u = 0; u < U; u++) {
    const r = useReg[u]!;
    if (simple[r] !== 2) continue;
    const i = useIns[u]!;
    const di = defIns[regBase[r]! + 1]!;
    const bd = blockOf[di]!;
    const bu = blockOf[i]!;
    const dominates = bd === bu
      ? di < i
      : pre[bd] !== -1 && pre[bu] !== -1 && pre[bd]! < pre[bu]! && post[bu]! < post[bd]!;
    if (!dominates) simple[r] = 0;
  }

  // Bits for the definitions of the other registers (a candidate that passed is simple).
  const bitBase = BIT_BASE.get(R);
  const bitEnd = BIT_END.get(R);
  // (At most one bit per definition.)
  const bitToDef = BIT_TO_DEF.get(D);
  let bits = 0;
  for (let r = 0; r < R; r++) {
    if (simple[r] === 2) simple[r] = 1;
    bitBase[r] = bits;
    if (simple[r] === 0) {
      for (let d = regBase[r]!; d < regBase[r + 1]!; d++) {
        bitToDef[bits] = d;
        bitOfDef[d] = bits++;
      }
    }
    bitEnd[r] = bits;
  }
  const words = bitWords(bits);
  if (words * cfg.blocks.length > MAX_BITSET_WORDS) {
    throw new AnalysisBudgetExceeded('reaching definitions', `${bits.toLocaleString('en-US')} definitions × ${cfg.blocks.length.toLocaleString('en-US')} blocks in ${fn.name}`);
  }
  const apply = (state: Uint32Array, i: number): void => {
    for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
      const b = bitOfDef[defIdOfSlot[s]!]!;
      if (b === -1) continue;
      if (defKills[s] === 1) {
        const r = defReg[s]!;
        clearRange(state, 0, bitBase[r]!, bitEnd[r]!);
      }
      state[b >>> 5]! |= 1 << (b & 31);
    }
  };
  // Each block's effect as gen/kill sets, so a solver visit costs the set
  // size, not the block's length: out = gen | (in & ~kill). (Scratch: the
  // solver reads them, and the boundary, during the solve only.)
  const B = cfg.blocks.length;
  const size = bits === 0 ? 0 : B * words;
  const gen = GEN.get(size).fill(0, 0, size);
  const kill = KILL.get(size).fill(0, 0, size);
  if (bits !== 0) {
    for (const block of cfg.blocks) {
      const base = block.id * words;
      for (let s = defStart[block.start]!; s < defStart[block.end]!; s++) {
        const b = bitOfDef[defIdOfSlot[s]!]!;
        if (b === -1) continue;
        if (defKills[s] === 1) {
          const r = defReg[s]!;
          clearRange(gen, base, bitBase[r]!, bitEnd[r]!);
          setRange(kill, base, bitBase[r]!, bitEnd[r]!);
        }
        gen[base + (b >>> 5)]! |= 1 << (b & 31);
      }
    }
  }
  // The entry definitions of the registers that take bits reach the entry block.
  const boundary = BOUNDARY.get(words).fill(0, 0, words);
  for (let r = 0; r < R; r++) {
    if (simple[r] === 1) continue;
    const x = bitOfDef[regBase[r]!]!;
    boundary[x >>> 5]! |= 1 << (x & 31);
  }
  const result = bits === 0
    ? { atStart: EMPTY, visits: 0 }
    : solveBits(cfg, { direction: 'forward', words, boundary, gen, kill });
  const atBlockStart = result.atStart;

  // Per use slot, the reaching definitions (slots are numbered in
  // instruction order and blocks are contiguous ranges in order).
  const rd = REACHING.reset();
  // (Written straight into the buffer's storage: room for a block's simple reads made at once.)
  let out = rd.reserve(U);
  let at = 0;
  const state = STATE.get(words);
  for (const block of cfg.blocks) {
    if (block.start === block.end) continue;
    for (let w = 0, base = block.id * words; w < words; w++) state[w] = atBlockStart[base + w]!;
    for (let i = block.start; i < block.end; i++) {
      for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
        const r = useReg[s]!;
        if (simple[r] === 1) {
          rdStart[s] = at;
          out[at++] = regBase[r + 1]! - 1;
          continue;
        }
        // Room for every definition of r, and one for each read left.
        rd.length = at;
        out = rd.reserve(bitEnd[r]! - bitBase[r]! + U - s);
        rdStart[s] = at;
        at = collectRange(state, bitBase[r]!, bitEnd[r]!, bitToDef, out, at);
        if (at > MAX_DEF_USE_PAIRS) {
          throw new AnalysisBudgetExceeded('reaching definitions', `more than ${MAX_DEF_USE_PAIRS.toLocaleString('en-US')} definition-use pairs in ${fn.name}`);
        }
      }
      if (bits !== 0) apply(state, i);
    }
  }
  rd.length = at;
  rdStart[U] = at;
  // (The walk's one closure, run for every instruction: its compiled code kept from function to function.)
  keepCompiled('reaching-definitions', apply);
  // The pairs both ways in a second buffer, made once their count is known.
  const pairs = new ArrayBuffer(8 * at);
  const rdDef = new Int32Array(pairs, 0, at);
  rdDef.set(out.subarray(0, at));

  // The inverse: use slots of each definition.
  for (let k = 0; k < at; k++) duStart[rdDef[k]! + 1]!++;
  for (let d = 0; d < D; d++) duStart[d + 1]! += duStart[d]!;
  const fill = FILL.get(D);
  fill.set(duStart.subarray(0, D));
  const duUse = new Int32Array(pairs, 4 * at, at);
  for (let s = 0; s < U; s++) {
    for (let k = rdStart[s]!; k < rdStart[s + 1]!; k++) duUse[fill[rdDef[k]!]!++] = s;
  }
  const reachingOf: (readonly number[] | undefined)[] = [];
  return {
    fn, table: t, definitionCount: D, regBase, defIns, defRegOf, defIdOfSlot, rdStart, rdDef, duStart, duUse,
    simple, bitOfDef,
    bitWords: words,
    atBlockStart,
    visits: result.visits,
    reachesBlockStart(d, block) {
      const b = bitOfDef[d]!;
      if (b === -1) return undefined;
      return ((atBlockStart[block * words + (b >>> 5)]! >>> (b & 31)) & 1) === 1;
    },
    reaching(ins, reg) {
      const s = t.useSlot(ins, regId(reg));
      if (s === -1) return NONE;
      // (Made once per use: the checks ask about the same reads again and again.)
      let out = reachingOf[s];
      if (out === undefined) {
        const list: number[] = [];
        for (let k = rdStart[s]!; k < rdStart[s + 1]!; k++) list.push(defIns[rdDef[k]!]!);
        out = sortAscending(list);
        reachingOf[s] = out;
      }
      return out;
    },
    usesOf(ins, reg) {
      const s = t.defSlot(ins, regId(reg));
      if (s === -1) return [];
      const d = defIdOfSlot[s]!;
      const out: number[] = [];
      for (let k = duStart[d]!; k < duStart[d + 1]!; k++) out.push(useIns[duUse[k]!]!);
      return sortAscending(out);
    },
    definitionsOf(reg) {
      const r = regId(reg);
      const out: number[] = [];
      for (let d = regBase[r]!; d < regBase[r + 1]!; d++) out.push(defIns[d]!);
      return out;
    },
  };
}

/** Reaching definitions and def-use chains: `ctx.get(fn, reachingDefinitionsAnalysis)`. */
export const reachingDefinitionsAnalysis: FunctionAnalysis<ReachingDefinitions> = {
  name: 'reachingDefinitions',
  compute: computeReachingDefinitions,
};
