import { describeCudaFixtures } from './labelled-cuda.js';
import { F034 } from '../../src/checks/F034-shared-capacity.js';
import { expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

/** The kernel's name is on line 5 of `kernel()`. */
const K = 5;

/** A kernel that names one module-scope array and calls a function naming another. */
const viaCall = (a: number, b: number): string => [
  '.version 8.0',
  '.target sm_90',
  '.address_size 64',
  `.shared .align 16 .b8 big1[${a}];`,
  `.shared .align 16 .b8 big2[${b}];`,
  '.func g()',
  '{',
  '\t.reg .b32 %r<2>;',
  '\tld.shared.u32 %r1, [big2];',
  '\tret;',
  '}',
  '.visible .entry k()',
  '{',
  '\t.reg .b32 %r<2>;',
  '\tld.shared.u32 %r1, [big1];',
  '\tcall.uni g, ();',
  '\tret;',
  '}',
  '.visible .entry other()',
  '{',
  '\t.reg .b32 %r<2>;',
  '\tld.shared.u32 %r1, [big1];',
  '\tret;',
  '}',
  '',
].join('\n');

checkCases(F034, {
  fails: [
    {
      name: 'two 32 KB tiles in one kernel',
      ptx: kernel(['ld.shared.u32 %r2, [a];', 'ld.shared.u32 %r3, [b];'], { locals: '.shared .align 16 .b8 a[32768]; .shared .align 16 .b8 b[32768];' }),
      lines: [K],
    },
    { name: 'module-scope arrays reached through a call (only the caller exceeds)', ptx: viaCall(40000, 10000), lines: [12] },
    { name: 'alignment padding counts', ptx: kernel(['ld.shared.u8 %r2, [c];', 'ld.shared.u32 %r3, [d];'], { locals: '.shared .b8 c[1]; .shared .align 16 .b8 d[49137];' }), lines: [K] },
  ],
  passes: [
    { name: 'exactly 48 KB', ptx: kernel(['ld.shared.u32 %r2, [a];', 'ld.shared.u32 %r3, [b];'], { locals: '.shared .align 16 .b8 a[32768]; .shared .align 16 .b8 b[16384];' }) },
    { name: 'each kernel under the limit', ptx: viaCall(30000, 10000) },
    { name: 'dynamic shared memory is not static', ptx: kernel(['ld.shared.u32 %r2, [dyn+65536];'], { module: '.extern .shared .align 16 .b8 dyn[];' }), na: true },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

await expectQuietOnRealOutput(F034);

describeCudaFixtures('F034');
