// Address provenance: which state space each register value may point into,
// at every use, and the provenance of every memory access's address together
// with the state space the instruction names. Facts live on definitions and
// propagate sparsely along def-use chains (from reaching-definitions.ts, which
// runs the one solver), re-evaluating an instruction only when a definition it
// reads grows, so the cost is near-linear in the function's size. The taint
// analysis (taint.ts) shares the same value-flow view.
//
// Transfer rules (the value written by each instruction; joins are unions):
//   mov of a symbol           its space's window (`.shared` → shared-window ...)
//   mov, shfl (value)         the source's; `mov.b64 {lo,hi}, x`: lo gets x's
//                             origin +truncated, hi none; a pack `{lo,hi}` the
//                             union without +truncated
//   add, and, or, xor, selp   the union of both operands (pointer ± offset,
//                             alignment masks, swizzles, either pointer)
//   sub                       the first operand's;  mad.lo/.wide  the addend's
//   mul, shl, shr, mad.hi ... nothing (the origin is lost)
//   cvt (integer ↔ integer)   the source's, +truncated/+widened on a width change;
//                             to or from a float: nothing
//   cvta.X / cvta.to.X        X's generic / window atom, whatever the input
//   mapa.shared::cluster      shared-cluster;  generic mapa: shared-cluster-generic
//   ld.param of a kernel parameter, pointer-wide   generic-global (or the
//                             `.ptr` space's generic atom); narrower: nothing
//   other ld.param (`.func` argument, call return slot), `.func` register
//   parameters, call results  unknown (integers of 32 bits or more)
//   other pointer-wide ld/ldu/atom results   generic (a pointer kept in memory)
// Memory is not modeled: a pointer stored and loaded back (LLVM -O0 spills) is
// `generic`. Predicates and narrower or float registers never carry an origin.
import type * as A from '../../parser/ast.js';
import { typeBytes, type FlatInstruction, type FunctionModel, type RegisterSymbol, type VariableSymbol } from '../symbols.js';
import type { AnalysisContext, FunctionAnalysis } from '../context.js';
import { keepCompiled } from '../keep-compiled.js';
import { OTHER_OPCODE, opcodeCount } from '../opcodes.js';
import { isNameKind, OperandKind } from '../operand-kinds.js';
import { int32Scratch } from '../scratch.js';
import { reachingDefinitionsAnalysis, type ReachingDefinitions } from './reaching-definitions.js';

// ---------------------------------------------------------------- the lattice

/** One origin an address may have. A value's provenance is a set of these
 *  (a bit mask, see `PROV`); the empty set means "no pointer origin": the value
 *  is built from immediates, special registers and integer arithmetic only. */
export type ProvenanceAtom =
  /** A `.global` window address: `cvta.to.global` results, `.global` symbols. */
  | 'global'
  /** A generic address into global memory: a kernel pointer parameter as
   *  loaded by `ld.param` (nvcc then applies `cvta.to.global`), `cvta.global`. */
  | 'generic-global'
  /** A `.shared` window address: `mov` of a `.shared` symbol, `cvta.to.shared`. */
  | 'shared-window'
  /** A generic address into shared memory: `cvta.shared`. */
  | 'shared-generic'
  /** A `.shared::cluster` address: `mapa.shared::cluster`, `cvta.to.shared::cluster`. */
  | 'shared-cluster'
  /** A generic address into (distributed) shared memory: generic `mapa`, `cvta.shared::cluster`. */
  | 'shared-cluster-generic'
  /** A `.local` window address: `.local` symbols (LLVM's `__local_depot`, `%SPL`), `cvta.to.local`. */
  | 'local'
  /** A generic address into local memory: `cvta.local` (LLVM's `%SP`). */
  | 'local-generic'
  /** A `.const` window address: `.const` symbols, `cvta.to.const`. */
  | 'const'
  /** A generic address into constant memory: `cvta.const`. */
  | 'const-generic'
  /** A `.param` address: a parameter symbol taken by `mov`, `cvta.to.param`. */
  | 'param'
  /** A generic address of a kernel parameter: `cvta.param`. */
  | 'param-generic'
  /** A generic address of unknown space: a pointer-wide value loaded from memory. */
  | 'generic'
  /** Anything: `.func` parameters, call results (pointer-wide integer registers). */
  | 'unknown';

export const ATOMS: readonly ProvenanceAtom[] = [
  'global', 'generic-global', 'shared-window', 'shared-generic', 'shared-cluster', 'shared-cluster-generic',
  'local', 'local-generic', 'const', 'const-generic', 'param', 'param-generic', 'generic', 'unknown',
];

/** Bit of each atom in a provenance mask. */
export const PROV: Readonly<Record<ProvenanceAtom, number>> = Object.fromEntries(ATOMS.map((a, i) => [a, 1 << i])) as Record<ProvenanceAtom, number>;

/** Flags carried beside the atoms: the value went through a 64→32-bit
 *  narrowing (`cvt.u32.u64`, the low half of `mov.b64 {lo,hi}`) on some path,
 *  or a 32→64-bit widening (`cvt.u64.u32`). Joins keep them (may-facts). */
export const TRUNCATED = 1 << 14;
export const WIDENED = 1 << 15;
export const ATOM_MASK = (1 << ATOMS.length) - 1;

/** The atoms of a mask, in `ATOMS` order. */
export function atomsOf(mask: number): ProvenanceAtom[] {
  return ATOMS.filter((a) => (mask & PROV[a]) !== 0);
}

/** `{global, shared-window}`, with `+truncated`/`+widened` flags; `{}` when empty. */
export function formatProvenance(mask: number): string {
  const parts: string[] = atomsOf(mask);
  if ((mask & TRUNCATED) !== 0) parts.push('+truncated');
  if ((mask & WIDENED) !== 0) parts.push('+widened');
  return `{${parts.join(', ')}}`;
}

/** State spaces an instruction can name for an address. */
export type AccessSpace = 'generic' | 'global' | 'shared' | 'shared::cluster' | 'local' | 'const' | 'param';
/** Codes of the spaces in the flow's tables (0: generic, none named). */
export const ACCESS_SPACES: readonly AccessSpace[] = ['generic', 'global', 'shared', 'shared::cluster', 'local', 'const', 'param'];
const SPACE_CODE = Object.fromEntries(ACCESS_SPACES.map((x, i) => [x, i])) as Record<AccessSpace, number>;
/** Flag in `ValueFlow.dataType` for integer and bit types. */
export const INT_TYPE_BIT = 0x80;

