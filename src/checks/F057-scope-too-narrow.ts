// F057: an atomic, fence or acquire/release with `.cta` scope orders global
// memory that other CTAs share (a flag, a counter, a grid-wide location).
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { affineAnalysis, type AffineFacts, type AffineSymbol, type Form } from '../cfg/dataflow/affine.js';
import type { LoopForest } from '../cfg/loops.js';
import { assumptionsAndSilencing, memoryAccesses, opText, scopeOf, type MemoryAccess } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Special registers equal for every CTA of the grid, or ranging over a CTA's threads only. */
const GRID_SAME = new Set(['%tid', '%laneid', '%ntid', '%nctaid', '%nclusterid', '%cluster_nctaid', '%cluster_nctarank', '%nwarpid']);

/** Whether a symbol's value is the same in every CTA (for the same thread index). */
function gridSame(af: AffineFacts, s: AffineSymbol, depth: number): boolean {
  if (depth > 12) return false;
  switch (s.kind) {
    case 'sreg': return GRID_SAME.has(s.sreg);
    case 'param': return af.fn.isEntry;
    case 'var': return true;
    case 'shr': return formGridSame(af, s.of, depth + 1);
    case 'iv': return formGridSame(af, s.init, depth + 1) && formGridSame(af, s.step, depth + 1);
    default: return false;
  }
}

function formGridSame(af: AffineFacts, f: Form, depth: number): boolean {
  return f.terms.every((t) => gridSame(af, af.symbols[t.sym]!, depth));
}

/** A global location that CTAs share: its address is the same in every CTA. */
function shared(af: AffineFacts, a: MemoryAccess): boolean {
  if (a.space !== 'global' || a.form === undefined) return false;
  return formGridSame(af, a.form, 0);
}

/** Strong accesses that make a location a flag or a counter between threads. */
function strong(a: MemoryAccess): boolean {
  if (a.kind === 'atomic') return true;
  const m = a.ins.node.modifiers;
  return m.includes('.volatile') || m.includes('.relaxed') || m.includes('.acquire') || m.includes('.release');
}

function isCtaFence(fn: FunctionModel, index: number): boolean {
  const n = fn.instructions[index]!.node;
  if (n.opcode === 'membar') return n.modifiers.includes('.cta');
  if (n.opcode !== 'fence') return false;
  if (n.modifiers.some((m) => m.startsWith('.proxy') || m.startsWith('.mbarrier_init'))) return false;
  return n.modifiers.includes('.cta');
}

const WIDE_FENCE = (fn: FunctionModel, index: number): boolean => {
  const n = fn.instructions[index]!.node;
  if (n.opcode === 'membar') return n.modifiers.includes('.gl') || n.modifiers.includes('.sys');
  return n.opcode === 'fence' && !n.modifiers.some((m) => m.startsWith('.proxy') || m.startsWith('.mbarrier_init'))
    && (n.modifiers.includes('.gpu') || n.modifiers.includes('.sys'));
};

/** A `.gpu`/`.sys` fence next to the `.cta` one (in its block, with no memory access or call between) subsumes it. */
function subsumed(ctx: AnalysisContext, fn: FunctionModel, index: number): boolean {
  const cfg = ctx.cfg(fn);
  const block = cfg.blocks[cfg.blockOf[index]!]!;
  const barrierFree = (i: number): boolean => {
    const n = fn.instructions[i]!.node;
    return !n.operands.some((o) => o.kind === 'Address') && n.opcode !== 'call';
  };
  for (const dir of [-1, 1]) {
    for (let i = index + dir; i >= block.start && i < block.end; i += dir) {
      if (WIDE_FENCE(fn, i)) return true;
      if (!barrierFree(i) && !isCtaFence(fn, i)) break;
    }
  }
  return false;
}

/** Whether block `b` lies in loop `loop` (or a loop nested in it). */
function inLoopOf(loops: LoopForest, b: number, loop: number): boolean {
  for (let l = loops.loopOf[b]!; l >= 0; l = loops.loops[l]!.parent) if (l === loop) return true;
  return false;
}

/** Blocks reachable from `from` (itself included). */
function reachable(ctx: AnalysisContext, fn: FunctionModel, from: number): Uint8Array {
  const cfg = ctx.cfg(fn);
  const seen = new Uint8Array(cfg.blocks.length);
  const stack = [from];
  seen[from] = 1;
  while (stack.length > 0) {
    const b = stack.pop()!;
    for (const s of cfg.blocks[b]!.succs) {
      if (s !== cfg.exit && seen[s] === 0) {
        seen[s] = 1;
        stack.push(s);
      }
    }
  }
  return seen;
}

