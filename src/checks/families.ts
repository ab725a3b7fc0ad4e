// The check families, as the issues and the labelled corpora group them: a
// labelled fixture of one check is compared against every check of its family.
const ids = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `F${String(from + i).padStart(3, '0')}`);

export const SYNC_IDS: readonly string[] = ids(36, 50);
export const ADDRESS_IDS: readonly string[] = [...ids(21, 35), 'F081', 'F082', 'F083', 'F090'];
export const MEMORY_IDS: readonly string[] = [...ids(51, 60), ...ids(91, 95)];
export const CONTROL_IDS: readonly string[] = [...ids(61, 80), ...ids(84, 89), ...ids(96, 100)];

/** The checks of the family `id` belongs to (itself alone for F001–F020). */
export function familyOf(id: string): readonly string[] {
  for (const f of [SYNC_IDS, ADDRESS_IDS, MEMORY_IDS, CONTROL_IDS]) if (f.includes(id)) return f;
  return [id];
}