/** Atoms an access in each declared space expects. `global` accepts
 *  `generic-global` (a raw kernel parameter: works, F029 reports it) and
 *  `generic` accepts `global` (global windows are generic addresses in practice). */
const EXPECTED: Readonly<Record<AccessSpace, number>> = {
  generic: PROV['generic-global'] | PROV.global | PROV['shared-generic'] | PROV['shared-cluster-generic'] | PROV['local-generic'] |
    PROV['const-generic'] | PROV['param-generic'] | PROV.generic,
  global: PROV.global | PROV['generic-global'],
  shared: PROV['shared-window'],
  'shared::cluster': PROV['shared-window'] | PROV['shared-cluster'],
  local: PROV.local,
  const: PROV.const,
  param: PROV.param,
};

export type Agreement = 'match' | 'mismatch' | 'partial' | 'unknown';

/** How a provenance agrees with the space an access names: every known atom
 *  expected (match), none (mismatch), some (partial), or nothing known
 *  (empty, or only `unknown`/`generic` for a space-specific access). */
export function agreement(space: AccessSpace, mask: number): Agreement {
  const neutral = space === 'generic' ? PROV.unknown : PROV.unknown | PROV.generic;
  const known = mask & ATOM_MASK & ~neutral;
  if (known === 0) return 'unknown';
  const ok = known & EXPECTED[space];
  if (ok === known) return 'match';
  return ok === 0 ? 'mismatch' : 'partial';
}

// ---------------------------------------------------------------- value flow

/** Each register use linked to the definitions that may reach it, from the
 *  reaching-definitions analysis (definition ids and use slots are its own:
 *  see reaching-definitions.ts), plus per-instruction facts both analyses
 *  read (opcode, operand registers, guard) so they touch the syntax tree once. */
export interface ValueFlow {
  readonly fn: FunctionModel;
  readonly rd: ReachingDefinitions;
  readonly defCount: number;
  /** Instruction of each definition; ENTRY (-1) for a register's entry value. */
  readonly defIns: Int32Array;
  /** Register id of each definition. */
  readonly defReg: Int32Array;
  /** Def slots of instruction i: [insDefStart[i], insDefStart[i+1]); `slotDef` maps them to definitions. */
  readonly insDefStart: Int32Array;
  readonly slotDef: Int32Array;
  /** Use slots of instruction i (guard included, each register once): [insUseStart[i], insUseStart[i+1]). */
  readonly insUseStart: Int32Array;
  readonly useReg: Int32Array;
  readonly useIns: Int32Array;
  /** Definitions reaching use u: useDefs[useDefStart[u] .. useDefStart[u+1]). */
  readonly useDefStart: Int32Array;
  readonly useDefs: Int32Array;
  /** Use slots reading definition d: defUses[defUseStart[d] .. defUseStart[d+1]). */
  readonly defUseStart: Int32Array;
  readonly defUses: Int32Array;
  /** For operand k < OPERAND_SLOTS of instruction i that is a plain register
   *  name it reads (not its destination): the use slot, at
   *  [i * OPERAND_SLOTS + k]; else -1. */
  readonly operandUse: Int32Array;
  /** The use slot of instruction i's guard predicate when it reads it only as a guard; else -1. */
  readonly guardUse: Int32Array;
  /** Instruction i has a bracketed (address) operand. */
  readonly addressed: Uint8Array;
  /** Every operand of instruction i but its destination is an immediate or a
   *  register it reads: with facts of nothing it reads, it makes none. */
  readonly plain: Uint8Array;
  /** Opcode of instruction i, as an index into `opcodes`. */
  readonly opcode: Uint16Array;
  readonly opcodes: readonly string[];
  /** The last data-type modifier of instruction i: its bytes, plus INT_TYPE_BIT
   *  for integer and bit types (`.u64` → 8 | INT_TYPE_BIT); 0 when none. */
  readonly dataType: Uint8Array;
  /** The first state space instruction i names (index into ACCESS_SPACES, 0 = none: generic). */
  readonly space: Uint8Array;
  /** Memory addresses of instruction i: entries [insAddrStart[i], insAddrStart[i+1]) of the address table. */
  readonly insAddrStart: Int32Array;
  readonly addrIns: Int32Array;
  /** Operand position of the bracketed operand. */
  readonly addrOperand: Int32Array;
  /** The space the instruction names for it (index into ACCESS_SPACES). */
  readonly addrSpace: Uint8Array;
  /** 1 for a tensor map (`[tmap, {x, y}]`). */
  readonly addrTensorMap: Uint8Array;
  /** Use slot of the register at its base, or -1. */
  readonly addrUse: Int32Array;
  /** The variable at its base (`[smem+4]`, `[param_0]`), if any. */
  readonly addrSymbol: readonly (VariableSymbol | undefined)[];
  /** 1 when the address is more than `[base]` or `[base+imm]` (evaluated from the syntax). */
  readonly addrComplex: Uint8Array;
  /** The use slot of register `reg` in instruction `ins`, or -1. */
  useOf(ins: number, reg: number): number;
  /** The definition of `reg` made by instruction `ins`, or -1. */
  defOf(ins: number, reg: number): number;
}

/** Operand slots recorded per instruction in `operandUse`. */
export const OPERAND_SLOTS = 4;

/** Fields per entry of `ADDRESSES`, the address table as it is collected. */
const ADDR_FIELDS = 6;
const A_INS = 0;
const A_OPERAND = 1;
const A_SPACE = 2;
const A_TENSOR_MAP = 3;
const A_USE = 4;
const A_COMPLEX = 5;
/** The address table's numeric fields while one function's is collected (reused from function to function:
 *  six growing lists per function cost more than the table). */
let ADDRESSES = new Int32Array(ADDR_FIELDS * 256);
/** The address table's buffer for a function without memory accesses (its views are empty: one buffer shared
 *  by all). */
const NO_ADDRESSES = new ArrayBuffer(0);
/** Spaces an instruction's modifiers name, in order (scratch). */
const SPACE_LIST: number[] = [];

/** The use slot of register `reg` among slots [u0, u1), or -1 (also for reg -1: no register). The operand
 *  table gives an operand's register by id (`FunctionModel.effectTable.operandRegister`), so the slots are
 *  compared by id: no register object read (each is a cache miss), no name compared. A register has one slot
 *  per instruction, so the first hit is the answer. */
