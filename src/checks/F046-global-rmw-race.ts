// F046: a non-atomic load–modify–store of global memory at an address two or
// more threads can reach (`sum[0] += x`, `hist[bin]++`): concurrent updates
// are lost.
import { accessBytes, formEquals, type AffineSymbol, type Form } from '../cfg/dataflow/affine.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { rangeAnalysis } from '../cfg/dataflow/ranges.js';
import { describeBox, singleThread, syncFactsAnalysis } from './sync-facts.js';
import { formCtaDependence, isGlobalAccess } from './global-memory.js';
import { threadOverlap } from './thread-overlap.js';
import { derivesFrom } from './value-chains.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

const isThreadIndex = (s: AffineSymbol): boolean => s.kind === 'sreg' && (s.sreg === '%tid' || s.sreg === '%laneid');

/** Width and address as `formEquals` compares them: equal keys, equal forms. */
function accessKey(form: Form, bytes: number): string {
  let key = `${bytes}|${form.c}|${form.mayWrap}`;
  for (const t of form.terms) key += `|${t.sym}:${t.coef}`;
  return key;
}

export const F046: Check = {
  meta: {
    id: 'F046',
    name: 'global-rmw-race',
    category: 'synchronization',
    severity: 'high',
    points: 2,
    description: 'A non-atomic load–modify–store of global memory at an address that two or more threads can reach (`sum[0] += x`, `hist[bin]++`).',
    rationale: 'Two threads that read the same counter, add to it and write it back both read the old value: one update is lost. '
      + 'It is the classic histogram and global-sum bug, invisible in tests with few threads.',
    remedy: 'Use an atomic (`atomicAdd(&sum[0], x)`: `atom.global.add`/`red.global.add`), or reduce in the CTA first and let one thread per '
      + 'output element write it (`if (threadIdx.x == 0) out[blockIdx.x] = total`).',
    notes: 'A `st` to global memory (`.global`, or generic with a global address provenance) whose stored value derives, through '
      + 'arithmetic and conversions, from a non-atomic `ld` of global memory at the same affine address and width (`.nc`/`ldu` loads '
      + 'are read-only and excluded). Two or more threads reach the address when (1) it depends on loaded data (a value read from '
      + 'memory: `hist[in[i]]++`), or (2) two different threads of a CTA can touch it (the thread-overlap test of F036, with the '
      + '`%tid` bounds of the guards the store runs under: `if (threadIdx.x == 0)` leaves one thread), or (3) it depends neither on '
      + 'the thread index nor on `%ctaid` (nor on a loop counter started from them): the one thread per CTA that runs it (`sum[0]` '
      + 'under `tid == 0`) collides with the same thread of every other CTA (assumes more than one CTA: a one-CTA final pass would '
      + 'be a false alarm, to be suppressed). Departure: an address indexed by the thread index but not by `%ctaid` '
      + '(`y[threadIdx.x] += ...`) is taken to belong to a kernel launched with one CTA and is not reported. Not reported: an update after an '
      + '`atom.cas`/`atom.exch` that dominates it (a lock), and addresses whose variation between threads is unknown. Known miss: `buckets[blockIdx.x % 4] += v` under `threadIdx.x == 0` (blocks sharing a bucket) is not reported: the modulo of %ctaid is not an affine address, so the CTAs that collide are not found.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 sum)\n.reqntid 128, 1, 1\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [sum];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tld.global.u32 %r2, [%rd2];\n\tadd.s32 %r3, %r2, %r1;\n\tst.global.u32 [%rd2], %r3;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 sum)\n.reqntid 128, 1, 1\n{\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<5>;\n'
        + '\tld.param.u64 %rd1, [sum];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r4, %ctaid.x;\n\tmad.lo.u32 %r5, %r4, 128, %r1;\n'
        + '\tmul.wide.u32 %rd3, %r5, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tld.global.u32 %r2, [%rd4];\n\tadd.s32 %r3, %r2, %r1;\n\tst.global.u32 [%rd4], %r3;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const candidates = ctx.functions.filter((fn) => fn.instructions.some((i) => i.node.opcode === 'st') && fn.instructions.some((i) => i.node.opcode === 'ld'));
    if (candidates.length === 0) return na('no function both loads and stores memory');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of candidates) {
      const ins = fn.instructions;
      const stores = ins.filter((i) => i.node.opcode === 'st' && !i.node.modifiers.includes('.async') && isGlobalAccess(ctx.analysis, fn, i.index));
      if (stores.length === 0) continue;
      const facts = ctx.analysis.get(fn, syncFactsAnalysis);
      const af = facts.affine();
      const dom = ctx.analysis.dominators(fn);
      const cfg = facts.cfg;
      const locks = ins.filter((i) => i.node.opcode === 'atom' && (i.node.modifiers.includes('.cas') || i.node.modifiers.includes('.exch'))).map((i) => i.index);
      const ranges = ctx.analysis.get(fn, rangeAnalysis);
      const e = facts.fullBox;
      const extents: [number, number, number] = [e.x[1] + 1, e.y[1] + 1, e.z[1] + 1];
      // The loads a store could write back (global, not .nc), by width and address: a store whose width and
      // address no load has is not walked back at all. (The walk visits every definition its value may come
      // from; in a long function of guarded copies that is every earlier copy's, for every store:
      // quadratic, and most of the check's time on bench/scale.js's 16x kernel.)
      const readable = new Set<string>();
      for (const i of ins) {
        const n = i.node;
        if (n.opcode !== 'ld' || n.modifiers.includes('.nc') || !isGlobalAccess(ctx.analysis, fn, i.index)) continue;
        const f = af.addressOf(i.index);
        const b = accessBytes(n);
        if (f !== undefined && b !== undefined) readable.add(accessKey(f, b));
      }
      for (const st of stores) {
        const form = af.addressOf(st.index);
        const bytes = accessBytes(st.node);
        const value = st.node.operands[1];
        if (form === undefined || bytes === undefined || value?.kind !== 'Name') continue;
        const reg = fn.resolve(value);
        if (reg?.kind !== 'register') continue;
        judged++;
        // (Asked where the walk asked it: a function whose definitions cannot be computed fails the check, as before.)
        ctx.analysis.get(fn, reachingDefinitionsAnalysis);
        if (!readable.has(accessKey(form, bytes))) continue;
        const load = derivesFrom(ctx.analysis, fn, st.index, reg, (j) => {
          const n = ins[j]!.node;
          if (n.opcode !== 'ld' || n.modifiers.includes('.nc') || accessBytes(n) !== bytes || !isGlobalAccess(ctx.analysis, fn, j)) return false;
          const f = af.addressOf(j);
          return f !== undefined && formEquals(f, form);
        });
        if (load === undefined) continue;
        if (locks.some((l) => dom.dominates(cfg.blockOf[l]!, cfg.blockOf[load]!))) continue;
        // Who can reach the address?
        let why: string | undefined;
        const loaded = form.terms.find((t) => {
          const s = af.symbols[t.sym]!;
          return s.kind === 'def' && (ins[s.instruction]!.node.opcode === 'ld' || ins[s.instruction]!.node.opcode === 'atom');
        });
        if (loaded !== undefined) {
          why = `the address depends on a value loaded from memory (${af.symbols[loaded.sym]!.name}), so threads with equal values update the same element`;
        } else {
          const box = facts.threadBox(st.index);
          const o = threadOverlap({
            symbols: af.symbols, extents,
            range: (s) => ranges.symbolRange(s),
            independent: () => false,
          }, { form, bytes, box }, { form, bytes, box });
          if (o.kind === 'cross-thread') {
            why = `two threads of a CTA update the same element (e.g. %tid = (${o.first.join(', ')}) and (${o.second.join(', ')}))`;
          } else if (o.kind !== 'unknown' && !form.terms.some((t) => af.symbols[t.sym]!.threadDependent || isThreadIndex(af.symbols[t.sym]!))
            && formCtaDependence(af.symbols, form) === 'no') {
            why = `the address does not depend on %ctaid, so ${singleThread(box) ? `the thread with ${describeBox(box, facts.fullBox)}` : 'the same threads'} of every CTA update the same element`;
          }
        }
        if (why === undefined) continue;
        const ln = ins[load]!.node;
        out.push({
          message: `${st.node.opcode}${st.node.modifiers.join('')} at line ${st.node.range.line} writes back a value computed from ${ln.opcode}${ln.modifiers.join('')} at line ${ln.range.line} `
            + `of the same address (${af.format(form)}) without an atomic: ${why}; concurrent updates are lost`,
          location: ctx.locate(st.node.range, fn, st.index), function: fn.name,
          related: [{ location: ctx.locate(ln.range, fn, load), message: 'the non-atomic read of the element' }],
        });
      }
    }
    if (judged === 0 && out.length === 0) return na('no global store of a register value');
    return found(out);
  },
};
