// Memory accesses as the memory and performance checks (F051–F060, F093–F095)
// see them: every `ld`/`ldu`/`st`/`atom`/`red` with the state space it names,
// the space its address resolves to (a generic access whose provenance is one
// space only is judged as that space), its size, and its affine address; plus
// the facts several checks share: the known alignment of an address, whether
// a warp's lanes can be mapped to %tid, and the scope/semantics modifiers.
import type { AnalysisContext, FunctionAnalysis } from '../cfg/context.js';
import type { FlatInstruction, FunctionModel, VariableSymbol } from '../cfg/symbols.js';
import { typeBytes } from '../cfg/symbols.js';
import { accessBytes, affineAnalysis, type AffineFacts, type AffineSymbol, type Form, type LaneStride } from '../cfg/dataflow/affine.js';
import { ATOM_MASK, PROV, provenanceAnalysis, type AccessSpace } from '../cfg/dataflow/provenance.js';
import { uniformityAnalysis, WARP } from '../cfg/dataflow/uniformity.js';

export type AccessKind = 'load' | 'store' | 'atomic';

export interface MemoryAccess {
  readonly index: number;
  readonly ins: FlatInstruction;
  readonly kind: AccessKind;
  /** The space the instruction names (`generic` when none). */
  readonly named: AccessSpace;
  /** The named space, or for a generic access the one space its provenance allows (else `generic`). */
  readonly space: AccessSpace;
  /** Bytes one thread moves (type × vector width); undefined when not fixed. */
  readonly bytes: number | undefined;
  /** The address as an affine form; undefined when not affine. */
  readonly form: Form | undefined;
  /** `ld.global.nc` (and `ld.global.nc` written by `__ldg`). */
  readonly nc: boolean;
}

const KINDS: Readonly<Record<string, AccessKind>> = { ld: 'load', ldu: 'load', st: 'store', atom: 'atomic', red: 'atomic' };

const GLOBAL_ATOMS = PROV.global | PROV['generic-global'];
const SHARED_ATOMS = PROV['shared-window'] | PROV['shared-generic'];
const LOCAL_ATOMS = PROV.local | PROV['local-generic'];

/** The single space a generic address's provenance allows, else `generic`. */
export function resolvedSpace(named: AccessSpace, provenance: number): AccessSpace {
  if (named !== 'generic') return named;
  const atoms = provenance & ATOM_MASK;
  if (atoms === 0) return 'generic';
  if ((atoms & ~GLOBAL_ATOMS) === 0) return 'global';
  if ((atoms & ~SHARED_ATOMS) === 0) return 'shared';
  if ((atoms & ~LOCAL_ATOMS) === 0) return 'local';
  return 'generic';
}

function collect(ctx: AnalysisContext, fn: FunctionModel): MemoryAccess[] {
  const out: MemoryAccess[] = [];
  let af: AffineFacts | undefined;
  const prov = ctx.get(fn, provenanceAnalysis);
  for (const ins of fn.instructions) {
    const kind = KINDS[ins.node.opcode];
    if (kind === undefined) continue;
    const addr = prov.accessesAt(ins.index).find((a) => a.kind === 'memory');
    if (addr === undefined) continue;
    af ??= ctx.get(fn, affineAnalysis);
    const bytes = accessBytes(ins.node);
    out.push({
      index: ins.index, ins, kind, named: addr.space, space: resolvedSpace(addr.space, addr.provenance),
      bytes, form: af.addressOf(ins.index), nc: ins.node.opcode === 'ld' && ins.node.modifiers.includes('.nc'),
    });
  }
  return out;
}

const ACCESSES: FunctionAnalysis<MemoryAccess[]> = { name: 'checks/memory-accesses', compute: collect };

/** Every `ld`/`ldu`/`st`/`atom`/`red` of a function, in order (cached). */
export function memoryAccesses(ctx: AnalysisContext, fn: FunctionModel): readonly MemoryAccess[] {
  return ctx.get(fn, ACCESSES);
}

/** `ld.global.f32` */
export function opText(ins: FlatInstruction): string {
  return `${ins.node.opcode}${ins.node.modifiers.join('')}`;
}

// ---------------------------------------------------------------- alignment

/** The alignment kernel pointer parameters are taken to have: the start of a
 *  `cudaMalloc` allocation (256 bytes), unless `.ptr .align N` says more. */
export const KERNEL_POINTER_ALIGN = 256;