function slotOf(reg: number, u0: number, u1: number, useReg: Int32Array): number {
  if (reg < 0) return -1;
  for (let u = u0; u < u1; u++) if (useReg[u] === reg) return u;
  return -1;
}

/** By the model's opcode number (src/cfg/opcodes.ts), the number the function being walked gives it, valid where
 *  `LOCAL_STAMP` holds that walk's number (kept from function to function: no clearing; a holder that grows
 *  starts from zeros, which no walk's number matches). */
const LOCAL_CODE = int32Scratch();
const LOCAL_STAMP = int32Scratch();
let LOCAL_WALK = 0;

function buildValueFlow(ctx: AnalysisContext, fn: FunctionModel): ValueFlow {
  const rd = ctx.get(fn, reachingDefinitionsAnalysis);
  const t = rd.table;
  const ins = fn.instructions;
  const n = ins.length;
  const regs = fn.registers;
  // The per-instruction tables share one buffer (one allocation instead of eight: most functions are small,
  // and each typed array's own buffer costs more than its contents). Int32 tables first, so every view is aligned.
  const buffer = new ArrayBuffer((n * OPERAND_SLOTS + n + n + 1) * 4 + n * 2 + n * 4);
  let at = 0;
  const operandUse = new Int32Array(buffer, at, n * OPERAND_SLOTS).fill(-1);
  at += n * OPERAND_SLOTS * 4;
  const guardUse = new Int32Array(buffer, at, n).fill(-1);
  at += n * 4;
  const insAddrStart = new Int32Array(buffer, at, n + 1);
  at += (n + 1) * 4;
  const opcode = new Uint16Array(buffer, at, n);
  at += n * 2;
  const addressed = new Uint8Array(buffer, at, n);
  const plain = new Uint8Array(buffer, at + n, n);
  const dataType = new Uint8Array(buffer, at + 2 * n, n);
  const space = new Uint8Array(buffer, at + 3 * n, n);
  const opcodes: string[] = [];
  const opcodeIds = new Map<string, number>();
  const spaceList = SPACE_LIST;
  let addrs = 0;
  const addrSymbolL: (VariableSymbol | undefined)[] = [];
  const { useStart, useReg, defStart } = t;
  const fx = fn.effectTable;
  const { guarded, operandStart, operandRegister, operandKind } = fx;
  const modelOpcode = fx.opcode;
  const walk = ++LOCAL_WALK;
  // (The model has numbered every opcode of this function by now.)
  const localStamp = LOCAL_STAMP.get(opcodeCount());
  const localCode = LOCAL_CODE.get(opcodeCount());
  for (let i = 0; i < n; i++) {
    const node = ins[i]!.node;
    // The function's own numbering of its opcodes, from the model's numbers (a string lookup per instruction
    // was a third of this walk); a name past the model's registry by its string.
    const m = modelOpcode[i]!;
    let id: number | undefined;
    if (m !== OTHER_OPCODE && localStamp[m] === walk) id = localCode[m]!;
    else {
      id = opcodeIds.get(node.opcode);
      if (id === undefined) {
        id = opcodes.length;
        opcodes.push(node.opcode);
        opcodeIds.set(node.opcode, id);
      }
      if (m !== OTHER_OPCODE) {
        localStamp[m] = walk;
        localCode[m] = id;
      }
    }
    opcode[i] = id;
    const u0 = useStart[i]!;
    const u1 = useStart[i + 1]!;
    if (guarded[i] !== 0 && u1 > u0) {
      // The model lists the guard first; it is a guard only when read nowhere else.
      const g = fx.useIds[fx.useStart[i]!];
      let count = 0;
      for (let k = fx.useStart[i]!; k < fx.useStart[i + 1]!; k++) if (fx.useIds[k] === g) count++;
      if (count === 1) guardUse[i] = u0;
    }
    const k0 = defStart[i + 1]! > defStart[i]! ? 1 : 0;
    const o0 = operandStart[i]!;
    const nOps = operandStart[i + 1]! - o0;
    // One walk over the operands: whether one is bracketed, and whether those from k0 on are immediates and
    // registers it reads only (a name's register from the operand table: an operand that is a name holds
    // one, its first); the use slot of each such register among the first OPERAND_SLOTS operands.
    let isAddressed = 0;
    let isPlain = 1;
    // (Each operand by the model's record of what it is, operand-kinds.ts: no read of its node.)
    for (let k = 0; k < nOps; k++) {
      const kind = operandKind[o0 + k]!;
      if (kind === OperandKind.Int || kind === OperandKind.Float) continue;
      if (isNameKind(kind)) {
        if (k < k0) continue;
        const u = slotOf(operandRegister[o0 + k]!, u0, u1, useReg);
        if (u < 0) isPlain = 0;
        else if (k < OPERAND_SLOTS) operandUse[i * OPERAND_SLOTS + k] = u;
        continue;
      }
      if (kind === OperandKind.Address) isAddressed = 1;
      if (k >= k0) isPlain = 0;
    }
    addressed[i] = isAddressed;
    plain[i] = isPlain;

    // Data type and named spaces, from the modifiers (what their list says, asked once per list).
    const mods = modifierInfo(node.modifiers);
    let spaceCount = (mods >>> MI_COUNT) & 7;
    dataType[i] = mods & 0xff;
    space[i] = (mods >>> MI_SPACES) & 7;

    // Memory addresses: the k-th bracketed operand takes the k-th named space;
    // extra ones (mbarrier operands) take the shared space named, else the last.
    insAddrStart[i] = addrs;
    if (isAddressed === 0 || HANDLE_OPCODES.has(node.opcode)) continue;
    // tcgen05 addresses are tensor-memory addresses unless a state space is named.
    if (node.opcode === 'tcgen05' && spaceCount === 0) continue;
    if (spaceCount === MANY_SPACES) spaceCount = spacesNamed(node.modifiers, spaceList);
    else for (let k = 0; k < spaceCount; k++) spaceList[k] = (mods >>> (MI_SPACES + 3 * k)) & 7;
    let extra = spaceCount === 0 ? 0 : spaceList[spaceCount - 1]!;
    for (let k = 0; k < spaceCount; k++) {
      if (spaceList[k] === SPACE_CODE.shared || spaceList[k] === SPACE_CODE['shared::cluster']) {
        extra = spaceList[k]!;
        break;
      }
    }
    let nth = 0;
    const ops = node.operands;
    for (let pos = 0; pos < nOps; pos++) {
      if (operandKind[o0 + pos] !== OperandKind.Address) continue;
      const elements = (ops[pos] as A.AddressExpr).elements;
      let tensorMap = 0;
      for (let x = 0; x < elements.length; x++) if (elements[x]!.kind === 'Vector') tensorMap = 1;
      const named = nth < spaceCount ? spaceList[nth]! : extra;
      nth++;
      const first = elements[0];
      let use = -1;
      let symbol: VariableSymbol | undefined;
      if (first !== undefined && (first.kind === 'Name' || (first.kind === 'Binary' && first.left.kind === 'Name'))) {
        // (The base leads the operand: it is the first name the model's walk met there, and the operand
        // table holds its register, or -1 for a name of no register: a variable, or a module variable named
        // like a label.)
        const reg = operandRegister[o0 + pos]!;
        if (reg >= 0) use = slotOf(reg, u0, u1, useReg);
        else symbol = symbolAt(ctx, fn, first.kind === 'Name' ? first : first.left as A.NameExpr);
      } else {
        const base = first === undefined ? undefined : baseName(first);
        if (base !== undefined) {
          for (let u = u0; u < u1 && use < 0; u++) if (regs[useReg[u]!]!.name === base.name) use = u;
          if (use < 0) symbol = symbolAt(ctx, fn, base);
        }
      }
      const simple = first !== undefined && elements.length === 1 &&
        (first.kind === 'Name' || (first.kind === 'Binary' && first.op === '+' && first.left.kind === 'Name' && first.right.kind === 'Int'));
      if ((addrs + 1) * ADDR_FIELDS > ADDRESSES.length) {
        const bigger = new Int32Array(ADDRESSES.length * 2);
        bigger.set(ADDRESSES);
        ADDRESSES = bigger;
      }
      const e = addrs * ADDR_FIELDS;
      ADDRESSES[e + A_INS] = i;
      ADDRESSES[e + A_OPERAND] = pos;
      ADDRESSES[e + A_SPACE] = tensorMap === 1 ? 0 : named;
      ADDRESSES[e + A_TENSOR_MAP] = tensorMap;
      ADDRESSES[e + A_USE] = use;
      ADDRESSES[e + A_COMPLEX] = simple ? 0 : 1;
      addrSymbolL.push(symbol);
      addrs++;
    }
  }
  insAddrStart[n] = addrs;
  // The address table's columns, in one buffer too.
  const columns = addrs === 0 ? NO_ADDRESSES : new ArrayBuffer(addrs * (3 * 4 + 3));
  const addrIns = new Int32Array(columns, 0, addrs);
  const addrOperand = new Int32Array(columns, addrs * 4, addrs);
  const addrUse = new Int32Array(columns, addrs * 8, addrs);
  const addrSpace = new Uint8Array(columns, addrs * 12, addrs);
  const addrTensorMap = new Uint8Array(columns, addrs * 13, addrs);
  const addrComplex = new Uint8Array(columns, addrs * 14, addrs);
  for (let a = 0; a < addrs; a++) {
    const e = a * ADDR_FIELDS;
    addrIns[a] = ADDRESSES[e + A_INS]!;
    addrOperand[a] = ADDRESSES[e + A_OPERAND]!;
    addrSpace[a] = ADDRESSES[e + A_SPACE]!;
    addrTensorMap[a] = ADDRESSES[e + A_TENSOR_MAP]!;
    addrUse[a] = ADDRESSES[e + A_USE]!;
    addrComplex[a] = ADDRESSES[e + A_COMPLEX]!;
  }
  return {
    fn, rd, defCount: rd.definitionCount, defIns: rd.defIns, defReg: rd.defRegOf,
    insDefStart: defStart, slotDef: rd.defIdOfSlot,
    insUseStart: useStart, useReg, useIns: t.useIns, useDefStart: rd.rdStart, useDefs: rd.rdDef,
    defUseStart: rd.duStart, defUses: rd.duUse,
    operandUse, guardUse, addressed, plain, opcode, opcodes, dataType, space,
    insAddrStart, addrIns, addrOperand, addrSpace, addrTensorMap, addrUse, addrSymbol: addrSymbolL, addrComplex,
    useOf: (i, r) => t.useSlot(i, r),
    defOf: (i, r) => {
      const slot = t.defSlot(i, r);
      return slot < 0 ? -1 : rd.defIdOfSlot[slot]!;
    },
  };
}

