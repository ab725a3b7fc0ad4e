// F044: global data stores are published to other CTAs (an atomic ticket
// whose result decides who reads them, or a flag store other CTAs poll) with
// no `membar.gl`/`fence.*.gpu`/release between the data and the signal.
import type { FunctionModel } from '../cfg/symbols.js';
import { effects } from '../cfg/dataflow/effects.js';
import { cutFreeReach, syncFactsAnalysis } from './sync-facts.js';
import { baseKey, isGlobalAccess } from './global-memory.js';
import { flowsTo } from './value-chains.js';
import type { CheckContext, Check, Finding } from './types.js';
import { found, na } from './types.js';

/** A fence at GPU or system scope (`membar.gl`, `membar.sys`, `fence.sc.gpu`, `fence.acq_rel.sys` ...). */
function isDeviceFence(mods: readonly string[], opcode: string): boolean {
  if (opcode === 'membar') return mods.includes('.gl') || mods.includes('.sys');
  if (opcode !== 'fence') return false;
  if (mods.some((m) => m.startsWith('.proxy') || m === '.mbarrier_init')) return false;
  return mods.includes('.gpu') || mods.includes('.sys') || !mods.some((m) => m === '.cta' || m === '.cluster');
}

/** Release semantics at GPU or system scope on the signal itself. */
function releases(mods: readonly string[]): boolean {
  return (mods.includes('.release') || mods.includes('.acq_rel')) && !mods.includes('.cta') && !mods.includes('.cluster');
}

interface Signal { index: number; kind: 'ticket' | 'flag'; decision?: number }

function signalsOf(ctx: CheckContext, fn: FunctionModel): Signal[] {
  const out: Signal[] = [];
  const facts = ctx.analysis.get(fn, syncFactsAnalysis);
  for (const i of fn.instructions) {
    const n = i.node;
    if (releases(n.modifiers)) continue;
    if (n.opcode === 'atom' && isGlobalAccess(ctx.analysis, fn, i.index)) {
      const dst = effects(fn, i).defs[0];
      if (dst === undefined) continue;
      // A ticket: its result decides something (a branch, or a value broadcast through shared memory).
      const decision = flowsTo(ctx.analysis, fn, i.index, dst, (u, r) => {
        const un = fn.instructions[u]!.node;
        if (un.opcode === 'bra' || un.opcode === 'ret' || un.opcode === 'exit') return un.guard !== undefined && un.guard.predicate === r.name;
        return un.opcode === 'st' && un.modifiers.includes('.shared');
      });
      if (decision !== undefined) out.push({ index: i.index, kind: 'ticket', decision });
    } else if (n.opcode === 'st' && (n.modifiers.includes('.volatile') || n.modifiers.includes('.relaxed')) && isGlobalAccess(ctx.analysis, fn, i.index)) {
      const f = facts.affine().addressOf(i.index);
      const lane = f === undefined ? undefined : facts.affine().laneStride(f);
      if (lane !== undefined && lane.stride === 0) out.push({ index: i.index, kind: 'flag' });
    }
  }
  return out;
}

