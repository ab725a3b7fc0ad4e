import { F095 } from '../../src/checks/F095-narrow-global-loop.js';
import { findKernel } from '../../src/kernels/library/index.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

/** A loop over %r9 = 0, step, ... < n with `body` inside. */
const loop = (body: readonly string[], step = 1, init = 'mov.u32 %r9, 0;'): string => module([
  ...PROLOGUE, init, '$loop:', ...body, `add.s32 %r9, %r9, ${step};`, 'setp.lt.u32 %p1, %r9, %r3;', '@%p1 bra $loop;',
]);

const copy = loop(['cvt.u64.u32 %rd3, %r9;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.global.u8 %h1, [%rd4]; // !', 'add.s64 %rd5, %rd2, %rd3;', 'st.global.u8 [%rd5], %h1; // !']);
const warp = loop(['cvt.u64.u32 %rd3, %r9;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.global.nc.u8 %h1, [%rd4]; // !'], 32, 'mov.u32 %r9, %r1;');
const backwards = module([...PROLOGUE, 'mov.u32 %r9, %r3;', '$loop:', 'cvt.u64.u32 %rd3, %r9;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.global.s8 %h1, [%rd4]; // !', 'add.s32 %r9, %r9, -1;', 'setp.ne.u32 %p1, %r9, 0;', '@%p1 bra $loop;']);

checkCases(F095, {
  fails: [
    { name: 'a thread copies a buffer byte by byte', ptx: copy, lines: marked(copy) },
    { name: 'a warp walks 32 consecutive bytes per iteration', ptx: warp, lines: marked(warp) },
    { name: 'a byte loop running backwards', ptx: backwards, lines: marked(backwards) },
  ],
  passes: [
    { name: 'a 16-byte copy loop', ptx: loop(['mul.wide.u32 %rd3, %r9, 16;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd4];']), na: true },
    { name: 'one byte of each 16-byte record', ptx: loop(['mul.wide.u32 %rd3, %r9, 16;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.global.u8 %h1, [%rd4];']) },
    { name: 'a byte access outside loops', ptx: module([...PROLOGUE, 'cvt.u64.u32 %rd3, %r1;', 'add.s64 %rd4, %rd1, %rd3;', 'ld.global.u8 %h1, [%rd4];']), na: true },
    { name: 'byte accesses to shared memory', ptx: loop(['mov.u32 %r4, sm;', 'add.s32 %r5, %r4, %r9;', 'ld.shared.u8 %h1, [%r5];']).replace('.visible', '.shared .align 4 .b8 sm[1024];\n.visible'), na: true },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx'), na: true },
    { name: 'emitter q4k_gemv (words, not bytes)', ptx: findKernel('q4k_gemv')!.build({ arch: 'sm_90' }), na: true },
    { name: 'emitter q6k_gemv (a byte per lane of each 210-byte super-block: strided, not consecutive)', ptx: findKernel('q6k_gemv')!.build({ arch: 'sm_90' }) },
  ],
});