/** The value-flow graph of a function (shared by provenance and taint). */
export const valueFlowAnalysis: FunctionAnalysis<ValueFlow> = { name: 'provenance/value-flow', compute: buildValueFlow };

/** Propagates per-definition facts to a fixpoint: the `seed` instructions
 *  are evaluated first, in order, then (FIFO, deterministic) every instruction
 *  reading a definition that grew. `evaluate` returns whether any of the
 *  instruction's definitions changed. An instruction never seeded nor reached
 *  keeps empty facts, so seeds must include every instruction that makes a
 *  fact from nothing it reads (loads, symbols, `cvta` ...). */
export function propagate(flow: ValueFlow, seed: (ins: number) => boolean, evaluate: (ins: number) => boolean): void {
  const n = flow.insDefStart.length - 1;
  const { insDefStart, slotDef, defUseStart, defUses, useIns } = flow;
  // The queue and its flags are kept from call to call (two calls per function); a call made while
  // another runs (an `evaluate` that asks for another function's facts) gets its own.
  const own = propagating;
  const cap = n + 1;
  let queue = QUEUE;
  let queued = QUEUED;
  if (own || queue.length < cap) queue = new Int32Array(own ? cap : Math.max(cap, 2 * queue.length));
  if (own || queued.length < n) queued = new Uint8Array(own ? n : Math.max(n, 2 * queued.length));
  if (!own) {
    QUEUE = queue;
    QUEUED = queued;
    propagating = true;
  }
  try {
    let head = 0;
    let tail = 0;
    let size = 0;
    for (let i = 0; i < n; i++) {
      if (insDefStart[i + 1]! > insDefStart[i]! && seed(i)) {
        queue[tail++] = i;
        queued[i] = 1;
        size++;
      }
    }
    while (size > 0) {
      const i = queue[head]!;
      head = head + 1 === cap ? 0 : head + 1;
      size--;
      queued[i] = 0;
      if (!evaluate(i)) continue;
      for (let s = insDefStart[i]!; s < insDefStart[i + 1]!; s++) {
        const d = slotDef[s]!;
        for (let k = defUseStart[d]!; k < defUseStart[d + 1]!; k++) {
          const j = useIns[defUses[k]!]!;
          if (queued[j] === 1 || insDefStart[j + 1] === insDefStart[j]) continue;
          queued[j] = 1;
          queue[tail] = j;
          tail = tail + 1 === cap ? 0 : tail + 1;
          size++;
        }
      }
    }
  } catch (e) {
    // (Every flag is cleared when the queue empties; an exception leaves some set.)
    queued.fill(0, 0, n);
    throw e;
  } finally {
    if (!own) propagating = false;
  }
}

