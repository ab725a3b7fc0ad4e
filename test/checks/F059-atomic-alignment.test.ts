import { F059 } from '../../src/checks/F059-atomic-alignment.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const C = '.shared .align 8 .b8 counters[256];';

const u64Off4 = module(['mov.u32 %r4, counters;', 'atom.shared.add.u64 %rd5, [%r4+4], 1; // !'], { decls: [C] });
const globalStruct = module([...PROLOGUE, 'mul.wide.u32 %rd3, %r1, 16;', 'add.s64 %rd4, %rd1, %rd3;', 'red.global.add.u64 [%rd4+12], 1; // !']);
const cas = module([...PROLOGUE, 'atom.global.cas.b64 %rd5, [%rd1+2], 0, 1; // !']);
const lanes = module([...PROLOGUE, 'mov.u32 %r4, counters;', 'mad.lo.s32 %r5, %r1, 4, %r4;', 'atom.shared.exch.b64 %rd5, [%r5], 0; // !'], { decls: [C] });
const wrongSpace = module([...PROLOGUE, 'atom.shared.add.u32 %r5, [%rd1], 1; // !']);
const sharedAsGlobal = module(['mov.u64 %rd3, counters;', 'atom.global.add.u32 %r5, [%rd3], 1; // !'], { decls: [C] });

checkCases(F059, {
  fails: [
    { name: 'a u64 shared atomic 4 bytes into an 8-aligned array', ptx: u64Off4, lines: marked(u64Off4) },
    { name: 'a u64 red.global 12 bytes into 16-byte elements', ptx: globalStruct, lines: marked(globalStruct) },
    { name: 'a 64-bit CAS 2 bytes past a kernel pointer', ptx: cas, lines: marked(cas) },
    { name: 'b64 exchanges 4 bytes apart across lanes', ptx: lanes, lines: marked(lanes) },
    { name: 'atom.shared on a kernel pointer (global)', ptx: wrongSpace, lines: marked(wrongSpace) },
    { name: 'atom.global on a shared window address', ptx: sharedAsGlobal, lines: marked(sharedAsGlobal) },
  ],
  passes: [
    { name: 'u64 atomics on 8-byte slots', ptx: module([...PROLOGUE, 'mov.u32 %r4, counters;', 'mad.lo.s32 %r5, %r1, 8, %r4;', 'atom.shared.add.u64 %rd5, [%r5], 1;'], { decls: [C] }) },
    { name: 'u32 atomics on a kernel pointer', ptx: module([...PROLOGUE, 'mul.wide.u32 %rd3, %r1, 4;', 'add.s64 %rd4, %rd1, %rd3;', 'atom.global.add.u32 %r5, [%rd4], 1;']) },
    { name: 'a generic atomic on a shared address', ptx: module(['mov.u64 %rd3, counters;', 'cvta.shared.u64 %rd4, %rd3;', 'atom.add.u32 %r5, [%rd4], 1;'], { decls: [C] }) },
    { name: 'an atomic through a loaded pointer (nothing known)', ptx: module([...PROLOGUE, 'ld.global.u64 %rd5, [%rd1];', 'atom.global.add.u64 %rd6, [%rd5+4], 1;']) },
    { name: 'no atomics', ptx: module([...PROLOGUE, 'ld.global.u32 %r5, [%rd1];']), na: true },
    { name: 'hand-written atomics', ptx: REAL('fixtures/corpus/handwritten/memory_atomics_sm80.ptx') },
    { name: 'Triton histogram', ptx: REAL('fixtures/corpus/triton/histogram.ptx') },
  ],
});
