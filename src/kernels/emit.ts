// The emitter's API: one kernel's PTX and launch spec for a target, sizes and
// defect; the library listing; every clean kernel into a directory. The `emit`
// command is a thin shell over these.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isArch, MIN_PTX_VERSION, type Arch } from './builder/index.js';
import type { KernelDef } from './kernel.js';
import type { LaunchSpec } from './launch-spec.js';
import { resolveSizes } from './library/common.js';
import { findKernel, KERNELS } from './library/index.js';

export class EmitError extends Error {
  override readonly name = 'EmitError';
}

export interface EmitRequest {
  readonly arch?: string;
  /** `.version`; default: the target's minimum. */
  readonly version?: string;
  readonly defect?: string;
  /** Size overrides (name → value). */
  readonly sizes?: Readonly<Record<string, number>>;
  /** Seed recorded in the launch spec. */
  readonly seed?: number;
}

export interface Emitted {
  readonly kernel: KernelDef;
  readonly arch: Arch;
  readonly ptx: string;
  readonly spec: LaunchSpec;
}

export const DEFAULT_ARCH: Arch = 'sm_90';

function kernelNamed(name: string): KernelDef {
  const k = findKernel(name);
  if (k === undefined) throw new EmitError(`unknown kernel '${name}' (kernels: ${KERNELS.map((x) => x.name).join(', ')})`);
  return k;
}

/** Builds one kernel; every bad request is an EmitError with one line saying why. */
export function emitKernel(name: string, req: EmitRequest = {}): Emitted {
  const kernel = kernelNamed(name);
  const arch = req.arch ?? DEFAULT_ARCH;
  if (!isArch(arch)) throw new EmitError(`unknown target '${arch}' (targets: ${Object.keys(MIN_PTX_VERSION).join(', ')})`);
  if (!kernel.archs.includes(arch)) throw new EmitError(`${name} does not support ${arch} (targets: ${kernel.archs.join(', ')})`);
  try {
    const sizes = resolveSizes(name, kernel.sizes, req.sizes);
    const ptx = kernel.build({ arch, ...(req.version !== undefined ? { version: req.version } : {}), ...(req.defect !== undefined ? { defect: req.defect } : {}) });
    const spec = { ...kernel.launch(sizes, req.seed), arch };
    return { kernel, arch, ptx, spec };
  } catch (err) {
    throw new EmitError((err as Error).message);
  }
}

/** The launch-spec file that goes beside a PTX file: `x.ptx` → `x.launch.json`. */
export function launchSpecPath(ptxPath: string): string {
  return ptxPath.endsWith('.ptx') ? `${ptxPath.slice(0, -4)}.launch.json` : `${ptxPath}.launch.json`;
}

/** Writes the PTX to `file` and its launch spec (naming the PTX file) beside it. */
export function writeEmitted(e: Emitted, file: string): { ptx: string; spec: string } {
  const specFile = launchSpecPath(file);
  writeFileSync(file, e.ptx);
  writeFileSync(specFile, `${JSON.stringify({ ...e.spec, ptx: basename(file) }, null, 2)}\n`);
  return { ptx: file, spec: specFile };
}

/** Every clean kernel for one target into `dir` as `<kernel>.ptx` and `<kernel>.launch.json`. */
export function emitAll(dir: string, req: Omit<EmitRequest, 'defect' | 'sizes'> = {}): { ptx: string; spec: string }[] {
  mkdirSync(dir, { recursive: true });
  return KERNELS.filter((k) => k.archs.includes((req.arch ?? DEFAULT_ARCH) as Arch))
    .map((k) => writeEmitted(emitKernel(k.name, req), join(dir, `${k.name}.ptx`)));
}

export interface KernelListing {
  readonly name: string;
  readonly summary: string;
  readonly archs: readonly string[];
  readonly params: readonly { readonly name: string; readonly default: number; readonly description: string; readonly constraint?: string }[];
  readonly defects: readonly { readonly name: string; readonly check: string; readonly bugClass: string; readonly ptxasAccepts: boolean }[];
  readonly notes: string;
}

/** The library as data (for `emit --list`). */
export function listKernels(): KernelListing[] {
  return KERNELS.map((k) => ({
    name: k.name,
    summary: k.summary,
    archs: k.archs,
    params: k.sizes.map((s) => {
      const c = [`>= ${s.min}`, ...(s.max !== undefined ? [`<= ${s.max}`] : []), ...(s.multipleOf !== undefined ? [`multiple of ${s.multipleOf}`] : [])].join(', ');
      return { name: s.name, default: s.default, description: s.description, constraint: c };
    }),
    defects: k.defects.map((d) => ({ name: d.name, check: d.check, bugClass: d.bugClass, ptxasAccepts: d.ptxasAccepts })),
    notes: k.notes,
  }));
}
