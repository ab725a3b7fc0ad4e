// The shared-memory tiled GEMM family: 32×32 tiles of A and B in shared memory,
// a 32×8 block where each thread computes four rows of one column. The A tile
// is stored transposed (k-major) so the inner loop reads it as a broadcast; how
// that transposed store lands in the banks is what the three variants differ in:
//   plain    AsT[k][m] at k*32 + m        (the store is a 32-way bank conflict)
//   padded   AsT[k][m] at k*33 + m        (stride 33: conflict-free)
//   swizzled AsT[k][m] at k*32 + (m ^ k)  (XOR swizzle: conflict-free, no padding)
import { ARCHS, type FunctionBuilder, type SharedVar, type U32 } from '../builder/index.js';
import type { BuildOptions, DefectDef, KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { f32In, index2, input, launchSpec, output, scalar, size, startModule } from './common.js';
import { GEMM_SIZES, gemmReference, gemmTolerance } from './gemm-reference.js';

export type TileLayout = 'plain' | 'padded' | 'swizzled';

const TILE = 32;
const BX = 32;
const BY = 8;
const ROWS_PER_THREAD = TILE / BY;

/**
 * Defects of the tiled GEMM (PARITY-114 and the race classes).
 */
export const TILED_DEFECTS: readonly DefectDef[] = [
  {
    /** Barrier divergence (PARITY-114): the bounds check exits before the tile loop; trips F038. */
    name: 'early-exit',
    bugClass: 'PARITY-114 early exit before barrier',
    check: 'F038',
    description: 'threads outside C exit before the k-tile loop, so they skip its barriers and never store their '
      + 'share of the A and B tiles: edge tiles are read with elements missing',
    ptxasAccepts: true,
  },
  {
    /** Write-after-read race: the barrier at the end of the k-tile loop is gone; trips F037. */
    name: 'no-trailing-barrier',
    bugClass: 'MissingBarrierSync (write-after-read)',
    check: 'F037',
    description: 'no barrier at the end of the k-tile loop: a fast warp overwrites the tiles for step t+1 while '
      + 'slow warps still read step t',
    ptxasAccepts: true,
  },
  {
    /** Read-after-write race: the barrier between the tile stores and the inner product is gone; trips F036. */
    name: 'no-barrier',
    bugClass: 'MissingBarrierSync (read-after-write)',
    check: 'F036',
    description: 'no barrier between storing the tiles and reading them: threads read elements other threads have '
      + 'not stored yet',
    ptxasAccepts: true,
  },
];

function tileStride(layout: TileLayout): number {
  return layout === 'padded' ? TILE + 1 : TILE;
}

/** Byte offset in AsT of element (k, m) for a register k and m (swizzle applies m ^ k). */
function atIndex(k: FunctionBuilder, layout: TileLayout, kIdx: U32, mIdx: U32): U32 {
  const col = layout === 'swizzled' ? k.xor('b32', mIdx, kIdx) : mIdx;
  return k.madLo('u32', kIdx, tileStride(layout), col);
}

function buildTiled(name: string, layout: TileLayout, opts: BuildOptions, defects: readonly DefectDef[]): string {
  const { m, defect } = startModule(name, opts, defects);
  const stride = tileStride(layout);
  const AsT: SharedVar = m.shared(`${name}_AsT`, 'f32', TILE * stride, 16);
  const Bs: SharedVar = m.shared(`${name}_Bs`, 'f32', TILE * TILE, 16);
  m.kernel(name, { A: 'u64', B: 'u64', C: 'u64', M: 'u32', N: 'u32', K: 'u32' }, { reqntid: [BX, BY, 1] }, (k, p) => {
    const tx = k.sreg('tid.x');
    const ty = k.sreg('tid.y');
    const bm = k.mulLo('u32', k.sreg('ctaid.y'), TILE);
    const bn = k.mulLo('u32', k.sreg('ctaid.x'), TILE);
    const M = k.ldParam(p.M);
    const N = k.ldParam(p.N);
    const K = k.ldParam(p.K);
    const A = k.globalPtr(p.A);
    const B = k.globalPtr(p.B);
    const C = k.globalPtr(p.C);
    const col = k.add('u32', bn, tx);
    const colIn = k.setp('lt', 'u32', col, N);
    const done = k.newLabel('done');
    if (defect === 'early-exit') {
      // The bug: bounds check before the tile loop, so edge threads skip its barriers and tile stores.
      k.braIf(colIn, done, true);
      k.braIf(k.setp('ge', 'u32', k.add('u32', bm, ty), M), done);
    }
    const asBase = k.addrOf(AsT);
    const bsBase = k.addrOf(Bs);
    const acc = Array.from({ length: ROWS_PER_THREAD }, () => k.mov('f32', 0));
    // Shared addresses that do not change across tiles.
    const bStore = Array.from({ length: ROWS_PER_THREAD }, (_, r) => k.madLo('u32', k.madLo('u32', k.add('u32', ty, BY * r), TILE, tx), 4, bsBase));
    const aStore = Array.from({ length: ROWS_PER_THREAD }, (_, r) => k.madLo('u32', atIndex(k, layout, tx, k.add('u32', ty, BY * r)), 4, asBase));
    const bRead = k.madLo('u32', tx, 4, bsBase);
    const mRows = Array.from({ length: ROWS_PER_THREAD }, (_, r) => k.add('u32', ty, BY * r));
    const aRead = layout === 'swizzled' ? [] : mRows.map((mr) => k.madLo('u32', mr, 4, asBase));
    const tiles = k.div('u32', k.add('u32', K, TILE - 1), TILE);
    k.forRange('k_tile_loop', 0, tiles, (t) => {
      const k0 = k.mulLo('u32', t, TILE);
      const gkA = k.add('u32', k0, tx);
      const gkAIn = k.setp('lt', 'u32', gkA, K);
      for (let r = 0; r < ROWS_PER_THREAD; r++) {
        // A tile, coalesced along K, stored transposed.
        const gRow = k.add('u32', bm, mRows[r]!);
        const inA = k.andPred(k.setp('lt', 'u32', gRow, M), gkAIn);
        const a = k.mov('f32', 0);
        k.guard(inA, () => k.ldInto('global', 'f32', a, k.madLo('u64', index2(k, gRow, K, gkA), 4, A), 0, { nc: true }));
        k.sts('f32', aStore[r]!, a);
        // B tile, coalesced along N.
        const gkB = k.add('u32', k0, mRows[r]!);
        const inB = k.andPred(k.setp('lt', 'u32', gkB, K), colIn);
        const b = k.mov('f32', 0);
        k.guard(inB, () => k.ldInto('global', 'f32', b, k.madLo('u64', index2(k, gkB, N, col), 4, B), 0, { nc: true }));
        k.sts('f32', bStore[r]!, b);
      }
      if (defect !== 'no-barrier') k.barSync(0);
      for (let kk = 0; kk < TILE; kk++) {
        const b = k.lds('f32', bRead, kk * TILE * 4);
        for (let r = 0; r < ROWS_PER_THREAD; r++) {
          const a = layout === 'swizzled'
            ? k.lds('f32', k.madLo('u32', k.xor('b32', mRows[r]!, kk), 4, asBase), kk * stride * 4)
            : k.lds('f32', aRead[r]!, kk * stride * 4);
          k.fma('f32', a, b, acc[r]!, acc[r]!);
        }
      }
      if (defect !== 'no-trailing-barrier') k.barSync(0);
    });
    for (let r = 0; r < ROWS_PER_THREAD; r++) {
      const gRow = k.add('u32', bm, mRows[r]!);
      const inC = k.andPred(k.setp('lt', 'u32', gRow, M), colIn);
      const skip = k.newLabel('store_skip');
      k.braIf(inC, skip, true);
      k.st('global', 'f32', k.madLo('u64', index2(k, gRow, N, col), 4, C), acc[r]!);
      k.place(skip);
    }
    k.place(done);
    k.ret();
  });
  return m.emit();
}

const NOTES: Readonly<Record<TileLayout, string>> = {
  plain: 'The transposed store of the A tile (AsT[k][m] at k*32+m, lanes varying k) puts all 32 lanes of a warp in '
    + 'one bank: a 32-way conflict that F052 reports on this kernel by design (gemm_tiled_padded and gemm_swizzled '
    + 'remove it).',
  padded: 'The A tile is stored with row stride 33 (AsT[k][m] at k*33+m), so the transposed store spreads a warp '
    + 'over 32 banks; 4224 bytes instead of 4096.',
  swizzled: 'The A tile is stored at k*32 + (m XOR k): the XOR is a bijection on the 32 banks for the transposed '
    + 'store, and the inner loop reads one address per warp (k fixed), so no padding is needed.',
};

/** Defines one member of the family. */
export function tiledGemm(name: string, layout: TileLayout, defects: readonly DefectDef[]): KernelDef {
  return {
    name,
    summary: `C = A·B (f32) with 32×32 shared-memory tiles, ${layout === 'plain' ? 'transposed A tile' : layout === 'padded' ? 'A tile padded to stride 33' : 'XOR-swizzled A tile'}`,
    notes: 'Block 32×8 (`.reqntid`), grid (ceil(N/32), ceil(M/32)); each thread computes rows ty, ty+8, ty+16, ty+24 '
      + 'of column bn+tx. Every thread runs every k-tile step (out-of-range elements load as 0), so both barriers '
      + 'of the loop are reached by the whole block; stores are guarded after the loop. '
      + NOTES[layout],
    ...(layout === 'plain'
      ? { expectedFindings: { F052: 'the transposed store of the A tile is a 32-way bank conflict, kept on purpose as the baseline that gemm_tiled_padded and gemm_swizzled fix' } }
      : {}),
    sizes: GEMM_SIZES,
    defects,
    archs: ARCHS,
    testSizes: [{ M: 64, N: 64, K: 64 }, { M: 70, N: 45, K: 33 }],
    build(opts) {
      return buildTiled(name, layout, opts, defects);
    },
    launch(sizes, seed) {
      const [M, N, K] = [size(sizes, 'M'), size(sizes, 'N'), size(sizes, 'K')];
      return launchSpec({
        kernel: name, sizes, grid: [ceilDiv(N, TILE), ceilDiv(M, TILE), 1], block: [BX, BY, 1],
        args: [input('A', 'f32', M * K), input('B', 'f32', K * N), output('C', 'f32', M * N), scalar('M', 'u32', M), scalar('N', 'u32', N), scalar('K', 'u32', K)],
        tolerance: gemmTolerance(K), ...(seed !== undefined ? { seed } : {}),
      });
    },
    reference(sizes, inputs) {
      const A = f32In(inputs, 'A');
      const B = f32In(inputs, 'B');
      return { C: gemmReference(sizes, (i) => A[i]!, (i) => B[i]!) };
    },
  };
}
