// Wraps OpcodeSpec examples into PTX modules and runs ptxas on them, one
// module per (.version, .target) pair, one kernel per example.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpcodeSpec } from '../../../src/parser/isa/types.js';

/** Minimum `.version` ptxas 13 accepts for each target. */
export const TARGET_MIN_PTX: Readonly<Record<string, string>> = {
  sm_75: '6.3',
  sm_80: '7.0',
  sm_86: '7.1',
  sm_87: '7.4',
  sm_88: '9.0',
  sm_89: '7.8',
  sm_90: '7.8',
  sm_90a: '8.0',
  sm_100: '8.6',
  sm_100a: '8.6',
  sm_120: '8.7',
  sm_120a: '8.7',
  sm_100f: '8.8',
  sm_103: '8.8',
  sm_103a: '8.8',
  sm_103f: '8.8',
  sm_120f: '8.8',
  sm_121: '8.8',
  sm_121a: '8.8',
  sm_121f: '8.8',
  sm_110: '9.0',
  sm_110a: '9.0',
  sm_110f: '9.0',
};

function parseVersion(s: string): [number, number] {
  const m = /^(\d+)\.(\d+)$/.exec(s);
  if (m === null) throw new Error(`bad PTX version ${s}`);
  return [Number(m[1]), Number(m[2])];
}

export function compareVersions(a: string, b: string): number {
  const [am, an] = parseVersion(a);
  const [bm, bn] = parseVersion(b);
  return am !== bm ? am - bm : an - bn;
}

/** The (.version, .target) an example is assembled with. */
export function exampleTarget(spec: OpcodeSpec): { version: string; target: string } {
  const target = spec.since.targets?.[0] ?? `sm_${Math.max(75, spec.since.sm ?? 0)}`;
  const min = TARGET_MIN_PTX[target];
  if (min === undefined) throw new Error(`${spec.opcode}: no minimum PTX version known for ${target}`);
  const version = compareVersions(spec.since.ptx, min) > 0 ? spec.since.ptx : min;
  return { version, target };
}

export function findPtxas(): string | undefined {
  try {
    execFileSync('ptxas', ['--version'], { stdio: 'pipe' });
    return 'ptxas';
  } catch {
    return undefined;
  }
}

/** One instruction to assemble in its own kernel. */
export interface AssemblyItem {
  readonly id: string;
  readonly version: string;
  readonly target: string;
  readonly example: string;
  /** Give the item a module of its own (for checks that expect ptxas to fail). */
  readonly isolate?: boolean;
}

const REGS = [
  '.reg .b32 %r<10>;',
  '.reg .b64 %rd<10>;',
  '.reg .f32 %f<10>;',
  '.reg .f64 %fd<10>;',
  '.reg .b16 %h<10>;',
  '.reg .b16 %rs<10>;',
  '.reg .pred %p<10>;',
];

/**
 * Builds one module holding one kernel per item; returns the source and
 * each kernel's line range. Every kernel declares %r/%rd/%f/%fd/%h/%rs/%p
 * registers (ten each), a shared array `smem` and a label `L1`; the module
 * declares a global array `gvar` and a function `fn`.
 */
export function buildModule(
  version: string,
  target: string,
  items: readonly { id: string; example: string }[],
): { source: string; ranges: { id: string; first: number; last: number }[] } {
  const lines: string[] = [
    `.version ${version}`,
    `.target ${target}`,
    '.address_size 64',
    '.global .align 16 .b8 gvar[4096];',
    '.func fn()',
    '{',
    '  ret;',
    '}',
  ];
  const ranges: { id: string; first: number; last: number }[] = [];
  items.forEach((item, i) => {
    const first = lines.length + 1;
    lines.push(`.visible .entry k${i}()`, '{', ...REGS.map((r) => `  ${r}`));
    lines.push('  .shared .align 16 .b8 smem[4096];');
    // Extras only some examples need: 128-bit registers (PTX 8.3+) and a
    // branch-target list for brx.idx.
    if (/%q\d/.test(item.example)) lines.push('  .reg .b128 %q<4>;');
    if (/\btgts\b/.test(item.example)) lines.push('  tgts: .branchtargets L1;');
    lines.push(`  ${item.example}`);
    lines.push('L1:', '  ret;', '}');
    ranges.push({ id: item.id, first, last: lines.length });
  });
  return { source: `${lines.join('\n')}\n`, ranges };
}

function run(ptxas: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(ptxas, args, { encoding: 'utf8' }, (err, stdout, stderr) => {
      resolve(err === null ? '' : `${stdout}${stderr}` || String(err));
    });
  });
}

/**
 * Assembles every item, one module per (.version, .target) (isolated items
 * alone), at most `jobs` ptxas processes at a time. Returns id -> ptxas
 * error lines for that item ('' when it was accepted).
 */
export async function assembleItems(
  ptxas: string,
  items: readonly AssemblyItem[],
  jobs = 2,
): Promise<Map<string, string>> {
  const groups = new Map<string, AssemblyItem[]>();
  items.forEach((item, i) => {
    const key = `${item.version} ${item.target}${item.isolate === true ? ` #${i}` : ''}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [item]);
    else g.push(item);
  });
  const dir = mkdtempSync(join(tmpdir(), 'ptx-isa-'));
  const work = [...groups.values()];
  const errors = new Map<string, string>();
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < work.length) {
        const n = next++;
        const group = work[n]!;
        const { version, target } = group[0]!;
        const { source, ranges } = buildModule(version, target, group);
        const file = join(dir, `m${n}.ptx`);
        writeFileSync(file, source);
        const out = await run(ptxas, ['-O0', `-arch=${target}`, '-o', join(dir, `m${n}.cubin`), file]);
        for (const r of ranges) errors.set(r.id, '');
        if (out === '') continue;
        const unplaced: string[] = [];
        let placed = false;
        for (const line of out.split('\n')) {
          if (!/error|fatal/i.test(line)) continue;
          const m = /, line (\d+);/.exec(line);
          const at = m === null ? undefined : Number(m[1]);
          const r = at === undefined ? undefined : ranges.find((x) => at >= x.first && at <= x.last);
          if (r === undefined) {
            unplaced.push(line);
          } else {
            placed = true;
            errors.set(r.id, `${errors.get(r.id) ?? ''}${line}\n`);
          }
        }
        // Errors that name no item line (bad target, ...) fail every item,
        // unless some item failed already (ptxas then ends with a generic
        // "aborted" line).
        if (!placed && unplaced.length > 0) {
          for (const r of ranges) errors.set(r.id, `${unplaced.join('\n')}\n`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, jobs) }, () => worker()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return errors;
}

/** Assembles every spec's example at exampleTarget(spec); returns opcode -> errors. */
export function assembleExamples(
  ptxas: string,
  specs: readonly OpcodeSpec[],
  jobs = 2,
): Promise<Map<string, string>> {
  return assembleItems(
    ptxas,
    specs.map((spec) => ({ id: spec.opcode, example: spec.example, ...exampleTarget(spec) })),
    jobs,
  );
}
