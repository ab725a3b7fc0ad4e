// Register liveness (backward, on the one solver's gen/kill form): live-in and live-out of
// every block, what is live before and after each instruction, and register
// pressure.
//
// A register is live at a point when some path from there reads it before
// writing it. A write kills only when it replaces the whole value: a guarded
// (`@p`) write, or a write to one component of a vector register, leaves the
// old value possibly live. A `.func`'s return registers are live at its exit.
//
// Pressure is counted at two points of each instruction: before it (its
// live-in) and just after it (its live-out plus what it writes, since a
// result nobody reads still occupies a register for a moment). Three peaks are
// reported, each with where it occurs: the number of live data registers, the
// 32-bit slots they occupy (by declared type width: .b64 = 2, .b128 = 4,
// 8/16-bit = 1, vector registers times their lanes), and live predicates
// (counted apart: they live in the predicate file).
//
// Cost: only "global" registers (read in some block before any write there,
// or returned) can be live at a block boundary, so only they take bits in
// the solver's bit sets; pressure is counted in one backward walk per block
// over a dense flag array.
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import { keepCompiled } from '../keep-compiled.js';
import type { FunctionModel, RegisterSymbol } from '../symbols.js';
import { AnalysisBudgetExceeded, MAX_BITSET_WORDS } from '../budget.js';
import { bitWords, registerTableAnalysis, type RegisterTable } from './reaching-definitions.js';
import { solveBits } from './solver.js';

export interface PressurePeak {
  /** The peak value. */
  readonly count: number;
  /** Instruction where it is reached (the first such), or -1 when the count is 0. */
  readonly at: number;
  /** Before the instruction, or just after it. */
  readonly point: 'before' | 'after';
}

export interface Liveness {
  readonly fn: FunctionModel;
  readonly table: RegisterTable;
  /** Registers that can be live at a block boundary (read in some block
   *  before being written there, or returned): only they take bits. */
  readonly globalRegisters: Int32Array;
  /** Live data registers, 32-bit slots and predicates before each instruction. */
  readonly registersBefore: Int32Array;
  readonly slotsBefore: Int32Array;
  readonly predicatesBefore: Int32Array;
  readonly peak: {
    readonly registers: PressurePeak;
    readonly slots32: PressurePeak;
    readonly predicates: PressurePeak;
  };
  /** Block visits the solver needed. */
  readonly visits: number;
  /** 32-bit slots a register occupies (0 for predicates). */
  slotsOf(reg: number): number;
  isLiveIn(block: number, reg: number | RegisterSymbol): boolean;
  isLiveOut(block: number, reg: number | RegisterSymbol): boolean;
  /** Register ids live at a block's start / end, ascending. */
  liveIn(block: number): number[];
  liveOut(block: number): number[];
  /** Register ids live just before / just after instruction `ins`, ascending. */
  liveBefore(ins: number): number[];
  liveAfter(ins: number): number[];
  /** Registers live at the function's entry: read before any write on some path (parameters expected). */
  liveAtEntry(): number[];
}

const regId = (r: number | RegisterSymbol): number => (typeof r === 'number' ? r : r.id);

function bitsToList(bits: Uint32Array, map: Int32Array): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w]!;
    while (x !== 0) {
      const low = x & -x;
      out.push(map[w * 32 + 31 - Math.clz32(low)]!);
      x ^= low;
    }
  }
  return out.sort((a, b) => a - b);
}

const has = (bits: Uint32Array, base: number, k: number): boolean => k >= 0 && ((bits[base + (k >>> 5)]! >>> (k & 31)) & 1) === 1;

