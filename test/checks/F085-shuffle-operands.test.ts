import { F085 } from '../../src/checks/F085-shuffle-operands.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const LANE = 'mov.u32 %r1, %laneid;';

checkCases(F085, {
  fails: [
    failing('shfl.sync.up with a non-zero clamp (inline PTX)', kernel('', [LANE, 'shfl.sync.up.b32 %r2, %r1, 1, 0x1f, 0xffffffff; //!', 'ret;'])),
    failing('shfl.sync.down with a zero clamp', kernel('', [LANE, 'shfl.sync.down.b32 %r2, %r1, 1, 0, 0xffffffff; //!', 'ret;'])),
    failing('an offset of 32', kernel('', [LANE, 'shfl.sync.bfly.b32 %r2, %r1, 32, 0x1f, 0xffffffff; //!', 'ret;'])),
    failing('a segment mask for a width that is not a power of two', kernel('', [LANE, 'shfl.sync.idx.b32 %r2, %r1, 0, 0x141f, 0xffffffff; //!', 'ret;'])),
    failing('a constant c through a register', kernel('', [LANE, 'mov.u32 %r5, 31;', 'shfl.sync.up.b32 %r2|%p1, %r1, 2, %r5, 0xffffffff; //!', 'ret;'])),
  ],
  passes: [
    { name: 'CUDA\'s encodings: up 0, down/bfly/idx 0x1f, width 16 segments', ptx: kernel('', [LANE, 'shfl.sync.up.b32 %r2, %r1, 1, 0, 0xffffffff;', 'shfl.sync.down.b32 %r2, %r1, 16, 0x1f, 0xffffffff;', 'shfl.sync.bfly.b32 %r2, %r1, 8, 0x101f, 0xffffffff;', 'shfl.sync.up.b32 %r2, %r1, 1, 0x1000, 0xffffffff;', 'ret;']) },
    { name: 'a lane in a register is not judged', ptx: kernel('', [LANE, 'shfl.sync.idx.b32 %r2, %r1, %r1, 0x1f, 0xffffffff;', 'ret;']) },
    { name: 'Triton\'s bfly with c = 31 and mask -1', ptx: kernel('', [LANE, 'shfl.sync.bfly.b32 %r2, %r1, 2, 31, -1;', 'ret;']) },
    ...committedReal(['fixtures/corpus/triton/softmax_rows.ptx', 'fixtures/corpus/triton/layer_norm.ptx', 'examples/block-reduce.ptx']),
    ...(await nvccReal(['03-warp-shfl-reduce.cu', '25-softmax-warp.cu', '26-layernorm.cu', '10-cooperative-groups.cu'])),
  ],
});

describeCudaFixtures('F085');
