import { F057 } from '../../src/checks/F057-scope-too-narrow.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const blockCounter = module([...PROLOGUE, 'atom.global.cta.add.u32 %r5, [%rd1], 1; // !']);
const histogram = module([...PROLOGUE, 'and.b32 %r5, %r1, 255;', 'mul.wide.u32 %rd3, %r5, 4;', 'add.s64 %rd4, %rd1, %rd3;', 'red.global.cta.add.u32 [%rd4], 1; // !']);
const flagPoll = module([...PROLOGUE, '$spin:', 'ld.acquire.cta.global.u32 %r5, [%rd2]; // !', 'setp.eq.u32 %p1, %r5, 0;', '@%p1 bra $spin;']);
const flagPublish = module([...PROLOGUE, 'st.global.f32 [%rd1], %f1;', 'fence.acq_rel.cta; // !', 'atom.global.exch.b32 %r5, [%rd2], 1;']);
const lastBlock = module([...PROLOGUE, 'st.global.f32 [%rd1], %f1;', 'membar.cta; // !', 'atom.global.inc.u32 %r5, [%rd2], 1000;']);
// A grid-wide flag polled with volatile loads behind membar.cta in the spin loop.
const spinOnFlag = module([...PROLOGUE, '$spin:', 'membar.cta; // !', 'ld.volatile.global.u32 %r5, [%rd2];', 'setp.eq.u32 %p1, %r5, 0;', '@%p1 bra $spin;']);
// CUB's decoupled look-back (onesweep): a grid-wide tile counter taken once, then a spin on
// another CTA's slot (indexed by the loaded tile id) with membar.cta as a compiler barrier.
const lookback = module([...PROLOGUE, 'atom.global.add.u32 %r5, [%rd2], 1;', 'add.s32 %r6, %r5, -1;', 'mul.wide.s32 %rd3, %r6, 4;', 'add.s64 %rd4, %rd1, %rd3;',
  '$spin:', 'membar.cta;', 'ld.volatile.global.u32 %r7, [%rd4];', 'setp.eq.u32 %p1, %r7, 0;', '@%p1 bra $spin;']);
const release = module([...PROLOGUE, 'st.release.cta.global.u32 [%rd2+4], %r1; // !']);

checkCases(F057, {
  fails: [
    { name: 'atomicAdd_block on a grid-wide counter', ptx: blockCounter, lines: marked(blockCounter) },
    { name: 'a .cta reduction into a histogram every block shares', ptx: histogram, lines: marked(histogram) },
    { name: 'a flag polled with ld.acquire.cta', ptx: flagPoll, lines: marked(flagPoll) },
    { name: 'data published with fence.acq_rel.cta before the flag', ptx: flagPublish, lines: marked(flagPublish) },
    { name: '__threadfence_block before the last-block counter', ptx: lastBlock, lines: marked(lastBlock) },
    { name: 'a release store with .cta scope on a shared flag', ptx: release, lines: marked(release) },
    { name: 'membar.cta in a loop spinning on a grid-wide flag', ptx: spinOnFlag, lines: marked(spinOnFlag) },
  ],
  passes: [
    {
      name: 'atomicAdd_block on the block\'s own slot (counter[blockIdx.x])',
      ptx: module([...PROLOGUE, 'mov.u32 %r5, %ctaid.x;', 'mul.wide.u32 %rd3, %r5, 4;', 'add.s64 %rd4, %rd1, %rd3;', 'atom.global.cta.add.u32 %r6, [%rd4], 1;']),
    },
    { name: 'a .cta atomic on shared memory', ptx: module(['mov.u32 %r4, sm;', 'atom.shared.cta.add.u32 %r5, [%r4], 1;'], { decls: ['.shared .align 4 .u32 sm[1];'] }) },
    { name: '__threadfence before the last-block counter (nothing .cta)', ptx: module([...PROLOGUE, 'st.global.f32 [%rd1], %f1;', 'membar.gl;', 'atom.global.inc.u32 %r5, [%rd2], 1000;']), na: true },
    { name: 'a .cta fence with only per-block data', ptx: module([...PROLOGUE, 'mov.u32 %r4, sm;', 'st.shared.u32 [%r4], %r1;', 'fence.acq_rel.cta;', 'ld.shared.u32 %r5, [%r4];'], { decls: ['.shared .align 4 .u32 sm[1];'] }) },
    { name: 'a .cta fence next to a .gpu one', ptx: module([...PROLOGUE, 'st.global.f32 [%rd1], %f1;', 'membar.cta;', 'membar.gl;', 'atom.global.inc.u32 %r5, [%rd2], 1000;']) },
    { name: 'membar.cta in a loop spinning on a per-CTA look-back slot, after a grid-wide tile counter (CUB onesweep)', ptx: lookback },
    { name: 'no .cta scope', ptx: module([...PROLOGUE, 'atom.global.add.u32 %r5, [%rd1], 1;']), na: true },
    { name: 'llc output with membar.cta next to membar.gl', ptx: REAL('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx') },
  ],
});
