import { describeCudaFixtures } from './labelled-cuda.js';
import { describe, expect, it } from 'vitest';
import { F009 } from '../../src/checks/F009-unknown-opcode.js';
import { F090 } from '../../src/checks/F090-half-memory-type.js';
import { BODY as L, expectQuietOnRealOutput, kernel } from './address-kernel.js';
import { checkCases, outcomeOf } from './harness.js';

const halves = kernel(['ld.global.f16 %hf1, [%rd2];', 'st.global.f16 [%rd2+2], %hf1;', 'mov.f16 %hf2, %hf1;', 'ld.global.bf16 %h1, [%rd2];']);

checkCases(F090, {
  fails: [
    { name: 'the ld.global.f16 bug, st.global.f16, mov.f16 and ld.global.bf16', ptx: halves, lines: [L, L + 1, L + 2, L + 3] },
    { name: 'pairs and vectors', ptx: kernel(['ld.global.f16x2 %r2, [%rd2];', 'ldu.global.bf16x2 %r3, [%rd2];', 'ld.shared.v2.f16 {%hf1, %hf2}, [%r1];']), lines: [L, L + 1, L + 2] },
    { name: 'f16 arithmetic before sm_53', ptx: kernel(['ld.global.b16 %hf1, [%rd2];', 'add.f16 %hf2, %hf1, %hf1;'], { target: 'sm_52', version: '5.0' }), lines: [L + 1] },
  ],
  passes: [
    {
      name: 'halves moved as bits, computed as halves',
      ptx: kernel(['ld.global.b16 %hf1, [%rd2];', 'mov.b16 %hf2, %hf1;', 'add.f16 %hf3, %hf1, %hf2;', 'mov.b32 %r2, {%hf1, %hf3};', 'st.global.b32 [%rd2], %r2;', 'cvt.f32.f16 %f1, %hf3;']),
    },
    { name: 'half atomics are F019\'s', ptx: kernel(['atom.global.add.noftz.f16 %hf1, [%rd2], %hf2;']) },
  ],
});

describe('F090 is the more specific check', () => {
  it('F009 leaves ld/st/mov half types to it', () => {
    expect(outcomeOf(F009, halves).findings).toEqual([]);
  });
});

await expectQuietOnRealOutput(F090);

describeCudaFixtures('F090');
