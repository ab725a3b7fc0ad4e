import { F035 } from '../../src/checks/F035-unused-shared.js';
import { expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

checkCases(F035, {
  fails: [
    { name: 'a module-scope array nobody names', ptx: kernel(['ld.global.u32 %r2, [%rd2];'], { module: '.shared .align 4 .b8 spare[256];' }), lines: [4] },
    { name: 'a function-scope array', ptx: kernel(['ld.global.u32 %r2, [%rd2];'], { locals: '.shared .align 4 .b32 tmp[8];' }), lines: [8] },
    { name: 'an unused dynamic array', ptx: kernel(['ld.global.u32 %r2, [%rd2];'], { module: '.extern .shared .align 16 .b8 dyn[];' }), lines: [4] },
  ],
  passes: [
    { name: 'named by mov, by an address and by cvta', ptx: kernel(['mov.u32 %r2, a;', 'ld.shared.u32 %r3, [b+4];', 'cvta.shared.u64 %rd3, c;'], { locals: '.shared .b32 a[4]; .shared .b32 b[4]; .shared .b32 c[4];' }) },
    { name: 'named in a device function only', ptx: [
      '.version 8.0', '.target sm_90', '.address_size 64', '.shared .align 4 .b8 buf[64];',
      '.func g()', '{', '\t.reg .b32 %r<2>;', '\tld.shared.u32 %r1, [buf];', '\tret;', '}',
      '.visible .entry k()', '{', '\tcall.uni g, ();', '\tret;', '}', '',
    ].join('\n') },
    { name: 'no .shared variable is n/a', ptx: kernel(['ld.global.u32 %r2, [%rd2];']), na: true },
    { name: 'nvcc output (examples/block-reduce.ptx)', ptx: REAL('examples/block-reduce.ptx') },
  ],
});

await expectQuietOnRealOutput(F035);
