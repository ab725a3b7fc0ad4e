// The module builder: header for a target and PTX version, module-scope
// `.shared` declarations, kernels and `.func`s, and the emitted PTX text.
import { FunctionBuilder, type FuncHandle, type Param, type ParamType, type SharedVar } from './function.js';
import { sizeOf, type InstrType } from './types.js';

/** Targets the library emits for. */
export const ARCHS = ['sm_75', 'sm_80', 'sm_90', 'sm_90a'] as const;
export type Arch = (typeof ARCHS)[number];

/** The lowest `.version` ptxas 13 accepts for each target (CATALOG.md, "Facts from ptxas 13.0"). */
export const MIN_PTX_VERSION: Readonly<Record<Arch, string>> = {
  sm_75: '6.3',
  sm_80: '7.0',
  sm_90: '7.8',
  sm_90a: '8.0',
};

export function isArch(s: string): s is Arch {
  return (ARCHS as readonly string[]).includes(s);
}

export interface ModuleOptions {
  readonly arch: Arch;
  /** `.version`; default: the target's minimum. */
  readonly version?: string;
  /** Comment lines at the top of the file. */
  readonly header?: readonly string[];
}

export interface KernelOptions {
  /** `.reqntid x, y, z`: the block size the kernel must be launched with. */
  readonly reqntid?: readonly [number, number, number];
}

type ParamHandles<P extends Record<string, ParamType>> = { readonly [K in keyof P]: Param<P[K]> };

interface Emitted {
  readonly header: string;
  readonly body: FunctionBuilder;
}

function compareVersions(a: string, b: string): number {
  const [am = 0, an = 0] = a.split('.').map(Number);
  const [bm = 0, bn = 0] = b.split('.').map(Number);
  return am - bm || an - bn;
}

export class PtxModule {
  readonly arch: Arch;
  readonly version: string;
  private readonly header: readonly string[];
  private readonly shareds: SharedVar[] = [];
  private readonly functions: Emitted[] = [];
  private readonly names = new Set<string>();

  constructor(opts: ModuleOptions) {
    this.arch = opts.arch;
    this.version = opts.version ?? MIN_PTX_VERSION[opts.arch];
    if (!/^\d+\.\d+$/.test(this.version)) throw new Error(`bad PTX version '${this.version}'`);
    if (compareVersions(this.version, MIN_PTX_VERSION[opts.arch]) < 0) {
      throw new Error(`.version ${this.version} is below the minimum ${MIN_PTX_VERSION[opts.arch]} for ${opts.arch}`);
    }
    this.header = opts.header ?? [];
  }

  private claim(name: string): void {
    if (!/^[A-Za-z_][A-Za-z0-9_$]*$/.test(name)) throw new Error(`'${name}' is not a PTX identifier`);
    if (this.names.has(name)) throw new Error(`'${name}' is declared twice`);
    this.names.add(name);
  }

  /** A module-scope `.shared .align A .TYPE name[count]`. */
  shared(name: string, type: InstrType, count: number, align = Math.max(4, sizeOf(type))): SharedVar {
    this.claim(name);
    if (!Number.isInteger(count) || count <= 0) throw new Error(`shared ${name}: bad element count ${count}`);
    if (align & (align - 1)) throw new Error(`shared ${name}: alignment ${align} is not a power of two`);
    const v: SharedVar = { kind: 'shared', name, type, count, align, bytes: count * sizeOf(type) };
    this.shareds.push(v);
    return v;
  }

  /** Total static shared memory in bytes. */
  sharedBytes(): number {
    return this.shareds.reduce((n, v) => n + v.bytes, 0);
  }

  /** Defines a `.visible .entry` with the given parameters (in order). */
  kernel<P extends Record<string, ParamType>>(
    name: string, params: P, opts: KernelOptions, body: (k: FunctionBuilder, p: ParamHandles<P>) => void,
  ): void {
    this.claim(name);
    const handles = Object.fromEntries(Object.entries(params).map(([n, t]) => [n, { kind: 'param', name: n, type: t }])) as unknown as ParamHandles<P>;
    const k = new FunctionBuilder(name, [...this.names, ...Object.keys(params)]);
    body(k, handles);
    const decl = Object.entries(params).map(([n, t]) => `\t.param .${t} ${n}`).join(',\n');
    const dirs = opts.reqntid === undefined ? '' : `\n.reqntid ${opts.reqntid.join(', ')}`;
    this.functions.push({ header: `.visible .entry ${name}(\n${decl}\n)${dirs}`, body: k });
  }

  /**
   * Defines a `.func` with `.param` arguments and return values (the nvcc ABI form).
   * `body` gets the parameters and the return slots; it stores results with
   * `stParam(ret[i], value)` and ends with `ret()`.
   */
  func<A extends readonly ParamType[], R extends readonly ParamType[]>(
    name: string, params: A, returns: R,
    body: (f: FunctionBuilder, args: { readonly [K in keyof A]: Param<A[K]> }, rets: { readonly [K in keyof R]: Param<R[K]> }) => void,
  ): FuncHandle<A, R> {
    this.claim(name);
    const args = params.map((t, i) => ({ kind: 'param', name: `${name}_param_${i}`, type: t })) as unknown as { readonly [K in keyof A]: Param<A[K]> };
    const rets = returns.map((t, i) => ({ kind: 'param', name: `${name}_retval_${i}`, type: t })) as unknown as { readonly [K in keyof R]: Param<R[K]> };
    const f = new FunctionBuilder(name, this.names);
    body(f, args, rets);
    const bits = (t: ParamType): string => (sizeOf(t) === 8 ? 'b64' : 'b32');
    const retDecl = returns.length === 0 ? '' : `(${returns.map((t, i) => `.param .${bits(t)} ${name}_retval_${i}`).join(', ')}) `;
    const argDecl = params.map((t, i) => `\t.param .${bits(t)} ${name}_param_${i}`).join(',\n');
    this.functions.push({ header: `.func ${retDecl}${name}(\n${argDecl}\n)`, body: f });
    return { name, params, returns };
  }

  /** The module's PTX text. */
  emit(): string {
    const out: string[] = [];
    for (const h of this.header) out.push(`// ${h}`);
    if (this.header.length > 0) out.push('');
    out.push(`.version ${this.version}`, `.target ${this.arch}`, '.address_size 64', '');
    for (const v of this.shareds) out.push(`.shared .align ${v.align} .${v.type} ${v.name}[${v.count}];`);
    if (this.shareds.length > 0) out.push('');
    for (const f of this.functions) {
      out.push(f.header, '{', f.body.renderBody(), '}', '');
    }
    return out.join('\n');
  }
}
