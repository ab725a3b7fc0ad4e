// The debug-buffer protocol, decoded from a buffer recorded on an H200: the
// crash fixture wrote markers 1 and 2 from 32 threads, then faulted at line 39.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeCrash, decodeDebugBuffer } from '../../src/gpu/debug-buffer.js';

describe('debug buffer', () => {
  it('names marker 2 (line 35) as the last reached before the fault', () => {
    const bytes = readFileSync('fixtures/gpu/recorded/crash-markers-debug_buf.bin');
    const markers = JSON.parse(readFileSync('fixtures/gpu/crash-markers.markers.json', 'utf8')) as Record<string, { line: number }>;
    const a = analyzeCrash(bytes, markers);
    expect(a.reached.map((r) => [r.marker, r.count, r.line])).toEqual([[1, 32, 24], [2, 32, 35]]);
    expect(a.last).toMatchObject({ marker: 2, line: 35, threads: 32 });
    expect(a.decoded.unwritten).toBe(32); // the claims of marker 3, after the fault
  });

  it('decodes records and notices a full buffer', () => {
    const words = new Uint32Array([5, 7, 1, 8, 2]);
    const d = decodeDebugBuffer(new Uint8Array(words.buffer));
    expect(d).toEqual({ attempted: 5, records: [{ marker: 7, thread: 1 }, { marker: 8, thread: 2 }], unwritten: 0, truncated: true });
  });
});
