import { F058 } from '../../src/checks/F058-uninitialized-shared-read.js';
import { findKernel } from '../../src/kernels/library/index.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const H = '.shared .align 4 .u32 hist[256];';
const T = '.shared .align 4 .u32 tile[256];';
/** %r5 = &hist + 4·(tid.x & 255) */
const ADDR = [...PROLOGUE, 'and.b32 %r4, %r1, 255;', 'shl.b32 %r6, %r4, 2;', 'mov.u32 %r7, hist;', 'add.s32 %r5, %r7, %r6;'];

const never = module([...ADDR, 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5]; // !', 'st.global.u32 [%rd1], %r8;'], { decls: [H] });
const uniformIf = module([
  ...ADDR, 'setp.eq.u32 %p1, %r3, 0;', '@%p1 bra $skip;', 'st.shared.u32 [%r5], 0;', '$skip:', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5]; // !',
], { decls: [H] });
const readBeforeWrite = module([...ADDR, 'ld.shared.u32 %r8, [%r5]; // !', 'add.s32 %r8, %r8, 1;', 'st.shared.u32 [%r5], %r8;'], { decls: [H] });
const otherVar = module([...ADDR, 'mov.u32 %r9, tile;', 'st.shared.u32 [%r9], 0;', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5]; // !', 'ld.shared.u32 %r10, [%r5+4];'], { decls: [H, T] });
const loopMaybeZero = module([
  ...ADDR, 'mov.u32 %r11, 0;', 'setp.eq.u32 %p2, %r3, 0;', '@%p2 bra $done;', '$loop:', 'st.shared.u32 [%r5], %r11;', 'add.s32 %r11, %r11, 1;', 'setp.lt.u32 %p1, %r11, %r3;', '@%p1 bra $loop;',
  '$done:', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5]; // !',
], { decls: [H] });

checkCases(F058, {
  fails: [
    { name: 'a histogram read that nothing writes', ptx: never, lines: marked(never) },
    { name: 'a fill under a uniform condition (n == 0 skips it for the whole block)', ptx: uniformIf, lines: marked(uniformIf) },
    { name: 'a read-modify-write whose first read comes before any write', ptx: readBeforeWrite, lines: marked(readBeforeWrite) },
    { name: 'another variable is filled, not this one (one finding per variable)', ptx: otherVar, lines: marked(otherVar) },
    { name: 'a fill loop that can run zero times', ptx: loopMaybeZero, lines: marked(loopMaybeZero) },
  ],
  passes: [
    { name: 'zeroed then read', ptx: module([...ADDR, 'st.shared.u32 [%r5], 0;', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5];'], { decls: [H] }) },
    {
      name: 'a broadcast written by thread 0 only (the CTA writes it)',
      ptx: module([...ADDR, 'setp.ne.u32 %p1, %r1, 0;', '@%p1 bra $skip;', 'st.shared.u32 [%r5], %r3;', '$skip:', 'bar.sync 0;', 'mov.u32 %r9, hist;', 'ld.shared.u32 %r8, [%r9];'], { decls: [H] }),
    },
    { name: 'an atomic counts as a write', ptx: module([...ADDR, 'atom.shared.add.u32 %r8, [%r5], 1;', 'bar.sync 0;', 'ld.shared.u32 %r9, [%r5];'], { decls: [H] }) },
    { name: 'cp.async fills the tile', ptx: module([...ADDR, 'cp.async.ca.shared.global [%r5], [%rd1], 4;', 'cp.async.wait_all;', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5];'], { decls: [H] }) },
    { name: 'a call may write it', ptx: module([...ADDR, 'call init;', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5];'], { decls: [H, '.func init()\n{\n\tret;\n}'] }) },
    {
      name: 'a loop with a constant trip count fills it (-G code tests at the top)',
      ptx: module([...ADDR, 'mov.u32 %r11, 0;', '$loop:', 'setp.ge.u32 %p1, %r11, 4;', '@%p1 bra $done;', 'st.shared.u32 [%r5], %r11;', 'add.s32 %r11, %r11, 1;', 'bra.uni $loop;', '$done:', 'bar.sync 0;', 'ld.shared.u32 %r8, [%r5];'], { decls: [H] }),
    },
    { name: 'dynamic (extern) shared memory is not judged', ptx: module([...PROLOGUE, 'mov.u32 %r7, dyn;', 'ld.shared.u32 %r8, [%r7];'], { decls: ['.extern .shared .align 4 .b8 dyn[];'] }), na: true },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'emitter persistent_decoder (token broadcast)', ptx: findKernel('persistent_decoder')!.build({ arch: 'sm_90' }) },
    { name: 'emitter softmax_shared', ptx: findKernel('softmax_shared')!.build({ arch: 'sm_90' }) },
    { name: 'hand-written wide accesses (st.bulk and cluster launch control write what is read)', ptx: REAL('fixtures/corpus/handwritten/wide_loads_sm100.ptx') },
  ],
});
