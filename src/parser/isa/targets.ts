// PTX targets as data: the minimum `.version` each `.target` needs, and the
// rules by which a module's target satisfies a feature's target requirement
// (plain `sm_XY`, arch-specific `sm_XYa`, family-specific `sm_XYf`).
import type { Availability, PtxVersion } from './types.js';

/** One `.target` an ISA version knows. */
export interface TargetSpec {
  /** As written after `.target`: "sm_90a". */
  readonly name: string;
  /** The lowest `.version` that accepts the target. */
  readonly minPtx: PtxVersion;
  /** Whether ptxas 13 (CUDA 13) still compiles for it. */
  readonly supported: boolean;
}

const t = (name: string, minPtx: PtxVersion, supported = true): TargetSpec => ({ name, minPtx, supported });

/**
 * Minimum `.version` per target. Targets from sm_75 on were measured with
 * ptxas 13.0 (the lowest `.version` it accepts for an empty kernel); older
 * ones, which CUDA 13 no longer compiles, are from the PTX ISA manual's
 * "PTX ISA version" table, as are sm_101/101a (renamed sm_110 in CUDA 13).
 */
export const TARGETS: readonly TargetSpec[] = [
  t('sm_50', '4.0', false), t('sm_52', '4.1', false), t('sm_53', '4.2', false),
  t('sm_60', '5.0', false), t('sm_61', '5.0', false), t('sm_62', '5.0', false),
  t('sm_70', '6.0', false), t('sm_72', '6.1', false),
  t('sm_75', '6.3'),
  t('sm_80', '7.0'), t('sm_86', '7.1'), t('sm_87', '7.4'), t('sm_88', '7.3'), t('sm_89', '7.8'),
  t('sm_90', '7.8'), t('sm_90a', '8.0'),
  t('sm_100', '8.6'), t('sm_100a', '8.6'), t('sm_100f', '8.8'),
  t('sm_101', '8.6', false), t('sm_101a', '8.6', false),
  t('sm_103', '8.8'), t('sm_103a', '8.8'), t('sm_103f', '8.8'),
  t('sm_110', '9.0'), t('sm_110a', '9.0'), t('sm_110f', '9.0'),
  t('sm_120', '8.7'), t('sm_120a', '8.7'), t('sm_120f', '8.8'),
  t('sm_121', '8.8'), t('sm_121a', '8.8'), t('sm_121f', '8.8'),
];

export const TARGET_BY_NAME: ReadonlyMap<string, TargetSpec> = new Map(TARGETS.map((x) => [x.name, x]));

/** The `.target` options that are not GPU architectures. */
export const TARGET_OPTIONS: readonly string[] = ['texmode_unified', 'texmode_independent', 'debug', 'map_f64_to_f32'];

/** A parsed GPU target: `sm_100a` → number 100, suffix "a". */
export interface ParsedTarget {
  readonly name: string;
  readonly sm: number;
  /** "" for a plain target, "a" arch-specific, "f" family-specific. */
  readonly suffix: '' | 'a' | 'f';
}

/** Parses `sm_XY`, `sm_XYa`, `sm_XYf`; undefined for anything else. */
export function parseTarget(name: string): ParsedTarget | undefined {
  const m = /^sm_(\d+)([af]?)$/.exec(name);
  if (m === null) return undefined;
  return { name, sm: Number(m[1]), suffix: m[2] as '' | 'a' | 'f' };
}

/** The GPU architecture among a `.target` directive's entries (the rest are options). */
export function gpuTarget(targets: readonly string[]): ParsedTarget | undefined {
  for (const x of targets) {
    const p = parseTarget(x);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** The family of an architecture: its SM number without the last digit (sm_100 and sm_103 are family 10). */
export function familyOf(sm: number): number {
  return Math.floor(sm / 10);
}

/**
 * Whether code for `target` may use a feature restricted to `allowed`
 * (an Availability's `targets`):
 * - an `a` entry (sm_90a) admits exactly that target;
 * - an `f` entry (sm_100f) admits the `a` and `f` targets of the same family
 *   with an equal or later SM number (sm_100a, sm_100f, sm_103a, sm_103f);
 * - a plain entry (sm_90) admits that SM number or later, any suffix.
 */
export function targetAllowed(target: ParsedTarget, allowed: readonly string[]): boolean {
  for (const a of allowed) {
    const p = parseTarget(a);
    if (p === undefined) continue;
    if (p.suffix === 'a' && target.name === p.name) return true;
    if (p.suffix === 'f' && target.suffix !== '' && familyOf(target.sm) === familyOf(p.sm) && target.sm >= p.sm) return true;
    if (p.suffix === '' && target.sm >= p.sm) return true;
  }
  return false;
}

/** Compares PTX versions: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am !== bm ? am - bm : an - bn;
}

/** Why `target` at PTX `version` cannot use a feature with availability
 *  `since` (the version and the target problem, when both); undefined when it can. */
export function availabilityProblem(since: Availability, version: string, target: ParsedTarget | undefined): string | undefined {
  const problems: string[] = [];
  if (compareVersions(version, since.ptx) < 0) problems.push(`needs .version ${since.ptx} (the module has ${version})`);
  if (target !== undefined) {
    if (since.targets !== undefined && since.targets.length > 0) {
      if (!targetAllowed(target, since.targets)) problems.push(`needs one of the targets ${since.targets.join(', ')} (the module targets ${target.name})`);
    } else if (since.sm !== undefined && target.sm < since.sm) {
      problems.push(`needs sm_${since.sm} or later (the module targets ${target.name})`);
    }
  }
  return problems.length === 0 ? undefined : problems.join(' and ');
}
