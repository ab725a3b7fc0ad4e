import { F056 } from '../../src/checks/F056-nc-load-aliasing.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

/** %rd4 = p + 4·tid.x */
const IDX = [...PROLOGUE, 'mul.wide.u32 %rd3, %r1, 4;', 'add.s64 %rd4, %rd1, %rd3;'];

const inPlace = module([...IDX, 'ld.global.nc.f32 %f1, [%rd4]; // !', 'add.f32 %f2, %f1, %f1;', 'st.global.f32 [%rd4], %f2;']);
const neighbour = module([...IDX, 'ld.global.nc.f32 %f1, [%rd4+4]; // !', 'st.global.f32 [%rd4], %f1;']);
const atomic = module([...IDX, 'ld.global.nc.u32 %r5, [%rd4]; // !', 'atom.global.add.u32 %r6, [%rd1], %r5;']);
const generic = module(['ld.param.u64 %rd1, [p];', 'ld.global.nc.u32 %r5, [%rd1]; // !', 'st.u32 [%rd1+8], %r5;']);
const struct = module(['ld.param.u64 %rd1, [s+8];', 'cvta.to.global.u64 %rd2, %rd1;', 'ld.global.nc.f32 %f1, [%rd2]; // !', 'st.global.f32 [%rd2+4], %f1;'], { params: '.param .align 8 .b8 s[16]' });

checkCases(F056, {
  fails: [
    { name: 'an in-place update through __ldg', ptx: inPlace, lines: marked(inPlace) },
    { name: 'a neighbour read non-coherently and written by another thread', ptx: neighbour, lines: marked(neighbour) },
    { name: 'an atomic on the read-only buffer', ptx: atomic, lines: marked(atomic) },
    { name: 'a generic store through the same parameter', ptx: generic, lines: marked(generic) },
    { name: 'a pointer field of a struct parameter', ptx: struct, lines: marked(struct) },
  ],
  passes: [
    { name: 'read p, write q', ptx: module([...IDX, 'ld.global.nc.f32 %f1, [%rd4];', 'add.s64 %rd5, %rd2, %rd3;', 'st.global.f32 [%rd5], %f1;']) },
    { name: 'two pointer fields of one struct parameter', ptx: module(['ld.param.u64 %rd1, [s];', 'ld.param.u64 %rd2, [s+8];', 'ld.global.nc.f32 %f1, [%rd1];', 'st.global.f32 [%rd2], %f1;'], { params: '.param .align 8 .b8 s[16]' }) },
    { name: 'a plain (coherent) load of a buffer the kernel writes', ptx: module([...IDX, 'ld.global.f32 %f1, [%rd4];', 'st.global.f32 [%rd4], %f1;']), na: true },
    { name: 'a store to shared memory', ptx: module([...IDX, 'ld.global.nc.f32 %f1, [%rd4];', 'mov.u32 %r4, sm;', 'st.shared.f32 [%r4], %f1;'], { decls: ['.shared .align 4 .f32 sm[4];'] }) },
    { name: 'no ld.global.nc', ptx: module([...IDX, 'ld.global.f32 %f1, [%rd4];']), na: true },
    { name: 'llc output with ld.global.nc', ptx: REAL('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx') },
    { name: 'Triton matmul', ptx: REAL('fixtures/corpus/triton/matmul.ptx'), na: true },
  ],
});
