import { F075 } from '../../src/checks/F075-param-load-width.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

checkCases(F075, {
  fails: [
    failing('a pointer declared .u32, loaded as .u64', kernel('.param .u32 flag', ['ld.param.u64 %rd1, [flag]; //!', 'ret;'])),
    failing('an offset past a struct parameter', kernel('.param .align 4 .b8 s[8]', ['ld.param.u32 %r1, [s+4];', 'ld.param.u32 %r2, [s+8]; //!', 'ret;'])),
    failing('a vector load past the end', kernel('.param .align 8 .b8 s[12]', ['ld.param.v2.u64 {%rd1, %rd2}, [s]; //!', 'ret;'])),
    failing('a device function reading its return parameter too wide', kernel('.param .b32 a', ['ld.param.b64 %rd1, [a]; //!', 'ret;'], { func: true })),
  ],
  passes: [
    { name: 'widths that fit', ptx: kernel('.param .u64 p, .param .align 4 .b8 s[8]', ['ld.param.u64 %rd1, [p];', 'ld.param.u32 %r1, [s+4];', 'ld.param.v2.u32 {%r2, %r3}, [s];', 'ret;']) },
    { name: 'a narrower read', ptx: kernel('.param .u64 p', ['ld.param.u32 %r1, [p+4];', 'ret;']) },
    { name: 'no named parameter read', ptx: kernel('', ['ret;']), na: true },
    ...committedReal([EXAMPLE, ...TRITON]),
    ...(await nvccReal(['13-noinline-device-functions.cu', '15-printf.cu', '29-templates.cu'])),
  ],
});

describeCudaFixtures('F075');
