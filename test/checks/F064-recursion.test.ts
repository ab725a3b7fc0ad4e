import { F064 } from '../../src/checks/F064-recursion.js';
import { checkCases } from './harness.js';
import { committedReal, EXAMPLE, kernel, marked, nvccReal, TRITON } from './flow-kernel.js';
import { describeCudaFixtures } from './labelled-cuda.js';

const MUTUAL = [
  '.version 8.0', '.target sm_90', '.address_size 64',
  '.func odd(.param .b32 n);',
  '.func even(.param .b32 n)', '{', '\t.reg .b32 %r<2>;', '\tld.param.b32 %r1, [n];', '\t{', '\t.param .b32 a;', '\tst.param.b32 [a], %r1;',
  '\tcall.uni odd, (a); //!', '\t}', '\tret;', '}',
  '.func odd(.param .b32 n)', '{', '\t.reg .b32 %r<2>;', '\tld.param.b32 %r1, [n];', '\t{', '\t.param .b32 a;', '\tst.param.b32 [a], %r1;',
  '\tcall.uni even, (a); //!', '\t}', '\tret;', '}', '',
].join('\n');

const SELF = kernel('.param .b32 n', ['ld.param.b32 %r1, [n];', '{', '.param .b32 a;', 'st.param.b32 [a], %r1;', 'call.uni k, (a); //!', '}', 'ret;'], { func: true });

const THROUGH_TABLE = [
  '.version 8.0', '.target sm_90', '.address_size 64',
  '.func f();',
  '.func g()', '{', '\tcall.uni f, (); //!', '\tret;', '}',
  '.func f()', '{', '\t.reg .b64 %rd<2>;', '\tmov.u64 %rd1, g;', 'T: .calltargets g;', '\tcall.uni %rd1, (), T; //!', '\tret;', '}', '',
].join('\n');

checkCases(F064, {
  fails: [
    { name: 'a function calling itself', ptx: SELF, lines: marked(SELF) },
    { name: 'mutual recursion: both call sites', ptx: MUTUAL, lines: marked(MUTUAL) },
    { name: 'a cycle through an indirect call\'s .calltargets', ptx: THROUGH_TABLE, lines: marked(THROUGH_TABLE) },
  ],
  passes: [
    { name: 'a call chain without a cycle', ptx: kernel('', ['call.uni g, ();', 'ret;'], { prelude: '.func h()\n{\n\tret;\n}\n.func g()\n{\n\tcall.uni h, ();\n\tret;\n}' }) },
    { name: 'two kernels calling one helper', ptx: kernel('', ['call.uni g, ();', 'ret;'], { prelude: '.func g()\n{\n\tret;\n}' }) },
    { name: 'an indirect call without targets takes no part', ptx: kernel('', ['mov.u64 %rd1, k;', 'P: .callprototype _ ();', 'call.uni %rd1, (), P;', 'ret;'], { func: true }) },
    ...committedReal([EXAMPLE, ...TRITON]),
    ...(await nvccReal(['13-noinline-device-functions.cu', '27-function-pointers.cu', '15-printf.cu'])),
  ],
});

describeCudaFixtures('F064');
