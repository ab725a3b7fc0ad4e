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

/** A syntax tree as plain data: every range as its six fields (the fast parser's ranges derive line and
 *  column from offsets; the reference parser's are plain objects), for comparing the two trees. */
export function plainRanges(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainRanges);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'range' || k === 'nameRange') && v !== null && typeof v === 'object') {
        const r = v as Record<string, number>;
        out[k] = { line: r['line'], column: r['column'], offset: r['offset'], endLine: r['endLine'], endColumn: r['endColumn'], endOffset: r['endOffset'] };
      } else {
        out[k] = plainRanges(v);
      }
    }
    return out;
  }
  return value;
}
