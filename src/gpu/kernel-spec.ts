// The emitter's launch specs (`emit` writes `<kernel>.launch.json`, version 1:
// typed buffers with roles, inputs from seeds or generators, a tolerance) run
// through the native runner: inputs are generated into files, outputs are
// captured, and when the library knows the kernel the outputs are compared
// with its CPU reference.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareOutputs, type BufferComparison } from '../kernels/compare.js';
import { fromBytes, generateInputs, toBytes } from '../kernels/inputs.js';
import type { BufferData, Buffers } from '../kernels/kernel.js';
import { bufferElementBytes, launchSpecSchema as kernelSpecSchema, type LaunchSpec as KernelSpec } from '../kernels/launch-spec.js';
import { findKernel } from '../kernels/library/index.js';
import type { LaunchSpec } from './launch-spec.js';

export function isKernelSpec(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { version?: unknown }).version === 1;
}

export function parseKernelSpec(value: unknown): KernelSpec {
  return kernelSpecSchema.parse(value);
}

export interface PreparedRun {
  readonly spec: LaunchSpec;
  readonly inputs: Record<string, BufferData>;
}

/** Generates the inputs into `workDir` and returns the runner's spec for them. */
export function prepareKernelSpec(spec: KernelSpec, specDir: string, workDir: string): PreparedRun {
  mkdirSync(workDir, { recursive: true });
  const inputs = generateInputs(spec, specDir);
  const args: LaunchSpec['args'] = spec.args.map((a) => {
    if (a.kind === 'scalar') return { kind: 'scalar' as const, name: a.name, type: a.type, value: a.value };
    const bytes = Math.max(4, a.count * bufferElementBytes(a.type));
    const data = inputs[a.name];
    if (data === undefined) return { kind: 'buffer' as const, name: a.name, bytes, fill: 'zeros' as const, capture: a.role !== 'input' };
    const file = join(workDir, `${a.name}.in.bin`);
    writeFileSync(file, toBytes(data));
    return { kind: 'buffer' as const, name: a.name, bytes, fill: { file }, capture: a.role !== 'input' };
  });
  return {
    spec: { kernel: spec.kernel, grid: spec.grid, block: spec.block, sharedBytes: spec.dynamicSharedBytes, timeoutSeconds: 30, args },
    inputs,
  };
}

export interface ReferenceCheck {
  readonly kernel: string;
  readonly comparisons: readonly BufferComparison[];
  readonly ok: boolean;
}

/** Compares captured outputs with the library's CPU reference, when it knows the kernel. */
export function checkReference(spec: KernelSpec, inputs: Record<string, BufferData>, captures: ReadonlyMap<string, string>): ReferenceCheck | undefined {
  const def = findKernel(spec.kernel);
  if (def === undefined) return undefined;
  const got: Record<string, BufferData> = {};
  for (const a of spec.args) {
    if (a.kind !== 'buffer' || a.role === 'input') continue;
    const path = captures.get(a.name);
    if (path === undefined) continue;
    got[a.name] = fromBytes(a.type, new Uint8Array(readFileSync(path)).subarray(0, a.count * bufferElementBytes(a.type)));
  }
  const want = def.reference(spec.sizes, inputs as Buffers);
  const comparisons = compareOutputs(spec, got, want);
  return { kernel: def.name, comparisons, ok: comparisons.every((c) => c.mismatches === 0) };
}

/** Bytes the kernel's buffers hold (a floor for the traffic, for effective bandwidth). */
export function bufferBytes(spec: KernelSpec): number {
  return spec.args.reduce((n, a) => n + (a.kind === 'buffer' ? a.count * bufferElementBytes(a.type) : 0), 0);
}
