// lz4_compress: one warp (one block of 32) per 4 KB page, producing a standard
// LZ4 block. The warp walks the page in lockstep: every lane computes the same
// position, lane 0 alone owns the hash table in shared memory and broadcasts the
// candidate with shfl.sync, match extension compares 32 bytes per step and
// finds the first mismatch with vote.sync.ballot, and literals are copied 32
// bytes at a time. Page bytes are read from global memory, never staged in
// shared memory, so no stored value comes from ld.shared.
import { ARCHS, type Pred, type U32, type U64 } from '../builder/index.js';
import type { DefectDef, KernelDef } from '../kernel.js';
import { input, launchSpec, output, scalar, size, startModule, u8In } from './common.js';
import { compressPages, HASH_BITS, HASH_PRIME, MATCH_END_LIMIT, MATCH_SEARCH_LIMIT, OUT_STRIDE, PAGE } from './lz4.js';

const DEFECTS: readonly DefectDef[] = [
  {
    /** LoadedValueBug: literals are copied out of a shared-memory copy of the page; trips F081. */
    name: 'loaded-value-store',
    bugClass: 'LoadedValueBug (store of a value loaded by ld.shared)',
    check: 'F081',
    description: 'the page is staged in shared memory and literal bytes go ld.shared.u8 -> st.global.u8, the shape '
      + 'the LZ4 spec called toxic (it ran correctly on sm_89 and sm_90; the output is unchanged)',
    ptxasAccepts: true,
  },
  {
    /** ComputedAddrFromLoaded: the output cursor lives in shared memory and store addresses are computed from it; trips F082. */
    name: 'computed-address',
    bugClass: 'ComputedAddrFromLoaded (store address from an ld.shared value)',
    check: 'F082',
    description: 'lane 0 publishes the output cursor in shared memory and every lane computes its literal store '
      + 'address from the ld.shared value (the output is unchanged)',
    ptxasAccepts: true,
  },
];

