// F060: shared memory written through the generic proxy (`st.shared`) and
// then read by the async proxy (TMA store, bulk copy, wgmma/tcgen05 operands)
// with no `fence.proxy.async` between.
import type { FunctionModel, VariableSymbol } from '../cfg/symbols.js';
import { affineAnalysis, type AffineFacts } from '../cfg/dataflow/affine.js';
import { solve } from '../cfg/dataflow/solver.js';
import { assumptionsAndSilencing, memoryAccesses, opText } from './memory.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

const SPACES = new Set(['.global', '.shared', '.shared::cta', '.shared::cluster']);

/** What an instruction does to the async-proxy state. */
type Event =
  | { readonly kind: 'write'; readonly v: VariableSymbol | undefined }
  | { readonly kind: 'fence' }
  | { readonly kind: 'consume'; readonly v: VariableSymbol | undefined; readonly what: string };

function sharedVar(af: AffineFacts, index: number, which: number): VariableSymbol | undefined {
  const f = af.addressOf(index, which);
  const b = f === undefined ? undefined : af.baseOf(f).base;
  return b !== undefined && b.variable.space === '.shared' ? b.variable : undefined;
}

function events(ctx: CheckContext, fn: FunctionModel): Map<number, Event> {
  const out = new Map<number, Event>();
  let af: AffineFacts | undefined;
  const aff = (): AffineFacts => (af ??= ctx.analysis.get(fn, affineAnalysis));
  for (const a of memoryAccesses(ctx.analysis, fn)) {
    if (a.kind === 'load' || a.space !== 'shared') continue;
    if (a.ins.node.modifiers.includes('.async')) continue;
    out.set(a.index, { kind: 'write', v: a.form === undefined ? undefined : aff().baseOf(a.form).base?.variable });
  }
  for (const ins of fn.instructions) {
    const n = ins.node;
    const m = n.modifiers;
    if (n.opcode === 'fence' && m[0] === '.proxy' && m[1] === '.async' && !m.includes('.global')) {
      out.set(ins.index, { kind: 'fence' });
    } else if (n.opcode === 'stmatrix') {
      out.set(ins.index, { kind: 'write', v: sharedVar(aff(), ins.index, 0) });
    } else if (n.opcode === 'cp' && m.includes('.bulk') && m.includes('.async') && !m.includes('.prefetch')) {
      const spaces = m.filter((x) => SPACES.has(x));
      const src = spaces[1];
      if (src === '.shared::cta' || src === '.shared') out.set(ins.index, { kind: 'consume', v: sharedVar(aff(), ins.index, 1), what: 'its shared source' });
    } else if (n.opcode === 'wgmma' && m.includes('.mma_async')) {
      out.set(ins.index, { kind: 'consume', v: undefined, what: 'its shared-memory operands (descriptors)' });
    } else if (n.opcode === 'tcgen05' && (m.includes('.mma') || m.includes('.cp'))) {
      out.set(ins.index, { kind: 'consume', v: undefined, what: 'its shared-memory operands (descriptors)' });
    }
  }
  return out;
}

const UNKNOWN = 0;

