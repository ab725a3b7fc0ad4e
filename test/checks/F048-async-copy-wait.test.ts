import { F048 } from '../../src/checks/F048-async-copy-wait.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** Each thread copies 16 bytes to buf[16*tid] (`copy`), then `between`, then reads its own element. */
const copy = (between: readonly string[], read = 'ld.shared.u32 %r5, [%r4];') => kernel({
  target: 'sm_80',
  params: '.param .u64 src',
  reqntid: [64, 1, 1],
  body: [
    '.reg .b32 %r<6>;', '.reg .b64 %rd<5>;', '.shared .align 16 .b8 buf[1024];', '.shared .align 16 .b8 other[1024];',
    'ld.param.u64 %rd1, [src];', 'cvta.to.global.u64 %rd2, %rd1;', 'mov.u32 %r1, %tid.x;', 'shl.b32 %r2, %r1, 4;', 'mov.u32 %r3, buf;', 'add.s32 %r4, %r3, %r2;',
    'cvt.u64.u32 %rd3, %r2;', 'add.s64 %rd4, %rd2, %rd3;', 'cp.async.cg.shared.global [%r4], [%rd4], 16;',
    ...between, read, 'ret;',
  ],
});

const NO_WAIT = copy(['cp.async.commit_group;']);
const SHALLOW = copy(['cp.async.commit_group;', 'cp.async.wait_group 1;']);
const BARRIER_ONLY = copy(['cp.async.commit_group;', 'bar.sync 0;']);
const UNCOMMITTED = copy(['cp.async.wait_group 0;']);
const BULK = kernel({
  params: '.param .u64 src',
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<2>;', '.reg .b32 %r<3>;', '.reg .b64 %rd<3>;', '.shared .align 8 .b64 bar;', '.shared .align 128 .b8 buf[4096];',
    'ld.param.u64 %rd1, [src];',
    'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 4096, [bar];',
    'ld.shared.u32 %r1, [buf+16];', 'ret;',
  ],
});

checkCases(F048, {
  fails: [
    { name: 'committed but never waited on', ptx: NO_WAIT, lines: [lineOf(NO_WAIT, 'ld.shared')] },
    { name: 'wait_group 1 with only the copy\'s own group committed leaves it in flight', ptx: SHALLOW, lines: [lineOf(SHALLOW, 'ld.shared')] },
    { name: 'a barrier does not wait for async copies', ptx: BARRIER_ONLY, lines: [lineOf(BARRIER_ONLY, 'ld.shared')] },
    { name: 'wait_group 0 before the copy is committed', ptx: UNCOMMITTED, lines: [lineOf(UNCOMMITTED, 'ld.shared')] },
    { name: 'a bulk copy read with no mbarrier wait', ptx: BULK, lines: [lineOf(BULK, 'ld.shared')] },
  ],
  passes: [
    { name: 'commit_group then wait_group 0', ptx: copy(['cp.async.commit_group;', 'cp.async.wait_group 0;']) },
    { name: 'wait_all', ptx: copy(['cp.async.wait_all;']) },
    { name: 'a read of another variable', ptx: copy(['cp.async.commit_group;'], 'ld.shared.u32 %r5, [other];') },
    { name: 'no async copy', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('fixtures/corpus/handwritten/tma_bulk_tensor_sm90.ptx'),
    realOutput('fixtures/corpus/triton/matmul.ptx'),
  ],
});

describeCudaFixtures('F048');
