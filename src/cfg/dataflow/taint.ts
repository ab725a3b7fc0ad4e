// Load taint: which values derive from a load of which state space, and
// through which instructions. Sources are `ld`/`ldu`/`atom`/`ldmatrix`
// results, by the space the instruction names or, for a generic access, by
// its address provenance. Two facts per value: `any` (some data dependence:
// arithmetic, comparisons, selection) and `moved` (data movement only: `mov`,
// `cvt`, `cvta`, `selp`/`slct` data operands, `shfl`, `prmt`). A load is a
// barrier: its result is tainted by its own space only, not by its address.
// Facts are two bytes per definition; a chain (load → ... → sink) is found on
// request by a breadth-first walk back from the sink through definitions that
// carry the source, so it is the shortest one, deterministic, and costs
// nothing until a check asks for it.
import type * as A from '../../parser/ast.js';
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import { keepCompiled } from '../keep-compiled.js';
import type { FlatInstruction, FunctionModel, RegisterSymbol } from '../symbols.js';
import {
  ACCESS_SPACES, OPERAND_SLOTS, PROV, propagate, provenanceAnalysis, registerIn, valueFlowAnalysis, type AccessSpace, type ValueFlow,
} from './provenance.js';

export type TaintSource = 'global' | 'shared' | 'local' | 'const' | 'param' | 'generic';
export const TAINT_SOURCES: readonly TaintSource[] = ['global', 'shared', 'local', 'const', 'param', 'generic'];
/** Bit of each source in a taint mask. */
export const TAINT: Readonly<Record<TaintSource, number>> = Object.fromEntries(TAINT_SOURCES.map((s, i) => [s, 1 << i])) as Record<TaintSource, number>;

export type TaintMode = 'any' | 'moved';

/** The sources of a mask, in `TAINT_SOURCES` order. */
export function sourcesOf(mask: number): TaintSource[] {
  return TAINT_SOURCES.filter((s) => (mask & TAINT[s]) !== 0);
}

/** Longest chain returned; longer ones keep the source and the steps nearest the sink. */
export const MAX_CHAIN = 32;

export interface TaintStep {
  readonly index: number;
  readonly line: number;
  /** Opcode with modifiers: `ld.shared.f32`. */
  readonly mnemonic: string;
  /** The register this step writes (absent for the sink). */
  readonly register?: string;
}

export interface TaintChain {
  readonly source: TaintSource;
  readonly mode: TaintMode;
  /** From the source load to the sink instruction, in flow order. */
  readonly steps: readonly TaintStep[];
  /** Steps were left out between the source and the rest. */
  readonly truncated: boolean;
}

/** The taint of a set of operands at one instruction. */
export interface TaintFact {
  readonly any: number;
  readonly moved: number;
  /** The registers the operands read. */
  readonly registers: readonly RegisterSymbol[];
}

export interface TaintFacts {
  readonly flow: ValueFlow;
  /** Per definition: sources reaching it through any data dependence / data movement only. */
  readonly anyMask: Uint8Array;
  readonly movedMask: Uint8Array;
  /** The source space of each load-like instruction (0 for others). */
  readonly sourceOf: Uint8Array;
  /** Taint of register `reg` as read by instruction `ins`. */
  at(ins: number | FlatInstruction, reg: RegisterSymbol | string): { readonly any: number; readonly moved: number };
  /** The value a store writes (`st`, `st.async`, `stmatrix`, `red`, `red.async`, `atom` operands); undefined for other instructions. */
  storedValue(ins: number | FlatInstruction): TaintFact | undefined;
  /** The registers of the instruction's addresses (all bracketed operands, or only operand `operand`). */
  address(ins: number | FlatInstruction, operand?: number): TaintFact | undefined;
  /** A guarded instruction's predicate, and `brx.idx`'s index; undefined when neither. */
  condition(ins: number | FlatInstruction): TaintFact | undefined;
  /** How `source` reaches register `reg` at `ins`, or undefined when it does not. */
  chain(ins: number | FlatInstruction, reg: RegisterSymbol | string, source: TaintSource, mode?: TaintMode): TaintChain | undefined;
  /** The chain through the first register of `fact` that carries `source`. */
  explain(ins: number | FlatInstruction, fact: TaintFact, source: TaintSource, mode?: TaintMode): TaintChain | undefined;
}

const STORES: ReadonlySet<string> = new Set(['st', 'st.async', 'stmatrix', 'red', 'red.async', 'atom']);

/** What an opcode is to taint, as a small code (one string test per opcode of a function, not per
 *  instruction): a load-like source, or an instruction that moves operand 1 (or operands 1 and 2) into its
 *  destination, for data-movement-only taint. */
