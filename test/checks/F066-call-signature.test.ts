import { F066 } from '../../src/checks/F066-call-signature.js';
import { checkCases } from './harness.js';
import { committedReal, failing, kernel, nvccReal } from './flow-kernel.js';
import { lineOf } from '../helpers/analysis.js';
import { compileLlvm, LLC, toolMissing } from '../helpers/toolchain.js';

// Real compiler output that fails: llc's PTX for a call through a callee bitcast to a two-argument type.
const LLC_FAIL = 'fixtures/checks/F066/fails/arg-count-bitcast.ll';
const llcMissing = toolMissing(LLC);
const mismatched = llcMissing === undefined ? await compileLlvm(LLC_FAIL, 'sm_80') : undefined;
if (llcMissing !== undefined) console.log(`F066: the llc case is skipped: ${llcMissing}`);

const F = '.func (.param .b32 r) f(.param .b32 a, .param .align 8 .b8 s[16])\n{\n\tst.param.b32 [r], 0;\n\tret;\n}';
const call = (decls: string[], site: string): string[] => ['{', ...decls, site, '}', 'ret;'];

checkCases(F066, {
  fails: [
    failing('too few arguments', kernel('', call(['.param .b32 p0;', '.param .b32 rv;'], 'call.uni (rv), f, (p0); //!'), { prelude: F })),
    failing('a 64-bit scalar for a 32-bit one', kernel('', call(['.param .b64 p0;', '.param .align 8 .b8 p1[16];', '.param .b32 rv;'], 'call.uni (rv), f, (p0, p1); //!'), { prelude: F })),
    failing('an array of another alignment', kernel('', call(['.param .b32 p0;', '.param .align 4 .b8 p1[16];', '.param .b32 rv;'], 'call.uni (rv), f, (p0, p1); //!'), { prelude: F })),
    failing('a missing return value', kernel('', call(['.param .b32 p0;', '.param .align 8 .b8 p1[16];'], 'call.uni f, (p0, p1); //!'), { prelude: F })),
    failing('a 64-bit register for a 32-bit parameter', kernel('', ['call.uni g, (%rd1); //!', 'ret;'], { prelude: '.func g(.param .b32 a)\n{\n\tret;\n}' })),
    ...(mismatched !== undefined ? [{ name: `llc output: ${LLC_FAIL}`, ptx: mismatched, lines: [lineOf(mismatched, 'call.uni')] }] : []),
    failing('an indirect call against its prototype', kernel('.param .u64 fp', ['ld.param.u64 %rd1, [fp];', 'P: .callprototype _ (.param .b32 _);', 'call.uni %rd1, (), P; //!', 'ret;'])),
  ],
  passes: [
    { name: 'sizes agree (b32 for f32, arrays of equal size and alignment)', ptx: kernel('', call(['.param .f32 p0;', '.param .align 8 .b8 p1[16];', '.param .b32 rv;'], 'call.uni (rv), f, (p0, p1);'), { prelude: F }) },
    { name: 'registers and immediates as arguments', ptx: kernel('', ['call.uni g, (%r1);', 'call.uni g, (7);', 'ret;'], { prelude: '.func g(.param .b32 a)\n{\n\tret;\n}' }) },
    { name: 'a variadic (unsized) last parameter', ptx: kernel('', call(['.param .b32 p0;', '.param .align 8 .b8 p1[24];'], 'call.uni v, (p0, p1);'), { prelude: '.func v(.param .b32 a, .param .align 8 .b8 rest[])\n{\n\tret;\n}' }) },
    { name: 'an indirect call matching its prototype', ptx: kernel('.param .u64 fp', ['ld.param.u64 %rd1, [fp];', 'P: .callprototype _ (.param .b32 _);', '{', '.param .b32 a;', 'call.uni %rd1, (a), P;', '}', 'ret;']) },
    ...committedReal(['fixtures/corpus/llvm/ptx/recursion_local.sm_80.ptx', 'fixtures/corpus/llvm/ptx/recursion_local.sm_80.O0.ptx']),
    ...(await nvccReal(['13-noinline-device-functions.cu', '15-printf.cu', '27-function-pointers.cu', '14-recursion.cu'])),
  ],
});