const MAX_ALIGN = 4096;

export interface Alignment {
  /** A power of two the value is known modulo (1: nothing known). */
  readonly align: number;
  /** The value modulo `align`. */
  readonly rem: number;
  /** What the result takes for granted (kernel pointer parameters). */
  readonly assumptions: readonly string[];
}

const mod = (x: number, m: number): number => ((x % m) + m) % m;

function pow2Factor(x: number): number {
  if (x === 0) return MAX_ALIGN;
  let p = 1;
  while (p < MAX_ALIGN && x % (p * 2) === 0) p *= 2;
  return p;
}

/** Whether a `.param` variable is declared as a pointer (`.ptr`). */
function isPointerDecl(v: VariableSymbol): boolean {
  return v.decl.qualifiers.some((q) => q.name === '.ptr');
}

/** Alignment of one symbol's value (1 when nothing is known). */
function symbolAlignment(af: AffineFacts, s: AffineSymbol, depth: number, notes: Set<string>): { align: number; rem: number } {
  switch (s.kind) {
    case 'var': {
      const a = s.variable.align ?? typeBytes(s.variable.type) ?? 1;
      return { align: Math.min(MAX_ALIGN, a), rem: 0 };
    }
    case 'param': {
      const v = s.variable;
      const wide = v.type === '.u64' || v.type === '.b64' || v.type === '.s64';
      const declared = isPointerDecl(v) && v.align !== undefined ? v.align : 1;
      if (af.fn.isEntry && s.offset === 0 && wide && v.dims.length === 0) {
        notes.add(`kernel pointer parameter ${v.name} taken to point to the start of an allocation (${KERNEL_POINTER_ALIGN}-byte aligned)`);
        return { align: Math.max(declared, KERNEL_POINTER_ALIGN), rem: 0 };
      }
      return { align: declared, rem: 0 };
    }
    case 'iv': {
      if (depth > 8) return { align: 1, rem: 0 };
      const init = formAlignment(af, s.init, depth + 1, notes);
      const step = formAlignment(af, s.step, depth + 1, notes);
      const stepAlign = step.rem === 0 ? step.align : Math.min(step.align, pow2Factor(step.rem));
      const align = Math.min(init.align, stepAlign);
      return { align, rem: mod(init.rem, align) };
    }
    default:
      return { align: 1, rem: 0 };
  }
}

function formAlignment(af: AffineFacts, f: Form, depth: number, notes: Set<string>): { align: number; rem: number } {
  let align = MAX_ALIGN;
  let rem = f.c;
  for (const t of f.terms) {
    const a = symbolAlignment(af, af.symbols[t.sym]!, depth, notes);
    align = Math.min(align, Math.min(MAX_ALIGN, pow2Factor(t.coef) * a.align));
    rem += t.coef * a.rem;
  }
  return { align, rem: mod(rem, align) };
}

/** What is known of an address modulo a power of two, for every thread. */
export function alignmentOf(af: AffineFacts, f: Form): Alignment {
  const notes = new Set<string>();
  const a = formAlignment(af, f, 0, notes);
  return { ...a, assumptions: [...notes] };
}

// ---------------------------------------------------------------- lanes

/** Whether the function reads %tid.y or %tid.z (its block may be 2-D or 3-D). */
export function readsTidYZ(af: AffineFacts): boolean {
  // Asked for every access: the symbols scanned so far are remembered (queries may add symbols).
  let seen = TID_YZ.get(af);
  if (seen === undefined) TID_YZ.set(af, seen = { scanned: 0, found: false });
  const symbols = af.symbols;
  for (; !seen.found && seen.scanned < symbols.length; seen.scanned++) {
    const s = symbols[seen.scanned]!;
    if (s.kind === 'sreg' && s.sreg === '%tid' && s.component !== 'x') seen.found = true;
  }
  return seen.found;
}

const TID_YZ = new WeakMap<AffineFacts, { scanned: number; found: boolean }>();

function usesTid(af: AffineFacts, f: Form): boolean {
  return f.terms.some((t) => af.symbols[t.sym]!.threadDependent && !isLaneOnly(af.symbols[t.sym]!));
}

function isLaneOnly(s: AffineSymbol): boolean {
  return s.kind === 'sreg' && s.sreg === '%laneid';
}

