// LZ4 on the CPU: the block format (Collet's LZ4 block spec), the exact greedy
// compressor that lz4_compress runs on the GPU (so outputs compare byte for
// byte), the bounds-checked decoder that lz4_decompress mirrors, and a
// generator of compressible 4 KB pages.
import type { Rng } from '../numeric.js';

export const PAGE = 4096;
/** Bytes reserved per page for its compressed form: ≥ 4096 + 4096/255 + 16, the LZ4 worst case for a page. */
export const OUT_STRIDE = 4352;
export const HASH_BITS = 12;
export const HASH_PRIME = 2654435761;
/** No match may start at or after PAGE − 12 (LZ4's MFLIMIT). */
export const MATCH_SEARCH_LIMIT = PAGE - 12;
/** Matches end at or before PAGE − 5 (the last 5 bytes are always literals). */
export const MATCH_END_LIMIT = PAGE - 5;

function read32(b: Uint8Array, at: number): number {
  return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
}

/** The 12-bit multiplicative hash of 4 bytes: (v · 2654435761 mod 2³²) >> 20. */
export function hash4(v: number): number {
  return Math.imul(v, HASH_PRIME | 0) >>> (32 - HASH_BITS);
}

/**
 * Compresses one page (PAGE bytes at `at`) as one LZ4 block, greedily: at each
 * position below MATCH_SEARCH_LIMIT hash 4 bytes, look up and replace the table
 * entry (position + 1, 0 = empty); on a 4-byte match extend it up to
 * MATCH_END_LIMIT and emit a sequence, else advance one byte. This is exactly
 * the GPU kernel's algorithm.
 */
export function compressPage(src: Uint8Array, at: number): Uint8Array {
  const page = src.subarray(at, at + PAGE);
  const table = new Uint16Array(1 << HASH_BITS);
  const out: number[] = [];
  const length = (n: number): void => {
    let r = n;
    while (r >= 255) {
      out.push(255);
      r -= 255;
    }
    out.push(r);
  };
  const literals = (from: number, n: number, matchCode: number): void => {
    out.push((Math.min(n, 15) << 4) | Math.min(matchCode, 15));
    if (n >= 15) length(n - 15);
    for (let i = 0; i < n; i++) out.push(page[from + i]!);
  };
  let ip = 0;
  let anchor = 0;
  while (ip < MATCH_SEARCH_LIMIT) {
    const seq = read32(page, ip);
    const h = hash4(seq);
    const cand1 = table[h]!;
    table[h] = ip + 1;
    if (cand1 !== 0 && read32(page, cand1 - 1) === seq) {
      const cand = cand1 - 1;
      let mlen = 4;
      while (ip + mlen < MATCH_END_LIMIT && page[cand + mlen] === page[ip + mlen]) mlen++;
      literals(anchor, ip - anchor, mlen - 4);
      const offset = ip - cand;
      out.push(offset & 0xff, offset >> 8);
      if (mlen - 4 >= 15) length(mlen - 4 - 15);
      ip += mlen;
      anchor = ip;
    } else {
      ip++;
    }
  }
  literals(anchor, PAGE - anchor, 0);
  return Uint8Array.from(out);
}

export interface DecodeResult {
  /** Decoded bytes (PAGE long; zeros past `length` or past the point of failure). */
  readonly out: Uint8Array;
  /** Decoded length, or undefined when the block is malformed. */
  readonly length: number | undefined;
}

/**
 * Decodes one LZ4 block of `len` bytes at `at` into at most PAGE bytes, with
 * every read and write bounds-checked (the order of checks is the GPU kernel's,
 * so malformed blocks fail at the same point).
 */