export const F057: Check = {
  meta: {
    id: 'F057',
    name: 'scope-too-narrow',
    category: 'memory',
    severity: 'medium',
    points: 1,
    description: 'An atomic, acquire/release access or fence with `.cta` scope orders a global location that other CTAs use too (a flag or counter whose address does not depend on the CTA).',
    rationale: '`.cta` scope promises atomicity and ordering only among the threads of one CTA: `atomicAdd_block` on a grid-wide counter loses updates from other blocks, and a flag published or polled with `.cta` scope (or after `__threadfence_block()`) may never be seen by, or may be seen before the data of, another block.',
    remedy: 'Use `.gpu` scope (the default: `atomicAdd`, `__threadfence()`, `cuda::atomic_ref<..., thread_scope_device>`) for locations other CTAs read or write; keep `_block` atomics for per-block slots (`counter[blockIdx.x]`) and shared memory.',
    notes: 'Precise rule: a location is shared between CTAs when its state space is `.global` (named, or generic with global-only provenance) and its '
      + 'affine address is the same in every CTA: built only from kernel parameters, global variables, constants, %tid/%laneid/%ntid/%nctaid and '
      + 'shifts and loop counters of those (no %ctaid, %clusterid, %smid, nor loaded or opaque values). Fails: (1) an `atom`/`red`, or an '
      + '`ld`/`st` with `.relaxed`/`.acquire`/`.release`, with `.cta` scope on such a location; (2) a `.cta` fence (`fence.sc.cta`, '
      + '`fence.acq_rel.cta`, `membar.cta`) in a function that also accesses such a location with an atomic or a strong (`.volatile`, `.relaxed`, '
      + '`.acquire`, `.release`) load or store, on a control-flow path to or from the fence, unless a `.gpu`/`.sys` fence stands next to it (same block, no memory access or call '
      + 'between), which subsumes it. A fence inside a loop that makes a strong load (a polling loop) is judged by the locations that loop polls '
      + 'only: CUB\'s decoupled look-back spins on another CTA\'s slot with `__threadfence_block()` as a compiler barrier, long after taking '
      + 'a tile index from a grid-wide counter, and is not reported. Proxy and mbarrier-init fences are not memory-ordering '
      + 'fences here. n/a when nothing has `.cta` scope.'
      + assumptionsAndSilencing('F057', 'none about the block; a location is shared between CTAs only when its address provably does not depend on the CTA.'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tatom.global.cta.add.u32 %r1, [%rd2], 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r2, %ctaid.x;\n\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tatom.global.cta.add.u32 %r1, [%rd4], 1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let narrow = 0;
    for (const fn of ctx.functions) {
      const accesses = memoryAccesses(ctx.analysis, fn);
      const fences = fn.instructions.filter((i) => isCtaFence(fn, i.index));
      const ctaAccesses = accesses.filter((a) => scopeOf(a.ins) === 'cta' && (a.kind === 'atomic' || strong(a)));
      narrow += fences.length + ctaAccesses.length;
      if (fences.length === 0 && ctaAccesses.length === 0) continue;
      const af = ctx.analysis.get(fn, affineAnalysis);
      for (const a of ctaAccesses) {
        if (!shared(af, a)) continue;
        out.push({
          message: `${opText(a.ins)} has .cta scope, but its location ${af.format(a.form!)} is the same global address in every CTA: `
            + `other CTAs ${a.kind === 'atomic' ? 'update it without atomicity between them' : 'are not ordered with it'}; use .gpu scope`,
          location: ctx.locate(a.ins.node.range, fn, a.index),
          function: fn.name,
        });
      }
      if (fences.length === 0) continue;
      const flags = accesses.filter((a) => strong(a) && shared(af, a));
      if (flags.length === 0) continue;
      const cfg = ctx.analysis.cfg(fn);
      const loops = ctx.analysis.loops(fn);
      for (const f of fences) {
        if (subsumed(ctx.analysis, fn, f.index)) continue;
        const fb = cfg.blockOf[f.index]!;
        // A fence inside a polling loop (a loop that makes a strong load) orders that
        // loop's poll: it is judged by the locations polled there only (CUB's
        // decoupled look-back spins on a per-CTA slot with __threadfence_block()
        // as a compiler barrier, long after its grid-wide tile counter).
        const loop = loops.loopOf[fb]!;
        const polls = loop < 0 ? [] : accesses.filter((a) => a.kind === 'load' && strong(a) && inLoopOf(loops, cfg.blockOf[a.index]!, loop));
        if (polls.length > 0) {
          if (!polls.some((a) => shared(af, a))) continue;
        }
        const from = reachable(ctx.analysis, fn, fb);
        const related = (polls.length > 0 ? polls.filter((a) => shared(af, a)) : flags).filter((a) => {
          const ab = cfg.blockOf[a.index]!;
          if (ab === fb) return true;
          return from[ab] === 1 || reachable(ctx.analysis, fn, ab)[fb] === 1;
        });
        if (related.length === 0) continue;
        const flag = related[0]!;
        out.push({
          message: `${opText(f)} orders memory only within the CTA, but the kernel publishes or polls ${af.format(flag.form!)} `
            + `(${opText(flag.ins)} at line ${flag.ins.node.range.line}), a global location every CTA uses: use a .gpu fence (__threadfence())`,
          location: ctx.locate(f.node.range, fn, f.index),
          function: fn.name,
          related: related.map((a) => ({ location: ctx.locate(a.ins.node.range, fn, a.index), message: `${opText(a.ins)} on the shared location` })),
        });
      }
    }
    if (narrow === 0) return na('no atomic, acquire/release access or fence with .cta scope');
    return found(out);
  },
};
