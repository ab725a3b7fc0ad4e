// The catalog's debug-buffer protocol as the instrumentation checks
// (F096–F099) see it: a kernel's `debug_buf`/`debug_cap` parameters (or a
// module variable `debug_buf`), the atomic slot counter on
// `debug_buf[0]`, and the debug writes (stores whose address derives from
// `debug_buf`).
import type * as A from '../parser/ast.js';
import { affineAnalysis } from '../cfg/dataflow/affine.js';
import type { FunctionModel, VariableSymbol } from '../cfg/symbols.js';
import { backwardSlice, namesVariable, registersIn } from './flow.js';
import type { CheckContext } from './types.js';

/** The parameter names of the protocol. */
export const DEBUG_BUF = 'debug_buf';
export const DEBUG_CAP = 'debug_cap';

/** The `.param` a `ld.param` reads, by name. */
export function paramLoaded(fn: FunctionModel, node: A.Instruction): string | undefined {
  if (node.opcode !== 'ld' || !node.modifiers.some((m) => m === '.param' || m.startsWith('.param::'))) return undefined;
  const a = node.operands.find((o): o is A.AddressExpr => o.kind === 'Address');
  const e = a?.elements[0];
  const name = e?.kind === 'Name' ? e : e?.kind === 'Binary' && e.left.kind === 'Name' ? e.left : undefined;
  const sym = name === undefined ? undefined : fn.resolve(name);
  return sym?.kind === 'variable' && sym.isParam ? sym.name : undefined;
}

/** Whether a kernel declares the protocol's buffer parameter. */
export function hasDebugBuffer(fn: FunctionModel): boolean {
  return fn.isEntry && fn.decl.params.some((p) => p.declarators.some((d) => d.name === DEBUG_BUF));
}

const isBufferVariable = (v: VariableSymbol): boolean => !v.isParam && v.name === DEBUG_BUF;

/** Whether an instruction names the module variable `debug_buf` (`mov.u64 %rd3, debug_buf`, `[debug_buf+4]`). */
function refersToBuffer(fn: FunctionModel, node: A.Instruction): boolean {
  for (const o of node.operands) if (namesVariable(fn, o, isBufferVariable)) return true;
  return false;
}

/** Per function (four checks ask about every kernel). */
const DEBUG_KERNELS = new WeakMap<FunctionModel, boolean>();

/**
 * Whether a kernel writes the protocol's buffer: a `debug_buf` parameter (as `ptx-debug instrument` writes the
 * protocol), or a module variable `debug_buf` it refers to (a kernel instrumented by hand in CUDA: nvcc names
 * parameters `<kernel>_param_N`, but keeps a `__device__` variable's name).
 */
export function isDebugKernel(fn: FunctionModel): boolean {
  let known = DEBUG_KERNELS.get(fn);
  if (known === undefined) {
    known = hasDebugBuffer(fn) || (fn.isEntry && fn.instructions.some((i) => refersToBuffer(fn, i.node)));
    DEBUG_KERNELS.set(fn, known);
  }
  return known;
}

export interface DebugWrite {
  /** The store. */
  readonly index: number;
  /** The instructions its address is computed from. */
  readonly slice: ReadonlySet<number>;
  /** Its value operand. */
  readonly value: A.Expression | undefined;
}

export interface DebugFacts {
  /** `atom.add` on `debug_buf[0]`: the slot counter. */
  readonly counters: readonly number[];
  /** Stores whose address derives from `debug_buf` (the counter excluded). */
  readonly writes: readonly DebugWrite[];
}

/** Whether instruction `i`'s first address is exactly `debug_buf + 0`. */
function isBufferStart(ctx: CheckContext, fn: FunctionModel, i: number): boolean {
  const af = ctx.analysis.get(fn, affineAnalysis);
  const form = af.addressOf(i);
  if (form === undefined || form.c !== 0 || form.terms.length !== 1 || form.terms[0]!.coef !== 1) return false;
  const s = af.symbols[form.terms[0]!.sym]!;
  return s.kind === 'param' ? s.variable.name === DEBUG_BUF && s.offset === 0 : s.kind === 'var' && !s.variable.isParam && s.variable.name === DEBUG_BUF;
}

/** The protocol's counter and writes in one kernel. */
export function debugFacts(ctx: CheckContext, fn: FunctionModel): DebugFacts {
  const counters: number[] = [];
  const writes: DebugWrite[] = [];
  for (const ins of fn.instructions) {
    const node = ins.node;
    if (node.opcode !== 'st' && node.opcode !== 'atom' && node.opcode !== 'red') continue;
    const addr = node.operands.find((o): o is A.AddressExpr => o.kind === 'Address');
    if (addr === undefined) continue;
    const regs = registersIn(fn, addr);
    const slice = backwardSlice(ctx, fn, ins.index, regs, { limit: 256 }) ?? new Set<number>();
    const fromBuffer = [...slice].some((d) => paramLoaded(fn, fn.instructions[d]!.node) === DEBUG_BUF || refersToBuffer(fn, fn.instructions[d]!.node))
      || addr.elements.some((e) => e.kind === 'Name' && e.name === DEBUG_BUF);
    if (!fromBuffer) continue;
    if ((node.opcode === 'atom' || node.opcode === 'red') && node.modifiers.includes('.add') && isBufferStart(ctx, fn, ins.index)) {
      counters.push(ins.index);
      continue;
    }
    const addrAt = node.operands.indexOf(addr);
    writes.push({ index: ins.index, slice, value: node.operands[addrAt + 1] });
  }
  return { counters, writes };
}

/** What F097–F099's notes say of real compiler output (each names its own fixtures). */
export const NVCC_DEBUG_BUFFER_NOTE = 'The buffer is the kernel\'s `debug_buf` parameter, as `ptx-debug instrument` writes the protocol, or a '
  + 'module variable `debug_buf` (`__device__ unsigned debug_buf[...]` in CUDA: nvcc keeps a variable\'s name). A kernel instrumented '
  + 'by hand with buffer parameters is not recognized: nvcc names them `<kernel>_param_N` (known misses in fixtures/checks/';
