import { describeCudaFixtures } from './labelled-cuda.js';
import { F025 } from '../../src/checks/F025-local-static-oob.js';
import { BODY as L, expectQuietOnRealOutput, kernel, REAL } from './address-kernel.js';
import { checkCases } from './harness.js';

const LBUF = '.local .align 8 .b8 lbuf[16];';

checkCases(F025, {
  fails: [
    { name: 'a constant offset at the end', ptx: kernel(['st.local.u32 [lbuf+16], %r1;'], { locals: LBUF }), lines: [L] },
    { name: 'a vector access that runs past the end, through registers', ptx: kernel(['mov.u64 %rd3, lbuf;', 'add.u64 %rd4, %rd3, 12;', 'ld.local.v2.u32 {%r2, %r3}, [%rd4];'], { locals: LBUF }), lines: [L + 2] },
    { name: 'a negative offset', ptx: kernel(['ld.local.u32 %r2, [lbuf+-4];'], { locals: LBUF }), lines: [L] },
    { name: 'a generic access through cvta.local', ptx: kernel(['cvta.local.u64 %rd3, lbuf;', 'st.u64 [%rd3+12], %rd1;'], { locals: LBUF }), lines: [L + 1] },
    { name: 'a module-scope .local array', ptx: kernel(['mov.u32 %r2, garr;', 'add.u32 %r3, %r2, 8;', 'st.local.u32 [%r3+8], %r1;'], { module: '.local .align 4 .b32 garr[4];' }), lines: [L + 2] },
  ],
  passes: [
    { name: 'in bounds', ptx: kernel(['st.local.u32 [lbuf+12], %r1;', 'ld.local.v2.u32 {%r2, %r3}, [lbuf+8];', 'ld.local.u64 %rd3, [lbuf];'], { locals: LBUF }) },
    {
      name: 'a thread-dependent offset is not judged',
      ptx: kernel(['mul.wide.u32 %rd3, %r1, 4;', 'mov.u64 %rd4, lbuf;', 'add.u64 %rd5, %rd4, %rd3;', 'ld.local.u32 %r2, [%rd5+100];'], { locals: LBUF }),
    },
    {
      name: 'a loop-carried pointer has no constant offset',
      ptx: kernel(['mov.u64 %rd3, lbuf;', 'mov.u32 %r2, 0;', 'LOOP:', 'st.local.u32 [%rd3], %r2;', 'add.u64 %rd3, %rd3, 4;', 'add.u32 %r2, %r2, 1;', 'setp.lt.u32 %p1, %r2, 4;', '@%p1 bra LOOP;'], { locals: LBUF }),
    },
    { name: 'llc output with a local depot', ptx: REAL('fixtures/corpus/llvm/ptx/recursion_local.sm_80.ptx') },
  ],
});

await expectQuietOnRealOutput(F025);

describeCudaFixtures('F025');
