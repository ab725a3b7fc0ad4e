import { F061 } from '../../src/checks/F061-missing-terminator.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, failing, kernel, LLC, nvccReal, TRITON } from './flow-kernel.js';

checkCases(F061, {
  fails: [
    failing('a body that ends without ret', kernel('.param .u64 a', ['ld.param.u64 %rd1, [a];', 'st.global.u32 [%rd1], 0; //!'])),
    failing('a guarded ret as the last instruction', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 ret; //!'])),
    failing('a guarded bra as the last instruction', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'L:', 'add.u32 %r1, %r1, 1;', 'setp.lt.u32 %p1, %r1, 9;', '@%p1 bra L; //!'])),
    failing('a device function that falls off after a call', kernel('', ['mov.u32 %r1, 1; //!'], { func: true })),
    { name: 'an empty body falls off at once (reported at the name)', ptx: kernel('', []).replace(`\t${'.reg'}`, '//'), lines: [4] },
  ],
  passes: [
    { name: 'ret, exit and trap end paths', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 bra A;', 'setp.eq.u32 %p2, %r1, 1;', '@%p2 exit;', 'trap;', 'A:', 'ret;']) },
    { name: 'an unconditional bra back into the body', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'L:', 'setp.eq.u32 %p1, %r1, 0;', '@%p1 ret;', 'add.u32 %r1, %r1, -1;', 'bra.uni L;']) },
    { name: 'unreachable tail after ret is not a path', ptx: kernel('', ['ret;', 'mov.u32 %r1, 1;']) },
    { name: 'a call of a .noreturn function ends the path', ptx: kernel('', ['call.uni abort_now, ();'], { prelude: '.extern .func abort_now() .noreturn;' }) },
    ...committedReal([EXAMPLE, ...TRITON, ...LLC]),
    ...(await nvccReal(['01-elementwise-add.cu', '13-noinline-device-functions.cu', '28-switch-dispatch.cu'])),
  ],
});
