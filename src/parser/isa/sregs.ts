// PTX special registers as data: name, width, whether it has .x/.y/.z
// components, and how its value varies between threads (the seeds of the
// uniformity analysis, as CATALOG.md defines them).

/** How a special register's value varies. */
export type SregVariance =
  | 'thread' // differs per thread (%tid, %laneid, %clock ...)
  | 'warp' // equal within a warp, differs across warps of a CTA (%warpid)
  | 'cta' // equal across the CTA (%ctaid, %ntid ...)
  | 'grid'; // equal across the grid (%nctaid, %gridid ...)

export interface SregSpec {
  readonly name: string;
  readonly type: '.u32' | '.u64' | '.b32' | '.b64' | '.pred';
  /** Takes `.x`, `.y`, `.z` components. */
  readonly vector: boolean;
  readonly variance: SregVariance;
  /** Names like %envreg<32>: the count of numbered registers. */
  readonly count?: number;
  /** Other widths `mov` may read it at (legacy forms ptxas 13 still accepts:
   *  `mov.u16 %h, %tid.x`, `mov.u32 %r, %gridid`). */
  readonly alsoBits?: readonly number[];
}

const s = (name: string, type: SregSpec['type'], vector: boolean, variance: SregVariance, count?: number): SregSpec =>
  count === undefined ? { name, type, vector, variance } : { name, type, vector, variance, count };
const legacy = (spec: SregSpec, alsoBits: readonly number[]): SregSpec => ({ ...spec, alsoBits });

export const SPECIAL_REGISTERS: readonly SregSpec[] = [
  legacy(s('%tid', '.u32', true, 'thread'), [16]),
  legacy(s('%ntid', '.u32', true, 'grid'), [16]),
  s('%laneid', '.u32', false, 'thread'),
  s('%warpid', '.u32', false, 'warp'),
  s('%nwarpid', '.u32', false, 'grid'),
  legacy(s('%ctaid', '.u32', true, 'cta'), [16]),
  legacy(s('%nctaid', '.u32', true, 'grid'), [16]),
  s('%smid', '.u32', false, 'warp'),
  s('%nsmid', '.u32', false, 'grid'),
  legacy(s('%gridid', '.u64', false, 'grid'), [16, 32]),
  s('%is_explicit_cluster', '.pred', false, 'grid'), // ptxas 13: only mov.pred reads it
  s('%clusterid', '.u32', true, 'cta'),
  s('%nclusterid', '.u32', true, 'grid'),
  s('%cluster_ctaid', '.u32', true, 'cta'),
  s('%cluster_nctaid', '.u32', true, 'grid'),
  s('%cluster_ctarank', '.u32', false, 'cta'),
  s('%cluster_nctarank', '.u32', false, 'grid'),
  s('%lanemask_eq', '.u32', false, 'thread'),
  s('%lanemask_le', '.u32', false, 'thread'),
  s('%lanemask_lt', '.u32', false, 'thread'),
  s('%lanemask_ge', '.u32', false, 'thread'),
  s('%lanemask_gt', '.u32', false, 'thread'),
  s('%clock', '.u32', false, 'thread'),
  s('%clock_hi', '.u32', false, 'thread'),
  s('%clock64', '.u64', false, 'thread'),
  s('%pm', '.u32', false, 'thread', 8),
  s('%pm_64', '.u64', false, 'thread', 8),
  s('%envreg', '.b32', false, 'grid', 32),
  s('%globaltimer', '.u64', false, 'thread'),
  s('%globaltimer_lo', '.u32', false, 'thread'),
  s('%globaltimer_hi', '.u32', false, 'thread'),
  s('%reserved_smem_offset_begin', '.b32', false, 'grid'),
  s('%reserved_smem_offset_end', '.b32', false, 'grid'),
  s('%reserved_smem_offset_cap', '.b32', false, 'grid'),
  s('%reserved_smem_offset_0', '.b32', false, 'grid'),
  s('%reserved_smem_offset_1', '.b32', false, 'grid'),
  s('%total_smem_size', '.u32', false, 'grid'),
  s('%aggr_smem_size', '.u32', false, 'grid'),
  s('%dynamic_smem_size', '.u32', false, 'grid'),
  s('%current_graph_exec', '.u64', false, 'grid'),
  // A predefined constant (32), usable wherever a register or immediate is.
  s('WARP_SZ', '.u32', false, 'grid'),
];

const BY_NAME = new Map(SPECIAL_REGISTERS.map((r) => [r.name, r]));

/** The special register a name denotes (`%tid`, `%envreg3`, `%pm_64`), if any. */
export function lookupSreg(name: string): SregSpec | undefined {
  const direct = BY_NAME.get(name);
  if (direct !== undefined) return direct;
  // Numbered families: %envreg3, %pm5, and %pm5_64 (written with the index before the suffix).
  const m = /^(%[a-z_]+?)(\d+)(_64)?$/.exec(name);
  if (m === null) return undefined;
  const spec = BY_NAME.get(m[1]! + (m[3] ?? ''));
  return spec?.count !== undefined && Number(m[2]) < spec.count ? spec : undefined;
}
