import { F013 } from '../../src/checks/F013-mixed-width-arithmetic.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F013, {
  fails: [
    { name: 'add.u64 with a 32-bit source', ptx: kernel(['add.u64 %rd1, %r2, 4;']), lines: [L] },
    { name: 'add.u64 with a 32-bit second source', ptx: kernel(['add.u64 %rd1, %rd2, %r2;']), lines: [L] },
    { name: 'add.u32 into a 64-bit register', ptx: kernel(['add.u32 %rd1, %r2, %r3;']), lines: [L] },
    { name: 'mul.wide whose result is not twice the width', ptx: kernel(['mul.wide.s32 %r1, %r1, %r2;']), lines: [L] },
    { name: 'mad.wide whose addend is not twice the width', ptx: kernel(['mad.wide.u32 %rd1, %r1, %r2, %r2;']), lines: [L] },
    { name: 'a 64-bit shift amount', ptx: kernel(['shl.b64 %rd1, %rd2, %rd3;']), lines: [L] },
    { name: 'and.b32 with a 64-bit operand', ptx: kernel(['and.b32 %r1, %rd1, %r2;']), lines: [L] },
    { name: 'popc result is .u32', ptx: kernel(['popc.b64 %rd2, %rd1;']), lines: [L] },
    { name: '16-bit add with a 32-bit operand', ptx: kernel(['add.u16 %h1, %r1, %h2;']), lines: [L] },
  ],
  passes: [
    { name: 'the widening forms and .u32 positions', ptx: kernel(['mul.wide.s32 %rd2, %r1, %r2;', 'mad.wide.u32 %rd2, %r1, %r2, %rd3;', 'shl.b64 %rd2, %rd3, %r1;', 'shr.u64 %rd2, %rd3, %s1;', 'popc.b64 %r1, %rd1;', 'bfe.u32 %r1, %r2, 4, 8;']) },
    { name: 'width mixes outside integer arithmetic are F011\'s', ptx: kernel(['mov.u64 %rd2, %r1;', 'add.f32 %rd2, %rd3, %rd4;']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written integer forms', ptx: REAL('fixtures/corpus/handwritten/alu_cvt_sm90.ptx') },
    { name: 'llc output', ptx: REAL('fixtures/corpus/llvm/ptx/switch_select_ints.sm_80.ptx') },
  ],
});
