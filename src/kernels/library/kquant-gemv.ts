// The K-quant GEMV skeleton (q4k_gemv, q5k_gemv, q6k_gemv): y = W·x with W in
// GGUF super-blocks. A block of 8 warps handles 8 rows; for each super-block
// column the block stages the 256 matching x values in shared memory (one per
// thread, a barrier), each warp dequantizes its row's super-block (8 weights
// per lane) against them, and a trailing barrier guards the reuse of xs.
import {
  ARCHS, warpReduce, type F32, type FunctionBuilder, type PtxModule, type SharedVar, type U32, type U64,
} from '../builder/index.js';
import type { BuildOptions, DefectDef, KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { elemAddr, f32In, input, launchSpec, output, scalar, size, startModule, u8In } from './common.js';
import { BLOCK_BYTES, QK_K, quantGemv, type QuantFormat } from './kquant.js';

const WARPS = 8;
const THREADS = WARPS * 32;

/** How the kernel reaches the staged x values: the clean form and the two address-space defects. */
export interface XsAccess {
  store(index: U32, v: F32): void;
  /** xs[index + c] */
  load(index: U32, c: number): F32;
  /** xs[index + c .. index + c + 3] as one 16-byte access. */
  load4(index: U32, c: number): F32[];
}

function xsAccess(k: FunctionBuilder, xs: SharedVar, defect: string | undefined): XsAccess {
  if (defect === 'generic-shared' || defect === 'u64-shared') {
    // generic-shared: a cvta.shared generic pointer with generic ld/st (F021);
    // u64-shared: the shared window address in a 64-bit register with ld/st.shared (F022).
    const generic = defect === 'generic-shared';
    const base = generic ? k.cvtaShared(xs) : k.addrOf64(xs);
    const at = (index: U32): U64 => k.add('u64', base, k.mulWide('u32', index, 4));
    return {
      store: (index, v) => (generic ? k.st('generic', 'f32', at(index), v) : k.sts('f32', at(index), v)),
      load: (index, c) => (generic ? k.ld('generic', 'f32', at(index), 4 * c) : k.lds('f32', at(index), 4 * c)),
      load4: (index, c) => k.ldVec(generic ? 'generic' : 'shared', 'f32', 4, at(index), 4 * c),
    };
  }
  const base = k.addrOf(xs);
  const at = (index: U32): U32 => k.madLo('u32', index, 4, base);
  return {
    store: (index, v) => k.sts('f32', at(index), v),
    load: (index, c) => k.lds('f32', at(index), 4 * c),
    load4: (index, c) => k.ldVec('shared', 'f32', 4, at(index), 4 * c),
  };
}

/** Loads an f16 and widens it to f32: `ld.global.b16` + `cvt.f32.f16`, or the two half-type defects. */
export function loadHalf(k: FunctionBuilder, addr: U64, offset: number, defect: string | undefined): F32 {
  if (defect === 'f16-load') {
    // The bug: `ld.global.f16` (ld takes .b16 for halves; ptxas rejects it) - F090.
    const h = k.reg('f16');
    k.raw('ld.global.f16', [h.name, `[${addr.name}+${offset}]`]);
    return k.cvt('f32', 'f16', h);
  }
  const h = k.ld('global', 'b16', addr, offset);
  if (defect === 'widening-round') {
    // The bug: a rounding modifier on a widening conversion (ptxas rejects it) - F015.
    const f = k.reg('f32');
    k.raw('cvt.rn.f32.f16', [f.name, h.name]);
    return f;
  }
  return k.cvt('f32', 'f16', h);
}

export interface DotEnv {
  readonly k: FunctionBuilder;
  /** Address of this row's current super-block. */
  readonly blk: U64;
  readonly lane: U32;
  readonly xs: XsAccess;
  readonly defect: string | undefined;
}

/** This lane's share (8 weights) of one super-block's dot product with x. */
export type BlockDot = (env: DotEnv) => F32;

export const GEMV_SIZES = [
  { name: 'N', description: 'rows of W (outputs)', default: 4096, min: 1 },
  { name: 'K', description: 'columns of W (inputs); a multiple of 256', default: 4096, min: QK_K, multipleOf: QK_K },
] as const;

function buildGemv(m: PtxModule, name: string, format: QuantFormat, defect: string | undefined, dot: BlockDot): void {
  const xs = m.shared(`${name}_xs`, 'f32', QK_K, 16);
  const bytes = BLOCK_BYTES[format];
  m.kernel(name, { W: 'u64', x: 'u64', y: 'u64', N: 'u32', K: 'u32' }, { reqntid: [THREADS, 1, 1] }, (k, p) => {
    const tid = k.sreg('tid.x');
    const lane = k.and('b32', tid, 31);
    const row = k.madLo('u32', k.sreg('ctaid.x'), WARPS, k.shr('u32', tid, 5));
    const N = k.ldParam(p.N);
    const K = k.ldParam(p.K);
    const W = k.globalPtr(p.W);
    const x = k.globalPtr(p.x);
    const y = k.globalPtr(p.y);
    const access = xsAccess(k, xs, defect);
    const nb = k.shr('u32', K, 8);
    const validRow = k.setp('lt', 'u32', row, N);
    const rowBase = k.madLo('u64', k.mulWide('u32', row, nb), bytes, W);
    const acc = k.mov('f32', 0);
    k.forRange('superblock_loop', 0, nb, (b) => {
      access.store(tid, k.ld('global', 'f32', elemAddr(k, x, k.madLo('u32', b, QK_K, tid), 4), 0, { nc: true }));
      k.barSync(0);
      k.ifThen(validRow, () => {
        const blk = k.madLo('u64', k.cvt('u64', 'u32', b), bytes, rowBase);
        k.add('f32', acc, dot({ k, blk, lane, xs: access, defect }), acc);
      }, { name: 'row_skip' });
      k.barSync(0);
    });
    const total = warpReduce(k, 'sum', acc);
    const writer = k.andPred(validRow, k.setp('eq', 'u32', lane, 0));
    k.guard(writer, () => k.st('global', 'f32', elemAddr(k, y, row, 4), total));
    k.ret();
  });
}

/** Defines one K-quant GEMV kernel. */
export function kquantGemv(
  name: string, format: QuantFormat, dot: BlockDot, defects: readonly DefectDef[], notes: string,
  expectedFindings?: Readonly<Record<string, string>>,
): KernelDef {
  return {
    name,
    ...(expectedFindings !== undefined ? { expectedFindings } : {}),
    summary: `y = W*x with W in GGUF ${format.toUpperCase()} super-blocks (${BLOCK_BYTES[format]} bytes per 256 weights), fused dequantization`,
    notes: 'Block of 256 threads = 8 rows (`.reqntid`), grid ceil(N/8). Per super-block column: the block stores '
      + 'x[256b .. 256b+255] in shared memory (one value per thread), a barrier, each warp whose row exists '
      + 'dequantizes its super-block (a warp-uniform branch that rejoins before the next barrier), and a trailing '
      + 'barrier before xs is overwritten. The warp sum is a butterfly; lane 0 stores. Halves load as `.b16` and '
      + 'widen with `cvt.f32.f16`. K must be a multiple of 256 (the super-block). ' + notes,
    sizes: GEMV_SIZES,
    defects,
    archs: ARCHS,
    testSizes: [{ N: 40, K: 512 }, { N: 13, K: 768 }],
    build(opts: BuildOptions) {
      const { m, defect } = startModule(name, opts, defects);
      buildGemv(m, name, format, defect, dot);
      return m.emit();
    },
    launch(sizes, seed) {
      const [N, K] = [size(sizes, 'N'), size(sizes, 'K')];
      return launchSpec({
        kernel: name, sizes, grid: [ceilDiv(N, WARPS), 1, 1], block: [THREADS, 1, 1],
        args: [input('W', 'u8', N * (K / QK_K) * BLOCK_BYTES[format], { generator: format }), input('x', 'f32', K), output('y', 'f32', N),
          scalar('N', 'u32', N), scalar('K', 'u32', K)],
        tolerance: { rel: 1e-3, abs: 2e-5 * K }, ...(seed !== undefined ? { seed } : {}),
      });
    },
    reference(sizes, inputs) {
      return { y: quantGemv(format, u8In(inputs, 'W'), f32In(inputs, 'x'), size(sizes, 'N'), size(sizes, 'K')) };
    },
  };
}
