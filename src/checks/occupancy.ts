// Occupancy: how many warps of a kernel an SM holds at once, from its
// registers per thread, static shared memory per block and block size, with
// the per-architecture limits of the CUDA programming guide's "Technical
// Specifications per Compute Capability" table and the occupancy
// calculator's allocation granularities.
import type * as A from '../parser/ast.js';
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel, VariableSymbol } from '../cfg/symbols.js';

export interface SmLimits {
  readonly name: string;
  readonly maxWarps: number;
  readonly maxBlocks: number;
  readonly registers: number;
  /** Registers are allocated per warp in units of this many. */
  readonly regUnit: number;
  readonly maxRegsPerThread: number;
  /** Shared memory an SM can give to blocks (the largest carveout). */
  readonly sharedPerSm: number;
  readonly sharedPerBlock: number;
  /** Shared memory is allocated per block in units of this many bytes. */
  readonly sharedUnit: number;
  /** Shared memory the system reserves per block (sm_80 and later: 1 KB). */
  readonly sharedReserved: number;
}

const KB = 1024;
const base = { registers: 65536, regUnit: 256, maxRegsPerThread: 255, sharedUnit: 128, sharedReserved: KB };

/** By compute capability (major·10 + minor). */
const LIMITS: ReadonlyMap<number, SmLimits> = new Map([
  [75, { name: 'sm_75', ...base, maxWarps: 32, maxBlocks: 16, sharedPerSm: 64 * KB, sharedPerBlock: 64 * KB, sharedUnit: 256, sharedReserved: 0 }],
  [80, { name: 'sm_80', ...base, maxWarps: 64, maxBlocks: 32, sharedPerSm: 164 * KB, sharedPerBlock: 163 * KB }],
  [86, { name: 'sm_86', ...base, maxWarps: 48, maxBlocks: 16, sharedPerSm: 100 * KB, sharedPerBlock: 99 * KB }],
  [87, { name: 'sm_87', ...base, maxWarps: 48, maxBlocks: 16, sharedPerSm: 164 * KB, sharedPerBlock: 163 * KB }],
  [89, { name: 'sm_89', ...base, maxWarps: 48, maxBlocks: 24, sharedPerSm: 100 * KB, sharedPerBlock: 99 * KB }],
  [90, { name: 'sm_90', ...base, maxWarps: 64, maxBlocks: 32, sharedPerSm: 228 * KB, sharedPerBlock: 227 * KB }],
  [100, { name: 'sm_100', ...base, maxWarps: 64, maxBlocks: 32, sharedPerSm: 228 * KB, sharedPerBlock: 227 * KB }],
  [120, { name: 'sm_120', ...base, maxWarps: 48, maxBlocks: 32, sharedPerSm: 128 * KB, sharedPerBlock: 99 * KB }],
]);

/** The limits for a target (`sm_90a` → sm_90): its own, else the nearest older one listed (said in `note`). */
export function smLimits(target: string | undefined): { limits: SmLimits; note?: string } | undefined {
  const m = target === undefined ? null : /^sm_(\d+)/.exec(target);
  if (m === null) return undefined;
  const cc = Number(m[1]);
  const own = LIMITS.get(cc);
  if (own !== undefined) return { limits: own };
  const older = [...LIMITS.keys()].filter((k) => k <= cc && Math.floor(k / 10) === Math.floor(cc / 10)).sort((a, b) => b - a)[0]
    ?? [...LIMITS.keys()].filter((k) => k <= cc).sort((a, b) => b - a)[0];
  if (older === undefined) return undefined;
  const limits = LIMITS.get(older)!;
  return { limits, note: `${target!} taken with ${limits.name}'s limits` };
}

export interface Occupancy {
  readonly warpsPerBlock: number;
  readonly blocks: number;
  readonly warps: number;
  readonly fraction: number;
  /** What caps the blocks per SM: 'registers', 'shared memory', 'warps', 'blocks', or 'launch' (a block does not fit at all). */
  readonly limiter: 'registers' | 'shared memory' | 'warps' | 'blocks' | 'launch';
  /** Registers per thread as allocated (rounded to the allocation unit). */
  readonly registersAllocated: number;
}

const ceilTo = (x: number, unit: number): number => Math.ceil(x / unit) * unit;

/** Active warps per SM for a block of `threads` threads using `regs` registers per thread and `shared` bytes of shared memory. */
export function occupancy(l: SmLimits, threads: number, regs: number, shared: number): Occupancy {
  const warpsPerBlock = Math.ceil(threads / 32);
  const regsPerWarp = ceilTo(Math.max(1, regs) * 32, l.regUnit);
  const byRegs = Math.floor(Math.floor(l.registers / regsPerWarp) / warpsPerBlock);
  const smem = shared > 0 ? ceilTo(shared + l.sharedReserved, l.sharedUnit) : 0;
  const bySmem = smem === 0 ? Infinity : shared > l.sharedPerBlock ? 0 : Math.floor(l.sharedPerSm / smem);
  const byWarps = Math.floor(l.maxWarps / warpsPerBlock);
  const candidates: [number, Occupancy['limiter']][] = [[byRegs, 'registers'], [bySmem, 'shared memory'], [byWarps, 'warps'], [l.maxBlocks, 'blocks']];
  let [blocks, limiter] = candidates[0]!;
  for (const [b, why] of candidates) if (b < blocks) [blocks, limiter] = [b, why];
  if (blocks <= 0) {
    blocks = 0;
    limiter = 'launch';
  }
  const warps = blocks * warpsPerBlock;
  return { warpsPerBlock, blocks, warps, fraction: warps / l.maxWarps, limiter, registersAllocated: regsPerWarp / 32 };
}

function namesIn(e: A.Expression, out: A.NameExpr[]): void {
  switch (e.kind) {
    case 'Name': out.push(e); return;
    case 'Unary': case 'Cast': namesIn(e.arg, out); return;
    case 'Binary': namesIn(e.left, out); namesIn(e.right, out); return;
    case 'Address': case 'Vector': case 'List': for (const x of e.elements) namesIn(x, out); return;
    default: return;
  }
}

/** Static shared memory of a kernel: the non-extern `.shared` variables it and the functions it calls name, each at its alignment. */
export function staticShared(ctx: AnalysisContext, kernel: FunctionModel): number {
  const graph = ctx.callGraph();
  const seen = new Set<string>([kernel.name]);
  const work = [kernel.name];
  const vars = new Set<VariableSymbol>();
  // (One list for every instruction: this walks whole call trees.)
  const names: A.NameExpr[] = [];
  while (work.length > 0) {
    const fn = ctx.function(work.pop()!);
    if (fn === undefined) continue;
    for (const ins of fn.instructions) {
      names.length = 0;
      for (const o of ins.node.operands) namesIn(o, names);
      for (const n of names) {
        const s = fn.resolve(n);
        if (s?.kind === 'variable' && s.space === '.shared' && !s.decl.linkage.includes('.extern')) vars.add(s);
      }
    }
    for (const c of graph.callees.get(fn.name) ?? []) {
      if (!seen.has(c)) {
        seen.add(c);
        work.push(c);
      }
    }
  }
  let total = 0;
  for (const v of [...vars].sort((a, b) => (b.align ?? 1) - (a.align ?? 1))) total = ceilTo(total, v.align ?? 1) + (v.size ?? 0);
  return total;
}
