// Comparing syntax trees: without source ranges, for round-trip tests.
export function stripRanges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripRanges);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === 'range' || k === 'nameRange') continue;
      out[k] = stripRanges(v);
    }
    return out;
  }
  return value;
}