export const F044: Check = {
  meta: {
    id: 'F044',
    name: 'missing-release-fence',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'Global data stores are followed by a flag store or atomic that publishes them to other CTAs, with no `membar.gl`/`fence.*.gpu`/`.release` between.',
    rationale: 'Stores from one SM become visible to others in no particular order: a CTA that sees the flag (or the last ticket) may still '
      + 'read the old data. `__syncthreads()` orders only the CTA; publishing to other CTAs needs `__threadfence()` or a release.',
    remedy: 'Put `__threadfence()` (`membar.gl` / `fence.sc.gpu`) after the data stores and before the atomic or flag store, or make the '
      + 'signal a release (`atom.release.gpu`, `st.release.gpu`; `cuda::atomic_ref` with `memory_order_release`).',
    notes: 'A signal is (1) a global atomic without release semantics whose result decides something (it flows, through arithmetic, into '
      + 'a branch condition or into a `st.shared` broadcast: the "last block" ticket of a threadfence reduction), or (2) a `.volatile`/'
      + '`.relaxed` global store to an address equal across the lanes of a warp (a flag). It publishes data only when the kernel '
      + 'reads the data back: a global load based on the same kernel parameter or `.global` variable as the data store, reachable from '
      + 'a ticket (the last block reads what the others published), or anywhere in a kernel that also loads the flag (another CTA polls '
      + 'it, then reads the data); a work counter that only hands out tiles publishes nothing. The data store then fails when a path '
      + 'runs from it to the signal with no `membar.gl`/`membar.sys`/`fence` at GPU or system scope (`membar.cta`, `fence.*.cta` and '
      + '`bar.sync` order only the CTA). Located at the signal, with the data store as related location. Known miss: a relaxed `cuda::atomic_ref<int, thread_scope_device>::store(1, memory_order_relaxed)` (`st.relaxed.gpu`) as the signal is reported when the same kernel also polls the flag and reads the data back, but not in a producer-only kernel whose consumer is another kernel: nothing in the module shows the store is a flag (fixtures/checks/F044/fails/relaxed-flag.cu marks it `known-miss`).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 part, .param .u64 count, .param .u64 out)\n.reqntid 32, 1, 1\n{\n'
        + '\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<9>;\n\tld.param.u64 %rd1, [part];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.param.u64 %rd3, [count];\n\tcvta.to.global.u64 %rd4, %rd3;\n'
        + '\tmov.u32 %r1, %ctaid.x;\n\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.u32 [%rd6], %r1;\n\tatom.global.add.u32 %r2, [%rd4], 1;\n'
        + '\tsetp.ne.u32 %p1, %r2, 7;\n\t@%p1 bra $DONE;\n\tld.global.u32 %r3, [%rd2];\n\tld.param.u64 %rd7, [out];\n\tcvta.to.global.u64 %rd8, %rd7;\n\tst.global.u32 [%rd8], %r3;\n$DONE:\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 part, .param .u64 count, .param .u64 out)\n.reqntid 32, 1, 1\n{\n'
        + '\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<9>;\n\tld.param.u64 %rd1, [part];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.param.u64 %rd3, [count];\n\tcvta.to.global.u64 %rd4, %rd3;\n'
        + '\tmov.u32 %r1, %ctaid.x;\n\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.u32 [%rd6], %r1;\n\tmembar.gl;\n\tatom.global.add.u32 %r2, [%rd4], 1;\n'
        + '\tsetp.ne.u32 %p1, %r2, 7;\n\t@%p1 bra $DONE;\n\tld.global.u32 %r3, [%rd2];\n\tld.param.u64 %rd7, [out];\n\tcvta.to.global.u64 %rd8, %rd7;\n\tst.global.u32 [%rd8], %r3;\n$DONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => fn.instructions.some((i) => i.node.opcode === 'atom' || (i.node.opcode === 'st' && (i.node.modifiers.includes('.volatile') || i.node.modifiers.includes('.relaxed')))));
    if (fns.length === 0) return na('no global atomic or flag store in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) {
      const signals = signalsOf(ctx, fn);
      if (signals.length === 0) continue;
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const af = facts.affine();
      const cfg = facts.cfg;
      const ins = fn.instructions;
      const keyOf = (i: number): string | undefined => {
        const f = af.addressOf(i);
        return f === undefined ? undefined : baseKey(af.symbols, f);
      };
      const signalKeys = new Set(signals.map((s) => keyOf(s.index)));
      const dataStores = ins.filter((i) => i.node.opcode === 'st' && !i.node.modifiers.includes('.volatile') && !i.node.modifiers.includes('.relaxed')
        && !releases(i.node.modifiers) && isGlobalAccess(ctx.analysis, fn, i.index)).map((i) => i.index)
        .filter((i) => { const k = keyOf(i); return k !== undefined && !signalKeys.has(k); });
      if (dataStores.length === 0) continue;
      // Global loads (not read-only ones) by base: the consumers of published data.
      const loadsByKey = new Map<string, number[]>();
      for (const i of ins) {
        const n = i.node;
        if (n.opcode !== 'ld' || n.modifiers.includes('.nc') || !isGlobalAccess(ctx.analysis, fn, i.index)) continue;
        const k = keyOf(i.index);
        if (k === undefined) continue;
        loadsByKey.set(k, [...(loadsByKey.get(k) ?? []), i.index]);
      }
      const isFence = (i: number): boolean => isDeviceFence(ins[i]!.node.modifiers, ins[i]!.node.opcode);
      const reach = cutFreeReach(cfg, isFence, dataStores, signals.map((s) => s.index));
      const reported = new Set<number>();
      for (const d of dataStores) {
        const key = keyOf(d)!;
        const consumers = loadsByKey.get(key) ?? [];
        for (const sIdx of reach.get(d) ?? []) {
          if (reported.has(sIdx)) continue;
          const sig = signals.find((s) => s.index === sIdx)!;
          // The data is read back: after the ticket (the last block reads what the others published), or,
          // for a flag, anywhere in a kernel that also polls the flag (the consumer is another CTA).
          const sb = cfg.blockOf[sIdx]!;
          const flagKey = keyOf(sIdx);
          const polled = sig.kind === 'flag' && flagKey !== undefined && ins.some((i) => i.node.opcode === 'ld' && i.index !== sIdx && isGlobalAccess(ctx.analysis, fn, i.index) && keyOf(i.index) === flagKey);
          const consumer = consumers.find((c) => {
            if (sig.kind === 'flag') return polled;
            const cb = cfg.blockOf[c]!;
            return (cb === sb && c > sIdx) || cfg.blocks[sb]!.succs.some((x) => x !== cfg.exit && facts.reaches(x, cb));
          });
          if (consumer === undefined) continue;
          reported.add(sIdx);
          const sn = ins[sIdx]!.node;
          const dn = ins[d]!.node;
          out.push({
            message: `${sn.opcode}${sn.modifiers.join('')} at line ${sn.range.line} ${sig.kind === 'ticket' ? `is a ticket (its result decides at line ${ins[sig.decision!]!.node.range.line} who goes on)` : 'stores a flag'} `
              + `that publishes ${dn.opcode}${dn.modifiers.join('')} at line ${dn.range.line}, read back at line ${ins[consumer]!.node.range.line}, `
              + `with no membar.gl / fence.gpu / release between the data and the signal: other CTAs may see the signal before the data`,
            location: ctx.locate(sn.range, fn, sIdx), function: fn.name,
            related: [
              { location: ctx.locate(dn.range, fn, d), message: 'the data store that needs a fence before the signal' },
              { location: ctx.locate(ins[consumer]!.node.range, fn, consumer), message: 'where the published data is read' },
            ],
          });
        }
      }
    }
    return found(out);
  },
};
