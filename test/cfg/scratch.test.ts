// The analyses' shared helpers: scratch storage kept between functions, and the short-list sort.
import { describe, expect, it } from 'vitest';
import { int32Scratch, uint8Scratch } from '../../src/cfg/scratch.js';
import { sortAscending } from '../../src/cfg/dataflow/sort.js';

describe('scratch storage', () => {
  it('gives at least the length asked, the same storage again while it fits, and grows when it does not', () => {
    const s = int32Scratch();
    const a = s.get(10);
    expect(a.length).toBeGreaterThanOrEqual(10);
    expect(s.get(1000)).toBe(a);
    const b = s.get(5000);
    expect(b.length).toBeGreaterThanOrEqual(5000);
    expect(s.get(100)).toBe(b);
  });

  it('does not keep storage past its cap: a larger request gets fresh storage each time', () => {
    const s = uint8Scratch();
    const big = s.get(1 << 20);
    expect(big.length).toBe(1 << 20);
    expect(s.get(1 << 20)).not.toBe(big);
    expect(s.get(10).length).toBeLessThan(1 << 20);
  });
});

describe('sortAscending', () => {
  it('sorts short lists by insertion and long ones numerically (not as text), in place', () => {
    const short = [3, -1, 2, 2, 10];
    expect(sortAscending(short)).toBe(short);
    expect(short).toEqual([-1, 2, 2, 3, 10]);
    const long = Array.from({ length: 100 }, (_x, i) => (i * 37) % 101 - 50);
    const want = [...long].sort((x, y) => x - y);
    expect(sortAscending(long)).toEqual(want);
    expect(sortAscending([])).toEqual([]);
  });
});
