import { F020 } from '../../src/checks/F020-special-register-misuse.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F020, {
  fails: [
    { name: 'writing %tid.x', ptx: kernel(['mov.u32 %tid.x, %r1;']), lines: [L] },
    { name: 'writing %laneid with add', ptx: kernel(['add.u32 %laneid, %r1, 1;']), lines: [L] },
    { name: 'reading a special register outside mov/cvt', ptx: kernel(['add.u32 %r1, %tid.x, 1;', 'setp.eq.u32 %p1, %laneid, 0;']), lines: [L, L + 1] },
    { name: 'a vector special register without a component', ptx: kernel(['mov.u32 %r1, %tid;']), lines: [L] },
    { name: 'a scalar special register with a component', ptx: kernel(['mov.u32 %r1, %laneid.x;']), lines: [L] },
    { name: 'past the end of a numbered family', ptx: kernel(['mov.u32 %r1, %envreg32;', 'mov.u32 %r1, %pm8;']), lines: [L, L + 1] },
    { name: 'the wrong width', ptx: kernel(['mov.u32 %r1, %clock64;', 'mov.u64 %rd2, %tid.x;', 'mov.u16 %h1, %laneid;']), lines: [L, L + 1, L + 2] },
    { name: 'a float mov of %tid', ptx: kernel(['mov.f32 %f1, %tid.x;']), lines: [L] },
    { name: 'unknown names with components or in the wrong case', ptx: kernel(['mov.u32 %r1, %foo.x;', 'mov.u32 %r1, %Laneid;']), lines: [L, L + 1] },
  ],
  passes: [
    { name: 'valid reads', ptx: kernel(['mov.u32 %r1, %tid.x;', 'mov.u16 %h1, %ctaid.y;', 'mov.u32 %r1, %tid.w;', 'mov.u64 %rd2, %gridid;', 'mov.u32 %r1, %gridid;', 'mov.b64 %rd2, %clock64;', 'cvt.u64.u32 %rd2, %tid.x;', 'cvt.u32.u64 %r1, %clock64;', 'add.u32 %r1, %r1, WARP_SZ;', 'mov.u32 %r1, %envreg31;', 'mov.u64 %rd2, %pm7_64;']) },
    { name: 'other undeclared names are F006\'s', ptx: kernel(['mov.u32 %r1, %warpsize;']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written special registers', ptx: REAL('fixtures/corpus/handwritten/control_sreg_misc_sm80.ptx') },
    { name: 'hand-written cluster special registers', ptx: REAL('fixtures/corpus/handwritten/perf_directives_sm90.ptx') },
    { name: 'the .pred special register %is_explicit_cluster', ptx: REAL('fixtures/corpus/handwritten/blocksareclusters_ptx90.ptx') },
  ],
});