export function decompressBlock(src: Uint8Array, at: number, len: number): DecodeResult {
  const out = new Uint8Array(PAGE);
  let ip = 0;
  let op = 0;
  const rd = (): number => src[at + ip++]!;
  const ext = (start: number): number | undefined => {
    let n = start;
    for (;;) {
      if (ip >= len) return undefined;
      const b = rd();
      n += b;
      if (b !== 255) return n;
    }
  };
  for (;;) {
    if (ip >= len) return { out, length: undefined };
    const token = rd();
    let lit: number | undefined = token >> 4;
    if (lit === 15) lit = ext(lit);
    if (lit === undefined || lit > len - ip || lit > PAGE - op) return { out, length: undefined };
    for (let i = 0; i < lit; i++) out[op + i] = src[at + ip + i]!;
    ip += lit;
    op += lit;
    if (ip === len) return { out, length: op };
    if (len - ip < 2) return { out, length: undefined };
    const off = src[at + ip]! | (src[at + ip + 1]! << 8);
    ip += 2;
    if (off === 0 || off > op) return { out, length: undefined };
    let ml: number | undefined = token & 15;
    if (ml === 15) ml = ext(ml);
    if (ml === undefined) return { out, length: undefined };
    ml += 4;
    if (ml > PAGE - op) return { out, length: undefined };
    const start = op - off;
    for (let i = 0; i < ml; i++) out[op + i] = out[start + (i % off)]!;
    op += ml;
  }
}

const WORDS = ['the', 'kernel', 'warp', 'shared', 'memory', 'barrier', 'thread', 'block', 'page', 'compress',
  'lz4', 'gpu', 'ptx', 'register', 'global', 'load', 'store', 'sync', 'grid', 'tile', 'of', 'and', 'a', 'in'];

/**
 * `count` pages of test data, cycling through five kinds so every size sees
 * each: English-like text, random bytes (incompressible), a zero page, runs
 * and little-endian counters, and copies of earlier stretches with mutations.
 */
export function generatePages(count: number, rng: Rng): Uint8Array {
  const data = new Uint8Array(count * PAGE);
  for (let p = 0; p < count; p++) {
    const page = data.subarray(p * PAGE, (p + 1) * PAGE);
    switch (p % 5) {
      case 0: {
        let i = 0;
        while (i < PAGE) {
          const w = WORDS[rng.below(WORDS.length)]!;
          for (let c = 0; c < w.length && i < PAGE; c++) page[i++] = w.charCodeAt(c);
          if (i < PAGE) page[i++] = rng.below(8) === 0 ? 0x0a : 0x20;
        }
        break;
      }
      case 1:
        for (let i = 0; i < PAGE; i++) page[i] = rng.nextU32() & 0xff;
        break;
      case 2:
        break;
      case 3: {
        let i = 0;
        let counter = rng.nextU32();
        while (i < PAGE) {
          if (rng.below(2) === 0) {
            const run = 1 + rng.below(300);
            const v = rng.nextU32() & 0xff;
            for (let c = 0; c < run && i < PAGE; c++) page[i++] = v;
          } else {
            for (let c = 0; c < 4 && i < PAGE; c++) page[i++] = (counter >>> (8 * c)) & 0xff;
            counter = (counter + 1) >>> 0;
          }
        }
        break;
      }
      default: {
        let i = 0;
        while (i < PAGE) {
          if (i >= 64 && rng.below(3) !== 0) {
            const len = 4 + rng.below(120);
            const from = rng.below(i - 1);
            for (let c = 0; c < len && i < PAGE; c++) page[i++] = page[from + c]!;
            if (i < PAGE) page[i++] = rng.nextU32() & 0xff;
          } else {
            page[i++] = rng.nextU32() & 0xff;
          }
        }
      }
    }
  }
  return data;
}

/** Compresses every page into OUT_STRIDE-byte slots: the blocks and their lengths. */
export function compressPages(pages: Uint8Array): { blocks: Uint8Array; lengths: Uint32Array } {
  const count = pages.length / PAGE;
  const blocks = new Uint8Array(count * OUT_STRIDE);
  const lengths = new Uint32Array(count);
  for (let p = 0; p < count; p++) {
    const c = compressPage(pages, p * PAGE);
    if (c.length > OUT_STRIDE) throw new Error(`page ${p}: ${c.length} compressed bytes exceed the ${OUT_STRIDE}-byte slot`);
    blocks.set(c, p * OUT_STRIDE);
    lengths[p] = c.length;
  }
  return { blocks, lengths };
}
