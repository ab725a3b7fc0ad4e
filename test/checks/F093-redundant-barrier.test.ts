import { F093 } from '../../src/checks/F093-redundant-barrier.js';
import { findKernel } from '../../src/kernels/library/index.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const S = '.shared .align 4 .u32 s[256];';
const W = [...PROLOGUE, 'mov.u32 %r4, s;', 'st.shared.u32 [%r4], %r1;'];

const back = module([...W, 'bar.sync 0;', 'add.s32 %r5, %r1, 1;', 'barrier.sync 0; // !', 'ld.shared.u32 %r6, [%r4];'], { decls: [S] });
const bothPaths = module([...W, 'bar.sync 0;', 'setp.eq.u32 %p1, %r3, 0;', '@%p1 bra $a;', 'add.s32 %r5, %r1, 1;', 'bra.uni $b;', '$a:', 'add.s32 %r5, %r1, 2;', '$b:', 'bar.sync 0; // !', 'ld.shared.u32 %r6, [%r4];'], { decls: [S] });
const fenceBetween = module([...W, 'bar.sync 0;', 'membar.cta;', 'bar.sync 1; // !', 'ld.shared.u32 %r6, [%r4];'], { decls: [S] });
const fullCount = module([...W, 'bar.sync 0;', 'bar.sync 1, 256; // !', 'ld.shared.u32 %r6, [%r4];'], { decls: [S], directives: '.reqntid 256, 1, 1' });

checkCases(F093, {
  fails: [
    { name: 'two barriers back to back (register arithmetic between)', ptx: back, lines: marked(back) },
    { name: 'no access on either branch between the barriers', ptx: bothPaths, lines: marked(bothPaths) },
    { name: 'a fence is not a memory access', ptx: fenceBetween, lines: marked(fenceBetween) },
    { name: 'a counted barrier whose count is the whole block', ptx: fullCount, lines: marked(fullCount) },
  ],
  passes: [
    { name: 'a load between the barriers', ptx: module([...W, 'bar.sync 0;', 'ld.shared.u32 %r6, [%r4];', 'bar.sync 0;', 'st.shared.u32 [%r4], %r6;'], { decls: [S] }) },
    { name: 'an access on one of the paths', ptx: module([...W, 'bar.sync 0;', 'setp.eq.u32 %p1, %r3, 0;', '@%p1 bra $b;', 'ld.shared.u32 %r6, [%r4];', '$b:', 'bar.sync 0;'], { decls: [S] }) },
    { name: 'a named barrier for part of the block', ptx: module([...W, 'bar.sync 0;', 'bar.sync 1, 64;'], { decls: [S], directives: '.reqntid 256, 1, 1' }) },
    { name: 'bar.red returns a value', ptx: module([...W, 'bar.sync 0;', 'setp.eq.u32 %p1, %r1, 0;', 'bar.red.popc.u32 %r7, 0, %p1;']) },
    { name: 'a barrier in a loop with accesses around it', ptx: module([...W, 'mov.u32 %r9, 0;', '$l:', 'bar.sync 0;', 'ld.shared.u32 %r6, [%r4];', 'add.s32 %r9, %r9, 1;', 'setp.lt.u32 %p1, %r9, 4;', '@%p1 bra $l;'], { decls: [S] }) },
    { name: 'no barriers', ptx: module(W, { decls: [S] }), na: true },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'emitter gemm_tiled', ptx: findKernel('gemm_tiled')!.build({ arch: 'sm_90' }) },
  ],
});
