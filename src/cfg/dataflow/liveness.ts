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
import type { FunctionModel, RegisterSymbol } from '../symbols.js';
import { AnalysisBudgetExceeded, MAX_BITSET_WORDS } from '../budget.js';
import { bitWords, registerTableAnalysis, type RegisterTable } from './reaching-definitions.js';
import { solveBits } from './solver.js';
import { IntBuffer } from './int-buffer.js';
import type { Cfg } from '../builder.js';

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

/** Scratch kept from function to function (the compute's own; the queries' state is per function). */
let KILLED_IN = new Int32Array(1024);
let EXPOSED_IN = new Int32Array(1024);
let LIVE = new Uint8Array(1024);
const GLOBALS = new IntBuffer();
/** Each block's reads before any write there and whole writes, as (block, register) pairs in two columns. */
const EXPOSED = new IntBuffer();
const KILLS = new IntBuffer();
/** The blocks' use and def bit sets, and the exit's boundary set. */
let SETS = new Uint32Array(1024);
let BOUNDARY = new Uint32Array(64);

/** `KILLED_IN`, `EXPOSED_IN` and `LIVE` for `R` registers: -1, -1 and 0 throughout. */
function scratchFor(R: number): void {
  if (KILLED_IN.length < R) {
    KILLED_IN = new Int32Array(Math.max(R, 2 * KILLED_IN.length));
    EXPOSED_IN = new Int32Array(KILLED_IN.length);
    LIVE = new Uint8Array(KILLED_IN.length);
  }
  KILLED_IN.fill(-1, 0, R);
  EXPOSED_IN.fill(-1, 0, R);
}

/** SETS cleared for `size` words, grown when needed. */
function setsFor(size: number): Uint32Array {
  if (SETS.length < size) SETS = new Uint32Array(Math.max(size, 2 * SETS.length));
  return SETS.fill(0, 0, size);
}

/** A mutable pressure peak: the count, the instruction, and 1 for "after" (0: before). */
const PEAK_COUNT = 0;
const PEAK_AT = 1;
const PEAK_AFTER = 2;

function computeLiveness(ctx: AnalysisContext, fn: FunctionModel): Liveness {
  const cfg = ctx.cfg(fn);
  const t = ctx.get(fn, registerTableAnalysis);
  const R = t.registerCount;
  const { useStart, useReg, defStart, defReg, defKills } = t;

  // Global registers: upward-exposed in some block, or returned.
  const compact = new Int32Array(R).fill(-1);
  const globals = GLOBALS.reset();
  const returned: number[] = [];
  for (const decl of fn.decl.returns ?? []) {
    for (const d of decl.declarators) {
      const sym = fn.scope.registers.get(d.name);
      if (sym !== undefined) {
        if (compact[sym.id] === -1) {
          compact[sym.id] = globals.length;
          globals.push(sym.id);
        }
        returned.push(sym.id);
      }
    }
  }
  scratchFor(R);
  const killedIn = KILLED_IN;
  const exposedIn = EXPOSED_IN;
  const exposed = EXPOSED.reset();
  const kills = KILLS.reset();
  const blocks = cfg.blocks;
  const B = blocks.length;
  // One walk forward: a read before any whole write in its block is upward-exposed there (its register is
  // global), and each block's whole writes; kept as pairs, made bits once the globals are all numbered.
  for (let b = 0; b < B; b++) {
    const block = blocks[b]!;
    for (let i = block.start; i < block.end; i++) {
      for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
        const r = useReg[s]!;
        if (killedIn[r] === b || exposedIn[r] === b) continue;
        exposedIn[r] = b;
        exposed.push(b);
        exposed.push(r);
        if (compact[r] === -1) {
          compact[r] = globals.length;
          globals.push(r);
        }
      }
      for (let s = defStart[i]!; s < defStart[i + 1]!; s++) {
        const r = defReg[s]!;
        if (defKills[s] === 1 && killedIn[r] !== b) {
          killedIn[r] = b;
          kills.push(b);
          kills.push(r);
        }
      }
    }
  }
  const globalRegisters = globals.take();
  const G = globalRegisters.length;
  const words = bitWords(G);
  if (words * B > MAX_BITSET_WORDS) {
    throw new AnalysisBudgetExceeded('liveness', `${G.toLocaleString('en-US')} registers × ${B.toLocaleString('en-US')} blocks in ${fn.name}`);
  }

  // Each block's effect as use/def sets (reads before any write in the block; whole writes of global
  // registers), so a solver visit costs the set size, not the block's length: in = use | (out & ~def).
  // (Both in one scratch buffer; the solver keeps neither.)
  const sets = setsFor(2 * B * words);
  const useSet = sets.subarray(0, B * words);
  const defSet = sets.subarray(B * words, 2 * B * words);
  setBits(useSet, exposed, compact, words);
  setBits(defSet, kills, compact, words);
  // The returned registers are live at the exit.
  if (BOUNDARY.length < words) BOUNDARY = new Uint32Array(Math.max(words, 2 * BOUNDARY.length));
  const boundary = BOUNDARY.fill(0, 0, words).subarray(0, words);
  for (const r of returned) {
    const k = compact[r]!;
    boundary[k >>> 5]! |= 1 << (k & 31);
  }
  const solved = solveBits(cfg, { direction: 'backward', words, boundary, gen: useSet, kill: defSet });
  const liveInFlat = solved.atStart;
  const liveOutFlat = solved.atEnd;

  const n = t.instructionCount;
  const counts = new Int32Array(3 * n);
  const registersBefore = counts.subarray(0, n);
  const slotsBefore = counts.subarray(n, 2 * n);
  const predicatesBefore = counts.subarray(2 * n);
  const peaks = pressure(t, blocks, liveOutFlat, words, globalRegisters, registersBefore, slotsBefore, predicatesBefore);
  const peakOf = (k: number): PressurePeak => ({
    count: peaks[k + PEAK_COUNT]!, at: peaks[k + PEAK_AT]!, point: peaks[k + PEAK_AFTER] === 1 ? 'after' : 'before',
  });
  const peak = { registers: peakOf(0), slots32: peakOf(3), predicates: peakOf(6) };
  PEAKS.set(fn, peak);

  return livenessFacts(fn, t, cfg, compact, globalRegisters, words, liveInFlat, liveOutFlat, {
    registersBefore, slotsBefore, predicatesBefore, peak, visits: solved.visits,
  });
}

