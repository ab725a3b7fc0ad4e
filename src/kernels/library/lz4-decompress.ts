// lz4_decompress: one warp per LZ4 block, decoding into a 4 KB page. The warp
// parses tokens in lockstep (every lane reads the same byte: uniform values),
// copies literals 32 bytes per step, and copies matches 32 bytes per step with
// lane i reading out[start − offset + (i mod offset)], which is already written
// for any offset, so overlapping matches need no serial loop. bar.warp.sync
// before each match copy orders the earlier writes of other lanes.
import { ARCHS, type U32, type U64 } from '../builder/index.js';
import type { KernelDef } from '../kernel.js';
import { input, launchSpec, output, scalar, size, startModule, u32In, u8In } from './common.js';
import { decompressBlock, OUT_STRIDE, PAGE } from './lz4.js';

export const lz4Decompress: KernelDef = {
  name: 'lz4_decompress',
  summary: 'LZ4 block decoding into 4 KB pages, one warp per block, every read and write bounds-checked',
  notes: 'Block of 32 threads (`.reqntid`), grid = pages. Block p is read from blocks + p*4352 (length '
    + 'min(block_lengths[p], 4352)) and decoded into out + p*4096; out_lengths[p] is the decoded length, or '
    + '0xffffffff when the block is malformed (a read past its length, a write past 4096 bytes, an offset of 0 or '
    + 'reaching before the page): decoding stops there. Reads of out (match sources) are plain ld.global, never '
    + '.nc, since the kernel writes out.',
  expectedFindings: {
    F095: 'literals and match bytes are copied one byte per lane, 32 consecutive bytes per warp step (LZ4 offsets and lengths have no alignment)',
  },
  sizes: [{ name: 'pages', description: 'LZ4 blocks (4 KB pages)', default: 1024, min: 1 }],
  defects: [],
  archs: ARCHS,
  testSizes: [{ pages: 5 }, { pages: 23 }],
  build(opts) {
    const { m } = startModule('lz4_decompress', opts, []);
    m.kernel('lz4_decompress', { blocks: 'u64', block_lengths: 'u64', out: 'u64', out_lengths: 'u64', page_count: 'u32' },
      { reqntid: [32, 1, 1] }, (k, p) => {
        const lane = k.sreg('tid.x');
        const page = k.sreg('ctaid.x');
        const done = k.newLabel('done');
        k.braIf(k.setp('ge', 'u32', page, k.ldParam(p.page_count)), done);
        const src = k.add('u64', k.globalPtr(p.blocks), k.mulWide('u32', page, OUT_STRIDE));
        const dst = k.add('u64', k.globalPtr(p.out), k.mulWide('u32', page, PAGE));
        const lenAddr = k.add('u64', k.globalPtr(p.block_lengths), k.mulWide('u32', page, 4));
        const len = k.min('u32', k.ld('global', 'u32', lenAddr, 0, { nc: true }), OUT_STRIDE);
        const at = (base: U64, off: U32): U64 => k.add('u64', base, k.cvt('u64', 'u32', off));
        const ip = k.mov('u32', 0);
        const op = k.mov('u32', 0);
        const status = k.mov('u32', 0xffffffff);
        const readByte = (): U32 => {
          const b = k.ld('global', 'u8', at(src, ip), 0, { nc: true });
          k.add('u32', ip, 1, ip);
          return b;
        };
        k.loop('sequence_loop', (seq) => {
          const fail = (cond: ReturnType<typeof k.setp>): void => seq.breakIf(cond);
          // Adds LZ4 length-extension bytes (255 = more follow) to n; a read past the block fails.
          const extend = (n: U32): void => {
            k.loop('length_loop', (ext) => {
              fail(k.setp('ge', 'u32', ip, len));
              const b = readByte();
              k.add('u32', n, b, n);
              ext.breakIf(k.setp('ne', 'u32', b, 255));
            });
          };
          fail(k.setp('ge', 'u32', ip, len));
          const token = readByte();
          const lit = k.shr('u32', token, 4);
          k.ifThen(k.setp('eq', 'u32', lit, 15), () => extend(lit), { name: 'literal_length' });
          fail(k.setp('gt', 'u32', lit, k.sub('u32', len, ip)));
          fail(k.setp('gt', 'u32', lit, k.sub('u32', PAGE, op)));
          k.forRange('literal_loop', 0, lit, (c) => {
            const i = k.add('u32', c, lane);
            const skip = k.newLabel('literal_skip');
            k.braIf(k.setp('lt', 'u32', i, lit), skip, true);
            const b = k.ld('global', 'u8', at(src, k.add('u32', ip, i)), 0, { nc: true });
            k.st('global', 'u8', at(dst, k.add('u32', op, i)), b);
            k.place(skip);
          }, 32);
          k.add('u32', ip, lit, ip);
          k.add('u32', op, lit, op);
          k.ifThen(k.setp('eq', 'u32', ip, len), () => {
            k.mov('u32', op, status);
            seq.break();
          }, { name: 'not_last' });
          fail(k.setp('lt', 'u32', k.sub('u32', len, ip), 2));
          const lo = readByte();
          const hi = readByte();
          const offset = k.or('b32', lo, k.shl('b32', hi, 8));
          fail(k.setp('eq', 'u32', offset, 0));
          fail(k.setp('gt', 'u32', offset, op));
          const ml = k.and('b32', token, 15);
          k.ifThen(k.setp('eq', 'u32', ml, 15), () => extend(ml), { name: 'match_length' });
          k.add('u32', ml, 4, ml);
          fail(k.setp('gt', 'u32', ml, k.sub('u32', PAGE, op)));
          k.barWarpSync();
          const start = k.sub('u32', op, offset);
          k.forRange('match_loop', 0, ml, (c) => {
            const i = k.add('u32', c, lane);
            const skip = k.newLabel('match_skip');
            k.braIf(k.setp('lt', 'u32', i, ml), skip, true);
            const from = k.add('u32', start, k.rem('u32', i, offset));
            const b = k.ld('global', 'u8', at(dst, from));
            k.st('global', 'u8', at(dst, k.add('u32', op, i)), b);
            k.place(skip);
          }, 32);
          k.add('u32', op, ml, op);
        });
        const isLane0 = k.setp('eq', 'u32', lane, 0);
        const outLen = k.add('u64', k.globalPtr(p.out_lengths), k.mulWide('u32', page, 4));
        k.guard(isLane0, () => k.st('global', 'u32', outLen, status));
        k.place(done);
        k.ret();
      });
    return m.emit();
  },
  launch(sizes, seed) {
    const pages = size(sizes, 'pages');
    return launchSpec({
      kernel: 'lz4_decompress', sizes, grid: [pages, 1, 1], block: [32, 1, 1],
      args: [input('blocks', 'u8', pages * OUT_STRIDE, { generator: 'lz4-blocks' }),
        input('block_lengths', 'u32', pages, { generator: 'lz4-block-lengths' }),
        output('out', 'u8', pages * PAGE, { compare: 'exact' }),
        output('out_lengths', 'u32', pages, { compare: 'exact' }), scalar('page_count', 'u32', pages)],
      tolerance: { rel: 0, abs: 0 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const pages = size(sizes, 'pages');
    const blocks = u8In(inputs, 'blocks');
    const lengths = u32In(inputs, 'block_lengths');
    const out = new Uint8Array(pages * PAGE);
    const outLengths = new Uint32Array(pages);
    for (let p = 0; p < pages; p++) {
      const r = decompressBlock(blocks, p * OUT_STRIDE, Math.min(lengths[p]!, OUT_STRIDE));
      out.set(r.out, p * PAGE);
      outLengths[p] = r.length ?? 0xffffffff;
    }
    return { out, out_lengths: outLengths };
  },
};
