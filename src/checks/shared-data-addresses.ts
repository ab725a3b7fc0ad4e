// F082's dependence of store addresses on data loaded from shared memory,
// followed through data operands only. The load taint (cfg/dataflow/taint.ts)
// gives the sources (`ld.shared`, a generic load of shared provenance,
// `ldmatrix`, an `atom.shared`'s old value); this walk differs from its `any`
// mode in one way: it does not follow `.pred` registers, nor the compared
// operands of `set`. A comparison of the loaded value (a guard, a `selp`
// selector, a `vote`) is a decision about the data, as a branch on it would be;
// following it would make the answer depend on whether the compiler
// if-converted the branch. A load is a barrier, as in the taint analysis.
import type { FunctionAnalysis } from '../cfg/context.js';
import { propagate } from '../cfg/dataflow/provenance.js';
import { TAINT, taintAnalysis } from '../cfg/dataflow/taint.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { shortestChain } from './address-facts.js';
import type { ChainStep, CheckContext } from './types.js';

/** Opcodes whose register operands are compared, not computed with (their result is a decision). */
const COMPARISONS: ReadonlySet<string> = new Set(['setp', 'set', 'vote', 'testp']);

export interface SharedDataAddresses {
  /** Per definition: its value is computed from shared-loaded data (through data operands). */
  readonly tainted: Uint8Array;
  /** Whether some register of the address operands of instruction `ins` is tainted. */
  addressTainted(ins: number): boolean;
}

function compute(ctx: Parameters<FunctionAnalysis<SharedDataAddresses>['compute']>[0], fn: FunctionModel): SharedDataAddresses {
  const taint = ctx.get(fn, taintAnalysis);
  const flow = taint.flow;
  const tainted = new Uint8Array(flow.defCount);
  // Which uses carry data: not the guard, not a predicate, not a comparison's operands.
  const carries = new Uint8Array(flow.useReg.length);
  for (let i = 0; i < fn.instructions.length; i++) {
    if ((taint.sourceOf[i]! & TAINT.shared) !== 0 || COMPARISONS.has(flow.opcodes[flow.opcode[i]!]!)) continue;
    const g = flow.guardUse[i]!;
    for (let u = flow.insUseStart[i]!; u < flow.insUseStart[i + 1]!; u++) {
      if (u !== g && fn.registers[flow.useReg[u]!]?.type !== '.pred') carries[u] = 1;
    }
  }
  const isLoad = (i: number): boolean => taint.sourceOf[i] !== 0;
  const evaluate = (i: number): boolean => {
    let on = (taint.sourceOf[i]! & TAINT.shared) !== 0;
    if (!on && isLoad(i)) return false; // a load of another space reads no data into its result
    for (let u = flow.insUseStart[i]!; u < flow.insUseStart[i + 1]! && !on; u++) {
      if (carries[u] === 0) continue;
      for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]! && !on; k++) on = tainted[flow.useDefs[k]!] === 1;
    }
    if (!on) return false;
    let changed = false;
    for (let s = flow.insDefStart[i]!; s < flow.insDefStart[i + 1]!; s++) {
      const d = flow.slotDef[s]!;
      if (tainted[d] === 0) {
        tainted[d] = 1;
        changed = true;
      }
    }
    return changed;
  };
  propagate(flow, (i) => (taint.sourceOf[i]! & TAINT.shared) !== 0, evaluate);
  return {
    tainted,
    addressTainted(ins) {
      for (let a = flow.insAddrStart[ins]!; a < flow.insAddrStart[ins + 1]!; a++) {
        const u = flow.addrUse[a]!;
        if (u < 0) continue;
        for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) if (tainted[flow.useDefs[k]!] === 1) return true;
      }
      return false;
    },
  };
}

/** Per function: which definitions carry shared-loaded data into computed values. */
export const sharedDataAddressesAnalysis: FunctionAnalysis<SharedDataAddresses> = { name: 'checks/shared-data-addresses', compute };

/**
 * The shortest chain from a shared-memory load to the address of `sink`,
 * through tainted definitions and data-carrying uses (breadth-first, back from
 * the sink); just the sink when none is found.
 */
export function sharedDataChain(ctx: CheckContext, fn: FunctionModel, sink: number): ChainStep[] {
  const facts = ctx.analysis.get(fn, sharedDataAddressesAnalysis);
  const taint = ctx.analysis.get(fn, taintAnalysis);
  const flow = taint.flow;
  const starts: number[] = [];
  for (let a = flow.insAddrStart[sink]!; a < flow.insAddrStart[sink + 1]!; a++) if (flow.addrUse[a]! >= 0) starts.push(flow.addrUse[a]!);
  return shortestChain(ctx, fn, flow, sink, starts, {
    carries: (d) => facts.tainted[d] === 1,
    isSource: (j) => (taint.sourceOf[j]! & TAINT.shared) !== 0,
    // A comparison's operands are compared, not computed with.
    expands: (j) => !COMPARISONS.has(flow.opcodes[flow.opcode[j]!]!),
    follows: (u) => fn.registers[flow.useReg[u]!]?.type !== '.pred',
  });
}
