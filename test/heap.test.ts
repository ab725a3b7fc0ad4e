// The command's heap policy while checking (src/heap.ts).
import { describe, expect, it } from 'vitest';
import { getHeapStatistics } from 'node:v8';
import { enterCompactHeap, fullCollection, heapFlagsNote, leaveCompactHeap, withCompactHeap } from '../src/heap.js';

describe('withCompactHeap', () => {
  it('returns what the work returns, and passes its errors on', () => {
    expect(withCompactHeap(() => 42)).toBe(42);
    expect(() => withCompactHeap(() => { throw new Error('boom'); })).toThrow('boom');
  });

  it('collects garbage on request: a dropped allocation is gone after a full collection', () => {
    let junk: number[][] | undefined = Array.from({ length: 2000 }, () => new Array<number>(1000).fill(1));
    const before = getHeapStatistics().used_heap_size;
    expect(junk.length).toBe(2000);
    junk = undefined;
    fullCollection();
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - 8e6);
  });
});

describe('heapFlagsNote', () => {
  // Part threads name their code cache by it (src/part-worker-entry.ts): V8 refuses a cache made under other flags.
  it('tells the growth factor set now and whether the collector was exposed, nested runs sharing one setting', () => {
    fullCollection();
    expect(heapFlagsNote()).toBe('growing=0 expose-gc');
    enterCompactHeap();
    enterCompactHeap();
    expect(heapFlagsNote()).toBe('growing=15 expose-gc');
    leaveCompactHeap();
    expect(heapFlagsNote()).toBe('growing=15 expose-gc');
    leaveCompactHeap();
    expect(heapFlagsNote()).toBe('growing=0 expose-gc');
    expect(withCompactHeap(() => heapFlagsNote())).toBe('growing=15 expose-gc');
  });
});
