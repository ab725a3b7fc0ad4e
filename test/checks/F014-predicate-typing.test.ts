import { F014 } from '../../src/checks/F014-predicate-typing.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F014, {
  fails: [
    { name: 'setp into a .b32 register', ptx: kernel(['setp.eq.u32 %r1, %r2, 0;']), lines: [L] },
    { name: 'setp |q into a .b32 register', ptx: kernel(['setp.eq.u32 %p1|%r1, %r2, 0;']), lines: [L] },
    { name: 'an .f32 register in an integer comparison', ptx: kernel(['setp.eq.u32 %p1, %f1, 0;']), lines: [L] },
    { name: 'a 64-bit register in a 32-bit comparison', ptx: kernel(['setp.eq.u32 %p1, %rd1, 0;']), lines: [L] },
    { name: 'a .u32 register in a float comparison', ptx: kernel(['setp.eq.f32 %p1, %u1, %f1;']), lines: [L] },
    { name: 'a predicate compared as data', ptx: kernel(['setp.eq.u32 %p1, %p2, 0;']), lines: [L] },
    { name: 'a data register as the combining predicate', ptx: kernel(['setp.eq.and.u32 %p1, %r1, 0, %r2;']), lines: [L] },
    { name: 'a selp selector that is not .pred', ptx: kernel(['selp.u32 %r1, %r2, %r3, %r4;']), lines: [L] },
    { name: 'a set destination that is .pred', ptx: kernel(['set.eq.u32.u32 %p1, %r2, %r3;']), lines: [L] },
    { name: 'a set operand wider than its type', ptx: kernel(['set.eq.u32.f32 %r1, %rd2, %f3;']), lines: [L] },
    { name: 'an integer literal in a float comparison', ptx: kernel(['setp.lt.f32 %p1, %f1, 0;']), lines: [L] },
  ],
  passes: [
    { name: 'valid comparisons', ptx: kernel(['setp.eq.f32 %p1, %r1, %f1;', 'setp.eq.and.u32 %p1, %r1, 0, !%p2;', 'setp.lt.s32 %p1|%p2, %r1, %s1;', 'selp.u32 %r1, %r2, %r3, %p1;', 'set.eq.f32.u32 %f1, %r2, %r3;', 'selp.u32 %r1, 1, 0, 1;', 'setp.lt.f32 %p1, %f1, 1.0;']) },
    { name: 'selp data operands are F011\'s', ptx: kernel(['selp.u32 %r1, %rd2, %r3, %p1;']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written comparisons', ptx: REAL('fixtures/corpus/handwritten/alu_cvt_sm90.ptx') },
    { name: 'llc output', ptx: REAL('fixtures/corpus/llvm/ptx/switch_select_ints.sm_80.ptx') },
  ],
});