export const lz4Compress: KernelDef = {
  name: 'lz4_compress',
  summary: 'LZ4 block compression of 4 KB pages, one warp per page (shuffles, ballots, global loads)',
  notes: 'Block of 32 threads (`.reqntid`), grid = pages. Output: page p\'s block at out + p*4352 (the LZ4 worst case '
    + 'for 4096 bytes fits) and its length in lengths[p]. The hash table (4096 u16 entries, position+1, 0 = empty) is '
    + 'cleared by all lanes, then a barrier; afterwards only lane 0 reads and writes it (guarded ld/st.shared) and '
    + 'shfl.sync.idx broadcasts the candidate, so the lockstep control flow is uniform by construction. Greedy parse '
    + 'with LZ4\'s MFLIMIT (12) and LASTLITERALS (5); the CPU reference runs the same parse, so outputs match byte '
    + 'for byte and decode with any LZ4 decoder. Literal copies move one byte per lane per step.',
  expectedFindings: {
    F095: 'literals are copied one byte per lane, 32 consecutive bytes per warp step (LZ4 literals have no alignment)',
    F082: 'the parse position, and so every output address, depends on match candidates that lane 0 reads from the shared-memory hash table: that is the algorithm (the value reaches other lanes through shfl.sync)',
  },
  sizes: [{ name: 'pages', description: '4 KB pages', default: 1024, min: 1 }],
  defects: DEFECTS,
  archs: ARCHS,
  testSizes: [{ pages: 5 }, { pages: 23 }],
  build(opts) {
    const { m, defect } = startModule('lz4_compress', opts, DEFECTS);
    const htab = m.shared('lz4_htab', 'u16', 1 << HASH_BITS, 16);
    const staged = defect === 'loaded-value-store' ? m.shared('lz4_page', 'u8', PAGE, 16) : undefined;
    const cursor = defect === 'computed-address' ? m.shared('lz4_cursor', 'u32', 1, 4) : undefined;
    m.kernel('lz4_compress', { pages: 'u64', out: 'u64', lengths: 'u64', page_count: 'u32' }, { reqntid: [32, 1, 1] }, (k, p) => {
      const lane = k.sreg('tid.x');
      const page = k.sreg('ctaid.x');
      const done = k.newLabel('done');
      k.braIf(k.setp('ge', 'u32', page, k.ldParam(p.page_count)), done);
      const src = k.add('u64', k.globalPtr(p.pages), k.mulWide('u32', page, PAGE));
      const dst = k.add('u64', k.globalPtr(p.out), k.mulWide('u32', page, OUT_STRIDE));
      const lengths = k.globalPtr(p.lengths);
      const tbl = k.addrOf(htab);
      k.forRange('clear_loop', lane, (1 << HASH_BITS) / 2, (w) => k.sts('u32', k.madLo('u32', w, 4, tbl), 0), 32);
      if (staged !== undefined) {
        const sbase = k.addrOf(staged);
        k.forRange('stage_loop', lane, PAGE / 4, (w) => {
          k.sts('u32', k.madLo('u32', w, 4, sbase), k.ld('global', 'u32', k.add('u64', src, k.mulWide('u32', w, 4)), 0, { nc: true }));
        }, 32);
      }
      k.barSync(0);
      const isLane0 = k.setp('eq', 'u32', lane, 0);
      const ip = k.mov('u32', 0);
      const anchor = k.mov('u32', 0);
      const op = k.mov('u32', 0);
      const at = (base: U64, off: U32): U64 => k.add('u64', base, k.cvt('u64', 'u32', off));
      const emitByte = (v: U32 | number): void => {
        const a = at(dst, op);
        k.guard(isLane0, () => k.st('global', 'u8', a, v));
        k.add('u32', op, 1, op);
      };
      const emitLength = (n: U32): void => {
        const r = k.mov('u32', n);
        k.loop('length_loop', (ctl) => {
          ctl.breakIf(k.setp('lt', 'u32', r, 255));
          emitByte(255);
          k.sub('u32', r, 255, r);
        });
        emitByte(r);
      };
      const copyLiterals = (from: U32, count: U32): void => {
        let outBase = k.mov('u32', op);
        if (cursor !== undefined) {
          // The defect: the cursor goes through shared memory and comes back as a loaded value.
          const c = k.addrOf(cursor);
          k.guard(isLane0, () => k.sts('u32', c, op));
          k.barSync(0);
          outBase = k.lds('u32', c);
          k.barSync(0);
        }
        k.forRange('literal_loop', 0, count, (c) => {
          const i = k.add('u32', c, lane);
          const inRange = k.setp('lt', 'u32', i, count);
          const skip = k.newLabel('literal_skip');
          k.braIf(inRange, skip, true);
          const from_i = k.add('u32', from, i);
          const byte = staged !== undefined ? k.lds('u8', k.add('u32', k.addrOf(staged), from_i)) : k.ld('global', 'u8', at(src, from_i), 0, { nc: true });
          k.st('global', 'u8', at(dst, k.add('u32', outBase, i)), byte);
          k.place(skip);
        }, 32);
        k.add('u32', op, count, op);
      };
      const tokenWith = (litlen: U32, matchCode: U32 | number): void => {
        const tl = k.shl('b32', k.min('u32', litlen, 15), 4);
        emitByte(typeof matchCode === 'number' ? tl : k.or('b32', tl, k.min('u32', matchCode, 15)));
        k.ifThen(k.setp('ge', 'u32', litlen, 15), () => emitLength(k.sub('u32', litlen, 15)), { name: 'literal_length' });
      };
      const read32 = (pos: U32): U32 => {
        const w = at(src, k.and('b32', pos, 0xfffffffc));
        const lo = k.ld('global', 'u32', w, 0, { nc: true });
        const hi = k.ld('global', 'u32', w, 4, { nc: true });
        return k.shfR(lo, hi, k.shl('b32', k.and('b32', pos, 3), 3));
      };
      k.loop('main_loop', (main) => {
        main.breakIf(k.setp('ge', 'u32', ip, MATCH_SEARCH_LIMIT));
        const seq = read32(ip);
        const slot = k.madLo('u32', k.shr('u32', k.mulLo('u32', seq, HASH_PRIME), 32 - HASH_BITS), 2, tbl);
        const entry = k.mov('u16', 0);
        const next = k.cvt('u16', 'u32', k.add('u32', ip, 1));
        k.guard(isLane0, () => {
          k.ldsInto('u16', entry, slot);
          k.sts('u16', slot, next);
        });
        const cand1 = k.shfl('idx', k.cvt('u32', 'u16', entry), 0);
        const advance = k.newLabel('advance');
        k.braIf(k.setp('eq', 'u32', cand1, 0), advance);
        const cand = k.sub('u32', cand1, 1);
        k.braIf(k.setp('ne', 'u32', read32(cand), seq), advance);
        // A match of at least 4 bytes: extend it 32 bytes per step.
        const mlen = k.mov('u32', 4);
        k.loop('extend_loop', (ext) => {
          const pos = k.add('u32', k.add('u32', ip, mlen), lane);
          const cpos = k.add('u32', k.add('u32', cand, mlen), lane);
          const inRange = k.setp('lt', 'u32', pos, MATCH_END_LIMIT);
          const a = k.mov('u32', 0);
          const b = k.mov('u32', 0);
          const pa = at(src, pos);
          const pb = at(src, cpos);
          k.guard(inRange, () => {
            k.ldInto('global', 'u8', a, pa, 0, { nc: true });
            k.ldInto('global', 'u8', b, pb, 0, { nc: true });
          });
          const mismatch: Pred = k.orPred(k.notPred(inRange), k.setp('ne', 'u32', a, b));
          const ballot = k.ballot(mismatch);
          const any = k.setp('ne', 'u32', ballot, 0);
          k.add('u32', mlen, k.selp('u32', k.ffs(ballot), 32, any), mlen);
          ext.breakIf(any);
        });
        const litlen = k.sub('u32', ip, anchor);
        const matchCode = k.sub('u32', mlen, 4);
        tokenWith(litlen, matchCode);
        copyLiterals(anchor, litlen);
        const offset = k.sub('u32', ip, cand);
        emitByte(k.and('b32', offset, 0xff));
        emitByte(k.shr('u32', offset, 8));
        k.ifThen(k.setp('ge', 'u32', matchCode, 15), () => emitLength(k.sub('u32', matchCode, 15)), { name: 'match_length' });
        k.add('u32', ip, mlen, ip);
        k.mov('u32', ip, anchor);
        main.continue();
        k.place(advance);
        k.add('u32', ip, 1, ip);
      });
      const last = k.sub('u32', PAGE, anchor);
      tokenWith(last, 0);
      copyLiterals(anchor, last);
      const lengthAddr = k.add('u64', lengths, k.mulWide('u32', page, 4));
      k.guard(isLane0, () => k.st('global', 'u32', lengthAddr, op));
      k.place(done);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const pages = size(sizes, 'pages');
    return launchSpec({
      kernel: 'lz4_compress', sizes, grid: [pages, 1, 1], block: [32, 1, 1],
      args: [input('pages', 'u8', pages * PAGE, { generator: 'lz4-pages' }),
        output('out', 'u8', pages * OUT_STRIDE, { compare: 'exact', fullyWritten: false }),
        output('lengths', 'u32', pages, { compare: 'exact' }), scalar('page_count', 'u32', pages)],
      tolerance: { rel: 0, abs: 0 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(_sizes, inputs) {
    const { blocks, lengths } = compressPages(u8In(inputs, 'pages'));
    return { out: blocks, lengths };
  },
};
