import { F043 } from '../../src/checks/F043-legacy-warp-synchronous.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

const legacy = (line: string) => kernel({
  version: '6.0', target: 'sm_60',
  body: ['.reg .pred %p<3>;', '.reg .b32 %r<3>;', 'mov.u32 %r1, %laneid;', 'setp.lt.u32 %p1, %r1, 4;', line, 'ret;'],
});

checkCases(F043, {
  fails: [
    { name: 'shfl.bfly without .sync', ptx: legacy('shfl.bfly.b32 %r2, %r1, 16, 31;'), lines: [lineOf(legacy('shfl.bfly.b32 %r2, %r1, 16, 31;'), 'shfl')] },
    { name: 'vote.any without .sync', ptx: legacy('vote.any.pred %p2, %p1;'), lines: [lineOf(legacy('vote.any.pred %p2, %p1;'), 'vote')] },
    { name: 'vote.ballot without .sync', ptx: legacy('vote.ballot.b32 %r2, %p1;'), lines: [lineOf(legacy('vote.ballot.b32 %r2, %p1;'), 'vote')] },
  ],
  passes: [
    { name: 'shfl.sync with a member mask', ptx: kernel({ body: ['.reg .b32 %r<3>;', 'mov.u32 %r1, %laneid;', 'shfl.sync.bfly.b32 %r2, %r1, 16, 31, -1;', 'ret;'] }) },
    { name: 'vote.sync with a member mask', ptx: kernel({ body: ['.reg .pred %p<3>;', '.reg .b32 %r<2>;', 'mov.u32 %r1, %laneid;', 'setp.lt.u32 %p1, %r1, 4;', 'vote.sync.any.pred %p2, %p1, -1;', 'ret;'] }) },
    { name: 'no shfl or vote', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/softmax_rows.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F043');
