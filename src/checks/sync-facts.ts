// Facts the barrier and synchronization checks (F036–F050) share, computed
// once per function and cached on the analysis context: what each
// synchronizing instruction is (barriers, warp syncs, mbarrier and async-copy
// waits, fences, warp collectives), which threads can execute an instruction
// (a box of %tid bounds from the `%tid` comparisons that dominate it), which
// blocks only lead to the kernel's exit, transitive control dependence, and
// reachability between instructions on paths that pass no "cut" instruction.
import type * as A from '../parser/ast.js';
import type { AnalysisContext, FunctionAnalysis } from '../cfg/context.js';
import type { Cfg } from '../cfg/builder.js';
import type { FlatInstruction, FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { affineAnalysis, type AffineFacts, type Form } from '../cfg/dataflow/affine.js';
import { ATOM_MASK, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { CTA, uniformityAnalysis, WARP, type Uniformity } from '../cfg/dataflow/uniformity.js';
import { keepCompiled } from '../cfg/keep-compiled.js';

// ---------------------------------------------------------------- instruction classes

/** What a synchronizing instruction does. */
export type SyncOp =
  /** `bar.sync`, `barrier.sync`, `bar.red`, `barrier.red`: waits for the participating threads. */
  | 'barrier'
  /** `bar.arrive`, `barrier.arrive`: signals without waiting. */
  | 'arrive'
  /** `bar.warp.sync`. */
  | 'warp-sync'
  | 'cluster-arrive'
  | 'cluster-wait'
  /** `mbarrier.try_wait`, `mbarrier.test_wait`. */
  | 'mbarrier-wait'
  /** `mbarrier.arrive`, `mbarrier.arrive_drop`, `cp.async.mbarrier.arrive`. */
  | 'mbarrier-arrive'
  /** `cp.async.wait_group`, `cp.async.wait_all`. */
  | 'async-wait'
  /** `cp.async.bulk.wait_group(.read)`. */
  | 'bulk-wait'
  /** `membar`, `fence`. */
  | 'fence';

/** A constant expression's value (immediates, `-1`, `0xffffffff`). */
export function constValue(e: A.Expression | undefined): number | undefined {
  if (e === undefined) return undefined;
  switch (e.kind) {
    case 'Int': return Number(e.value);
    case 'Unary': {
      const v = constValue(e.arg);
      return v === undefined ? undefined : e.op === '-' ? -v : e.op === '+' ? v : e.op === '~' ? ~v : undefined;
    }
    default: return undefined;
  }
}

/** The synchronizing role of an instruction, if any. */
export function syncOp(node: A.Instruction): SyncOp | undefined {
  const m = node.modifiers;
  switch (node.opcode) {
    case 'bar':
    case 'barrier':
      if (m.includes('.warp')) return m.includes('.sync') ? 'warp-sync' : undefined;
      if (m.includes('.cluster')) return m.includes('.wait') ? 'cluster-wait' : m.includes('.arrive') ? 'cluster-arrive' : undefined;
      if (m.includes('.arrive')) return 'arrive';
      return 'barrier';
    case 'mbarrier':
      if (m.includes('.try_wait') || m.includes('.test_wait')) return 'mbarrier-wait';
      return m.includes('.arrive') || m.includes('.arrive_drop') ? 'mbarrier-arrive' : undefined;
    case 'cp':
      if (!m.includes('.async')) return undefined;
      if (m.includes('.mbarrier') && m.includes('.arrive')) return 'mbarrier-arrive';
      if (m.includes('.bulk')) return m.includes('.wait_group') ? 'bulk-wait' : undefined;
      return m.includes('.wait_group') || m.includes('.wait_all') ? 'async-wait' : undefined;
    case 'membar':
    case 'fence':
      return 'fence';
    default:
      return undefined;
  }
}

/** A barrier (`bar`/`barrier`, sync, arrive or red) with its id and thread count. */
export interface BarrierInfo {
  readonly index: number;
  readonly op: 'barrier' | 'arrive';
  /** The barrier id operand (`bar.sync 1, 64`: `1`); undefined for `barrier.sync` with none. */
  readonly id: A.Expression | undefined;
  readonly idValue: number | undefined;
  /** The thread-count operand, if any. */
  readonly count: A.Expression | undefined;
  readonly countValue: number | undefined;
  /** No thread count, or a constant one equal to the known block size: every thread of the CTA takes part. */
  readonly ctaWide: boolean;
}

/** A barrier's id and count operands: `bar.sync a{, b}`, `bar.red.op d, a{, b}, {!}c`. */
export function barrierOperands(node: A.Instruction): { id: A.Expression | undefined; count: A.Expression | undefined } {
  const ops = node.operands;
  if (node.modifiers.includes('.red')) {
    return { id: ops[1], count: ops.length >= 4 ? ops[2] : undefined };
  }
  return { id: ops[0], count: ops[1] };
}

/** A warp collective with a member mask (`shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`, `bar.warp.sync`). */
export interface CollectiveInfo {
  readonly index: number;
  /** Opcode family: `shfl`, `vote`, `match`, `redux`, `bar.warp.sync`. */
  readonly family: string;
  readonly mask: A.Expression | undefined;
  /** The mask as an unsigned 32-bit value when it is an immediate. */
  readonly maskValue: number | undefined;
}

export const FULL_MASK = 0xffffffff;

/** The member-mask collective an instruction is, if any. */
export function collectiveOf(ins: FlatInstruction): CollectiveInfo | undefined {
  const node = ins.node;
  const m = node.modifiers;
  let family: string | undefined;
  let mask: A.Expression | undefined;
  if (node.opcode === 'bar' && m.includes('.warp') && m.includes('.sync')) {
    family = 'bar.warp.sync';
    mask = node.operands[0];
  } else if ((node.opcode === 'shfl' || node.opcode === 'vote' || node.opcode === 'match' || node.opcode === 'redux') && m.includes('.sync')) {
    family = node.opcode;
    mask = node.operands[node.operands.length - 1];
  }
  if (family === undefined) return undefined;
  const v = constValue(mask);
  return { index: ins.index, family, mask, maskValue: v === undefined ? undefined : v >>> 0 };
}

// ---------------------------------------------------------------- per-function facts

/** Inclusive bounds of %tid.x, %tid.y, %tid.z for the threads that may execute an instruction. */
export interface ThreadBox {
  readonly x: readonly [number, number];
  readonly y: readonly [number, number];
  readonly z: readonly [number, number];
}

export interface SyncFacts {
  readonly fn: FunctionModel;
  readonly cfg: Cfg;
  /** The synchronizing role of each instruction (undefined for most). */
  readonly ops: readonly (SyncOp | undefined)[];
  readonly barriers: readonly BarrierInfo[];
  readonly collectives: readonly CollectiveInfo[];
  /** Threads in the CTA when the block size is known. */
  readonly blockThreads: number | undefined;
  /** Some instruction is one of these roles. */
  has(op: SyncOp): boolean;
  /** Whether a variance (uniformity bits) varies at a level: `CTA` or `WARP`. A CTA of at most 32
   *  threads is one warp, so there a warp-uniform value is CTA-uniform. */
  varies(variance: number, level: number): boolean;
  /** Whether the conditional branch ending `block` may split the lanes of a warp: the uniformity
   *  analysis says so, and the affine lane strides do not show its `setp` operands equal across the lanes
   *  (`%tid.x >> 5`, `%tid.y` in a block whose x extent is a multiple of 32). */
  branchSplitsWarp(block: number): boolean;
  /** The same for an instruction's own guard. */
  guardSplitsWarp(index: number): boolean;
  /** Whether instruction `index` computes the linear thread index `%tid.x + %ntid.x·(%tid.y + %ntid.y·%tid.z)`
   *  (cooperative groups' `thread_rank()`). */
  linearRank(index: number): boolean;
  /** Whether the conditional branch ending `block` may split the threads of the CTA: CTA-varying by the
   *  uniformity analysis (a one-warp CTA: warp-varying), unless its condition only varies through loads
   *  at CTA-uniform addresses (equal for all threads when the kernel is race-free, which F036/F037 check). */
  branchSplitsCta(block: number): boolean;
  /** The same for an instruction's own guard. */
  guardSplitsCta(index: number): boolean;
  /** Uniformity (computed on first use). */
  uniformity(): Uniformity;
  /** Affine facts (computed on first use). */
  affine(): AffineFacts;
  /** A block whose instructions only leave the kernel (`ret`, `exit`, `trap`, unconditional `bra` to such blocks), or the virtual exit. */
  exitOnly(block: number): boolean;
  /** The immediate post-dominator of a block (the virtual exit `cfg.exit` when none). */
  ipdom(block: number): number;
  /** The branch blocks a block is transitively control-dependent on. */
  controlDeps(block: number): readonly number[];
  /** Whether `to` can be reached from `from` (blocks; a block reaches itself). */
  reaches(from: number, to: number): boolean;
  /** The loops (indices in `ctx.loops(fn).loops`) containing a block, innermost first. */
  loopsOf(block: number): readonly number[];
  /** Whether the branch ending `block` decides to leave loop `loop` (one of its successors is outside it). */
  exitsLoop(block: number, loop: number): boolean;
  /** Threads that may execute instruction `index`: bounds from the `%tid` comparisons of dominating branches and of its guard. */
  threadBox(index: number): ThreadBox;
  /** The box of the threads that take the edge from branch block `block` to `succ` (only that edge's condition), or undefined when not a %tid comparison. */
  edgeBox(block: number, succ: number): ThreadBox | undefined;
  /** The whole CTA (block size, else hardware limits). */
  readonly fullBox: ThreadBox;
}

function blockThreadsOf(size: readonly [number, number, number] | undefined): number | undefined {
  return size === undefined ? undefined : size[0] * size[1] * size[2];
}

/** Whether a barrier instruction makes every thread of the CTA take part. */
function isCtaWide(count: A.Expression | undefined, blockThreads: number | undefined): boolean {
  if (count === undefined) return true;
  const v = constValue(count);
  return v !== undefined && blockThreads !== undefined && v === blockThreads;
}

/** Opcodes whose result is a pure function of their operands (followed by the uniform-load refinement). */
const VALUE_OPCODES = new Set([
  'add', 'sub', 'mul', 'mad', 'fma', 'mul24', 'mad24', 'min', 'max', 'abs', 'neg', 'and', 'or', 'xor', 'not', 'cnot',
  'shl', 'shr', 'shf', 'cvt', 'cvta', 'mov', 'selp', 'slct', 'bfe', 'bfi', 'prmt', 'rem', 'div', 'popc', 'clz', 'brev', 'bfind',
  'setp', 'set', 'lop3', 'copysign', 'sad', 'testp', 'rcp', 'sqrt', 'rsqrt', 'ex2', 'lg2',
]);

const CMP_NEGATION: Readonly<Record<string, string>> = {
  '.eq': '.ne', '.ne': '.eq', '.lt': '.ge', '.ge': '.lt', '.le': '.gt', '.gt': '.le',
  '.lo': '.hs', '.hs': '.lo', '.ls': '.hi', '.hi': '.ls',
};
const CMP_SWAP: Readonly<Record<string, string>> = {
  '.eq': '.eq', '.ne': '.ne', '.lt': '.gt', '.gt': '.lt', '.le': '.ge', '.ge': '.le',
  '.lo': '.hi', '.hi': '.lo', '.ls': '.hs', '.hs': '.ls',
};
const INT_SETP_TYPES = new Set(['.u16', '.u32', '.u64', '.s16', '.s32', '.s64', '.b16', '.b32', '.b64']);

type Interval = readonly [number, number];

function intersect(a: Interval, b: Interval): Interval {
  return [Math.max(a[0], b[0]), Math.min(a[1], b[1])];
}

function boxIntersect(a: ThreadBox, b: ThreadBox): ThreadBox {
  return { x: intersect(a.x, b.x), y: intersect(a.y, b.y), z: intersect(a.z, b.z) };
}

/** The interval of v satisfying `v cmp k` within [lo, hi] (a superset when it is a hole). */
function cmpInterval(cmp: string, k: number, full: Interval): Interval {
  const [lo, hi] = full;
  switch (cmp) {
    case '.eq': return [k, k];
    case '.ne': return k === lo ? [lo + 1, hi] : k === hi ? [lo, hi - 1] : full;
    case '.lt': case '.lo': return [lo, Math.min(hi, k - 1)];
    case '.le': case '.ls': return [lo, Math.min(hi, k)];
    case '.gt': case '.hi': return [Math.max(lo, k + 1), hi];
    case '.ge': case '.hs': return [Math.max(lo, k), hi];
    default: return full;
  }
}

/** The %tid components a function reads (`x`, `y`, `z`). */
function tidDimsRead(fn: FunctionModel): Set<string> {
  const out = new Set<string>();
  const visit = (e: A.Expression): void => {
    switch (e.kind) {
      case 'Name':
        if (e.name === '%tid') out.add(e.component ?? 'x');
        else if (e.name.startsWith('%tid.')) out.add(e.name.slice(5));
        return;
      case 'Unary': case 'Cast': visit(e.arg); return;
      case 'Binary': visit(e.left); visit(e.right); return;
      case 'Vector': case 'Address': case 'List': e.elements.forEach(visit); return;
      default: return;
    }
  };
  for (const i of fn.instructions) i.node.operands.forEach(visit);
  return out;
}

function computeSyncFacts(ctx: AnalysisContext, fn: FunctionModel): SyncFacts {
  const cfg = ctx.cfg(fn);
  const ins = fn.instructions;
  const n = ins.length;
  const size = ctx.blockSize(fn);
  const blockThreads = blockThreadsOf(size);
  const ops: (SyncOp | undefined)[] = new Array<SyncOp | undefined>(n);
  const present = new Set<SyncOp>();
  const barriers: BarrierInfo[] = [];
  const collectives: CollectiveInfo[] = [];
  for (const i of ins) {
    const op = syncOp(i.node);
    ops[i.index] = op;
    if (op !== undefined) present.add(op);
    if (op === 'barrier' || op === 'arrive') {
      const { id, count } = barrierOperands(i.node);
      barriers.push({
        index: i.index, op, id, idValue: constValue(id), count, countValue: constValue(count),
        ctaWide: isCtaWide(count, blockThreads),
      });
    }
    const c = collectiveOf(i);
    if (c !== undefined) collectives.push(c);
  }
  const B = cfg.blocks.length;
  // With no known block size, a dimension whose %tid the function never reads is taken to be 1 thread
  // wide (a kernel that cannot tell threads apart along y does not run a 2-D block).
  const reads = size === undefined ? tidDimsRead(fn) : new Set<string>(['x', 'y', 'z']);
  const fullBox: ThreadBox = {
    x: [0, (size?.[0] ?? 1024) - 1],
    y: [0, (size?.[1] ?? (reads.has('y') ? 1024 : 1)) - 1],
    z: [0, (size?.[2] ?? (reads.has('z') ? 64 : 1)) - 1],
  };

  // Exit-only blocks (memoized; cycles are not exit-only).
  const exitMemo = new Int8Array(B + 1); // 0 unknown, 1 yes, -1 no, 2 in progress
  exitMemo[cfg.exit] = 1;
  const exitOnly = (b: number): boolean => {
    if (exitMemo[b] === 1) return true;
    if (exitMemo[b] === -1 || exitMemo[b] === 2) return false;
    exitMemo[b] = 2;
    const blk = cfg.blocks[b]!;
    let ok = blk.succs.length > 0;
    for (let i = blk.start; i < blk.end && ok; i++) {
      const node = ins[i]!.node;
      const op = node.opcode;
      if (op === 'ret' || op === 'exit' || op === 'trap') ok = node.guard === undefined || i === blk.end - 1;
      else if (op === 'bra') ok = i === blk.end - 1;
      else ok = false;
    }
    if (ok) for (const s of blk.succs) if (!exitOnly(s)) ok = false;
    exitMemo[b] = ok ? 1 : -1;
    return ok;
  };

  let pdomMemo: Int32Array | undefined;
  const ipdom = (b: number): number => {
    pdomMemo ??= ctx.postDominators(fn).idom;
    const p = pdomMemo[b]!;
    return p < 0 ? cfg.exit : p;
  };

  const cdMemo = new Map<number, number[]>();
  const controlDeps = (b: number): number[] => {
    const hit = cdMemo.get(b);
    if (hit !== undefined) return hit;
    const cd = ctx.controlDependence(fn);
    const seen = new Set<number>();
    const stack = [...(cd[b] ?? [])];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      for (const y of cd[x] ?? []) if (!seen.has(y)) stack.push(y);
    }
    const out = [...seen].sort((a, c) => a - c);
    cdMemo.set(b, out);
    return out;
  };

  const reachMemo = new Map<number, Uint8Array>();
  const reaches = (from: number, to: number): boolean => {
    if (from === to) return true;
    if (from === cfg.exit) return false;
    let seen = reachMemo.get(from);
    if (seen === undefined) {
      seen = new Uint8Array(B + 1);
      const stack = [from];
      seen[from] = 1;
      while (stack.length > 0) {
        for (const s of cfg.blocks[stack.pop()!]!.succs) {
          if (seen[s] === 1) continue;
          seen[s] = 1;
          if (s !== cfg.exit) stack.push(s);
        }
      }
      if (reachMemo.size < 4096) reachMemo.set(from, seen);
    }
    return seen[to] === 1;
  };

  let loopIndex: number[][] | undefined;
  const loopsOf = (b: number): readonly number[] => {
    if (loopIndex === undefined) {
      const forest = ctx.loops(fn);
      loopIndex = cfg.blocks.map(() => []);
      forest.loops.forEach((l, li) => { for (const x of l.blocks) loopIndex![x]!.push(li); });
      for (const list of loopIndex) list.sort((a, c) => forest.loops[c]!.depth - forest.loops[a]!.depth);
    }
    return loopIndex[b] ?? [];
  };
  const exitsLoop = (b: number, loop: number): boolean => {
    const l = ctx.loops(fn).loops[loop]!;
    return cfg.blocks[b]!.succs.some((s) => s === cfg.exit || !l.blocks.includes(s));
  };

  // Thread boxes.
  let af: AffineFacts | undefined;
  const affine = (): AffineFacts => (af ??= ctx.get(fn, affineAnalysis));
  let uni: Uniformity | undefined;
  const uniformity = (): Uniformity => (uni ??= ctx.get(fn, uniformityAnalysis));
  const dims = ['x', 'y', 'z'] as const;
  /** `%tid.d` (exactly, no offset) as an affine form: the dimension, else -1. */
  const tidDim = (f: Form | undefined): number => {
    if (f === undefined || f.c !== 0 || f.terms.length !== 1 || f.terms[0]!.coef !== 1 || f.mayWrap) return -1;
    const s = affine().symbols[f.terms[0]!.sym]!;
    if (s.kind !== 'sreg' || s.sreg !== '%tid') return -1;
    return dims.indexOf((s.component ?? '') as 'x');
  };
  /** The first `.pred` register of a name (the registers in creation order, looked up in a table made once:
   *  a scan of every register per guard was quadratic on large functions). */
  let predsByName: Map<string, RegisterSymbol> | undefined;
  const predRegister = (name: string): RegisterSymbol | undefined => {
    if (predsByName === undefined) {
      predsByName = new Map();
      for (const r of fn.registers) if (r.type === '.pred' && !predsByName.has(r.name)) predsByName.set(r.name, r);
    }
    return predsByName.get(name);
  };
  /** The box of threads for which predicate `pred` (read at instruction `at`) is `value`. */
  const predBox = (at: number, pred: A.NameExpr | string, value: boolean): ThreadBox | undefined => {
    const rd = ctx.get(fn, reachingDefinitionsAnalysis);
    const name = typeof pred === 'string' ? pred : pred.name;
    const reg = predRegister(name);
    if (reg === undefined) return undefined;
    const defs = rd.reaching(at, reg);
    if (defs.length !== 1 || defs[0]! < 0) return undefined;
    const d = ins[defs[0]!]!.node;
    if (d.opcode !== 'setp' || d.guard !== undefined || d.operands.length !== 3) return undefined;
    const cmp = d.modifiers.find((m) => m in CMP_NEGATION);
    const ty = d.modifiers.find((m) => INT_SETP_TYPES.has(m));
    if (cmp === undefined || ty === undefined || d.operands[0]!.kind !== 'Name') return undefined;
    const a = affine().operand(defs[0]!, d.operands[1]!);
    const b = affine().operand(defs[0]!, d.operands[2]!);
    let dim = tidDim(a);
    let k: Form | undefined = b;
    let op = cmp;
    if (dim < 0) {
      dim = tidDim(b);
      k = a;
      op = CMP_SWAP[cmp]!;
    }
    if (dim < 0 || k === undefined || k.terms.length !== 0) return undefined;
    if (!value) op = CMP_NEGATION[op]!;
    const key = dims[dim]!;
    const iv = cmpInterval(op, k.c, fullBox[key]);
    return { ...fullBox, [key]: iv };
  };
  const edgeMemo = new Map<number, ThreadBox | null>();
  const edgeBox = (b: number, succ: number): ThreadBox | undefined => {
    const key = b * (B + 1) + succ;
    const hit = edgeMemo.get(key);
    if (hit !== undefined) return hit ?? undefined;
    let out: ThreadBox | undefined;
    const blk = cfg.blocks[b]!;
    const last = blk.end > blk.start ? ins[blk.end - 1]! : undefined;
    const op = last?.node.opcode;
    if (last !== undefined && (op === 'bra' || op === 'ret' || op === 'exit') && last.node.guard !== undefined && blk.succs.length === 2 && blk.succs.includes(succ)) {
      const taken = op === 'bra' ? cfg.edgeKind(b, succ) === 'branch' : succ === cfg.exit;
      const g = last.node.guard;
      out = predBox(last.index, g.predicate, taken !== g.negated);
    }
    edgeMemo.set(key, out ?? null);
    return out;
  };
  let blockBoxes: (ThreadBox | undefined)[] | undefined;
  const blockBox = (b: number): ThreadBox => {
    if (blockBoxes === undefined) {
      blockBoxes = new Array<ThreadBox | undefined>(B);
      const dom = ctx.dominators(fn);
      // Dominator-tree order: a block after its idom.
      const children: number[][] = cfg.blocks.map(() => []);
      for (let x = 0; x < B; x++) {
        const d = dom.idom[x]!;
        if (d >= 0 && d !== x) children[d]!.push(x);
      }
      const stack: number[] = B > 0 ? [0] : [];
      blockBoxes[0] = fullBox;
      while (stack.length > 0) {
        const x = stack.pop()!;
        for (const c of children[x]!) {
          let box = blockBoxes[x]!;
          const preds = cfg.blocks[c]!.preds;
          if (preds.length === 1 && preds[0] === x) {
            const e = edgeBox(x, c);
            if (e !== undefined) box = boxIntersect(box, e);
          }
          blockBoxes[c] = box;
          stack.push(c);
        }
      }
    }
    return blockBoxes[b] ?? fullBox;
  };
  const threadBoxes: (ThreadBox | undefined)[] = [];
  const threadBox = (index: number): ThreadBox => {
    const hit = threadBoxes[index];
    if (hit !== undefined) return hit;
    let box = blockBox(cfg.blockOf[index]!);
    const g = ins[index]!.node.guard;
    if (g !== undefined && ins[index]!.node.opcode !== 'bra') {
      const e = predBox(index, g.predicate, !g.negated);
      if (e !== undefined) box = boxIntersect(box, e);
    }
    threadBoxes[index] = box;
    return box;
  };

  // Warp-uniform predicates the uniformity analysis cannot see (it has no lane model).
  const laneInvariant = (at: number, e: A.Expression, depth = 0): boolean => {
    if (e.kind === 'Int') return true;
    const f = affine().operand(at, e);
    const ls = f === undefined ? undefined : affine().laneStride(f);
    if (ls !== undefined && ls.stride === 0) return true;
    return depth < 6 && e.kind === 'Name' && warpBits(at, e, depth);
  };
  /** The single defining instruction of register operand `e` read at `at`, or -1. */
  const singleDef = (at: number, e: A.Expression): number => {
    if (e.kind !== 'Name') return -1;
    const r = fn.resolve(e);
    if (r?.kind !== 'register') return -1;
    const defs = ctx.get(fn, reachingDefinitionsAnalysis).reaching(at, r);
    return defs.length === 1 && defs[0]! >= 0 && ins[defs[0]!]!.node.guard === undefined ? defs[0]! : -1;
  };
  const sregOperand = (at: number, e: A.Expression, name: string, component?: string): boolean => {
    if (e.kind === 'Name' && e.name === name && (component === undefined || (e.component ?? 'x') === component)) return true;
    const d = singleDef(at, e);
    const n = d < 0 ? undefined : ins[d]!.node;
    return n !== undefined && (n.opcode === 'mov' || n.opcode === 'cvt') && n.operands.length === 2 && sregOperand(d, n.operands[1]!, name, component);
  };
  /** The linear thread index (`%tid.x + %ntid.x * (%tid.y + %ntid.y * %tid.z)`, cooperative groups'
   *  `thread_rank()`): warps are 32 consecutive values of it, so its bits from 5 up are warp-uniform. */
  const linearTid = (at: number, e: A.Expression, depth: number): boolean => {
    if (depth > 4) return false;
    if (sregOperand(at, e, '%tid', 'x')) return blockThreads === undefined || (size?.[1] ?? 1) * (size?.[2] ?? 1) === 1 || size![0] % 32 === 0;
    const d = singleDef(at, e);
    return d >= 0 && linearMad(d);
  };
  /** Whether instruction `d` computes the linear thread index from %tid and %ntid (`mad` chains). */
  const linearMad = (d: number): boolean => {
    const n = ins[d]!.node;
    if (n.opcode !== 'mad' || n.modifiers.includes('.hi') || n.operands.length !== 4) return false;
    const [, a, b, c] = n.operands as [A.Expression, A.Expression, A.Expression, A.Expression];
    const inner = (x: A.Expression, y: A.Expression, dim: string, next: string): boolean =>
      sregOperand(d, y, '%ntid', dim) && (sregOperand(d, x, '%tid', next) || (next === 'y' && linearYZ(d, x)));
    const linearYZ = (at2: number, x: A.Expression): boolean => {
      const d2 = singleDef(at2, x);
      const m = d2 < 0 ? undefined : ins[d2]!.node;
      if (m === undefined || m.opcode !== 'mad' || m.operands.length !== 4) return false;
      const [, p, q, r] = m.operands as [A.Expression, A.Expression, A.Expression, A.Expression];
      return sregOperand(d2, r, '%tid', 'y') && ((sregOperand(d2, p, '%tid', 'z') && sregOperand(d2, q, '%ntid', 'y')) || (sregOperand(d2, q, '%tid', 'z') && sregOperand(d2, p, '%ntid', 'y')));
    };
    return sregOperand(d, c, '%tid', 'x') && (inner(a, b, 'x', 'y') || inner(b, a, 'x', 'y'));
  };
  /** Values equal across the lanes of a warp that the lane model cannot see: bits 5 and up of the linear thread
   *  index (`and` with a mask whose low 5 bits are clear, `shr` by 5 or more), and pure functions of such values. */
  const warpBits = (at: number, e: A.Expression, depth: number): boolean => {
    const d = singleDef(at, e);
    const n = d < 0 ? undefined : ins[d]!.node;
    if (n === undefined) return false;
    const ops = n.operands;
    if (n.opcode === 'and' && ops.length === 3) {
      const m = constValue(ops[2]);
      if (m !== undefined && (m & 31) === 0 && linearTid(d, ops[1]!, 0)) return true;
    }
    if (n.opcode === 'shr' && ops.length === 3 && (constValue(ops[2]) ?? 0) >= 5 && linearTid(d, ops[1]!, 0)) return true;
    if (!VALUE_OPCODES.has(n.opcode) || (n.opcode === 'mov' && ops[1]?.kind === 'Name' && fn.resolve(ops[1])?.kind === 'sreg')) return false;
    return ops.slice(1).every((o) => laneInvariant(d, o, depth + 1));
  };
  /** `x cmp k` with x = base + s·lane (base a multiple of 32·s) and k a multiple of 32·s (`%tid.x < 32`,
   *  `%tid.x > 63`): every warp's 32 values lie on one side of the threshold. */
  const warpAlignedThreshold = (at: number, cmp: string, x: A.Expression, k: A.Expression): boolean => {
    const f = affine().operand(at, x);
    const kf = affine().operand(at, k);
    if (f === undefined || kf === undefined || kf.terms.length !== 0) return false;
    const ls = affine().laneStride(f);
    if (ls === undefined || ls.stride <= 0 || ls.rem !== 0 || ls.align % (32 * ls.stride) !== 0) return false;
    const span = 32 * ls.stride;
    const mod = (v: number): number => ((v % span) + span) % span;
    switch (cmp) {
      case '.lt': case '.lo': case '.ge': case '.hs': return mod(kf.c) === 0;
      case '.le': case '.ls': case '.gt': case '.hi': return mod(kf.c + 1) === 0;
      default: return false;
    }
  };
  /** `rank cmp k` with rank the linear thread index and k a multiple of 32 (cooperative groups'
   *  `thread_rank() < 32`): warps are 32 consecutive ranks, so each lies on one side. */
  const linearThreshold = (at: number, cmp: string, x: A.Expression, k: A.Expression): boolean => {
    const kv = constValue(k);
    if (kv === undefined || !linearTid(at, x, 0)) return false;
    switch (cmp) {
      case '.lt': case '.lo': case '.ge': case '.hs': return (kv & 31) === 0;
      case '.le': case '.ls': case '.gt': case '.hi': return ((kv + 1) & 31) === 0;
      default: return false;
    }
  };
  const predMemo = new Map<string, boolean>();
  const predWarpUniform = (at: number, name: string, depth: number): boolean => {
    if (depth > 8) return false;
    const key = `${at}:${name}`;
    const hit = predMemo.get(key);
    if (hit !== undefined) return hit;
    predMemo.set(key, false);
    const rd = ctx.get(fn, reachingDefinitionsAnalysis);
    const reg = predRegister(name);
    let ok = false;
    const defs = reg === undefined ? [] : rd.reaching(at, reg);
    if (defs.length === 1 && defs[0]! >= 0 && ins[defs[0]!]!.node.guard === undefined) {
      const j = defs[0]!;
      const d = ins[j]!.node;
      const predOperand = (e: A.Expression | undefined): boolean => {
        if (e === undefined) return false;
        if (e.kind === 'Unary' && e.op === '!') return predOperand(e.arg);
        return e.kind === 'Name' && predWarpUniform(j, e.name, depth + 1);
      };
      if (d.opcode === 'setp' && d.operands.length >= 3) {
        const cmp = d.modifiers.find((x) => x in CMP_NEGATION);
        const both = (laneInvariant(j, d.operands[1]!) && laneInvariant(j, d.operands[2]!))
          || (cmp !== undefined && (warpAlignedThreshold(j, cmp, d.operands[1]!, d.operands[2]!) || warpAlignedThreshold(j, CMP_SWAP[cmp]!, d.operands[2]!, d.operands[1]!)
            || linearThreshold(j, cmp, d.operands[1]!, d.operands[2]!) || linearThreshold(j, CMP_SWAP[cmp]!, d.operands[2]!, d.operands[1]!)));
        ok = both && (d.operands.length === 3 || predOperand(d.operands[3]));
      } else if ((d.opcode === 'and' || d.opcode === 'or' || d.opcode === 'xor') && d.modifiers.includes('.pred') && d.operands.length === 3) {
        ok = predOperand(d.operands[1]) && predOperand(d.operands[2]);
      } else if ((d.opcode === 'not' || d.opcode === 'mov') && d.modifiers.includes('.pred') && d.operands.length === 2) {
        ok = predOperand(d.operands[1]);
      }
    }
    predMemo.set(key, ok);
    return ok;
  };
  /** Whether the value of `reg` read at `at` is uniform at `level` once loads from uniform addresses count as
   *  uniform (non-volatile, non-atomic loads: under race freedom every thread that reads one address in one
   *  barrier phase sees one value). Follows single definitions only. */
  const modMemo = new Map<string, boolean>();
  const uniformModLoads = (at: number, reg: RegisterSymbol, level: number, depth: number): boolean => {
    const u = uniformity();
    const bit = level === CTA && blockThreads !== undefined && blockThreads <= 32 ? WARP : level;
    if ((u.useVariance(at, reg) & bit) === 0) return true;
    if (depth > 24) return false;
    const key = `${at}:${reg.id}:${level}`;
    const hit = modMemo.get(key);
    if (hit !== undefined) return hit;
    // In progress: assume uniform (a loop-carried counter is uniform when its start and step are).
    modMemo.set(key, true);
    const rd = ctx.get(fn, reachingDefinitionsAnalysis);
    const defs = rd.reaching(at, reg);
    // Several definitions: each must qualify, and the branches choosing between them must not split the threads.
    const ok = defs.length > 0 && defs.every((d) => {
      if (d < 0) return false;
      const node = ins[d]!.node;
      if (defs.length > 1 && controlDeps(cfg.blockOf[d]!).some((b) => (level === WARP ? branchSplitsWarp(b) : branchSplitsCta(b)))) return false;
      if (node.guard !== undefined) {
        const g = fn.resolveGuard(node.guard);
        if (g?.kind !== 'register' || !uniformModLoads(d, g, level, depth + 1)) return false;
      }
      if (node.opcode === 'ld' || node.opcode === 'ldu') {
        const weak = !node.modifiers.some((m) => m === '.volatile' || m === '.relaxed' || m === '.acquire' || m === '.sc');
        const addr = node.operands.find((o) => o.kind === 'Address');
        return weak && addr !== undefined && sharedMemorySpace(d)
          && ((u.operandVariance(d, addr) & bit) === 0 || addressUniformModLoads(d, addr, level, depth + 1)
            || (level === WARP && addr.elements.length === 1 && laneInvariant(d, addr.elements[0]!)));
      }
      if (VALUE_OPCODES.has(node.opcode)) return node.operands.slice(1).every((o) => operandUniformModLoads(d, o, level, depth + 1));
      return false;
    });
    modMemo.set(key, ok);
    return ok;
  };
  const operandUniformModLoads = (at: number, e: A.Expression, level: number, depth: number): boolean => {
    switch (e.kind) {
      case 'Name': {
        const sym = fn.resolve(e);
        if (sym?.kind === 'register') return uniformModLoads(at, sym, level, depth);
        const bit = level === CTA && blockThreads !== undefined && blockThreads <= 32 ? WARP : level;
        return (uniformity().operandVariance(at, e) & bit) === 0;
      }
      case 'Unary': case 'Cast': return operandUniformModLoads(at, e.arg, level, depth);
      case 'Binary': return operandUniformModLoads(at, e.left, level, depth) && operandUniformModLoads(at, e.right, level, depth);
      case 'Vector': case 'Address': case 'List': return e.elements.every((x) => operandUniformModLoads(at, x, level, depth));
      default: return true;
    }
  };
  /** A load from memory all threads see alike (global, shared, const; not local, not a `.func` parameter). */
  const sharedMemorySpace = (i: number): boolean => {
    const m = ins[i]!.node.modifiers;
    if (m.some((x) => x === '.global' || x === '.shared' || x.startsWith('.shared::') || x === '.const' || x.startsWith('.const['))) return true;
    if (m.some((x) => x === '.local' || x === '.param' || x.startsWith('.param::'))) return false;
    const acc = ctx.get(fn, provenanceAnalysis).accessesAt(i)[0];
    const atoms = (acc?.provenance ?? 0) & ATOM_MASK;
    const ok = PROV.global | PROV['generic-global'] | PROV['shared-window'] | PROV['shared-generic'] | PROV.const | PROV['const-generic'];
    return atoms !== 0 && (atoms & ~ok) === 0;
  };
  const addressUniformModLoads = (at: number, e: A.Expression, level: number, depth: number): boolean => operandUniformModLoads(at, e, level, depth);
  const guardSplitsWarp = (index: number): boolean => {
    const node = ins[index]!.node;
    const g = node.guard;
    if (g === undefined) return false;
    const sym = fn.resolveGuard(g);
    if (sym?.kind !== 'register') return true;
    if ((uniformity().useVariance(index, sym) & WARP) === 0) return false;
    return !predWarpUniform(index, g.predicate, 0) && !uniformModLoads(index, sym, WARP, 0);
  };
  const splitMemo = new Map<string, boolean>();
  const memoSplit = (key: string, f: () => boolean): boolean => {
    const hit = splitMemo.get(key);
    if (hit !== undefined) return hit;
    splitMemo.set(key, false); // in progress: assume it does not (a loop's exit test reached from its own body)
    const v = f();
    splitMemo.set(key, v);
    return v;
  };
  const branchSplitsWarp = (block: number): boolean => memoSplit(`w${block}`, () => branchSplitsWarp0(block));
  const branchSplitsCta = (block: number): boolean => memoSplit(`c${block}`, () => branchSplitsCta0(block));
  const branchSplitsWarp0 = (block: number): boolean => {
    const f = uniformity().branchOf(block);
    if (f === undefined || (f.variance & WARP) === 0) return false;
    const node = ins[f.instruction]!.node;
    if (node.opcode === 'brx' || node.guard === undefined) return true;
    return guardSplitsWarp(f.instruction);
  };
  const guardSplitsCta = (index: number): boolean => {
    const g = ins[index]!.node.guard;
    if (g === undefined) return false;
    const sym = fn.resolveGuard(g);
    if (sym?.kind !== 'register') return true;
    return !uniformModLoads(index, sym, CTA, 0);
  };
  const branchSplitsCta0 = (block: number): boolean => {
    const f = uniformity().branchOf(block);
    if (f === undefined) return false;
    const bit = blockThreads !== undefined && blockThreads <= 32 ? WARP : CTA;
    if ((f.variance & bit) === 0) return false;
    const node = ins[f.instruction]!.node;
    if (node.opcode === 'brx' || node.guard === undefined) return true;
    return guardSplitsCta(f.instruction);
  };
  keepCompiled('sync-facts', exitOnly, ipdom, controlDeps, reaches, loopsOf, exitsLoop, affine, uniformity, tidDim, predRegister, predBox,
    edgeBox, blockBox, threadBox, laneInvariant, singleDef, sregOperand, linearTid, linearMad, warpBits, warpAlignedThreshold, linearThreshold,
    predWarpUniform, uniformModLoads, operandUniformModLoads, sharedMemorySpace, addressUniformModLoads, guardSplitsWarp, memoSplit,
    branchSplitsWarp, branchSplitsCta, branchSplitsWarp0, guardSplitsCta, branchSplitsCta0);

  return {
    fn, cfg, ops, barriers, collectives, blockThreads, fullBox, linearRank: linearMad, branchSplitsWarp, guardSplitsWarp, branchSplitsCta, guardSplitsCta,
    has: (op) => present.has(op),
    varies: (v, level) => (level === CTA && blockThreads !== undefined && blockThreads <= 32 ? (v & WARP) !== 0 : (v & level) !== 0),
    uniformity, affine, exitOnly, ipdom, controlDeps, reaches, loopsOf, exitsLoop, threadBox, edgeBox,
  };
}

/** `ctx.analysis.get(fn, syncFactsAnalysis)`. */
export const syncFactsAnalysis: FunctionAnalysis<SyncFacts> = { name: 'checks/sync-facts', compute: computeSyncFacts };

/** Whether a box holds no thread. */
export function emptyBox(b: ThreadBox): boolean {
  return b.x[0] > b.x[1] || b.y[0] > b.y[1] || b.z[0] > b.z[1];
}

/** Whether a box holds exactly one thread. */
export function singleThread(b: ThreadBox): boolean {
  return b.x[0] === b.x[1] && b.y[0] === b.y[1] && b.z[0] === b.z[1];
}

/** `%tid.x == 0`, `%tid.x in [0, 15]`: the box's non-trivial bounds, for messages. */
export function describeBox(b: ThreadBox, full: ThreadBox): string {
  const parts: string[] = [];
  for (const d of ['x', 'y', 'z'] as const) {
    const [lo, hi] = b[d];
    if (lo === full[d][0] && hi === full[d][1]) continue;
    parts.push(lo === hi ? `%tid.${d} == ${lo}` : `%tid.${d} in [${lo}, ${hi}]`);
  }
  return parts.length === 0 ? 'any thread' : parts.join(', ');
}

// ---------------------------------------------------------------- reachability avoiding cuts

/**
 * For each source instruction, the target instructions it reaches on a path
 * that executes no cut instruction after the source and before the target
 * (a target in the same block after the source, or one reached through
 * successors; a loop brings the source's own block back). Bit sets per block
 * over the targets, solved backwards once: R[b] = ∪ over successors c of
 * (targets in c before its first cut) ∪ (R[c] when c has no cut).
 */
export function cutFreeReach(cfg: Cfg, isCut: (i: number) => boolean, sources: readonly number[], targets: readonly number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (sources.length === 0 || targets.length === 0) return out;
  const B = cfg.blocks.length;
  const firstCut = new Int32Array(B);
  const hasCut = new Uint8Array(B);
  for (const b of cfg.blocks) {
    firstCut[b.id] = b.end;
    for (let i = b.start; i < b.end; i++) {
      if (isCut(i)) {
        firstCut[b.id] = i;
        hasCut[b.id] = 1;
        break;
      }
    }
  }
  const sorted = [...new Set(targets)].sort((a, b) => a - b);
  const CHUNK = 4096;
  for (let base = 0; base < sorted.length; base += CHUNK) {
    const chunk = sorted.slice(base, base + CHUNK);
    const W = (chunk.length + 31) >>> 5;
    const prefix = new Uint32Array(B * W);
    const bitOf = new Map<number, number>();
    chunk.forEach((t, k) => {
      bitOf.set(t, k);
      const b = cfg.blockOf[t]!;
      if (t < firstCut[b]!) prefix[b * W + (k >>> 5)]! |= 1 << (k & 31);
    });
    const R = new Uint32Array(B * W);
    // Worklist, backwards: a block's R changes when a successor's contribution does.
    const queued = new Uint8Array(B);
    const work: number[] = [];
    for (let b = B - 1; b >= 0; b--) if (cfg.blocks[b]!.reachable) { work.push(b); queued[b] = 1; }
    while (work.length > 0) {
      const b = work.pop()!;
      queued[b] = 0;
      let changed = false;
      for (const c of cfg.blocks[b]!.succs) {
        if (c === cfg.exit) continue;
        for (let w = 0; w < W; w++) {
          const add = prefix[c * W + w]! | (hasCut[c] === 0 ? R[c * W + w]! : 0);
          const old = R[b * W + w]!;
          const next = (old | add) >>> 0;
          if (next !== old) {
            R[b * W + w] = next;
            changed = true;
          }
        }
      }
      if (changed) {
        for (const p of cfg.blocks[b]!.preds) {
          if (queued[p] === 0 && cfg.blocks[p]!.reachable) {
            queued[p] = 1;
            work.push(p);
          }
        }
      }
    }
    for (const s of sources) {
      const b = cfg.blockOf[s]!;
      const blk = cfg.blocks[b]!;
      const list = out.get(s) ?? [];
      let cut = false;
      for (let i = s + 1; i < blk.end; i++) {
        if (isCut(i)) { cut = true; break; }
        if (bitOf.has(i)) list.push(i);
      }
      if (!cut) {
        for (let w = 0; w < W; w++) {
          let word = R[b * W + w]!;
          while (word !== 0) {
            const low = word & -word;
            const k = (w << 5) + (31 - Math.clz32(low));
            list.push(chunk[k]!);
            word ^= low;
          }
        }
      }
      if (list.length > 0) out.set(s, [...new Set(list)].sort((x, y) => x - y));
    }
  }
  return out;
}

/** One path from instruction `from` to instruction `to` that executes no cut
 *  instruction in between: the blocks' first instructions along it (for messages). */
export function cutFreePath(cfg: Cfg, isCut: (i: number) => boolean, from: number, to: number): number[] | undefined {
  const fb = cfg.blockOf[from]!;
  const tb = cfg.blockOf[to]!;
  const blk = cfg.blocks[fb]!;
  let open = true;
  for (let i = from + 1; i < blk.end; i++) {
    if (i === to) return [from, to];
    if (isCut(i)) { open = false; break; }
  }
  if (!open) return undefined;
  const B = cfg.blocks.length;
  const parent = new Int32Array(B).fill(-2);
  const queue: number[] = [];
  for (const s of blk.succs) {
    if (s !== cfg.exit && parent[s] === -2) {
      parent[s] = -1;
      queue.push(s);
    }
  }
  while (queue.length > 0) {
    const c = queue.shift()!;
    const cb = cfg.blocks[c]!;
    let passes = true;
    for (let i = cb.start; i < cb.end; i++) {
      if (c === tb && i === to) {
        const path: number[] = [to];
        for (let x = c; x !== -1; x = parent[x]!) if (cfg.blocks[x]!.start < cfg.blocks[x]!.end && x !== c) path.push(cfg.blocks[x]!.start);
        path.push(from);
        return path.reverse();
      }
      if (isCut(i)) { passes = false; break; }
    }
    if (!passes) continue;
    for (const s of cb.succs) {
      if (s !== cfg.exit && parent[s] === -2) {
        parent[s] = c;
        queue.push(s);
      }
    }
  }
  return undefined;
}
