// flash_attention: O = softmax(Q·Kᵀ·scale)·V per head without materializing the
// score matrix: K/V tiles of 32 rows pass through shared memory, each warp owns
// one query row and keeps the online-softmax state (running max m, running sum
// l, output accumulator) in registers.
import { ARCHS, warpReduce } from '../builder/index.js';
import type { DefectDef, KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { f32In, input, LOG2E, launchSpec, output, scalar, size, startModule } from './common.js';

const WARPS = 8;
const THREADS = WARPS * 32;
const BC = 32;
const DMAX = 64;
const KS_STRIDE = DMAX + 1;

const DEFECTS: readonly DefectDef[] = [
  {
    /** Barrier divergence (PARITY-114): warps whose query row is past the end exit before the KV loop; trips F038. */
    name: 'early-exit',
    bugClass: 'PARITY-114 early exit before barrier',
    check: 'F038',
    description: 'warps with no query row exit before the KV-tile loop, skipping its barriers and their share of '
      + 'every K/V tile store: when seq_len is not a multiple of 8, the last block attends to tiles with holes',
    ptxasAccepts: true,
  },
];

export const flashAttention: KernelDef = {
  name: 'flash_attention',
  summary: 'attention O = softmax(scale*Q*K^T)*V per head, tiled over K/V with an online softmax',
  notes: 'Block of 256 threads = 8 query rows (`.reqntid`), grid (ceil(seq_len/8), heads). Per K/V tile of 32 rows '
    + 'the block stores K (row stride 65, so lane j reading row j is conflict-free) and V into shared memory, a '
    + 'barrier, lane j computes the score of key j, the warp reduces max and sum by butterflies, rescales its '
    + 'running state (FlashAttention-2 form), accumulates p_j·V_j with p_j broadcast by shfl.idx, and a trailing '
    + 'barrier. Rows and keys past seq_len load as 0 and score -inf; every thread runs every tile. head_dim is a '
    + 'runtime parameter up to 64 (lane d and d+32 own two output columns).',
  sizes: [
    { name: 'heads', description: 'independent heads (grid.y)', default: 8, min: 1 },
    { name: 'seq_len', description: 'query and key rows per head', default: 1024, min: 1 },
    { name: 'head_dim', description: 'columns of Q, K, V (at most 64)', default: 64, min: 1, max: DMAX },
  ],
  defects: DEFECTS,
  archs: ARCHS,
  testSizes: [{ heads: 2, seq_len: 64, head_dim: 64 }, { heads: 3, seq_len: 45, head_dim: 40 }],
  build(opts) {
    const { m, defect } = startModule('flash_attention', opts, DEFECTS);
    const Qs = m.shared('fa_Qs', 'f32', WARPS * DMAX, 16);
    const Ks = m.shared('fa_Ks', 'f32', BC * KS_STRIDE, 16);
    const Vs = m.shared('fa_Vs', 'f32', BC * DMAX, 16);
    m.kernel('flash_attention', { Q: 'u64', K: 'u64', V: 'u64', O: 'u64', seq_len: 'u32', head_dim: 'u32', scale: 'f32' },
      { reqntid: [THREADS, 1, 1] }, (k, p) => {
        const tid = k.sreg('tid.x');
        const lane = k.and('b32', tid, 31);
        const warp = k.shr('u32', tid, 5);
        const qRow = k.madLo('u32', k.sreg('ctaid.x'), WARPS, warp);
        const head = k.sreg('ctaid.y');
        const seq = k.ldParam(p.seq_len);
        const D = k.ldParam(p.head_dim);
        // The launch spec refuses head_dim > 64; clamping keeps every shared index in bounds regardless.
        const dLim = k.min('u32', D, DMAX);
        const scale = k.ldParam(p.scale);
        const done = k.newLabel('done');
        if (defect === 'early-exit') k.braIf(k.setp('ge', 'u32', qRow, seq), done);
        // Element offset of this head: head * seq * D, in 64 bits.
        const headBytes = k.shl('b64', k.mulLo('u64', k.mulWide('u32', head, seq), k.cvt('u64', 'u32', D)), 2);
        const Qh = k.add('u64', k.globalPtr(p.Q), headBytes);
        const Kh = k.add('u64', k.globalPtr(p.K), headBytes);
        const Vh = k.add('u64', k.globalPtr(p.V), headBytes);
        const Oh = k.add('u64', k.globalPtr(p.O), headBytes);
        const qsBase = k.addrOf(Qs);
        const ksBase = k.addrOf(Ks);
        const vsBase = k.addrOf(Vs);
        const validRow = k.setp('lt', 'u32', qRow, seq);
        const qRowBase = k.madLo('u32', warp, DMAX * 4, qsBase);
        for (let h = 0; h < 2; h++) {
          const d = k.add('u32', lane, 32 * h);
          const inQ = k.andPred(validRow, k.setp('lt', 'u32', d, D));
          const q = k.mov('f32', 0);
          k.guard(inQ, () => k.ldInto('global', 'f32', q, k.madLo('u64', k.madWide(qRow, D, k.cvt('u64', 'u32', d)), 4, Qh), 0, { nc: true }));
          k.sts('f32', k.madLo('u32', d, 4, qRowBase), q);
        }
        const mRun = k.mov('f32', -Infinity);
        const lRun = k.mov('f32', 0);
        const o = [k.mov('f32', 0), k.mov('f32', 0)];
        const tiles = k.div('u32', k.add('u32', seq, BC - 1), BC);
        const kRowAddr = k.madLo('u32', lane, KS_STRIDE * 4, ksBase);
        k.forRange('kv_loop', 0, tiles, (t) => {
          const kv0 = k.mulLo('u32', t, BC);
          for (let j = 0; j < (BC * DMAX) / THREADS; j++) {
            const e = k.add('u32', tid, THREADS * j);
            const r = k.shr('u32', e, 6);
            const c = k.and('b32', e, DMAX - 1);
            const kvRow = k.add('u32', kv0, r);
            const inKV = k.andPred(k.setp('lt', 'u32', kvRow, seq), k.setp('lt', 'u32', c, D));
            const off = k.madLo('u64', k.madWide(kvRow, D, k.cvt('u64', 'u32', c)), 4, Kh);
            const offV = k.madLo('u64', k.madWide(kvRow, D, k.cvt('u64', 'u32', c)), 4, Vh);
            const kv = k.mov('f32', 0);
            k.guard(inKV, () => k.ldInto('global', 'f32', kv, off, 0, { nc: true }));
            k.sts('f32', k.madLo('u32', k.madLo('u32', r, KS_STRIDE, c), 4, ksBase), kv);
            const vv = k.mov('f32', 0);
            k.guard(inKV, () => k.ldInto('global', 'f32', vv, offV, 0, { nc: true }));
            k.sts('f32', k.madLo('u32', e, 4, vsBase), vv);
          }
          k.barSync(0);
          // Lane j scores key kv0 + j.
          const s = k.mov('f32', 0);
          k.forRange('dot_loop', 0, dLim, (d) => {
            const q = k.lds('f32', k.madLo('u32', d, 4, qRowBase));
            const kk = k.lds('f32', k.madLo('u32', d, 4, kRowAddr));
            k.fma('f32', q, kk, s, s);
          });
          const keyValid = k.setp('lt', 'u32', k.add('u32', kv0, lane), seq);
          const score = k.selp('f32', k.mul('f32', s, scale), -Infinity, keyValid);
          const mNew = k.max('f32', mRun, warpReduce(k, 'max', score));
          const corr = k.ex2(k.mul('f32', k.sub('f32', mRun, mNew), LOG2E));
          const pj = k.ex2(k.mul('f32', k.sub('f32', score, mNew), LOG2E));
          k.fma('f32', lRun, corr, warpReduce(k, 'sum', pj), lRun);
          for (const acc of o) k.mul('f32', acc, corr, acc);
          k.forRange('pv_loop', 0, BC, (j) => {
            const pb = k.shfl('idx', pj, j);
            const vRow = k.madLo('u32', j, DMAX * 4, k.madLo('u32', lane, 4, vsBase));
            k.fma('f32', pb, k.lds('f32', vRow), o[0]!, o[0]!);
            k.fma('f32', pb, k.lds('f32', vRow, 32 * 4), o[1]!, o[1]!);
          });
          k.mov('f32', mNew, mRun);
          k.barSync(0);
        });
        const inv = k.rcp(lRun);
        for (let h = 0; h < 2; h++) {
          const d = k.add('u32', lane, 32 * h);
          const inO = k.andPred(validRow, k.setp('lt', 'u32', d, D));
          const skip = k.newLabel('store_skip');
          k.braIf(inO, skip, true);
          k.st('global', 'f32', k.madLo('u64', k.madWide(qRow, D, k.cvt('u64', 'u32', d)), 4, Oh), k.mul('f32', o[h]!, inv));
          k.place(skip);
        }
        k.place(done);
        k.ret();
      });
    return m.emit();
  },
  launch(sizes, seed) {
    const [heads, seq, D] = [size(sizes, 'heads'), size(sizes, 'seq_len'), size(sizes, 'head_dim')];
    const n = heads * seq * D;
    return launchSpec({
      kernel: 'flash_attention', sizes, grid: [ceilDiv(seq, WARPS), heads, 1], block: [THREADS, 1, 1],
      args: [input('Q', 'f32', n), input('K', 'f32', n), input('V', 'f32', n), output('O', 'f32', n),
        scalar('seq_len', 'u32', seq), scalar('head_dim', 'u32', D), scalar('scale', 'f32', Math.fround(1 / Math.sqrt(D)))],
      tolerance: { rel: 1e-4, abs: 1e-5 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const [heads, seq, D] = [size(sizes, 'heads'), size(sizes, 'seq_len'), size(sizes, 'head_dim')];
    const Q = f32In(inputs, 'Q');
    const K = f32In(inputs, 'K');
    const V = f32In(inputs, 'V');
    const scale = Math.fround(1 / Math.sqrt(D));
    const O = new Float32Array(heads * seq * D);
    const s = new Float64Array(seq);
    for (let h = 0; h < heads; h++) {
      const base = h * seq * D;
      for (let i = 0; i < seq; i++) {
        let mx = -Infinity;
        for (let j = 0; j < seq; j++) {
          let dot = 0;
          for (let d = 0; d < D; d++) dot += Q[base + i * D + d]! * K[base + j * D + d]!;
          s[j] = dot * scale;
          mx = Math.max(mx, s[j]!);
        }
        let sum = 0;
        for (let j = 0; j < seq; j++) {
          s[j] = Math.exp(s[j]! - mx);
          sum += s[j]!;
        }
        for (let d = 0; d < D; d++) {
          let acc = 0;
          for (let j = 0; j < seq; j++) acc += s[j]! * V[base + j * D + d]!;
          O[base + i * D + d] = acc / sum;
        }
      }
    }
    return { O };
  },
};
