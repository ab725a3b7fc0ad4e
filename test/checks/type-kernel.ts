// A kernel with registers of every common type, for the type checks' tests
// (F011–F020): body line i (0-based) lands on line 8 + i of the module.
import { readFileSync } from 'node:fs';

export const REGS = '.reg .pred %p<4>; .reg .b16 %h<4>; .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .f32 %f<8>; .reg .f64 %fd<4>; '
  + '.reg .u32 %u<4>; .reg .s32 %s<4>; .reg .u64 %ud<4>; .reg .f16 %hf<4>; .reg .u16 %uh<4>; .reg .b8 %b<2>;';

/** The line of body line 0. */
export const BODY = 8;

export function kernel(body: readonly string[], opts: { target?: string; version?: string; addressSize?: number | null; regs?: string } = {}): string {
  const header = [`.version ${opts.version ?? '8.0'}`, `.target ${opts.target ?? 'sm_90'}`];
  header.push(opts.addressSize === null ? '// no .address_size' : `.address_size ${opts.addressSize ?? 64}`);
  return [
    ...header,
    '.visible .entry k(.param .u64 p)',
    '{',
    `\t${opts.regs ?? REGS}`,
    '\tld.param.u64 %rd1, [p];',
    ...body.map((l) => `\t${l}`),
    '\tret;',
    '}',
    '',
  ].join('\n');
}

/** Committed compiler output and hand-written fixtures every type check must pass. */
export const REAL = (path: string): string => readFileSync(path, 'utf8');
