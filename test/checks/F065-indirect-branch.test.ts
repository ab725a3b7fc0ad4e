import { F065 } from '../../src/checks/F065-indirect-branch.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, nvccReal } from './flow-kernel.js';

checkCases(F065, {
  fails: [
    failing('brx.idx through a code label', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'brx.idx %r1, L0; //!', 'L0:', 'ret;'])),
    failing('a .branchtargets entry that names another table', kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'T2: .branchtargets L0;', 'T: .branchtargets L0, T2;', 'brx.idx %r1, T; //!', 'L0:', 'ret;'])),
    failing('an indirect call with neither list nor prototype', kernel('.param .u64 f', ['ld.param.u64 %rd1, [f];', 'call.uni %rd1, (); //!', 'ret;'])),
    failing('an indirect call through a register, twice', kernel('.param .u64 f', ['ld.param.u64 %rd1, [f];', 'call %rd1, (); //!', 'call.uni %rd1, (); //!', 'ret;'])),
  ],
  passes: [
    { name: 'a jump table', ptx: kernel('.param .u32 n', ['ld.param.u32 %r1, [n];', 'T: .branchtargets L0, L1;', 'brx.idx %r1, T;', 'L0:', 'ret;', 'L1:', 'ret;']) },
    { name: 'an indirect call with a prototype', ptx: kernel('.param .u64 f', ['ld.param.u64 %rd1, [f];', 'P: .callprototype _ ();', 'call.uni %rd1, (), P;', 'ret;']) },
    { name: 'an indirect call with a .calltargets list', ptx: kernel('.param .u64 f', ['ld.param.u64 %rd1, [f];', 'T: .calltargets g;', 'call.uni %rd1, (), T;', 'ret;'], { prelude: '.func g()\n{\n\tret;\n}' }) },
    { name: 'direct calls and plain branches are not judged', ptx: kernel('', ['call.uni g, ();', 'ret;'], { prelude: '.func g()\n{\n\tret;\n}' }), na: true },
    ...committedReal(['fixtures/corpus/llvm/ptx/switch_select_ints.sm_80.O0.ptx']).map((c) => ({ ...c, na: true })),
    ...(await nvccReal(['27-function-pointers.cu', '28-switch-dispatch.cu'])),
  ],
});
