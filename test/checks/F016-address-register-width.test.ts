import { F016 } from '../../src/checks/F016-address-register-width.js';
import { checkCases } from './harness.js';
import { BODY, kernel, REAL } from './type-kernel.js';

const L = BODY;

checkCases(F016, {
  fails: [
    { name: 'ld.global through a 32-bit register', ptx: kernel(['ld.global.u32 %r1, [%r2];']), lines: [L] },
    { name: 'a generic load through a 32-bit register', ptx: kernel(['ld.u32 %r1, [%r2+4];']), lines: [L] },
    { name: 'st.global through a 32-bit register', ptx: kernel(['st.global.u32 [%r2], %r1;']), lines: [L] },
    { name: 'atom and red through 32-bit registers', ptx: kernel(['atom.global.add.u32 %r1, [%r2], 1;', 'red.add.u32 [%u2], 1;']), lines: [L, L + 1] },
    { name: 'ld.global.nc, ldu and prefetch', ptx: kernel(['ld.global.nc.u32 %r1, [%r2];', 'ldu.global.u32 %r1, [%r2];', 'prefetch.global.L2 [%r2];']), lines: [L, L + 1, L + 2] },
    { name: 'a 16-bit global address (ptxas only warns)', ptx: kernel(['ld.global.u32 %r1, [%h1];']), lines: [L] },
    { name: 'the global source of cp.async (ptxas accepts it)', ptx: kernel(['cp.async.ca.shared.global [%r2], [%r3], 4;']), lines: [L] },
    { name: 'a float register as an address, in any space', ptx: kernel(['ld.shared.u32 %r1, [%f1];']), lines: [L] },
    { name: 'a module without .address_size is 64-bit', ptx: kernel(['st.global.u32 [%r2], %r1;'], { addressSize: null }), lines: [L] },
  ],
  passes: [
    { name: 'shared, local, const and param addresses may be 32-bit', ptx: kernel(['ld.shared.u32 %r1, [%r2];', 'ld.local.u32 %r1, [%r2];', 'ld.const.u32 %r1, [%r2];', 'st.shared.u32 [%r2+8], %r1;', 'cp.async.ca.shared.global [%r2], [%rd3], 4;']) },
    { name: '64-bit global and generic addresses', ptx: kernel(['ld.global.u32 %r1, [%rd1+4];', 'ld.u32 %r1, [%ud1];', 'atom.global.add.u32 %r1, [%rd1], 1;']) },
    { name: 'nvcc output (block-reduce)', ptx: REAL('examples/block-reduce.ptx') },
    { name: 'hand-written tcgen05 (tensor-memory addresses are 32-bit)', ptx: REAL('fixtures/corpus/handwritten/tcgen05_sm100a.ptx') },
    { name: 'hand-written TMA and mbarrier forms', ptx: REAL('fixtures/corpus/handwritten/tma_bulk_tensor_sm90.ptx') },
    { name: 'hand-written addressing forms', ptx: REAL('fixtures/corpus/handwritten/immediates_addressing.ptx') },
  ],
});