/** `propagate`'s queue and queued flags (all zero between calls), and whether a call is using them. */
let QUEUE = new Int32Array(1024);
let QUEUED = new Uint8Array(1024);
let propagating = false;

// ---------------------------------------------------------------- helpers on instructions

const SPACE_MODIFIERS: Readonly<Record<string, AccessSpace>> = {
  '.global': 'global', '.shared': 'shared', '.shared::cta': 'shared', '.shared::cluster': 'shared::cluster',
  '.local': 'local', '.const': 'const', '.param': 'param', '.param::entry': 'param', '.param::func': 'param',
};

function spaceOfModifier(m: string): AccessSpace | undefined {
  const s = SPACE_MODIFIERS[m];
  if (s !== undefined) return s;
  return m.startsWith('.const[') ? 'const' : undefined;
}

const SPACE_CLASS = 0x100;
const modifierClasses = new Map<string, number>();
/** A modifier as the flow's tables record it: SPACE_CLASS + a space code, a
 *  data type's bytes (| INT_TYPE_BIT for integer and bit types), or 0. */
function modifierClass(m: string): number {
  let c = modifierClasses.get(m);
  if (c === undefined) {
    const sp = spaceOfModifier(m);
    const bytes = typeBytes(m);
    c = sp !== undefined ? SPACE_CLASS + SPACE_CODE[sp]
      : bytes !== undefined && m !== '.pred' ? bytes | (INT_TYPE.test(m) ? INT_TYPE_BIT : 0) : 0;
    modifierClasses.set(m, c);
  }
  return c;
}

/** Fields of `modifierInfo`'s answer: bits 0-7 the last data type's class (as `modifierClass` gives it),
 *  then how many state spaces are named (3 bits; MANY_SPACES: more than MI_MAX_SPACES, which the caller
 *  reads from the list itself), then the first MI_MAX_SPACES of them in order, 3 bits each. */
const MI_COUNT = 8;
const MI_SPACES = 11;
const MI_MAX_SPACES = 6;
const MANY_SPACES = 7;
/** `modifierInfo`'s answers by list: the parser gives instructions with the same modifiers one shared list
 *  (a module has a few hundred), so one lookup per instruction replaces one per modifier. Weak: the lists
 *  belong to a syntax tree. */
const modifierInfos = new WeakMap<readonly string[], number>();
/** A modifier list's data type, and the state spaces it names, packed (MI_COUNT, MI_SPACES). */
function modifierInfo(mods: readonly string[]): number {
  const hit = modifierInfos.get(mods);
  if (hit !== undefined) return hit;
  let type = 0;
  let count = 0;
  let spaces = 0;
  for (let k = 0; k < mods.length; k++) {
    const c = modifierClass(mods[k]!);
    if (c >= SPACE_CLASS) {
      if (count < MI_MAX_SPACES) spaces |= (c - SPACE_CLASS) << (3 * count);
      count++;
    } else if (c !== 0) type = c;
  }
  const info = type | ((count > MI_MAX_SPACES ? MANY_SPACES : count) << MI_COUNT) | (spaces << MI_SPACES);
  modifierInfos.set(mods, info);
  return info;
}

/** Fills `out` with the spaces `mods` names, in order (codes of ACCESS_SPACES); returns how many. */
function spacesNamed(mods: readonly string[], out: number[]): number {
  let count = 0;
  for (let k = 0; k < mods.length; k++) {
    const c = modifierClass(mods[k]!);
    if (c >= SPACE_CLASS) out[count++] = c - SPACE_CLASS;
  }
  return count;
}

/** The n-th data type among the modifiers (`cvt.u64.u32`: .u64, then .u32), without listing them. */
function nthType(mods: readonly string[], n: number): string | undefined {
  for (let k = 0; k < mods.length; k++) {
    const m = mods[k]!;
    if (typeBytes(m) !== undefined && m !== '.pred' && n-- === 0) return m;
  }
  return undefined;
}

/** The atom of the first modifier `table` has (0 when none). */
function tableAtom(mods: readonly string[], table: Readonly<Record<string, number>>): number {
  for (let k = 0; k < mods.length; k++) {
    const atom = table[mods[k]!];
    if (atom !== undefined) return atom;
  }
  return 0;
}

const INT_TYPE = /^\.[bus](8|16|32|64)$/;

function isFloatType(t: string): boolean {
  return t.startsWith('.f') || t.startsWith('.bf') || t.startsWith('.e') || t === '.tf32';
}

/** Opcodes whose bracketed operands are texture/surface handles, not memory addresses. */
const HANDLE_OPCODES: ReadonlySet<string> = new Set(['tex', 'tld4', 'txq', 'suld', 'sust', 'sured', 'suq', 'istypep']);

/** The variable a name at an address's base denotes (none for a register); a label named like a module
 *  variable is the variable. */
function symbolAt(ctx: AnalysisContext, fn: FunctionModel, base: A.NameExpr): VariableSymbol | undefined {
  const sym = fn.resolve(base);
  return sym?.kind === 'variable' ? sym : sym?.kind === 'register' ? undefined : ctx.model.variables.get(base.name);
}

/** The first name in an expression (the base of `[%rd1+16]` or `[smem+4]`). */
function baseName(e: A.Expression): A.NameExpr | undefined {
  switch (e.kind) {
    case 'Name': return e;
    case 'Binary': return baseName(e.left) ?? baseName(e.right);
    case 'Cast': case 'Unary': return baseName(e.arg);
    default: return undefined;
  }
}

/** Address size of the module: 32, 64, or undefined when `.address_size` is missing. */
const addressSizes = new WeakMap<A.Module, number | undefined>();
function addressSize(module: A.Module): number | undefined {
  if (addressSizes.has(module)) return addressSizes.get(module);
  let size: number | undefined;
  for (const s of module.statements) {
    if (s.kind === 'AddressSize') {
      size = s.size;
      break;
    }
  }
  addressSizes.set(module, size);
  return size;
}

