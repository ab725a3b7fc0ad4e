// Small PTX modules for the memory and performance checks' tests (F051–F060,
// F091–F095): a kernel with registers of the common types, module-scope
// declarations and launch directives; expected finding lines are marked in the
// body with a trailing `// !` and read back with `marked`.
import { readFileSync } from 'node:fs';

export const REGS = '.reg .pred %p<8>; .reg .b16 %h<8>; .reg .b32 %r<40>; .reg .b64 %rd<40>; .reg .f32 %f<40>; .reg .f64 %fd<8>;';

export interface ModuleOptions {
  readonly target?: string;
  readonly version?: string;
  /** Module-scope lines before the kernel (`.shared` variables, `.func` bodies). */
  readonly decls?: readonly string[];
  /** Kernel directives, e.g. `.reqntid 32, 8, 1`. */
  readonly directives?: string;
  /** The parameter list, default `.param .u64 p, .param .u64 q, .param .u32 n`. */
  readonly params?: string;
  /** `.entry` (default) or `.func`. */
  readonly func?: boolean;
  readonly name?: string;
}

/** A module with one kernel whose body is `body` (one instruction per line). */
export function module(body: readonly string[], opts: ModuleOptions = {}): string {
  return [
    `.version ${opts.version ?? '8.0'}`,
    `.target ${opts.target ?? 'sm_90'}`,
    '.address_size 64',
    ...(opts.decls ?? []),
    `.visible ${opts.func === true ? '.func' : '.entry'} ${opts.name ?? 'k'}(${opts.params ?? '.param .u64 p, .param .u64 q, .param .u32 n'})`,
    ...(opts.directives !== undefined ? [opts.directives] : []),
    '{',
    `\t${REGS}`,
    ...body.map((l) => (l.endsWith(':') ? l : `\t${l}`)),
    '\tret;',
    '}',
    '',
  ].join('\n');
}

/** 1-based lines that end with the marker (`// !`). */
export function marked(text: string, mark = '// !'): number[] {
  return text.split('\n').flatMap((l, i) => (l.trimEnd().endsWith(mark) ? [i + 1] : []));
}

/** Committed compiler output and fixtures. */
export const REAL = (path: string): string => readFileSync(path, 'utf8');

/** The usual prologue: %rd1 = global p, %rd2 = global q, %r3 = n, %r1 = tid.x (no %tid.y: a 1-D kernel). */
export const PROLOGUE: readonly string[] = [
  'ld.param.u64 %rd10, [p];',
  'ld.param.u64 %rd11, [q];',
  'ld.param.u32 %r3, [n];',
  'cvta.to.global.u64 %rd1, %rd10;',
  'cvta.to.global.u64 %rd2, %rd11;',
  'mov.u32 %r1, %tid.x;',
];

/** PROLOGUE plus %r2 = tid.y. */
export const PROLOGUE_2D: readonly string[] = [...PROLOGUE, 'mov.u32 %r2, %tid.y;'];
