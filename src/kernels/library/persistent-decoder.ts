// persistent_decoder: a persistent-threads work loop (PAR-036). A fixed grid of
// blocks stays resident; each iteration thread 0 takes the next token from a
// global atomic counter (or the end, if the host set the stop flag), publishes
// it in shared memory, and after a barrier the whole block reads the same value:
// the exit test is uniform, so every thread leaves the loop together. The work
// item is an RMSNorm of the token's hidden vector.
import { ARCHS, blockReduce, type Pred, type U64 } from '../builder/index.js';
import type { DefectDef, KernelDef } from '../kernel.js';
import { elemAddr, f32In, input, launchSpec, output, scalar, size, startModule } from './common.js';
import { rmsnormReference } from './norm-reference.js';

const THREADS = 256;
const EPS = 1e-6;

const DEFECTS: readonly DefectDef[] = [
  {
    /** A pointer parameter declared `.u32` and read with `ld.param.u64` (the seed's stop_flag_ptr); trips F075. */
    name: 'u32-pointer-param',
    bugClass: 'pointer parameter declared .u32 (the seed kernel\'s stop_flag_ptr)',
    check: 'F075',
    description: 'stop_flag is declared .param .u32 but loaded as a 64-bit pointer with ld.param.u64: the load reads '
      + '4 bytes past the parameter (ptxas only says "Potential out of bound access") and the pointer\'s high half is '
      + 'whatever follows',
    ptxasAccepts: true,
  },
];

export const persistentDecoder: KernelDef = {
  name: 'persistent_decoder',
  summary: 'persistent work loop over tokens (atomic work counter, stop flag, uniform exit); RMSNorm per token',
  notes: 'Block of 256 threads (`.reqntid`), grid = min(blocks, num_tokens). Thread 0 fetches a token with '
    + 'atom.global.add on work_counter (zero before launch) and reads stop_flag with ld.volatile; a nonzero flag turns '
    + 'the token into num_tokens (stop). It stores the token in shared memory under its single-thread guard; after the '
    + 'barrier every thread reads it, so `token >= num_tokens` is uniform and the loop exit is taken by the whole '
    + 'block together (no thread leaves before a barrier another thread waits at). The RMSNorm block reduction\'s two '
    + 'barriers also order the next iteration\'s store of the token after this iteration\'s reads. The counter ends at '
    + 'num_tokens + grid blocks (each block takes one token past the end).',
  expectedFindings: {
    F082: 'the output addresses derive from the token that thread 0 broadcasts through shared memory: the standard block broadcast, uniform by construction',
  },
  sizes: [
    { name: 'num_tokens', description: 'tokens (work items)', default: 4096, min: 1 },
    { name: 'hidden', description: 'hidden size (elements per token)', default: 4096, min: 1 },
    { name: 'blocks', description: 'resident blocks (the persistent grid)', default: 132, min: 1 },
  ],
  defects: DEFECTS,
  archs: ARCHS,
  testSizes: [{ num_tokens: 37, hidden: 1000, blocks: 8 }, { num_tokens: 5, hidden: 4096, blocks: 16 }],
  build(opts) {
    const { m, defect } = startModule('persistent_decoder', opts, DEFECTS);
    const slot = m.shared('pd_token', 'u32', 1, 4);
    const scratch = m.shared('pd_red', 'f32', THREADS / 32, 16);
    const stopType = defect === 'u32-pointer-param' ? 'u32' : 'u64';
    m.kernel('persistent_decoder', {
      input: 'u64', gamma: 'u64', output: 'u64', work_counter: 'u64', stop_flag: stopType, num_tokens: 'u32', hidden: 'u32', eps: 'f32',
    }, { reqntid: [THREADS, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const numTokens = k.ldParam(p.num_tokens);
      const hidden = k.ldParam(p.hidden);
      const eps = k.ldParam(p.eps);
      const x = k.globalPtr(p.input);
      const gamma = k.globalPtr(p.gamma);
      const y = k.globalPtr(p.output);
      const counter = k.globalPtr(p.work_counter);
      let stopPtr: U64;
      if (defect === 'u32-pointer-param') {
        // The bug: a 64-bit load of a parameter declared .u32.
        const raw = k.reg('u64');
        k.raw('ld.param.u64', [raw.name, `[${p.stop_flag.name}]`]);
        stopPtr = k.cvtaToGlobal(raw);
      } else {
        stopPtr = k.cvtaToGlobal(k.ldParam({ kind: 'param', name: p.stop_flag.name, type: 'u64' }));
      }
      const slotAddr = k.addrOf(slot);
      const isT0: Pred = k.setp('eq', 'u32', tid, 0);
      const n = k.cvt('f32', 'u32', hidden);
      k.loop('work_loop', (work) => {
        const taken = k.mov('u32', 0);
        const stop = k.mov('u32', 0);
        k.guard(isT0, () => {
          k.atomGlobal('add', 'u32', counter, 1, 0, taken);
          k.ldInto('global', 'u32', stop, stopPtr, 0, { volatile: true });
        });
        const next = k.selp('u32', numTokens, taken, k.setp('ne', 'u32', stop, 0));
        k.guard(isT0, () => k.sts('u32', slotAddr, next));
        k.barSync(0);
        const token = k.lds('u32', slotAddr);
        work.breakIf(k.setp('ge', 'u32', token, numTokens));
        const rowOff = k.shl('b64', k.mulWide('u32', token, hidden), 2);
        const xRow = k.add('u64', x, rowOff);
        const yRow = k.add('u64', y, rowOff);
        const ss = k.mov('f32', 0);
        k.forRange('sq_loop', tid, hidden, (c) => {
          const v = k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true });
          k.fma('f32', v, v, ss, ss);
        }, THREADS);
        const total = blockReduce(k, 'sum', ss, scratch, tid, THREADS / 32);
        const inv = k.rsqrt(k.add('f32', k.div('f32', total, n), eps));
        k.forRange('store_loop', tid, hidden, (c) => {
          const v = k.ld('global', 'f32', elemAddr(k, xRow, c, 4), 0, { nc: true });
          const g = k.ld('global', 'f32', elemAddr(k, gamma, c, 4), 0, { nc: true });
          k.st('global', 'f32', elemAddr(k, yRow, c, 4), k.mul('f32', k.mul('f32', v, inv), g));
        }, THREADS);
      });
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const [tokens, hidden, blocks] = [size(sizes, 'num_tokens'), size(sizes, 'hidden'), size(sizes, 'blocks')];
    return launchSpec({
      kernel: 'persistent_decoder', sizes, grid: [Math.min(blocks, tokens), 1, 1], block: [THREADS, 1, 1],
      args: [input('input', 'f32', tokens * hidden), input('gamma', 'f32', hidden), output('output', 'f32', tokens * hidden),
        { kind: 'buffer', name: 'work_counter', type: 'u32', count: 1, init: 'zeros', role: 'inout', compare: 'exact' },
        input('stop_flag', 'u32', 1, 'zeros'),
        scalar('num_tokens', 'u32', tokens), scalar('hidden', 'u32', hidden), scalar('eps', 'f32', EPS)],
      tolerance: { rel: 1e-4, abs: 1e-6 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const [tokens, hidden, blocks] = [size(sizes, 'num_tokens'), size(sizes, 'hidden'), size(sizes, 'blocks')];
    return {
      output: rmsnormReference(tokens, hidden, f32In(inputs, 'input'), f32In(inputs, 'gamma'), EPS),
      work_counter: Uint32Array.of(tokens + Math.min(blocks, tokens)),
    };
  },
};
