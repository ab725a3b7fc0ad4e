import { F089 } from '../../src/checks/F089-async-copy-constraints.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, nvccReal } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const P = '.param .u64 g';
const S = (align: number): string => `.shared .align ${align} .b8 s[1024];`;
const body = (align: number, lines: string[]): string[] => [S(align), 'ld.param.u64 %rd1, [g];', 'mov.u32 %r1, %tid.x;', 'mul.wide.u32 %rd2, %r1, 16;', 'add.s64 %rd3, %rd1, %rd2;', ...lines, 'cp.async.wait_all;', 'ret;'];

checkCases(F089, {
  fails: [
    failing('a copy size of 12', kernel(P, body(16, ['cp.async.ca.shared.global [s], [%rd3], 12; //!']))),
    failing('.cg with 8 bytes', kernel(P, body(16, ['cp.async.cg.shared.global [s], [%rd3], 8; //!']))),
    failing('a destination 4 bytes past a 16-byte boundary', kernel(P, body(16, ['cp.async.cg.shared.global [s+4], [%rd3], 16; //!']))),
    failing('a per-thread destination stride of 4 for 16-byte copies', kernel(P, body(16, ['shl.b32 %r2, %r1, 2;', 'mov.u32 %r3, s;', 'add.s32 %r4, %r3, %r2;', 'cp.async.cg.shared.global [%r4], [%rd3], 16; //!']))),
    failing('a shared buffer declared .align 4', kernel(P, body(4, ['cp.async.cg.shared.global [s], [%rd3], 16; //!']))),
    failing('a bulk copy of 40 bytes', kernel(P, body(16, ['mov.u32 %r5, s;', 'cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r5], 40; //!']), { target: 'sm_90', version: '8.0' })),
  ],
  passes: [
    { name: '16-byte copies to 16-byte slots', ptx: kernel(P, body(16, ['shl.b32 %r2, %r1, 4;', 'mov.u32 %r3, s;', 'add.s32 %r4, %r3, %r2;', 'cp.async.cg.shared.global [%r4], [%rd3], 16;'])) },
    { name: '4-byte copies at any multiple of 4', ptx: kernel(P, body(4, ['cp.async.ca.shared.global [s+8], [%rd3], 4;'])) },
    { name: 'a bulk copy of 256 bytes', ptx: kernel(P, body(16, ['mov.u32 %r5, s;', 'cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r5], 256;'])) },
    { name: 'an unknown source offset is not judged', ptx: kernel(P, body(16, ['ld.global.u32 %r6, [%rd1];', 'cvt.u64.u32 %rd4, %r6;', 'add.s64 %rd5, %rd1, %rd4;', 'cp.async.ca.shared.global [s], [%rd5], 8;'])) },
    ...committedReal(['fixtures/corpus/triton/matmul.ptx', 'fixtures/corpus/handwritten/async_proxy_sm90a.ptx']),
    ...(await nvccReal(['11-cp-async.cu'], 'sm_80')),
    ...(await nvccReal(['11-cp-async.cu'], 'sm_90')),
  ],
});

describeCudaFixtures('F089');
