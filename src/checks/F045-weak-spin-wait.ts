// F045: a spin loop whose exit depends only on a weak load of memory the loop
// does not write: the compiler (ptxas) may hoist the load out of the loop and
// the loop never sees the other thread's store.
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { effects } from '../cfg/dataflow/effects.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { VALUE_OPS } from './value-chains.js';
import type { CheckContext, Check, Finding } from './types.js';
import { found, na } from './types.js';

/** A weak load: not volatile, relaxed, acquire (or `.sc`), not an atomic. */
function isWeakLoad(mods: readonly string[]): boolean {
  return !mods.some((m) => m === '.volatile' || m === '.relaxed' || m === '.acquire' || m === '.sc' || m === '.mmio');
}

/** Instructions whose presence in the loop orders memory or writes it (the load cannot be hoisted past them). */
function ordersMemory(opcode: string, mods: readonly string[]): boolean {
  if (opcode === 'st' || opcode === 'atom' || opcode === 'red' || opcode === 'membar' || opcode === 'fence' || opcode === 'bar' || opcode === 'barrier'
    || opcode === 'call' || opcode === 'mbarrier' || opcode === 'cp' || opcode === 'stmatrix' || opcode === 'multimem' || opcode === 'griddepcontrol') return true;
  return opcode === 'ld' && !isWeakLoad(mods);
}

export const F045: Check = {
  meta: {
    id: 'F045',
    name: 'weak-spin-wait',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'A loop\'s exit depends only on a weak (non-volatile, non-relaxed, non-acquire, non-atomic) load of memory the loop does not write: the load may be hoisted and the loop never exit.',
    rationale: 'A plain load in a loop that writes nothing may legally be read once: ptxas hoists it, and a thread waiting for another '
      + 'thread\'s flag spins forever (or, with `-G` off and on, behaves differently).',
    remedy: 'Read the flag with `ld.volatile`, `ld.relaxed.gpu` or `ld.acquire.gpu` (CUDA: a `volatile` pointer, `cuda::atomic_ref::load`, '
      + '`atomicAdd(flag, 0)`), and use acquire ordering when the flag publishes data.',
    notes: 'For each natural loop and each of its exit branches: the branch predicate must derive, through arithmetic, comparisons and '
      + 'moves computed inside the loop, from exactly one load inside the loop and from values defined outside it (constants, '
      + 'parameters); the load must be weak (`ld` without `.volatile`/`.relaxed`/`.acquire`/`.sc`, in any state space but `.param`/'
      + '`.const`), its address defined outside the loop, and the loop must contain no store, atomic, fence, barrier, mbarrier '
      + 'operation, non-weak load or call (any of which keeps the load in place). A loop counter in the condition (a bounded wait) '
      + 'makes it not a spin wait. nvcc usually hoists such a load itself and leaves an endless loop (F06x judges that); the rule '
      + 'catches the PTX form (hand-written, `-G`, other compilers). Known miss: when nvcc hoists the plain load out of a `do { s = status[b - 1]; } while (s == 0);` look-back, the PTX loop reads nothing and has no exit; F045 has no load to report (the control family\'s infinite-loop check sees the loop).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 flag)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [flag];\n\tcvta.to.global.u64 %rd2, %rd1;\n$SPIN:\n\tld.global.u32 %r1, [%rd2];\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $SPIN;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 flag)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [flag];\n\tcvta.to.global.u64 %rd2, %rd1;\n$SPIN:\n\tld.volatile.global.u32 %r1, [%rd2];\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $SPIN;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let loopsSeen = 0;
    for (const fn of ctx.functions) {
      const forest = ctx.analysis.loops(fn);
      if (forest.loops.length === 0) continue;
      loopsSeen += forest.loops.length;
      out.push(...spinWaits(ctx, fn));
    }
    if (loopsSeen === 0) return na('no loop in the module');
    return found(out);
  },
};

function spinWaits(ctx: CheckContext, fn: FunctionModel): Omit<Finding, 'id' | 'severity'>[] {
  const out: Omit<Finding, 'id' | 'severity'>[] = [];
  const cfg = ctx.analysis.cfg(fn);
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const ins = fn.instructions;
  const reported = new Set<number>();
  for (const loop of ctx.analysis.loops(fn).loops) {
    const inLoop = new Set(loop.blocks);
    const insideIns = (i: number): boolean => inLoop.has(cfg.blockOf[i]!);
    let blocked = false;
    for (const b of loop.blocks) {
      const blk = cfg.blocks[b]!;
      for (let i = blk.start; i < blk.end && !blocked; i++) blocked = ordersMemory(ins[i]!.node.opcode, ins[i]!.node.modifiers);
      if (blocked) break;
    }
    if (blocked) continue;
    const exitBlocks = [...new Set(loop.exits.map(([from]) => from))];
    for (const b of exitBlocks) {
      const blk = cfg.blocks[b]!;
      if (blk.end === blk.start) continue;
      const br = ins[blk.end - 1]!;
      if (br.node.guard === undefined) continue;
      const g = fn.resolveGuard(br.node.guard);
      if (g?.kind !== 'register') continue;
      // Walk the predicate's inputs inside the loop: exactly one load, everything else from outside.
      const loads = new Set<number>();
      let ok = true;
      const seen = new Set<number>();
      const stack: [number, RegisterSymbol][] = [[br.index, g]];
      while (stack.length > 0 && ok) {
        const [at, r] = stack.pop()!;
        const defs = rd.reaching(at, r);
        // A value carried around the loop (a counter) is not a function of the load alone.
        if (defs.some((d) => d >= 0 && insideIns(d)) && defs.some((d) => d < 0 || !insideIns(d))) { ok = false; break; }
        for (const d of defs) {
          if (d < 0 || !insideIns(d)) continue;
          if (seen.has(d)) continue;
          seen.add(d);
          const n = ins[d]!.node;
          if (n.opcode === 'ld') {
            const space = n.modifiers.find((m) => m === '.param' || m === '.const' || m === '.local');
            if (space !== undefined || !isWeakLoad(n.modifiers)) { ok = false; break; }
            // Its address must not change in the loop.
            for (const u of effects(fn, ins[d]!).uses) if (rd.reaching(d, u).some((x) => x >= 0 && insideIns(x))) ok = false;
            loads.add(d);
            continue;
          }
          if (!VALUE_OPS.has(n.opcode)) { ok = false; break; }
          for (const u of effects(fn, ins[d]!).uses) stack.push([d, u]);
        }
      }
      if (!ok || loads.size !== 1) continue;
      const load = [...loads][0]!;
      if (reported.has(load)) continue;
      reported.add(load);
      const ln = ins[load]!.node;
      out.push({
        message: `the loop at line ${ins[cfg.blocks[loop.header]!.start]?.node.range.line ?? ln.range.line} waits on ${ln.opcode}${ln.modifiers.join('')} at line ${ln.range.line}, a weak load of memory the loop never writes: `
          + `it may be hoisted out of the loop, which then never sees another thread's store`,
        location: ctx.locate(ln.range, fn, load), function: fn.name,
        related: [{ location: ctx.locate(br.node.range, fn, br.index), message: 'the exit that depends only on the load' }],
      });
    }
  }
  return out;
}