// ---------------------------------------------------------------- the analysis

/** The address of one memory access. */
export interface AddressAccess {
  /** Instruction index. */
  readonly index: number;
  /** Position of the bracketed operand among the instruction's operands. */
  readonly operand: number;
  /** `tensor-map`: `[tmap, {x, y}]`, the generic address of a tensor map. */
  readonly kind: 'memory' | 'tensor-map';
  /** The space the instruction names for this address (`generic` when none). */
  readonly space: AccessSpace;
  /** Provenance of the address (atoms and width flags). */
  readonly provenance: number;
  readonly agreement: Agreement;
  /** The register in the address, if any. */
  readonly register: RegisterSymbol | undefined;
  /** The variable named in the address (`[smem+4]`, `[param_0]`), if any. */
  readonly symbol: VariableSymbol | undefined;
}

export interface ProvenanceFacts {
  readonly flow: ValueFlow;
  /** Provenance (mask) of each definition. */
  readonly defValue: Uint16Array;
  /** Provenance of each entry of the flow's address table (`flow.insAddrStart`). */
  readonly addressProvenance: Uint16Array;
  /** Every memory access's address, in instruction order. */
  readonly accesses: readonly AddressAccess[];
  /** Provenance of register `reg` as read by instruction `ins` (0 when `ins` does not read it). */
  valueAt(ins: number | FlatInstruction, reg: RegisterSymbol | string): number;
  /** Provenance of the value instruction `ins` writes into `reg`. */
  definedAt(ins: number | FlatInstruction, reg: RegisterSymbol | string): number;
  /** Provenance of any operand expression evaluated at `ins`. */
  operand(ins: number | FlatInstruction, e: A.Expression): number;
  /** The addresses instruction `ins` accesses (several for `cp.async`, mbarrier operands...). */
  accessesAt(ins: number | FlatInstruction): readonly AddressAccess[];
}

const indexOf = (ins: number | FlatInstruction): number => (typeof ins === 'number' ? ins : ins.index);

/** The register named `name` in instruction `i` (its operands or guard). */
export function registerIn(fn: FunctionModel, i: number, reg: RegisterSymbol | string): RegisterSymbol | undefined {
  if (typeof reg !== 'string') return reg;
  const node = fn.instructions[i]?.node;
  if (node === undefined) return undefined;
  if (node.guard !== undefined && node.guard.predicate === reg) {
    const g = fn.resolveGuard(node.guard);
    if (g?.kind === 'register') return g;
  }
  let found: RegisterSymbol | undefined;
  const visit = (e: A.Expression): void => {
    if (found !== undefined) return;
    switch (e.kind) {
      case 'Name': {
        if (e.name !== reg) return;
        const s = fn.resolve(e);
        if (s?.kind === 'register') found = s;
        return;
      }
      case 'Unary': case 'Cast': visit(e.arg); return;
      case 'Binary': visit(e.left); visit(e.right); return;
      case 'Conditional': visit(e.test); visit(e.then); visit(e.otherwise); return;
      case 'Vector': case 'Address': case 'List': e.elements.forEach(visit); return;
      case 'PredPair': visit(e.first); visit(e.second); return;
      default: return;
    }
  };
  node.operands.forEach(visit);
  return found;
}

/** Transfer codes of the opcodes whose results may carry an address (the others: T_NONE, never evaluated);
 *  from T_GENERATOR on, those whose results may carry an address none of their operands carries. */
const T_NONE = 0;
const T_MOV = 1;
const T_CVT = 2;
/** The union of operands 1 and 2. */
const T_UNION = 3;
/** Operand 1's. */
const T_FIRST = 4;
const T_MAD = 5;
const T_GENERATOR = 6;
const T_CVTA = 6;
const T_MAPA = 7;
const T_LOAD = 8;
const T_CALL = 9;
const TRANSFER: ReadonlyMap<string, number> = new Map([
  ['mov', T_MOV], ['cvta', T_CVTA], ['mapa', T_MAPA], ['cvt', T_CVT],
  ['add', T_UNION], ['addc', T_UNION], ['and', T_UNION], ['or', T_UNION], ['xor', T_UNION], ['selp', T_UNION], ['slct', T_UNION],
  ['sub', T_FIRST], ['subc', T_FIRST], ['shfl', T_FIRST], ['mad', T_MAD], ['madc', T_MAD],
  ['ld', T_LOAD], ['ldu', T_LOAD], ['atom', T_LOAD], ['call', T_CALL],
]);

const SYMBOL_ATOM: Readonly<Record<string, number>> = {
  '.shared': PROV['shared-window'], '.global': PROV.global, '.local': PROV.local, '.const': PROV.const, '.param': PROV.param,
};

const CVTA_GENERIC: Readonly<Record<string, number>> = {
  '.global': PROV['generic-global'], '.shared': PROV['shared-generic'], '.shared::cta': PROV['shared-generic'],
  '.shared::cluster': PROV['shared-cluster-generic'], '.local': PROV['local-generic'], '.const': PROV['const-generic'],
  '.param': PROV['param-generic'], '.param::entry': PROV['param-generic'],
};
const CVTA_TO: Readonly<Record<string, number>> = {
  '.global': PROV.global, '.shared': PROV['shared-window'], '.shared::cta': PROV['shared-window'],
  '.shared::cluster': PROV['shared-cluster'], '.local': PROV.local, '.const': PROV.const,
  '.param': PROV.param, '.param::entry': PROV.param,
};

/** Kernel pointer parameter loaded by `ld.param`: a generic address into the
 *  space its `.ptr` attribute names, global by default. */
function paramPointer(sym: VariableSymbol | undefined): number {
  switch (sym?.ptrSpace) {
    case '.shared': return PROV['shared-generic'];
    case '.local': return PROV['local-generic'];
    case '.const': return PROV['const-generic'];
    default: return PROV['generic-global'];
  }
}

/** The transfer codes of a function's opcodes while its facts are computed (kept from function to function,
 *  grown, never shrunk: a typed array is a backing store each, ~1 us). No other function's provenance is
 *  computed meanwhile: the propagation asks the context for nothing. */
let TRANSFERS = new Uint8Array(64);