function computeLiveness(ctx: AnalysisContext, fn: FunctionModel): Liveness {
  const cfg = ctx.cfg(fn);
  const t = ctx.get(fn, registerTableAnalysis);
  const R = t.registerCount;
  const { useStart, useReg, defStart, defReg, defKills } = t;

  // Slot weight per register; predicates (weight 0) apart.
  const slots = t.slots;
  // Global registers: upward-exposed in some block, or returned.
  const compact = new Int32Array(R).fill(-1);
  const globals: number[] = [];
  const makeGlobal = (r: number): void => {
    if (compact[r] === -1) {
      compact[r] = globals.length;
      globals.push(r);
    }
  };
  const returned: number[] = [];
  for (const decl of fn.decl.returns ?? []) {
    for (const d of decl.declarators) {
      const sym = fn.scope.registers.get(d.name);
      if (sym !== undefined) {
        makeGlobal(sym.id);
        returned.push(sym.id);
      }
    }
  }
  const killedIn = new Int32Array(R).fill(-1);
  for (const block of cfg.blocks) {
    for (let i = block.start; i < block.end; i++) {
      for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
        const r = useReg[s]!;
        if (killedIn[r] !== block.id) makeGlobal(r);
      }
      for (let s = defStart[i]!; s < defStart[i + 1]!; s++) if (defKills[s] === 1) killedIn[defReg[s]!] = block.id;
    }
  }
  const globalRegisters = Int32Array.from(globals);
  const words = bitWords(globals.length);
  if (words * cfg.blocks.length > MAX_BITSET_WORDS) {
    throw new AnalysisBudgetExceeded('liveness', `${globals.length.toLocaleString('en-US')} registers × ${cfg.blocks.length.toLocaleString('en-US')} blocks in ${fn.name}`);
  }

  // Each block's effect as use/def sets (reads before any write in the
  // block; whole writes), so a solver visit costs the set size, not the
  // block's length: in = use | (out & ~def).
  const B = cfg.blocks.length;
  const useSet = new Uint32Array(B * words);
  const defSet = new Uint32Array(B * words);
  for (const block of cfg.blocks) {
    const base = block.id * words;
    for (let i = block.end - 1; i >= block.start; i--) {
      for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
        if (defKills[s] === 0) continue;
        const k = compact[defReg[s]!]!;
        if (k === -1) continue;
        defSet[base + (k >>> 5)]! |= 1 << (k & 31);
        useSet[base + (k >>> 5)]! &= ~(1 << (k & 31));
      }
      for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
        const k = compact[useReg[s]!]!;
        if (k !== -1) useSet[base + (k >>> 5)]! |= 1 << (k & 31);
      }
    }
  }
  // The returned registers are live at the exit.
  const boundary = new Uint32Array(words);
  for (const r of returned) {
    const k = compact[r]!;
    boundary[k >>> 5]! |= 1 << (k & 31);
  }
  const solved = solveBits(cfg, { direction: 'backward', words, boundary, gen: useSet, kill: defSet });
  const liveInFlat = solved.atStart;
  const liveOutFlat = solved.atEnd;
  const liveInOf = (b: number): Uint32Array => liveInFlat.subarray(b * words, (b + 1) * words);
  const liveOutOf = (b: number): Uint32Array => liveOutFlat.subarray(b * words, (b + 1) * words);

  // Pressure, and live-at queries: walk a block backward over a dense
  // per-register flag array, starting from its live-out.
  const live = new Uint8Array(R);
  const touched: number[] = [];
  const startWalk = (block: number): void => {
    for (const r of touched) live[r] = 0;
    touched.length = 0;
    const base = block * words;
    for (let w = 0; w < words; w++) {
      let x = liveOutFlat[base + w]!;
      while (x !== 0) {
        const low = x & -x;
        const r = globals[w * 32 + 31 - Math.clz32(low)]!;
        live[r] = 1;
        touched.push(r);
        x ^= low;
      }
    }
  };
  const liveList = (): number[] => [...new Set(touched)].filter((r) => live[r] === 1).sort((a, b) => a - b);
  const walkBack = (i: number): void => {
    for (let s = defStart[i]!; s < defStart[i + 1]!; s++) if (defKills[s] === 1) live[defReg[s]!] = 0;
    for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
      const r = useReg[s]!;
      if (live[r] === 0) {
        live[r] = 1;
        touched.push(r);
      }
    }
  };

  const n = t.instructionCount;
  const registersBefore = new Int32Array(n);
  const slotsBefore = new Int32Array(n);
  const predicatesBefore = new Int32Array(n);
  let regs = 0;
  let slotCount = 0;
  let preds = 0;
  type MutablePeak = { count: number; at: number; point: 'before' | 'after' };
  const peakRegs: MutablePeak = { count: 0, at: -1, point: 'before' };
  const peakSlots: MutablePeak = { count: 0, at: -1, point: 'before' };
  const peakPreds: MutablePeak = { count: 0, at: -1, point: 'before' };
  const note = (peak: MutablePeak, value: number, at: number, point: 'before' | 'after'): void => {
    // Walking backward, ">=" keeps the earliest instruction reaching the peak.
    if (value > 0 && value >= peak.count) {
      peak.count = value;
      peak.at = at;
      peak.point = point;
    }
  };
  const add = (r: number, sign: number): void => {
    if (slots[r] === 0) preds += sign;
    else {
      regs += sign;
      slotCount += sign * slots[r]!;
    }
  };
  for (const block of cfg.blocks) {
    if (block.start === block.end) continue;
    startWalk(block.id);
    regs = 0;
    slotCount = 0;
    preds = 0;
    for (const r of touched) add(r, 1);
    for (let i = block.end - 1; i >= block.start; i--) {
      // Just after i: live-out plus dead results.
      let dr = 0;
      let ds = 0;
      let dp = 0;
      for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
        const r = defReg[s]!;
        if (live[r] === 1) continue;
        if (slots[r] === 0) dp++;
        else {
          dr++;
          ds += slots[r]!;
        }
      }
      note(peakRegs, regs + dr, i, 'after');
      note(peakSlots, slotCount + ds, i, 'after');
      note(peakPreds, preds + dp, i, 'after');
      for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
        const r = defReg[s]!;
        if (defKills[s] === 1 && live[r] === 1) {
          live[r] = 0;
          add(r, -1);
        }
      }
      for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
        const r = useReg[s]!;
        if (live[r] === 0) {
          live[r] = 1;
          touched.push(r);
          add(r, 1);
        }
      }
      registersBefore[i] = regs;
      slotsBefore[i] = slotCount;
      predicatesBefore[i] = preds;
      note(peakRegs, regs, i, 'before');
      note(peakSlots, slotCount, i, 'before');
      note(peakPreds, preds, i, 'before');
    }
  }
  for (const r of touched) live[r] = 0;
  touched.length = 0;
  const peak = { registers: peakRegs, slots32: peakSlots, predicates: peakPreds };
  PEAKS.set(fn, peak);
  // (The pressure walk's closures, run for every instruction: their compiled code kept from function to function.)
  keepCompiled('liveness', note, add);

  const liveAfter = (ins: number): number[] => {
    const block = cfg.blocks[cfg.blockOf[ins]!]!;
    startWalk(block.id);
    for (let i = block.end - 1; i > ins; i--) walkBack(i);
    return liveList();
  };

  return {
    fn, table: t, globalRegisters,
    registersBefore, slotsBefore, predicatesBefore,
    peak,
    visits: solved.visits,
    slotsOf: (reg) => slots[reg]!,
    isLiveIn: (block, reg) => has(liveInFlat, block * words, compact[regId(reg)]!),
    isLiveOut: (block, reg) => has(liveOutFlat, block * words, compact[regId(reg)]!),
    liveIn: (block) => bitsToList(liveInOf(block), globalRegisters),
    liveOut: (block) => bitsToList(liveOutOf(block), globalRegisters),
    liveAfter,
    liveBefore: (ins) => {
      liveAfter(ins);
      walkBack(ins);
      return liveList();
    },
    liveAtEntry: () => (cfg.blocks.length === 0 ? [] : bitsToList(liveInOf(0), globalRegisters)),
  };
}

/** Each function's peaks, kept after its facts are dropped (a context disposes a part's facts; F092 asks
 *  for a kernel's peak whether or not another check already computed its liveness). */
const PEAKS = new WeakMap<FunctionModel, Liveness['peak']>();

/** A function's register pressure peaks, without keeping its liveness facts. */
export function pressurePeaks(ctx: AnalysisContext, fn: FunctionModel): Liveness['peak'] {
  return PEAKS.get(fn) ?? ctx.transient(fn, livenessAnalysis).peak;
}

/** Register liveness and pressure: `ctx.get(fn, livenessAnalysis)`. */
export const livenessAnalysis: FunctionAnalysis<Liveness> = {
  name: 'liveness',
  compute: computeLiveness,
};