const OTHER = 0;
const LOAD = 1;
const MOVES_1 = 2;
const MOVES_1_2 = 3;
function opcodeKind(op: string): number {
  switch (op) {
    case 'ld': case 'ldu': case 'atom': case 'ldmatrix': return LOAD;
    case 'mov': case 'cvt': case 'cvta': case 'shfl': return MOVES_1;
    case 'selp': case 'slct': case 'prmt': return MOVES_1_2;
    default: return OTHER;
  }
}

const SPACE_SOURCE: Readonly<Record<AccessSpace, number>> = {
  generic: TAINT.generic, global: TAINT.global, shared: TAINT.shared, 'shared::cluster': TAINT.shared,
  local: TAINT.local, const: TAINT.const, param: TAINT.param,
};

/** The source of each space code of the value flow (`ACCESS_SPACES` order): an array read per load, not a
 *  lookup by the space's name. */
const SOURCE_OF_SPACE = Uint8Array.from(ACCESS_SPACES, (s) => SPACE_SOURCE[s]);

/** Source space of a generic access from its address provenance. */
function sourceFromProvenance(mask: number): number {
  let s = 0;
  if ((mask & (PROV.global | PROV['generic-global'])) !== 0) s |= TAINT.global;
  if ((mask & (PROV['shared-window'] | PROV['shared-generic'] | PROV['shared-cluster'] | PROV['shared-cluster-generic'])) !== 0) s |= TAINT.shared;
  if ((mask & (PROV.local | PROV['local-generic'])) !== 0) s |= TAINT.local;
  if ((mask & (PROV.const | PROV['const-generic'])) !== 0) s |= TAINT.const;
  if ((mask & (PROV.param | PROV['param-generic'])) !== 0) s |= TAINT.param;
  if ((mask & (PROV.generic | PROV.unknown)) !== 0 || s === 0) s |= TAINT.generic;
  return s;
}

const indexOf = (ins: number | FlatInstruction): number => (typeof ins === 'number' ? ins : ins.index);

/** Registers named in an expression. */
function registersIn(fn: FunctionModel, e: A.Expression, out: RegisterSymbol[]): void {
  switch (e.kind) {
    case 'Name': {
      const s = fn.resolve(e);
      if (s?.kind === 'register' && !out.includes(s)) out.push(s);
      return;
    }
    case 'Unary': case 'Cast': registersIn(fn, e.arg, out); return;
    case 'Binary': registersIn(fn, e.left, out); registersIn(fn, e.right, out); return;
    case 'Conditional': registersIn(fn, e.test, out); registersIn(fn, e.then, out); registersIn(fn, e.otherwise, out); return;
    case 'Vector': case 'Address': case 'List': for (const x of e.elements) registersIn(fn, x, out); return;
    case 'PredPair': registersIn(fn, e.first, out); registersIn(fn, e.second, out); return;
    default: return;
  }
}

// The opcode kinds of a function's opcodes, kept from function to function (grown, never shrunk; not
// cleared): an allocation is a backing store each (~1 us).
let KIND = new Uint8Array(64);