/** The bit of each (block, register) pair whose register is global, in sets of `words` words per block. */
function setBits(sets: Uint32Array, pairs: IntBuffer, compact: Int32Array, words: number): void {
  const data = pairs.data;
  for (let p = 0; p < pairs.length; p += 2) {
    const k = compact[data[p + 1]!]!;
    if (k !== -1) sets[data[p]! * words + (k >>> 5)]! |= 1 << (k & 31);
  }
}

/** Peaks of (registers, slots, predicates), each as count, instruction, after: 9 numbers. */
const PEAKS_SCRATCH = new Int32Array(9);
const NO_PEAKS = [0, -1, 0, 0, -1, 0, 0, -1, 0];

/** Peak `k` (0 registers, 3 slots, 6 predicates) raised to `value` at instruction `at` (`after`: 1 just after it,
 *  0 just before). Walking backward, ">=" keeps the earliest instruction reaching the peak. */
function notePeak(peaks: Int32Array, k: number, value: number, at: number, after: number): void {
  if (value > 0 && value >= peaks[k]!) {
    peaks[k] = value;
    peaks[k + 1] = at;
    peaks[k + 2] = after;
  }
}

/** Register pressure: one backward walk per block from its live-out over a dense per-register flag array
 *  (module scratch, cleared after each block), filling the per-instruction counts; returns the peaks. */
function pressure(
  t: RegisterTable, blocks: Cfg['blocks'], liveOutFlat: Uint32Array, words: number, globals: Int32Array,
  registersBefore: Int32Array, slotsBefore: Int32Array, predicatesBefore: Int32Array,
): Int32Array {
  const { useStart, useReg, defStart, defReg, defKills, slots } = t;
  const live = LIVE;
  const peaks = PEAKS_SCRATCH;
  peaks.set(NO_PEAKS);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    if (block.start === block.end) continue;
    let regs = 0;
    let slotCount = 0;
    let preds = 0;
    const base = b * words;
    for (let w = 0; w < words; w++) {
      let x = liveOutFlat[base + w]!;
      while (x !== 0) {
        const low = x & -x;
        const r = globals[w * 32 + 31 - Math.clz32(low)]!;
        live[r] = 1;
        const weight = slots[r]!;
        if (weight === 0) preds++;
        else {
          regs++;
          slotCount += weight;
        }
        x ^= low;
      }
    }
    for (let i = block.end - 1; i >= block.start; i--) {
      const d0 = defStart[i]!;
      const d1 = defStart[i + 1]!;
      // Just after i: live-out plus dead results.
      let dr = regs;
      let ds = slotCount;
      let dp = preds;
      for (let s = d0; s < d1; s++) {
        const r = defReg[s]!;
        if (live[r] === 1) continue;
        const weight = slots[r]!;
        if (weight === 0) dp++;
        else {
          dr++;
          ds += weight;
        }
      }
      notePeak(peaks, 0, dr, i, 1);
      notePeak(peaks, 3, ds, i, 1);
      notePeak(peaks, 6, dp, i, 1);
      for (let s = d0; s < d1; s++) {
        const r = defReg[s]!;
        if (defKills[s] === 1 && live[r] === 1) {
          live[r] = 0;
          const weight = slots[r]!;
          if (weight === 0) preds--;
          else {
            regs--;
            slotCount -= weight;
          }
        }
      }
      for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
        const r = useReg[s]!;
        if (live[r] === 0) {
          live[r] = 1;
          const weight = slots[r]!;
          if (weight === 0) preds++;
          else {
            regs++;
            slotCount += weight;
          }
        }
      }
      registersBefore[i] = regs;
      slotsBefore[i] = slotCount;
      predicatesBefore[i] = preds;
      notePeak(peaks, 0, regs, i, 0);
      notePeak(peaks, 3, slotCount, i, 0);
      notePeak(peaks, 6, preds, i, 0);
    }
    // Clear the flags: whatever is still live was live-out or read in the block.
    for (let s = useStart[block.start]!; s < useStart[block.end]!; s++) live[useReg[s]!] = 0;
    for (let w = 0; w < words; w++) {
      let x = liveOutFlat[base + w]!;
      while (x !== 0) {
        const low = x & -x;
        live[globals[w * 32 + 31 - Math.clz32(low)]!] = 0;
        x ^= low;
      }
    }
  }
  return peaks;
}

