// The catalog's debug-buffer protocol, decoded: word 0 counts records; record
// k is words 1+2k (the 32-bit marker) and 2+2k (the writing thread's linear
// id). A markers map names each marker's PTX line.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../input.js';

export const markersSchema = z.record(z.string().regex(/^\d+$/), z.object({
  line: z.number().int().positive(),
  label: z.string().optional(),
}));
export type Markers = z.infer<typeof markersSchema>;

/** The catalog's marker-map format, as `ptx-debug instrument` writes it. */
export const markerMapSchema = z.object({
  version: z.literal(1),
  ptx: z.string(),
  markers: z.array(z.object({
    marker: z.number().int().positive(),
    kernel: z.string(),
    block: z.string(),
    line: z.number().int().positive(),
  }).passthrough()),
});

/** Either format as marker → line and label (`kernel block` for the catalog's). */
export function toMarkers(raw: unknown): z.SafeParseReturnType<unknown, Markers> {
  const map = markerMapSchema.safeParse(raw);
  if (map.success) {
    const out: Markers = {};
    for (const m of map.data.markers) out[String(m.marker)] = { line: m.line, label: `${m.kernel} ${m.block}` };
    return { success: true, data: out };
  }
  return markersSchema.safeParse(raw);
}

export interface DebugRecord {
  readonly marker: number;
  readonly thread: number;
}

export interface DecodedBuffer {
  /** Records the kernel tried to write (word 0), which may exceed the capacity. */
  readonly attempted: number;
  /** Written records (marker ids start at 1; a zero marker is a claimed slot never written). */
  readonly records: readonly DebugRecord[];
  /** Slots claimed by the counter but never written: the kernel stopped (or was
   *  stopped) between the atomic add and the store, or claimed a slot it never filled. */
  readonly unwritten: number;
  /** True when more records were attempted than the buffer holds. */
  readonly truncated: boolean;
}

export function decodeDebugBuffer(bytes: Uint8Array): DecodedBuffer {
  if (bytes.byteLength < 4) throw new InputError('the debug buffer is shorter than its counter word');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const attempted = view.getUint32(0, true);
  const capacity = Math.floor((bytes.byteLength - 4) / 8);
  const n = Math.min(attempted, capacity);
  const records: DebugRecord[] = [];
  let unwritten = 0;
  for (let k = 0; k < n; k++) {
    const marker = view.getUint32(4 + 8 * k, true);
    if (marker === 0) unwritten++;
    else records.push({ marker, thread: view.getUint32(8 + 8 * k, true) });
  }
  return { attempted, records, unwritten, truncated: attempted > capacity };
}

export interface CrashAnalysis {
  readonly decoded: DecodedBuffer;
  /** Per marker: how many threads reached it, and its line. */
  readonly reached: readonly { readonly marker: number; readonly count: number; readonly line?: number; readonly label?: string }[];
  /** The marker with the highest line among those reached: the furthest point the kernel got to. */
  readonly last?: { readonly marker: number; readonly line?: number; readonly label?: string; readonly threads: number };
}

export function analyzeCrash(bytes: Uint8Array, markers: Markers = {}): CrashAnalysis {
  const decoded = decodeDebugBuffer(bytes);
  const counts = new Map<number, number>();
  for (const r of decoded.records) counts.set(r.marker, (counts.get(r.marker) ?? 0) + 1);
  const reached = [...counts].sort((a, b) => a[0] - b[0]).map(([marker, count]) => {
    const m = markers[String(marker)];
    return { marker, count, ...(m !== undefined ? { line: m.line, ...(m.label !== undefined ? { label: m.label } : {}) } : {}) };
  });
  // Furthest point: the reached marker with the largest line (program order),
  // falling back to the last record written when lines are unknown.
  const withLines = reached.filter((r) => r.line !== undefined);
  const lastRecord = decoded.records[decoded.records.length - 1];
  const pick = withLines.length > 0 ? withLines.reduce((a, b) => (b.line! > a.line! ? b : a)) : reached.find((r) => r.marker === lastRecord?.marker);
  return { decoded, reached, ...(pick !== undefined ? { last: { marker: pick.marker, ...(pick.line !== undefined ? { line: pick.line } : {}), ...(pick.label !== undefined ? { label: pick.label } : {}), threads: pick.count } } : {}) };
}

export function loadMarkers(path: string): Markers {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new InputError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'}`);
  }
  const r = toMarkers(raw);
  if (!r.success) throw new InputError(`${path}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}