export type LaneView =
  | { readonly ok: true; readonly lanes: LaneStride; readonly assumptions: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * The per-lane view of an address, when the warp's lanes can be mapped to
 * %tid: the block shape is exact (`.reqntid`, or `--block` without
 * `.maxntid`), or the function reads only %tid.x (a one-dimensional block,
 * whose warps are 32 consecutive %tid.x), or the address uses no %tid.
 */
export function laneView(ctx: AnalysisContext, fn: FunctionModel, af: AffineFacts, f: Form): LaneView {
  // Asked by several checks for each access (the same form object): made once per function's facts and form.
  let views = LANE_VIEWS.get(af);
  if (views === undefined) LANE_VIEWS.set(af, views = new WeakMap());
  let view = views.get(f);
  if (view === undefined) views.set(f, view = computeLaneView(ctx, fn, af, f));
  return view;
}

const LANE_VIEWS = new WeakMap<AffineFacts, WeakMap<Form, LaneView>>();

function computeLaneView(ctx: AnalysisContext, fn: FunctionModel, af: AffineFacts, f: Form): LaneView {
  const decl = fn.decl.directives;
  const exact = decl.some((d) => d.name === '.reqntid') || (ctx.options.block !== undefined && !decl.some((d) => d.name === '.maxntid'));
  const tid = usesTid(af, f);
  if (tid && !exact && readsTidYZ(af)) {
    return { ok: false, reason: 'the block shape is unknown and the kernel reads %tid.y/%tid.z, so a warp\'s lanes cannot be mapped to %tid (give .reqntid or --block)' };
  }
  const lanes = af.laneStride(f);
  if (lanes === undefined) return { ok: false, reason: 'the address is not affine in the lane index' };
  // The engine's "blockDim.x taken to be a multiple of 32" is said once, below, as the one-dimensional block.
  const assumptions = lanes.assumptions.filter((a) => !a.startsWith('block size unknown') && !a.startsWith('block shape unknown') && !a.startsWith('blockDim.x taken'));
  if (tid && !exact) assumptions.unshift('the kernel reads only %tid.x, so its block is taken as one-dimensional (warps of 32 consecutive %tid.x)');
  return { ok: true, lanes, assumptions };
}

// ---------------------------------------------------------------- modifiers

export type Scope = 'cta' | 'cluster' | 'gpu' | 'sys';
const SCOPES: Readonly<Record<string, Scope>> = { '.cta': 'cta', '.cluster': 'cluster', '.gpu': 'gpu', '.sys': 'sys' };

/** The scope an instruction names (`.cta` ...), if any. */
export function scopeOf(ins: FlatInstruction): Scope | undefined {
  for (const m of ins.node.modifiers) {
    const s = SCOPES[m];
    if (s !== undefined) return s;
  }
  return undefined;
}

/** Whether the instruction is in a loop of its function. */
export function inLoop(ctx: AnalysisContext, fn: FunctionModel, index: number): boolean {
  const block = ctx.cfg(fn).blockOf[index]!;
  return ctx.loops(fn).loopOf[block]! >= 0;
}

// ---------------------------------------------------------------- misalignment

/**
 * Why an access of `bytes` at `form` is provably misaligned, or undefined:
 * every thread's address is ≢ 0 (mod bytes) by its known alignment, or (when
 * the instruction is reached by whole warps and not guarded by a lane-varying
 * predicate) adjacent lanes are a non-multiple of `bytes` apart, so one lane
 * of each pair is misaligned.
 */
export function misalignment(ctx: AnalysisContext, fn: FunctionModel, af: AffineFacts, index: number, form: Form, bytes: number): string | undefined {
  if (bytes <= 1 || (bytes & (bytes - 1)) !== 0) return undefined;
  const al = alignmentOf(af, form);
  const m = Math.min(al.align, bytes);
  const assumed = (xs: readonly string[]): string => (xs.length > 0 ? ` (assuming ${xs.join('; ')})` : '');
  if (m > 1 && al.rem % m !== 0) {
    return `the address ${af.format(form)} is ${al.rem % m} modulo ${m} for every thread, not a multiple of the ${bytes}-byte access${assumed(al.assumptions)}`;
  }
  const view = laneView(ctx, fn, af, form);
  if (!view.ok || view.lanes.stride % bytes === 0) return undefined;
  if (!convergent(ctx, fn, index)) return undefined;
  const ls = view.lanes;
  const known = Math.min(ls.align, bytes);
  let which = 'one lane of every two adjacent lanes is misaligned';
  if (known === bytes) {
    const bad: number[] = [];
    for (let l = 0; l < 32; l++) if (mod(ls.rem + ls.stride * l, bytes) !== 0) bad.push(l);
    which = `lanes ${bad.slice(0, 4).join(', ')}${bad.length > 4 ? ' …' : ''} (${bad.length} of 32) are misaligned`;
  }
  return `adjacent lanes of ${af.format(form)} are ${ls.stride} bytes apart, not a multiple of the ${bytes}-byte access: ${which}`
    + `${assumed([...view.assumptions, ...al.assumptions])}`;
}

/** Whether whole warps reach the instruction (no lane-varying branch or guard decides it). */
export function convergent(ctx: AnalysisContext, fn: FunctionModel, index: number): boolean {
  const u = ctx.get(fn, uniformityAnalysis);
  const block = ctx.cfg(fn).blockOf[index]!;
  if ((u.blockDivergence(block) & WARP) !== 0) return false;
  const ins = fn.instructions[index]!;
  if (ins.node.guard === undefined) return true;
  const g = fn.resolveGuard(ins.node.guard);
  return g?.kind === 'register' && (u.useVariance(index, g) & WARP) === 0;
}

// ---------------------------------------------------------------- barriers and fences

/** Opcodes that touch memory without a bracketed address (descriptors, tensor memory, calls). */
const MEMORY_OPCODES = new Set(['call', 'wgmma', 'tcgen05', 'tex', 'tld4', 'suld', 'sust', 'sured', 'txq', 'suq']);

/** Whether an instruction accesses memory (an address operand, a call, a descriptor-based MMA, texture or surface access). */
export function touchesMemory(ins: FlatInstruction): boolean {
  const n = ins.node;
  if (MEMORY_OPCODES.has(n.opcode)) return true;
  if (n.opcode === 'cp' && n.modifiers.some((m) => m.startsWith('.wait'))) return true;
  // (A loop: asked of every instruction by several checks.)
  for (const o of n.operands) if (o.kind === 'Address') return true;
  return false;
}

/** A barrier that every thread of the CTA waits at: `bar.sync`/`barrier.sync` (`.cta`, `.aligned`) with no
 *  thread count, or a count equal to the known block size. `bar.red` and `bar.arrive` are not. */
export function isCtaBarrier(ctx: AnalysisContext, fn: FunctionModel, ins: FlatInstruction): boolean {
  const n = ins.node;
  if (n.opcode !== 'bar' && n.opcode !== 'barrier') return false;
  if (n.modifiers.includes('.red') || n.modifiers.includes('.arrive') || n.modifiers.includes('.warp') || n.modifiers.includes('.cluster')) return false;
  if (n.opcode === 'barrier' && !n.modifiers.includes('.sync')) return false;
  if (n.operands.length < 2) return true;
  const count = n.operands[1]!;
  const block = ctx.blockSize(fn);
  return count.kind === 'Int' && block !== undefined && Number(count.value) === block[0] * block[1] * block[2];
}

// ---------------------------------------------------------------- docs

/** What the lane-mapped checks (F051, F052, F053, F059, F095) assume about the block. */
export const LANE_ASSUMPTION = 'a warp\'s lanes are mapped to %tid only when the block shape is exact (`.reqntid`, or `--block`/the config\'s '
  + '`block` without `.maxntid`) or the kernel reads only %tid.x, in which case the block is taken as one-dimensional with blockDim.x a multiple '
  + 'of 32 (warps of 32 consecutive %tid.x; the finding says so); an access that uses %tid in a kernel that also reads %tid.y/%tid.z and has no '
  + 'exact shape is not judged. All 32 lanes are taken to be active.';

/** The closing sentences of a memory or performance check's notes: what it
 *  assumes about the launch, and how to silence it. */
export function assumptionsAndSilencing(id: string, assumption: string): string {
  return ` Assumptions: ${assumption} Silencing: where the block matters, give the real one (\`--block X,Y,Z\` or the config's \`"block"\`, `
    + `\`.reqntid\` in the PTX; \`__launch_bounds__\`, i.e. \`.maxntid\`, bounds the thread count but not the shape); suppress a finding judged acceptable with \`// ptx-debug-disable-next-line ${id} -- reason\` `
    + `on the line above the PTX instruction (or \`// ptx-debug-disable ${id}\` … \`// ptx-debug-enable ${id}\` around a region), or turn the `
    + `check off in ptx-debug.config.json (\`"checks": { "${id}": "off" }\`).`;
}