/** The facts' object, with its queries (which walk a block again from its live-out, over flags of their own). */
function livenessFacts(
  fn: FunctionModel, t: RegisterTable, cfg: Cfg, compact: Int32Array, globalRegisters: Int32Array, words: number,
  liveInFlat: Uint32Array, liveOutFlat: Uint32Array,
  counted: Pick<Liveness, 'registersBefore' | 'slotsBefore' | 'predicatesBefore' | 'peak' | 'visits'>,
): Liveness {
  const { useStart, useReg, defStart, defReg, defKills, slots } = t;
  const liveInOf = (b: number): Uint32Array => liveInFlat.subarray(b * words, (b + 1) * words);
  const liveOutOf = (b: number): Uint32Array => liveOutFlat.subarray(b * words, (b + 1) * words);
  // Live-at queries: walk a block backward over a dense per-register flag
  // array, starting from its live-out.
  // (The registers flagged so far are touched's first `touchedCount`: setting a list's length to 0 drops
  // its storage, and the next push made room for 17 again, per query.)
  let live: Uint8Array | undefined;
  const touched: number[] = [];
  let touchedCount = 0;
  const startWalk = (block: number): Uint8Array => {
    live ??= new Uint8Array(t.registerCount);
    for (let k = 0; k < touchedCount; k++) live[touched[k]!] = 0;
    touchedCount = 0;
    const base = block * words;
    for (let w = 0; w < words; w++) {
      let x = liveOutFlat[base + w]!;
      while (x !== 0) {
        const low = x & -x;
        const r = globalRegisters[w * 32 + 31 - Math.clz32(low)]!;
        live[r] = 1;
        touched[touchedCount++] = r;
        x ^= low;
      }
    }
    return live;
  };
  /** The touched registers flagged live, once each (flagged 2 while listed), ascending. */
  const liveList = (flags: Uint8Array): number[] => {
    const out: number[] = [];
    for (let k = 0; k < touchedCount; k++) {
      const r = touched[k]!;
      if (flags[r] === 1) {
        flags[r] = 2;
        out.push(r);
      }
    }
    for (const r of out) flags[r] = 1;
    return out.sort((a, b) => a - b);
  };
  const walkBack = (flags: Uint8Array, i: number): void => {
    for (let s = defStart[i]!; s < defStart[i + 1]!; s++) if (defKills[s] === 1) flags[defReg[s]!] = 0;
    for (let s = useStart[i]!; s < useStart[i + 1]!; s++) {
      const r = useReg[s]!;
      if (flags[r] === 0) {
        flags[r] = 1;
        touched[touchedCount++] = r;
      }
    }
  };
  const walkTo = (ins: number): Uint8Array => {
    const block = cfg.blocks[cfg.blockOf[ins]!]!;
    const flags = startWalk(block.id);
    for (let i = block.end - 1; i > ins; i--) walkBack(flags, i);
    return flags;
  };

  return {
    fn, table: t, globalRegisters,
    ...counted,
    slotsOf: (reg) => slots[reg]!,
    isLiveIn: (block, reg) => has(liveInFlat, block * words, compact[regId(reg)]!),
    isLiveOut: (block, reg) => has(liveOutFlat, block * words, compact[regId(reg)]!),
    liveIn: (block) => bitsToList(liveInOf(block), globalRegisters),
    liveOut: (block) => bitsToList(liveOutOf(block), globalRegisters),
    liveAfter: (ins) => liveList(walkTo(ins)),
    liveBefore: (ins) => {
      const flags = walkTo(ins);
      walkBack(flags, ins);
      return liveList(flags);
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