function computeTaint(ctx: AnalysisContext, fn: FunctionModel): TaintFacts {
  const flow = ctx.get(fn, valueFlowAnalysis);
  const prov = ctx.get(fn, provenanceAnalysis);
  const ins = fn.instructions;
  const n = ins.length;
  const D = flow.defCount;
  const U = flow.useReg.length;
  // The four retained arrays (`role` by the chains) are views of one buffer (one backing store, not four).
  const buffer = new ArrayBuffer(2 * D + n + U);
  const anyMask = new Uint8Array(buffer, 0, D);
  const movedMask = new Uint8Array(buffer, D, D);
  const sourceOf = new Uint8Array(buffer, 2 * D, n);
  // What each use counts for: bit 0 any-mode data, bit 1 movement.
  const role = new Uint8Array(buffer, 2 * D + n, U);
  const opcodes = flow.opcodes;
  if (KIND.length < opcodes.length) KIND = new Uint8Array(Math.max(opcodes.length, 2 * KIND.length));
  const kindOf = KIND;
  for (let o = 0; o < opcodes.length; o++) kindOf[o] = opcodeKind(opcodes[o]!);
  const guarded = fn.effectTable.guarded;
  // Marks operand k of instruction i as moved into its destination.
  const markMoved = (i: number, k: number): void => {
    // The flow's tables answer most operands without the syntax tree (reading an instruction's node is a
    // cache miss on a large module): a plain register name has its use slot, and every other operand of a
    // `plain` instruction is an immediate (or absent).
    const direct = k < OPERAND_SLOTS ? flow.operandUse[i * OPERAND_SLOTS + k]! : -1;
    if (direct >= 0) {
      role[direct]! |= 2;
      return;
    }
    if (k < OPERAND_SLOTS && flow.plain[i] === 1) return;
    // An instruction that reads no register but its guard (which then no operand names, or it would not be
    // the flow's guard use) has none to mark: `mov.u32 %r1, %tid.x`, `mov.u64 %rd1, smem`.
    const u0 = flow.insUseStart[i]!;
    const reads = flow.insUseStart[i + 1]! - u0;
    if (reads === 0 || (reads === 1 && flow.guardUse[i] === u0 && guarded[i] === 2)) return;
    const o = ins[i]!.node.operands[k];
    if (o === undefined || o.kind === 'Int' || o.kind === 'Float') return;
    const regs: RegisterSymbol[] = [];
    registersIn(fn, o, regs);
    for (const r of regs) {
      const u = flow.useOf(i, r.id);
      if (u >= 0) role[u]! |= 2;
    }
  };
  for (let i = 0; i < n; i++) {
    const kind = kindOf[flow.opcode[i]!]!;
    if (kind === LOAD) {
      const space = flow.space[i]!;
      if (space !== 0) sourceOf[i] = SOURCE_OF_SPACE[space]!;
      else {
        const a = flow.insAddrStart[i]!;
        sourceOf[i] = sourceFromProvenance(a < flow.insAddrStart[i + 1]! ? prov.addressProvenance[a]! : 0);
      }
      continue; // a load reads no data into its result
    }
    const g = flow.guardUse[i]!;
    for (let u = flow.insUseStart[i]!; u < flow.insUseStart[i + 1]!; u++) if (u !== g) role[u] = 1;
    if (kind === OTHER) continue;
    markMoved(i, 1);
    if (kind === MOVES_1_2) markMoved(i, 2);
  }

  const evaluate = (i: number): boolean => {
    const s0 = flow.insDefStart[i]!;
    const s1 = flow.insDefStart[i + 1]!;
    let any = sourceOf[i]!;
    let moved = any;
    if (any === 0) {
      for (let u = flow.insUseStart[i]!; u < flow.insUseStart[i + 1]!; u++) {
        const r = role[u]!;
        if (r === 0) continue;
        for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) {
          const d = flow.useDefs[k]!;
          if ((r & 1) !== 0) any |= anyMask[d]!;
          if ((r & 2) !== 0) moved |= movedMask[d]!;
        }
      }
      if (any === 0) return false;
    }
    let changed = false;
    for (let s = s0; s < s1; s++) {
      const d = flow.slotDef[s]!;
      if ((any & ~anyMask[d]!) === 0 && (moved & ~movedMask[d]!) === 0) continue;
      anyMask[d]! |= any;
      movedMask[d]! |= moved;
      changed = true;
    }
    return changed;
  };
  // Every fact starts at a load.
  const seed = (i: number): boolean => sourceOf[i] !== 0;
  propagate(flow, seed, evaluate);
  // (The propagation's closures, run for every instruction: their compiled code kept from function to function.)
  keepCompiled('taint', seed, evaluate, markMoved);

  const maskAt = (i: number, r: number, masks: Uint8Array): number => {
    const u = flow.useOf(i, r);
    if (u < 0) return 0;
    let v = 0;
    for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) v |= masks[flow.useDefs[k]!]!;
    return v;
  };
  const fact = (i: number, regs: readonly RegisterSymbol[]): TaintFact => {
    let any = 0;
    let moved = 0;
    for (const r of regs) {
      any |= maskAt(i, r.id, anyMask);
      moved |= maskAt(i, r.id, movedMask);
    }
    return { any, moved, registers: regs };
  };
  const mnemonic = (i: number): string => {
    const node = ins[i]!.node;
    return node.opcode + node.modifiers.join('');
  };
  const chain = (insArg: number | FlatInstruction, regArg: RegisterSymbol | string, source: TaintSource, mode: TaintMode = 'any'): TaintChain | undefined => {
    const i = indexOf(insArg);
    const reg = registerIn(fn, i, regArg);
    if (reg === undefined) return undefined;
    const u = flow.useOf(i, reg.id);
    if (u < 0) return undefined;
    const bit = TAINT[source];
    const want = mode === 'any' ? 1 : 2;
    const masks = mode === 'any' ? anyMask : movedMask;
    // Breadth-first from the sink's reaching definitions back through the
    // operands that carry `source` (in this mode): the first source load
    // found ends the shortest chain. Only definitions with the bit are visited.
    const prev = new Map<number, number>();
    const queue: number[] = [];
    for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) {
      const d = flow.useDefs[k]!;
      if ((masks[d]! & bit) !== 0 && !prev.has(d)) {
        prev.set(d, -1);
        queue.push(d);
      }
    }
    let found = -1;
    for (let q = 0; q < queue.length && found < 0; q++) {
      const d = queue[q]!;
      const j = flow.defIns[d]!;
      if (j < 0) continue;
      if ((sourceOf[j]! & bit) !== 0) {
        found = d;
        break;
      }
      for (let u2 = flow.insUseStart[j]!; u2 < flow.insUseStart[j + 1]!; u2++) {
        if ((role[u2]! & want) === 0) continue;
        for (let k = flow.useDefStart[u2]!; k < flow.useDefStart[u2 + 1]!; k++) {
          const d2 = flow.useDefs[k]!;
          if ((masks[d2]! & bit) === 0 || prev.has(d2)) continue;
          prev.set(d2, d);
          queue.push(d2);
        }
      }
    }
    if (found < 0) return undefined;
    // The path from the source to the sink: keep the source and the steps nearest the sink.
    const path: number[] = [];
    for (let d = found; d >= 0; d = prev.get(d)!) path.push(d);
    const keep = MAX_CHAIN - 1; // the sink takes one step
    const truncated = path.length > keep;
    const kept = truncated ? [path[0]!, ...path.slice(path.length - (keep - 1))] : path;
    const steps: TaintStep[] = kept.map((d) => {
      const at = flow.defIns[d]!;
      return { index: at, line: ins[at]!.node.range.line, mnemonic: mnemonic(at), register: fn.registers[flow.defReg[d]!]!.name };
    });
    steps.push({ index: i, line: ins[i]!.node.range.line, mnemonic: mnemonic(i) });
    return { source, mode, steps, truncated };
  };

  const regsOf = (i: number, pick: (o: A.Expression, pos: number) => boolean): RegisterSymbol[] => {
    const out: RegisterSymbol[] = [];
    ins[i]!.node.operands.forEach((o, pos) => {
      if (pick(o, pos)) registersIn(fn, o, out);
    });
    return out;
  };

  return {
    flow, anyMask, movedMask, sourceOf,
    at: (insArg, regArg) => {
      const i = indexOf(insArg);
      const r = registerIn(fn, i, regArg);
      if (r === undefined) return { any: 0, moved: 0 };
      return { any: maskAt(i, r.id, anyMask), moved: maskAt(i, r.id, movedMask) };
    },
    storedValue: (insArg) => {
      const i = indexOf(insArg);
      const node = ins[i]!.node;
      const op = node.opcode === 'st' || node.opcode === 'red' ? `${node.opcode}${node.modifiers.includes('.async') ? '.async' : ''}` : node.opcode;
      if (!STORES.has(op)) return undefined;
      const firstAddr = node.operands.findIndex((o) => o.kind === 'Address');
      if (firstAddr < 0) return undefined;
      return fact(i, regsOf(i, (o, pos) => pos > firstAddr && o.kind !== 'Address'));
    },
    address: (insArg, operand) => {
      const i = indexOf(insArg);
      const regs = regsOf(i, (o, pos) => o.kind === 'Address' && (operand === undefined || pos === operand));
      if (!ins[i]!.node.operands.some((o) => o.kind === 'Address')) return undefined;
      return fact(i, regs);
    },
    condition: (insArg) => {
      const i = indexOf(insArg);
      const node = ins[i]!.node;
      const regs: RegisterSymbol[] = [];
      if (node.guard !== undefined) {
        const g = fn.resolveGuard(node.guard);
        if (g?.kind === 'register') regs.push(g);
      }
      if (node.opcode === 'brx' && node.operands[0] !== undefined) registersIn(fn, node.operands[0], regs);
      if (node.guard === undefined && node.opcode !== 'brx') return undefined;
      return fact(i, regs);
    },
    chain,
    explain: (insArg, f, source, mode = 'any') => {
      const bit = TAINT[source];
      for (const r of f.registers) {
        const m = mode === 'any' ? maskAt(indexOf(insArg), r.id, anyMask) : maskAt(indexOf(insArg), r.id, movedMask);
        if ((m & bit) !== 0) return chain(insArg, r, source, mode);
      }
      return undefined;
    },
  };
}

/** Load taint of every register use of a function, with chains. */
export const taintAnalysis: FunctionAnalysis<TaintFacts> = { name: 'taint', compute: computeTaint };
