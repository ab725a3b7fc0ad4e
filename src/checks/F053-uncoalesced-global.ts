// F053: a warp's global load or store touches more than twice the 32-byte
// sectors its bytes need (lanes far apart), from the per-lane affine address.
import type { FunctionModel } from '../cfg/symbols.js';
import { affineAnalysis, type AffineFacts, type Form } from '../cfg/dataflow/affine.js';
import { assumptionsAndSilencing, LANE_ASSUMPTION, laneView, memoryAccesses, opText, type MemoryAccess } from './memory.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** A judged access: its lane stride and the lane-0 address modulo 32. */
interface Judged {
  readonly a: MemoryAccess & { readonly form: Form; readonly bytes: number };
  readonly stride: number;
  readonly base: number;
  readonly assumptions: readonly string[];
}

const mod = (x: number, m: number): number => ((x % m) + m) % m;

/** Distinct bytes the lanes of the accesses touch (offsets relative to the first). */
function distinctBytes(group: readonly Judged[]): number {
  const spans: [number, number][] = [];
  const c0 = group[0]!.a.form.c;
  for (const g of group) {
    for (let l = 0; l < 32; l++) {
      const s = g.a.form.c - c0 + g.stride * l;
      spans.push([s, s + g.a.bytes]);
    }
  }
  spans.sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of spans) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}

function sectorsOf(group: readonly Judged[]): { sectors: number; minimal: number } {
  const c0 = group[0]!.a.form.c;
  const base = group[0]!.base;
  const sectors = new Set<number>();
  for (const g of group) {
    const addrs = Array.from({ length: 32 }, (_x, l) => base + g.a.form.c - c0 + g.stride * l);
    for (const a of addrs) for (let s = Math.floor(a / 32); s <= Math.floor((a + g.a.bytes - 1) / 32); s++) sectors.add(s);
  }
  return { sectors: sectors.size, minimal: Math.max(1, Math.ceil(distinctBytes(group) / 32)) };
}

/** What removes the waste, by the shape of the access. */
export function coalescingRemedy(stride: number, bytes: number): string {
  const s = Math.abs(stride);
  if (s > bytes && s <= 16 && s % bytes === 0) {
    return `load each lane's ${s}-byte element with one vector access (.v${s / bytes}) and keep the fields you need, or store this field in its own array (structure of arrays)`;
  }
  if (s > bytes && s < 32 * bytes && s % bytes === 0 && s <= 64) {
    return 'store this field in its own array (structure of arrays), so that consecutive lanes read consecutive elements';
  }
  return 'make consecutive lanes touch consecutive elements (swap the roles of the indices, or stage the tile through shared memory and transpose it there)';
}

function judge(ctx: CheckContext, fn: FunctionModel, af: AffineFacts, a: MemoryAccess, why: { reason?: string }): Judged | undefined {
  if (a.form === undefined || a.bytes === undefined) return undefined;
  const view = laneView(ctx.analysis, fn, af, a.form);
  if (!view.ok) {
    why.reason ??= view.reason;
    return undefined;
  }
  const ls = view.lanes;
  const assumptions = [...view.assumptions];
  if (ls.align < 32) assumptions.push(`the address is known modulo ${ls.align} only: its lane 0 is taken as ${mod(ls.rem, ls.align)} modulo 32`);
  return { a: a as Judged['a'], stride: ls.stride, base: mod(ls.rem, Math.min(32, ls.align)), assumptions };
}

/** Key of an address up to its constant: accesses with the same key differ by a constant. */
function termKey(f: Form): string {
  return f.terms.map((t) => `${t.sym}:${t.coef}`).join(',');
}

