import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F027 } from '../../src/checks/F027-param-write.js';
import { BODY as L, chainAt, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

/** A device function with a parameter and a return value, called from a kernel (st.param to call arguments is fine). */
const CALLS = [
  '.version 8.0',
  '.target sm_90',
  '.address_size 64',
  '.func (.param .b32 r) f(.param .b32 a)',
  '{',
  '\t.reg .b32 %r<3>;',
  '\tld.param.b32 %r1, [a];',
  '\tadd.u32 %r2, %r1, 1;',
  '\tst.param.b32 [r], %r2;',
  '\tret;',
  '}',
  '.visible .entry k(.param .u64 p)',
  '{',
  '\t.reg .b32 %r<3>;',
  '\t.reg .b64 %rd<3>;',
  '\tld.param.u64 %rd1, [p];',
  '\tmov.u32 %r1, %tid.x;',
  '\t{',
  '\t.param .b32 a0;',
  '\t.param .b32 r0;',
  '\tst.param.b32 [a0], %r1;',
  '\tcall.uni (r0), f, (a0);',
  '\tld.param.b32 %r2, [r0];',
  '\t}',
  '\tret;',
  '}',
  '',
].join('\n');

checkCases(F027, {
  fails: [
    { name: 'st.param to a kernel parameter', ptx: kernel(['st.param.u32 [n], %r1;']), lines: [L] },
    { name: 'a store through the parameter\'s address', ptx: kernel(['mov.u64 %rd3, n;', 'st.param.u32 [%rd3], %r1;']), lines: [L + 1] },
    { name: 'a generic store through cvta.param', ptx: kernel(['cvta.param.u64 %rd3, n;', 'st.u32 [%rd3], %r1;']), lines: [L + 1] },
    { name: 'ld.param through a pointer (should be ld.global)', ptx: kernel(['ld.param.u32 %r2, [%rd1];', 'ld.param.u32 %r3, [%rd2+4];']), lines: [L, L + 1] },
    { name: 'ld.param of a global variable', ptx: kernel(['ld.param.u32 %r2, [gv];'], { module: '.global .align 4 .u32 gv;' }), lines: [L] },
  ],
  passes: [
    { name: 'reading parameters, directly and through their address', ptx: kernel(['ld.param.u32 %r2, [n];', 'mov.u64 %rd3, q;', 'ld.param.u64 %rd4, [%rd3];']) },
    { name: 'call arguments, return values and .func parameters', ptx: CALLS },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

describe('F027 chains', () => {
  it('runs from the ld.param of the pointer to the misused ld.param', () => {
    expect(chainAt(F027, kernel(['ld.param.u32 %r2, [%rd1];']), L)).toEqual([`ld.param.u64@${L - 3}`, `ld.param.u32@${L}`]);
  });
});

await expectQuietOnRealOutput(F027);

describeCudaFixtures('F027');
