import { F060 } from '../../src/checks/F060-missing-proxy-fence.js';
import { checkCases } from './harness.js';
import { marked, module, PROLOGUE, REAL } from './memory-kernel.js';

const TILE = '.shared .align 128 .b8 tile[4096];';
const STORE = [...PROLOGUE, 'mov.u32 %r4, tile;', 'shl.b32 %r5, %r1, 2;', 'add.s32 %r6, %r4, %r5;', 'st.shared.u32 [%r6], %r1;'];
const TMA_STORE = 'cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r4], 4096;';
const opts = { decls: [TILE], target: 'sm_90a' };

const noFence = module([...STORE, 'bar.sync 0;', `${TMA_STORE} // !`], opts);
const tensorStore = module([...STORE, 'bar.sync 0;', 'cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd2, {%r1, %r1}], [%r4]; // !'], opts);
const reduce = module([...STORE, 'bar.sync 0;', 'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r4], 4096; // !'], opts);
const wgmma = module([
  ...STORE, 'bar.sync 0;', 'wgmma.fence.sync.aligned;',
  'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd3, %rd4, 1, 1, 1, 0, 0; // !',
], opts);
const onePath = module([
  ...STORE, 'setp.eq.u32 %p1, %r3, 0;', '@%p1 bra $skip;', 'fence.proxy.async.shared::cta;', '$skip:', 'bar.sync 0;', `${TMA_STORE} // !`,
], opts);
const loopCarried = module([
  ...PROLOGUE, 'mov.u32 %r4, tile;', 'mov.u32 %r9, 0;', '$loop:', 'fence.proxy.async.shared::cta;', `${TMA_STORE} // !`, 'cp.async.bulk.commit_group;', 'cp.async.bulk.wait_group.read 0;',
  'st.shared.u32 [%r4], %r9;', 'add.s32 %r9, %r9, 1;', 'setp.lt.u32 %p1, %r9, %r3;', '@%p1 bra $loop;',
], opts);
const loopNoFence = loopCarried.replace('fence.proxy.async.shared::cta;\n\tcp.async', 'cp.async');

checkCases(F060, {
  fails: [
    { name: 'st.shared then a TMA store, with only a barrier between', ptx: noFence, lines: marked(noFence) },
    { name: 'st.shared then a tensor TMA store', ptx: tensorStore, lines: marked(tensorStore) },
    { name: 'st.shared then cp.reduce.async.bulk', ptx: reduce, lines: marked(reduce) },
    { name: 'st.shared then wgmma reading shared operands', ptx: wgmma, lines: marked(wgmma) },
    { name: 'the fence on one path only', ptx: onePath, lines: marked(onePath) },
    { name: 'a write at the end of one iteration reaches the next iteration\'s TMA store', ptx: loopNoFence, lines: marked(loopNoFence) },
  ],
  passes: [
    { name: 'the fence between the stores and the barrier', ptx: module([...STORE, 'fence.proxy.async.shared::cta;', 'bar.sync 0;', TMA_STORE], opts) },
    { name: 'a plain fence.proxy.async', ptx: module([...STORE, 'fence.proxy.async;', 'bar.sync 0;', TMA_STORE], opts) },
    { name: 'a loop that fences before each store', ptx: loopCarried },
    { name: 'a TMA store of another variable', ptx: module([...STORE, 'mov.u32 %r7, out;', 'bar.sync 0;', 'cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r7], 1024;'], { ...opts, decls: [TILE, '.shared .align 128 .b8 out[1024];'] }) },
    { name: 'TMA load then TMA store (both async proxy)', ptx: module([...PROLOGUE, 'mov.u32 %r4, tile;', 'mov.u32 %r7, bar;', 'mbarrier.init.shared::cta.b64 [%r7], 1;', 'cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r4], [%rd2], 4096, [%r7];', TMA_STORE], { ...opts, decls: [TILE, '.shared .align 8 .b64 bar;'] }) },
    { name: 'no async-proxy reads', ptx: module([...STORE, 'bar.sync 0;'], opts), na: true },
    { name: 'hand-written TMA and bulk copies', ptx: REAL('fixtures/corpus/handwritten/tma_bulk_tensor_sm90.ptx') },
    { name: 'hand-written async-proxy forms', ptx: REAL('fixtures/corpus/handwritten/async_proxy_sm90a.ptx') },
    { name: 'hand-written wgmma', ptx: REAL('fixtures/corpus/handwritten/wgmma_sm90a.ptx') },
    { name: 'hand-written tcgen05', ptx: REAL('fixtures/corpus/handwritten/tcgen05_sm100a.ptx') },
  ],
});
