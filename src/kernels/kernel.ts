// What a library kernel is: its size parameters, its defect variants, how it
// emits PTX, how to launch it for given sizes, and its CPU reference.
import type { Arch } from './builder/index.js';
import type { LaunchSpec } from './launch-spec.js';

/** Problem sizes by name (M, N, K, rows, ...). They become launch arguments, never PTX text. */
export type Sizes = Readonly<Record<string, number>>;

/** Buffer contents as the reference reads and writes them (f16 as raw bits in a Uint16Array). */
export type BufferData = Float32Array | Uint16Array | Uint8Array | Uint32Array | Int32Array | BigUint64Array;
export type Buffers = Readonly<Record<string, BufferData>>;

export interface SizeParam {
  readonly name: string;
  readonly description: string;
  readonly default: number;
  readonly min: number;
  readonly max?: number;
  /** The size must be a multiple of this (the K-quant super-block, say). */
  readonly multipleOf?: number;
}

/** A switchable known bug of this kernel family (`emit --defect NAME`). */
export interface DefectDef {
  readonly name: string;
  /** The documented bug class it reproduces (the seeds' name, or the catalog's). */
  readonly bugClass: string;
  /** The catalog check that must fail on it (CATALOG.md). */
  readonly check: string;
  readonly description: string;
  /** Whether ptxas 13 still assembles it (some defects are exactly what ptxas rejects). */
  readonly ptxasAccepts: boolean;
}

export interface BuildOptions {
  readonly arch: Arch;
  /** `.version`; default: the target's minimum. */
  readonly version?: string;
  /** A defect name from `defects`; absent for the clean kernel. */
  readonly defect?: string;
}

export interface KernelDef {
  readonly name: string;
  /** One line. */
  readonly summary: string;
  /**
   * How it works, its layout and limits, and each finding the analyzer is
   * expected to leave on the clean kernel with the reason it is acceptable.
   */
  readonly notes: string;
  /**
   * Checks that may report on the clean kernel (above `info`), each with why
   * the finding is acceptable there. Anything else is a defect of the kernel
   * or a false positive of the check.
   */
  readonly expectedFindings?: Readonly<Record<string, string>>;
  readonly sizes: readonly SizeParam[];
  readonly defects: readonly DefectDef[];
  /** Targets ptxas must accept it for. */
  readonly archs: readonly Arch[];
  /** At least two size sets, including sizes that are not multiples of the tile. */
  readonly testSizes: readonly Sizes[];
  /** The module's PTX text. */
  build(opts: BuildOptions): string;
  /** The launch spec for these (complete, validated) sizes. */
  launch(sizes: Sizes, seed?: number): LaunchSpec;
  /** The expected outputs (by buffer name) for these inputs (by buffer name). */
  reference(sizes: Sizes, inputs: Buffers): Buffers;
}
