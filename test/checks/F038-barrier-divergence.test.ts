// F038 on the fixture synccheck confirmed on an H200 (bar.sync at line 25
// skipped by live threads), its fixed version, and real compiler output.
import { readFileSync } from 'node:fs';
import { F038 } from '../../src/checks/F038-barrier-divergence.js';
import { emitKernel } from '../../src/kernels/emit.js';
import { checkCases } from './harness.js';

const read = (f: string): string => readFileSync(f, 'utf8');
const H = '.version 8.0\n.target sm_90\n.address_size 64\n';

checkCases(F038, {
  fails: [
    { name: 'bar.sync skipped by live threads with tid >= 16', ptx: read('fixtures/gpu/barrier-divergence.ptx'), lines: [25] },
  ],
  passes: [
    { name: 'every thread reaches the barrier', ptx: read('fixtures/gpu/barrier-divergence-fixed.ptx') },
    { name: 'nvcc block reduction', ptx: read('examples/block-reduce.ptx') },
    { name: 'the clean tiled GEMM (guards the body, not the barrier)', ptx: emitKernel('gemm_tiled', { arch: 'sm_90' }).ptx },
    {
      name: 'an exit-only bypass: threads past the bound exit before the barrier',
      ptx: `${H}.visible .entry k(.param .u32 n)\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, %tid.x;\n\tsetp.ge.u32 %p1, %r2, %r1;\n\t@%p1 exit;\n\tbar.sync 0;\n\tret;\n}\n`,
    },
  ],
});