export const F060: Check = {
  meta: {
    id: 'F060',
    name: 'missing-proxy-fence',
    category: 'memory',
    severity: 'high',
    points: 1,
    description: 'Shared memory written through the generic proxy (`st.shared`, shared atomics, `stmatrix`) is then read by the async proxy (a TMA or bulk store, `cp.reduce.async.bulk`, `wgmma`/`tcgen05` operands) with no `fence.proxy.async` between on some path.',
    rationale: 'The async proxy (TMA, bulk copies, wgmma) does not see generic-proxy writes without a proxy fence: the bulk store may copy the tile\'s old contents to global memory, or wgmma may multiply stale operands, with no error.',
    remedy: 'Execute `fence.proxy.async.shared::cta` (`cuda::device::experimental::fence_proxy_async_shared_cta()`) in the writing threads after their shared stores and before the barrier that hands the buffer to the thread issuing the TMA store or wgmma.',
    notes: 'Precise rule: a forward may-analysis per function of the shared variables written through the generic proxy since the last '
      + '`fence.proxy.async` (without a state space, or with a shared one; `fence.proxy.async.global` does not count). Generic writes: `st` '
      + '(not `st.async`), `atom` and `red` whose state space is `.shared` (named, or a generic address whose provenance is shared only), and '
      + '`stmatrix`; the variable comes from the affine address (unknown: any variable). Async-proxy reads: `cp.async.bulk` and '
      + '`cp.reduce.async.bulk` (plain or `.tensor`) whose source space is `.shared::cta` (their second address), and `wgmma.mma_async`, '
      + '`tcgen05.mma`, `tcgen05.cp`, whose shared operands are descriptors (any variable). Fails where such a read meets a pending write of its '
      + 'variable (or of an unknown one). Barriers do not clear the state: the fence must come from the writing threads. Async-proxy writes '
      + '(TMA loads) followed by async-proxy reads need no fence and are not reported. n/a when nothing reads shared memory through the async proxy.'
      + assumptionsAndSilencing('F060', 'none about the block.'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 128 .b8 tile[1024];\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, tile;\n\tmov.u32 %r2, %tid.x;\n\tst.shared.u32 [%r1], %r2;\n\tbar.sync 0;\n'
        + '\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 1024;\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 128 .b8 tile[1024];\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, tile;\n\tmov.u32 %r2, %tid.x;\n\tst.shared.u32 [%r1], %r2;\n\tfence.proxy.async.shared::cta;\n\tbar.sync 0;\n'
        + '\tcp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 1024;\n\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let consumers = 0;
    for (const fn of ctx.functions) {
      const ev = events(ctx, fn);
      if (![...ev.values()].some((e) => e.kind === 'consume')) continue;
      const bits = new Map<VariableSymbol, number>();
      const bit = (v: VariableSymbol | undefined): number => {
        if (v === undefined) return UNKNOWN;
        let b = bits.get(v);
        if (b === undefined) bits.set(v, (b = bits.size + 1));
        return b;
      };
      for (const e of ev.values()) if (e.kind !== 'fence') bit(e.v);
      const words = ((bits.size + 1) >> 5) + 1;
      const step = (s: Uint32Array, e: Event | undefined): void => {
        if (e === undefined) return;
        if (e.kind === 'fence') s.fill(0);
        else if (e.kind === 'write') { const b = bit(e.v); s[b >> 5]! |= 1 << (b & 31); }
      };
      const cfg = ctx.analysis.cfg(fn);
      const result = solve(cfg, {
        site: 'F060', direction: 'forward',
        boundary: () => new Uint32Array(words),
        initial: () => new Uint32Array(words),
        join: (a, b) => a.map((x, k) => x | b[k]!),
        equals: (a, b) => a.every((x, k) => x === b[k]),
        transfer: (block, input) => {
          const s = input.slice();
          for (let i = block.start; i < block.end; i++) step(s, ev.get(i));
          return s;
        },
      });
      const has = (s: Uint32Array, b: number): boolean => (s[b >> 5]! & (1 << (b & 31))) !== 0;
      const writes = [...ev.entries()].filter(([, e]) => e.kind === 'write');
      for (const block of cfg.blocks) {
        if (!block.reachable) continue;
        const s = result.atStart[block.id]!.slice();
        for (let i = block.start; i < block.end; i++) {
          const e = ev.get(i);
          if (e?.kind === 'consume') {
            consumers++;
            const pending = e.v === undefined ? s.some((x) => x !== 0) : has(s, bit(e.v)) || has(s, UNKNOWN);
            if (pending) {
              const w = writes.find(([, x]) => x.kind === 'write' && (e.v === undefined || x.v === undefined || x.v === e.v));
              const wi = w === undefined ? undefined : fn.instructions[w[0]]!;
              const ins = fn.instructions[i]!;
              out.push({
                message: `${opText(ins)} reads ${e.v !== undefined ? `${e.v.name} (${e.what})` : e.what} through the async proxy, but shared memory `
                  + `written through the generic proxy${wi !== undefined ? ` (${opText(wi)} at line ${wi.node.range.line})` : ''} reaches it with no fence.proxy.async between`,
                location: ctx.locate(ins.node.range, fn, i),
                function: fn.name,
                ...(wi !== undefined ? { related: [{ location: ctx.locate(wi.node.range, fn, wi.index), message: `${opText(wi)} writes through the generic proxy` }] } : {}),
              });
            }
          }
          step(s, e);
        }
      }
    }
    if (consumers === 0) return na('nothing reads shared memory through the async proxy');
    return found(out);
  },
};
