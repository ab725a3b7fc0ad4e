import { F094 } from '../../src/checks/F094-redundant-fence.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const ST = [...PROLOGUE, 'st.global.u32 [%rd1], %r1;'];

const same = module([...ST, 'fence.acq_rel.gpu;', 'fence.acq_rel.gpu; // !', 'st.global.u32 [%rd2], %r1;']);
const weaker = module([...ST, 'fence.sc.sys;', 'membar.cta; // !', 'st.global.u32 [%rd2], %r1;']);
const proxy = module([...ST, 'fence.proxy.async.shared::cta;', 'fence.proxy.async.shared::cta; // !']);
const paths = module([...ST, 'membar.gl;', 'setp.eq.u32 %p1, %r3, 0;', '@%p1 bra $b;', 'add.s32 %r5, %r1, 1;', '$b:', 'fence.acq_rel.gpu; // !', 'st.global.u32 [%rd2], %r1;']);

checkCases(F094, {
  fails: [
    { name: 'the same fence twice', ptx: same, lines: marked(same) },
    { name: 'a weaker fence after a stronger one', ptx: weaker, lines: marked(weaker) },
    { name: 'a proxy fence twice', ptx: proxy, lines: marked(proxy) },
    { name: 'membar.gl covers fence.acq_rel.gpu on both paths', ptx: paths, lines: marked(paths) },
  ],
  passes: [
    { name: 'a stronger fence after a weaker one', ptx: module([...ST, 'fence.acq_rel.cta;', 'fence.sc.gpu;']) },
    { name: 'a wider scope after a narrower one', ptx: module([...ST, 'membar.cta;', 'membar.gl;']) },
    { name: 'an access between', ptx: module([...ST, 'membar.gl;', 'st.global.u32 [%rd2], %r1;', 'membar.gl;']) },
    { name: 'different proxy fences', ptx: module([...ST, 'fence.proxy.async.shared::cta;', 'fence.proxy.async.global;']) },
    { name: 'an access on one path', ptx: module([...ST, 'membar.gl;', 'setp.eq.u32 %p1, %r3, 0;', '@%p1 bra $b;', 'ld.global.u32 %r5, [%rd2];', '$b:', 'membar.gl;']) },
    { name: 'no fences', ptx: module(ST), na: true },
    { name: 'llc output (membar.cta, .gl, .sys in a row: each stronger)', ptx: REAL('fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx') },
    { name: 'hand-written TMA (proxy fences around copies)', ptx: REAL('fixtures/corpus/handwritten/tma_bulk_tensor_sm90.ptx') },
  ],
});
