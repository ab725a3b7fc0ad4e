// Input buffers for a launch spec, made deterministically from its seed: what
// the GPU runner uploads and what the CPU reference reads.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BufferData } from './kernel.js';
import { bufferElementBytes, type BufferArg, type BufferType, type LaunchSpec } from './launch-spec.js';
import { generateQuantBlocks } from './library/kquant.js';
import { compressPages, generatePages, OUT_STRIDE, PAGE } from './library/lz4.js';
import { bufferSeed, floatToHalf, Rng } from './numeric.js';

/** A typed array of `count` elements of `type`. */
export function allocate(type: BufferType, count: number): BufferData {
  switch (type) {
    case 'f32': return new Float32Array(count);
    case 'f16': case 'u16': return new Uint16Array(count);
    case 'u8': return new Uint8Array(count);
    case 'u32': return new Uint32Array(count);
    case 's32': return new Int32Array(count);
    case 'u64': return new BigUint64Array(count);
  }
}

/** A typed array over raw little-endian bytes (as read from a file or the device). */
export function fromBytes(type: BufferType, bytes: Uint8Array): BufferData {
  const n = Math.floor(bytes.length / bufferElementBytes(type));
  const copy = bytes.slice(0, n * bufferElementBytes(type));
  const buf = copy.buffer;
  switch (type) {
    case 'f32': return new Float32Array(buf);
    case 'f16': case 'u16': return new Uint16Array(buf);
    case 'u8': return new Uint8Array(buf);
    case 'u32': return new Uint32Array(buf);
    case 's32': return new Int32Array(buf);
    case 'u64': return new BigUint64Array(buf);
  }
}

/** The raw bytes of a typed array. */
export function toBytes(data: BufferData): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function randomFill(arg: BufferArg, rng: Rng): BufferData {
  const data = allocate(arg.type, arg.count);
  for (let i = 0; i < arg.count; i++) {
    if (data instanceof Float32Array) data[i] = rng.uniform(-1, 1);
    else if (data instanceof Uint16Array) data[i] = arg.type === 'f16' ? floatToHalf(rng.uniform(-1, 1)) : rng.nextU32() & 0xffff;
    else if (data instanceof BigUint64Array) data[i] = (BigInt(rng.nextU32()) << 32n) | BigInt(rng.nextU32());
    else data[i] = data instanceof Int32Array ? rng.nextU32() | 0 : rng.nextU32();
  }
  return data;
}

/**
 * Builds every input and inout buffer of `spec` (outputs too, from their
 * `init`), keyed by name. `specDir` resolves `{ file }` inits.
 */
export function generateInputs(spec: LaunchSpec, specDir = '.'): Record<string, BufferData> {
  const out: Record<string, BufferData> = {};
  let lz4: { pages: Uint8Array; blocks: Uint8Array; lengths: Uint32Array } | undefined;
  const lz4Data = (pages: number): { pages: Uint8Array; blocks: Uint8Array; lengths: Uint32Array } => {
    if (lz4 === undefined) {
      const data = generatePages(pages, new Rng(bufferSeed(spec.seed, 0x4c5a34)));
      lz4 = { pages: data, ...compressPages(data) };
    }
    return lz4;
  };
  spec.args.forEach((arg, index) => {
    if (arg.kind !== 'buffer') return;
    const rng = new Rng(bufferSeed(spec.seed, index));
    const init = arg.init;
    if (init === 'zeros') out[arg.name] = allocate(arg.type, arg.count);
    else if (init === 'random') out[arg.name] = randomFill(arg, rng);
    else if ('file' in init) out[arg.name] = fromBytes(arg.type, new Uint8Array(readFileSync(resolve(specDir, init.file))));
    else {
      switch (init.generator) {
        case 'q4_k': case 'q5_k': case 'q6_k':
          if (arg.type !== 'u8') throw new Error(`${arg.name}: ${init.generator} blocks are u8 buffers`);
          out[arg.name] = generateQuantBlocks(init.generator, arg.count, rng);
          break;
        case 'lz4-pages':
          out[arg.name] = lz4Data(arg.count / PAGE).pages;
          break;
        case 'lz4-blocks':
          out[arg.name] = lz4Data(arg.count / OUT_STRIDE).blocks;
          break;
        case 'lz4-block-lengths':
          out[arg.name] = lz4Data(arg.count).lengths;
          break;
      }
    }
    const got = out[arg.name]!;
    if (got.length !== arg.count) throw new Error(`${arg.name}: generated ${got.length} elements, the spec says ${arg.count}`);
  });
  return out;
}
