import { F055 } from '../../src/checks/F055-local-dynamic-index.js';
import { checkCases } from './harness.js';
import { compileCuda, NVCC, toolMissing } from '../helpers/toolchain.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

// nvcc output with local buffers at constant offsets (printf argument buffers).
const printf = toolMissing(NVCC) === undefined ? await compileCuda('fixtures/corpus/cuda/15-printf.cu', 'sm_90') : undefined;

const ARR = '.local .align 4 .b8 arr[64];';

const loop = module([
  'mov.u64 %rd3, arr;', 'mov.u32 %r5, 0;', '$loop:', 'mul.wide.u32 %rd4, %r5, 4;', 'add.s64 %rd5, %rd3, %rd4;', 'st.local.u32 [%rd5], %r5; // !',
  'add.s32 %r5, %r5, 1;', 'setp.lt.u32 %p1, %r5, 16;', '@%p1 bra $loop;',
], { decls: [ARR] });
const depot = module([
  ...PROLOGUE, 'mov.u64 %rd20, arr;', 'cvta.local.u64 %rd21, %rd20;', 'and.b32 %r5, %r1, 15;', 'mul.wide.u32 %rd4, %r5, 4;', 'add.s64 %rd5, %rd21, %rd4;', 'ld.u32 %r6, [%rd5]; // !',
], { decls: [ARR] });
const byParam = module([...PROLOGUE, 'mov.u64 %rd3, arr;', 'and.b32 %r5, %r3, 15;', 'mul.wide.u32 %rd4, %r5, 4;', 'add.s64 %rd5, %rd3, %rd4;', 'ld.local.u32 %r6, [%rd5]; // !'], { decls: [ARR] });

checkCases(F055, {
  fails: [
    { name: 'a loop counter indexes a local array', ptx: loop, lines: marked(loop) },
    { name: 'a generic load through cvta.local of the array (the %SP pattern)', ptx: depot, lines: marked(depot) },
    { name: 'a kernel parameter indexes a local array', ptx: byParam, lines: marked(byParam) },
  ],
  passes: [
    { name: 'constant offsets only', ptx: module(['mov.u64 %rd3, arr;', 'st.local.u32 [%rd3+4], %r1;', 'ld.local.u32 %r2, [%rd3+60];'], { decls: [ARR] }) },
    { name: 'a pointer reloaded from the stack is not judged', ptx: module(['mov.u64 %rd3, arr;', 'ld.local.u64 %rd4, [%rd3];', 'ld.local.u32 %r2, [%rd4];'], { decls: [ARR] }) },
    { name: 'no local memory', ptx: module([...PROLOGUE, 'ld.global.u32 %r5, [%rd1];']), na: true },
    ...(printf !== undefined ? [{ name: 'nvcc output: printf argument buffers at constant offsets', ptx: printf }] : []),
    { name: 'llc -O0 output (no local accesses left)', ptx: REAL('fixtures/corpus/llvm/ptx/vector_add.sm_80.O0.ptx'), na: true },
    { name: 'Triton layer norm', ptx: REAL('fixtures/corpus/triton/layer_norm.ptx'), na: true },
  ],
});