function computeProvenance(ctx: AnalysisContext, fn: FunctionModel): ProvenanceFacts {
  const flow = ctx.get(fn, valueFlowAnalysis);
  // Both tables in one buffer (one allocation instead of two).
  const facts = new ArrayBuffer((flow.defCount + flow.addrIns.length) * 2);
  const defValue = new Uint16Array(facts, 0, flow.defCount);
  const addressProvenance = new Uint16Array(facts, flow.defCount * 2, flow.addrIns.length);
  const size = addressSize(ctx.module);
  const pointerWide = (bytes: number | undefined): boolean =>
    bytes !== undefined && (size === undefined ? bytes === 4 || bytes === 8 : bytes * 8 === size);
  const regMayPoint = (r: RegisterSymbol): boolean => INT_TYPE.test(r.type) && (typeBytes(r.type) ?? 0) >= 4;
  // Entry values of `.func` register parameters.
  const params = fn.isEntry ? [] : fn.registers.filter((r) => r.isParam && regMayPoint(r));
  for (const r of params) defValue[flow.rd.regBase[r.id]!] = PROV.unknown;

  const regValue = (i: number, r: number): number => {
    const u = flow.useOf(i, r);
    if (u < 0) return 0;
    let v = 0;
    for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) v |= defValue[flow.useDefs[k]!]!;
    return v;
  };
  /** What a name in an operand denotes; a label named like a module variable is the variable. */
  const symbolOf = (e: A.NameExpr): RegisterSymbol | VariableSymbol | undefined => {
    const s = fn.resolve(e);
    if (s?.kind === 'register' || s?.kind === 'variable') return s;
    return ctx.model.variables.get(e.name);
  };
  const evalExpr = (i: number, e: A.Expression): number => {
    switch (e.kind) {
      case 'Name': {
        const s = symbolOf(e);
        if (s === undefined) return 0;
        return s.kind === 'register' ? regValue(i, s.id) : SYMBOL_ATOM[s.space] ?? 0;
      }
      case 'Binary':
        if (e.op === '+') return evalExpr(i, e.left) | evalExpr(i, e.right);
        if (e.op === '-') return evalExpr(i, e.left);
        return 0;
      case 'Cast': return evalExpr(i, e.arg);
      case 'Vector': case 'List': {
        let v = 0;
        for (const x of e.elements) v |= evalExpr(i, x);
        return v;
      }
      case 'Address': return e.elements.length > 0 ? evalExpr(i, e.elements[0]!) : 0;
      default: return 0;
    }
  };
  const byUse = (u: number): number => {
    let v = 0;
    for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) v |= defValue[flow.useDefs[k]!]!;
    return v;
  };
  /** Provenance of address-table entry a. */
  const addressValue = (a: number): number => {
    if (flow.addrComplex[a] === 1) {
      const i = flow.addrIns[a]!;
      return evalExpr(i, fn.instructions[i]!.node.operands[flow.addrOperand[a]!]!);
    }
    const sym = flow.addrSymbol[a];
    if (sym !== undefined) return SYMBOL_ATOM[sym.space] ?? 0;
    const u = flow.addrUse[a]!;
    return u < 0 ? 0 : byUse(u);
  };
  /** Pointer-wide loads produce `generic`; `ld.param` of a kernel parameter, a pointer into global. */
  const loaded = (i: number): number => {
    const type = flow.dataType[i]!;
    if ((type & INT_TYPE_BIT) === 0) return 0;
    const wide = pointerWide(type & ~INT_TYPE_BIT);
    if (flow.opcodes[flow.opcode[i]!] !== 'ld' || flow.space[i] !== SPACE_CODE.param) return wide ? PROV.generic : 0;
    // A kernel parameter; else a `.func` argument or a call's return slot.
    const a = flow.insAddrStart[i]!;
    const sym = a < flow.insAddrStart[i + 1]! ? flow.addrSymbol[a] : undefined;
    const kernelParam = fn.isEntry && (sym !== undefined ? sym.isParam : a < flow.insAddrStart[i + 1]! && (addressValue(a) & PROV.param) !== 0);
    if (kernelParam) return wide ? paramPointer(sym) : 0;
    return (type & ~INT_TYPE_BIT) >= 4 ? PROV.unknown : 0;
  };

  let changed = false;
  /** 32-bit slots of each register the function reads or writes, 0 for a predicate (the register table's, by
   *  id: reading a register object's type is a cache miss). */
  const regSlots = flow.rd.table.slots;
  /** Joins `v` into definition d (predicates never carry an address; the register is looked at only when
   *  the fact would grow). */
  const put = (d: number, v: number): void => {
    const next = defValue[d]! | v;
    if (next === defValue[d] || regSlots[flow.defReg[d]!] === 0) return;
    defValue[d] = next;
    changed = true;
  };
  /** Every definition of the instruction gets `v` (vector loads, scalars). */
  const putAll = (i: number, v: number): void => {
    if (v === 0) return;
    for (let s = flow.insDefStart[i]!; s < flow.insDefStart[i + 1]!; s++) put(flow.slotDef[s]!, v);
  };
  const { operandStart, operandRegister, operandKind: operandKinds } = fn.effectTable;
  /** Provenance of operand k of instruction i (one closure per function, not one per evaluation); the
   *  syntax tree is read only for an operand that is not a plain register name. */
  const operandValue = (i: number, k: number): number => {
    if (k < OPERAND_SLOTS) {
      const u = flow.operandUse[i * OPERAND_SLOTS + k]!;
      if (u >= 0) return byUse(u);
    }
    // (What the operand is from the model's operand kinds: an immediate's node is not read.)
    const at = operandStart[i]! + k;
    if (at >= operandStart[i + 1]!) return 0;
    const kind = operandKinds[at]!;
    return kind === OperandKind.Int || kind === OperandKind.Float ? 0 : evalExpr(i, fn.instructions[i]!.node.operands[k]!);
  };
  /** What each of the function's opcodes does (T_NONE: never evaluated). */
  if (TRANSFERS.length < flow.opcodes.length) TRANSFERS = new Uint8Array(Math.max(flow.opcodes.length, 2 * TRANSFERS.length));
  const opcodeTransfer = TRANSFERS;
  for (let o = 0; o < flow.opcodes.length; o++) opcodeTransfer[o] = TRANSFER.get(flow.opcodes[o]!) ?? T_NONE;
  /** The transfer of instruction i, by its opcode's code: the syntax tree is read only where the operands'
   *  shapes or the modifiers decide (`mov`, `cvta`, `cvt`, `mad`). */
  const transfer = (i: number): void => {
    switch (opcodeTransfer[flow.opcode[i]!]) {
      case T_MOV: {
        // (The operands' kinds from the model's table: the node is read only to unpack a vector.)
        const o0 = operandStart[i]!;
        const nOps = operandStart[i + 1]! - o0;
        const d = nOps > 0 ? operandKinds[o0]! : 0;
        const s = nOps > 1 ? operandKinds[o0 + 1]! : 0;
        if (d === OperandKind.Vector && s !== 0 && s !== OperandKind.Vector) {
          // Unpack `mov.b64 {lo, hi}, x`: the low half keeps the origin, narrowed.
          const v = operandValue(i, 1);
          // (A name leading the destination: the operand table holds its register, -1 for none.)
          const lo = (fn.instructions[i]!.node.operands[0] as A.VectorExpr).elements[0];
          const reg = lo?.kind === 'Name' ? operandRegister[o0]! : -1;
          const def = reg >= 0 ? flow.defOf(i, reg) : -1;
          if (v !== 0 && def >= 0) put(def, v | TRUNCATED);
        } else if (d !== OperandKind.Vector && s === OperandKind.Vector) {
          putAll(i, operandValue(i, 1) & ~TRUNCATED);
        } else putAll(i, operandValue(i, 1));
        return;
      }
      case T_CVTA: {
        const mods = fn.instructions[i]!.node.modifiers;
        const to = mods.includes('.to');
        const table = to ? CVTA_TO : CVTA_GENERIC;
        const atom = tableAtom(mods, table);
        putAll(i, atom === 0 ? operandValue(i, 1) : atom | (operandValue(i, 1) & (TRUNCATED | WIDENED)));
        return;
      }
      case T_MAPA:
        putAll(i, fn.instructions[i]!.node.modifiers.includes('.shared::cluster') ? PROV['shared-cluster'] : PROV['shared-cluster-generic']);
        return;
      case T_CVT: {
        const v = operandValue(i, 1);
        if (v === 0) return;
        const mods = fn.instructions[i]!.node.modifiers;
        const to = nthType(mods, 0);
        const from = nthType(mods, 1);
        if (to === undefined || isFloatType(to) || (from !== undefined && isFloatType(from))) return;
        const tb = typeBytes(to) ?? 0;
        const fb = from === undefined ? tb : typeBytes(from) ?? tb;
        putAll(i, v | (tb < fb ? TRUNCATED : 0) | (tb > fb ? WIDENED : 0));
        return;
      }
      case T_UNION:
        putAll(i, operandValue(i, 1) | operandValue(i, 2));
        return;
      case T_FIRST:
        // (`shfl d|p, a, ...`: the value; the predicate is skipped by `put`.)
        putAll(i, operandValue(i, 1));
        return;
      case T_MAD:
        if (!fn.instructions[i]!.node.modifiers.includes('.hi')) putAll(i, operandValue(i, 3));
        return;
      case T_LOAD:
        putAll(i, loaded(i));
        return;
      case T_CALL:
        for (let s = flow.insDefStart[i]!; s < flow.insDefStart[i + 1]!; s++) {
          const d = flow.slotDef[s]!;
          if (regMayPoint(fn.registers[flow.defReg[d]!]!)) put(d, PROV.unknown);
        }
        return;
      default:
        return;
    }
  };
  // Seeds: instructions that make an address from no address they read (a
  // symbol, cvta, a load...), and readers of `.func` parameters' entry values.
  let paramReader: Uint8Array | undefined;
  if (params.length > 0) {
    paramReader = new Uint8Array(fn.instructions.length);
    for (const r of params) {
      const d = flow.rd.regBase[r.id]!;
      for (let k = flow.defUseStart[d]!; k < flow.defUseStart[d + 1]!; k++) paramReader[flow.useIns[flow.defUses[k]!]!] = 1;
    }
  }
  const seed = (i: number): boolean => {
    const t = opcodeTransfer[flow.opcode[i]!]!;
    if (t !== T_NONE && (flow.plain[i] === 0 || t >= T_GENERATOR)) return true;
    return paramReader !== undefined && paramReader[i] === 1;
  };

  const evaluate = (i: number): boolean => {
    if (opcodeTransfer[flow.opcode[i]!] === T_NONE) return false;
    changed = false;
    transfer(i);
    return changed;
  };
  propagate(flow, seed, evaluate);
  // (The propagation's closures, run for every instruction: their compiled code kept from function to function.)
  keepCompiled('provenance', seed, evaluate);

  // Addresses of memory accesses: provenance per address-table entry; the
  // objects are made when first asked for.
  for (let a = 0; a < addressProvenance.length; a++) addressProvenance[a] = addressValue(a);
  const access = (a: number): AddressAccess => {
    const u = flow.addrUse[a]!;
    const space = ACCESS_SPACES[flow.addrSpace[a]!]!;
    const provenance = addressProvenance[a]!;
    return {
      index: flow.addrIns[a]!, operand: flow.addrOperand[a]!, kind: flow.addrTensorMap[a] === 1 ? 'tensor-map' : 'memory',
      space, provenance, agreement: agreement(space, provenance),
      register: u < 0 ? undefined : fn.registers[flow.useReg[u]!], symbol: flow.addrSymbol[a],
    };
  };
  let all: AddressAccess[] | undefined;
  const accesses = (): AddressAccess[] => {
    if (all === undefined) {
      all = [];
      for (let a = 0; a < addressProvenance.length; a++) all.push(access(a));
    }
    return all;
  };

  const reg = (i: number, r: RegisterSymbol | string): RegisterSymbol | undefined => registerIn(fn, i, r);
  return {
    flow, defValue, addressProvenance,
    get accesses() {
      return accesses();
    },
    valueAt: (ins, r) => {
      const i = indexOf(ins);
      const s = reg(i, r);
      return s === undefined ? 0 : regValue(i, s.id);
    },
    definedAt: (ins, r) => {
      const i = indexOf(ins);
      const s = reg(i, r);
      const d = s === undefined ? -1 : flow.defOf(i, s.id);
      return d < 0 ? 0 : defValue[d]!;
    },
    operand: (ins, e) => evalExpr(indexOf(ins), e),
    accessesAt: (ins) => {
      const i = indexOf(ins);
      return accesses().slice(flow.insAddrStart[i]!, flow.insAddrStart[i + 1]!);
    },
  };
}

/** Address provenance of every register use and memory access of a function. */
export const provenanceAnalysis: FunctionAnalysis<ProvenanceFacts> = { name: 'provenance', compute: computeProvenance };
