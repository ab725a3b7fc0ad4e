// compute-sanitizer reports recorded on an H200 (fixtures/gpu/recorded/,
// produced by scripts/device/validate.sh), parsed into events that name the
// fixture's PTX lines.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSanitizerReport } from '../../src/gpu/sanitizer.js';

const recorded = (name: string): string => readFileSync(`fixtures/gpu/recorded/${name}`, 'utf8');

describe('sanitizer reports', () => {
  it('racecheck: the race between the st.shared at line 22 and the ld.shared at line 23 of race-raw.ptx', () => {
    const r = parseSanitizerReport('racecheck', recorded('race-raw-racecheck.txt'));
    expect(r.errors).toBe(1);
    expect(r.events).toHaveLength(1);
    expect(r.events[0]!.message).toMatch(/^Error: Race reported between Read access/);
    expect(r.events[0]!.locations).toEqual([{ file: 'race-raw.ptx', line: 23 }, { file: 'race-raw.ptx', line: 22 }]);
  });

  it('synccheck: divergent threads at the bar.sync on line 25 of barrier-divergence.ptx', () => {
    const r = parseSanitizerReport('synccheck', recorded('barrier-divergence-synccheck.txt'));
    expect(r.errors).toBe(16);
    expect(new Set(r.events.map((e) => e.message))).toEqual(new Set(['Barrier error detected. Divergent thread(s) in warp.']));
    expect(new Set(r.events.flatMap((e) => e.locations.map((l) => l.line)))).toEqual(new Set([25]));
  });

  it('memcheck: the null store at line 39 of crash-markers.ptx', () => {
    const r = parseSanitizerReport('memcheck', recorded('crash-markers-memcheck.txt'));
    expect(r.errors).toBeGreaterThan(0);
    expect(r.events[0]!.message).toBe('Invalid __global__ write of size 4 bytes');
    expect(r.events[0]!.locations[0]).toEqual({ file: 'crash-markers.ptx', line: 39 });
  });

  it('a clean run has no events', () => {
    const r = parseSanitizerReport('racecheck', '========= COMPUTE-SANITIZER\n{"status":"ok"}\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n');
    expect(r).toMatchObject({ errors: 0, events: [] });
  });
});
