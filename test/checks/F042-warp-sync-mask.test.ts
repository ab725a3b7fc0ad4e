import { F042 } from '../../src/checks/F042-warp-sync-mask.js';
import { checkCases } from './harness.js';
import { describeCudaFixtures } from './labelled-cuda.js';
import { kernel, lineOf, realOutput } from './sync-ptx.js';

/** lanes with %laneid >= 16 branch to $J around `inside`; `after` at $J. */
const around = (inside: readonly string[], after: readonly string[] = ['add.u32 %r4, %r2, 1;']) => kernel({
  body: [
    '.reg .pred %p<4>;', '.reg .b32 %r<6>;', 'mov.u32 %r1, %laneid;', 'mov.u32 %r2, 0;', 'setp.ge.u32 %p1, %r1, 16;', '@%p1 bra $J;',
    ...inside, '$J:', ...after, 'ret;',
  ],
});

const SHFL = 'shfl.sync.down.b32 %r2, %r1, 1, 31, -1;';
const VOTE = 'vote.sync.ballot.b32 %r2, %p1, 0xffffffff;';
const EXIT = kernel({
  body: ['.reg .pred %p<2>;', '.reg .b32 %r<4>;', 'mov.u32 %r1, %laneid;', 'setp.ge.u32 %p1, %r1, 20;', '@%p1 bra $DONE;', SHFL, '$DONE:', 'ret;'],
});
const GUARDED = kernel({
  body: ['.reg .pred %p<2>;', '.reg .b32 %r<4>;', 'mov.u32 %r1, %laneid;', 'setp.lt.u32 %p1, %r1, 20;', `@%p1 ${SHFL}`, 'ret;'],
});
const REGISTER_MASK = around(['mov.b32 %r3, -1;', 'shfl.sync.down.b32 %r2, %r1, 1, 31, %r3;']);
const WARP_UNIFORM = kernel({
  reqntid: [128, 1, 1],
  body: ['.reg .pred %p<2>;', '.reg .b32 %r<5>;', 'mov.u32 %r1, %tid.x;', 'shr.u32 %r3, %r1, 5;', 'setp.ne.u32 %p1, %r3, 0;', '@%p1 bra $J;', SHFL, '$J:', 'ret;'],
});

checkCases(F042, {
  fails: [
    { name: 'a full-mask shuffle that lanes >= 16 skip and go on', ptx: around([SHFL]), lines: [lineOf(around([SHFL]), 'shfl.sync')] },
    { name: 'a full-mask ballot that lanes >= 16 skip and go on', ptx: around([VOTE]), lines: [lineOf(around([VOTE]), 'vote.sync')] },
    { name: 'lanes >= 20 exit before a full-mask shuffle', ptx: EXIT, lines: [lineOf(EXIT, 'shfl.sync')] },
    { name: 'a full-mask shuffle under a lane-varying guard', ptx: GUARDED, lines: [lineOf(GUARDED, 'shfl.sync')] },
    { name: 'the full mask in a register (nvcc: mov.b32 %r, -1)', ptx: REGISTER_MASK, lines: [lineOf(REGISTER_MASK, 'shfl.sync')] },
  ],
  passes: [
    { name: 'the same shuffle in both arms', ptx: around([SHFL, 'bra $K;'], [SHFL, '$K:', 'add.u32 %r4, %r2, 1;']) },
    { name: 'a ballot after lanes returned (exited lanes are excluded)', ptx: EXIT.replace(SHFL, VOTE) },
    { name: 'a branch on %tid.x >> 5: whole warps take each side', ptx: WARP_UNIFORM },
    { name: 'a mask naming only lanes 0-15 (not the full mask: not judged)', ptx: around(['shfl.sync.down.b32 %r2, %r1, 1, 15, 0xffff;']) },
    { name: 'no collective', ptx: kernel({ body: ['ret;'] }), na: true },
    realOutput('examples/block-reduce.ptx'),
    realOutput('fixtures/corpus/triton/softmax_rows.ptx'),
    realOutput('fixtures/corpus/triton/layer_norm.ptx'),
    realOutput('fixtures/corpus/llvm/ptx/reduce_shared.sm_80.ptx'),
  ],
});

describeCudaFixtures('F042');