export const F053: Check = {
  meta: {
    id: 'F053',
    name: 'uncoalesced-global',
    category: 'memory',
    severity: 'low',
    points: 1,
    description: 'A warp\'s global load or store touches more than twice the minimal number of 32-byte sectors for the bytes it moves (lanes far apart), computed from the per-lane affine address.',
    rationale: 'Global memory is moved in 32-byte sectors; a warp whose lanes read 4 bytes each 128 bytes apart fetches 32 sectors (1024 bytes) to use 128, so the kernel runs at a fraction of the memory bandwidth.',
    remedy: 'Make consecutive lanes touch consecutive addresses: a structure of arrays instead of an array of structures, one vector load of the whole element, or a tile staged through shared memory and transposed there.',
    notes: 'Precise rule: every `ld`/`ldu`/`st` whose state space is `.global` (named, or a generic address whose provenance is global only) and whose address '
      + 'is affine in the lane index: lane l touches bytes [base + stride·l, +size). Sectors = the distinct 32-byte sectors the 32 lanes touch; '
      + 'minimal = ceil(distinct bytes / 32). Accesses of the same kind (loads, or stores) in the same loop (or all outside loops) whose addresses differ only by a constant '
      + 'smaller than the lane stride (`[r]`, `[r+4]`, `[r+8]`, `[r+12]` with lanes 16 bytes apart: the fields of one element) are judged together, '
      + 'since the sectors the first brings in serve the others (L1 for loads, L2 for stores): their lanes\' bytes are pooled (CUB\'s blocked '
      + 'loads, one guarded load per item, count as one access). The check fails when '
      + 'sectors > 2 × minimal and reports both counts. The base is taken at its known alignment (lane 0 at its offset modulo 32 when known, else '
      + 'at a sector start). Lanes are mapped to %tid as F052 does (an exact block shape, or a kernel that reads only %tid.x); other accesses are '
      + 'not judged, and the check is n/a when none can be. All 32 lanes are taken to be active.'
      + assumptionsAndSilencing('F053', LANE_ASSUMPTION),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 128;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tld.global.f32 %f1, [%rd4];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tld.global.f32 %f1, [%rd4];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    let judgedCount = 0;
    const why: { reason?: string } = {};
    for (const fn of ctx.functions) {
      const accesses = memoryAccesses(ctx.analysis, fn).filter((a) => a.space === 'global' && a.kind !== 'atomic');
      if (accesses.length === 0) continue;
      seen += accesses.length;
      const af = ctx.analysis.get(fn, affineAnalysis);
      const cfg = ctx.analysis.cfg(fn);
      const loops = ctx.analysis.loops(fn);
      // Group by innermost loop (or none), kind and the address up to its constant.
      const groups = new Map<string, Judged[]>();
      for (const a of accesses) {
        const j = judge(ctx, fn, af, a, why);
        if (j === undefined) continue;
        judgedCount++;
        const key = `${loops.loopOf[cfg.blockOf[a.index]!]}|${a.kind}|${termKey(j.a.form)}`;
        let g = groups.get(key);
        if (g === undefined) groups.set(key, (g = []));
        g.push(j);
      }
      for (const g of groups.values()) {
        g.sort((x, y) => x.a.form.c - y.a.form.c || x.a.index - y.a.index);
        // Chains of accesses less than one lane stride apart.
        let chain: Judged[] = [];
        const flush = (): void => {
          if (chain.length === 0) return;
          const { sectors, minimal } = sectorsOf(chain);
          if (sectors > 2 * minimal) {
            const first = [...chain].sort((x, y) => x.a.index - y.a.index)[0]!;
            const stride = first.stride;
            const assumed = first.assumptions.length > 0 ? ` (assuming ${first.assumptions.join('; ')})` : '';
            const what = chain.length === 1
              ? `${opText(first.a.ins)} at ${af.format(first.a.form)} moves ${first.a.bytes} bytes per lane with lanes ${stride} bytes apart`
              : `${chain.length} ${first.a.kind === 'load' ? 'loads' : 'stores'} at ${af.format(chain[0]!.a.form)} .. +${chain[chain.length - 1]!.a.form.c - chain[0]!.a.form.c} move `
                + `${chain.reduce((n, x) => n + x.a.bytes, 0)} bytes per lane with lanes ${stride} bytes apart`;
            out.push({
              message: `uncoalesced: ${what}; a warp touches ${sectors} sectors of 32 bytes where ${minimal} would hold its bytes `
                + `(${(sectors / minimal).toFixed(1)}×). Fix: ${coalescingRemedy(stride, first.a.bytes)}${assumed}`,
              location: ctx.locate(first.a.ins.node.range, fn, first.a.index),
              function: fn.name,
              ...(chain.length > 1 ? {
                related: chain.filter((x) => x !== first).map((x) => ({
                  location: ctx.locate(x.a.ins.node.range, fn, x.a.index), message: `${opText(x.a.ins)} of the same element`,
                })),
              } : {}),
            });
          }
          chain = [];
        };
        for (const j of g) {
          const prev = chain[chain.length - 1];
          if (prev !== undefined && j.a.form.c - prev.a.form.c >= Math.max(Math.abs(j.stride), prev.a.bytes)) flush();
          chain.push(j);
        }
        flush();
      }
    }
    if (seen === 0) return na('no global loads or stores');
    if (judgedCount === 0) return na(`no global access could be judged: ${why.reason ?? 'no address is affine in the lane index'}`);
    return found(out);
  },
};
