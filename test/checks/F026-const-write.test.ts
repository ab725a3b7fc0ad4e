import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F026 } from '../../src/checks/F026-const-write.js';
import { BODY as L, chainAt, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const CONST = '.const .align 4 .b8 ctab[64];';
const viaCvta = kernel(['cvta.const.u64 %rd3, ctab;', 'add.u64 %rd4, %rd3, 8;', 'st.u32 [%rd4], %r1;'], { module: CONST });

checkCases(F026, {
  fails: [
    { name: 'st.const', ptx: kernel(['st.const.u32 [ctab+4], %r1;'], { module: CONST }), lines: [L] },
    { name: 'a generic store through cvta.const', ptx: viaCvta, lines: [L + 2] },
    { name: 'an atomic and a reduction on constant memory', ptx: kernel(['cvta.const.u64 %rd3, ctab;', 'atom.add.u32 %r2, [%rd3], 1;', 'red.add.u32 [%rd3+4], 1;'], { module: CONST }), lines: [L + 1, L + 2] },
    { name: 'a .const window stored through st.global', ptx: kernel(['mov.u64 %rd3, ctab;', 'st.global.u32 [%rd3], %r1;'], { module: CONST }), lines: [L + 1] },
  ],
  passes: [
    { name: 'reads of constant memory', ptx: kernel(['ld.const.u32 %r2, [ctab+4];', 'cvta.const.u64 %rd3, ctab;', 'ld.u32 %r3, [%rd3];'], { module: CONST }) },
    { name: 'a constant-memory address stored as data', ptx: kernel(['cvta.const.u64 %rd3, ctab;', 'st.global.u64 [%rd2], %rd3;'], { module: CONST }) },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

describe('F026 chains', () => {
  it('runs from the cvta.const to the store', () => {
    expect(chainAt(F026, viaCvta, L + 2)).toEqual([`cvta.const.u64@${L}`, `add.u64@${L + 1}`, `st.u32@${L + 2}`]);
  });
});

await expectQuietOnRealOutput(F026);

describeCudaFixtures('F026');
