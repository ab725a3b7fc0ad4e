import { F047 } from '../../src/checks/F047-mbarrier-protocol.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

const mbar = (body: readonly string[]) => kernel({
  params: '.param .u64 src',
  reqntid: [128, 1, 1],
  body: [
    '.reg .pred %p<3>;', '.reg .b32 %r<4>;', '.reg .b64 %rd<4>;', '.shared .align 8 .b64 bar;', '.shared .align 128 .b8 buf[4096];',
    'ld.param.u64 %rd1, [src];', 'mov.u32 %r1, %tid.x;', 'setp.eq.u32 %p2, %r1, 0;',
    ...body,
    '$W:', 'mbarrier.try_wait.parity.shared::cta.b64 %p1, [bar], 0;', '@!%p1 bra $W;', 'ret;',
  ],
});

const INIT = '@%p2 mbarrier.init.shared::cta.b64 [bar], 1;';
const FENCE = ['@%p2 fence.mbarrier_init.release.cluster;', 'bar.sync 0;'];
const ARM = '@%p2 mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 4096;';
const COPY = '@%p2 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [buf], [%rd1], 4096, [bar];';
const NO_INIT = mbar([ARM, COPY]);
const NO_FENCE = mbar([INIT, 'mbarrier.arrive.shared::cta.b64 %rd3, [bar];']);
const NO_SOURCE = mbar([INIT, ...FENCE, ARM]);

checkCases(F047, {
  fails: [
    { name: 'waited on but never initialized', ptx: NO_INIT, lines: [lineOf(NO_INIT, 'mbarrier.try_wait')] },
    { name: 'thread 0 initializes, every thread arrives with no fence or barrier between', ptx: NO_FENCE, lines: [lineOf(NO_FENCE, 'mbarrier.arrive')] },
    { name: 'expect_tx with no bulk copy completing on the barrier', ptx: NO_SOURCE, lines: [lineOf(NO_SOURCE, 'expect_tx')] },
  ],
  passes: [
    { name: 'init, fence, barrier, arm, copy, wait', ptx: mbar([INIT, ...FENCE, ARM, COPY]) },
    { name: 'no mbarrier', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('fixtures/corpus/handwritten/tma_bulk_tensor_sm90.ptx'),
  ],
});

describeCudaFixtures('F047');
