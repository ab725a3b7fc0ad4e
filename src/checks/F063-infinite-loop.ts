// F063: a loop has no exit edge and contains no `ret`/`exit`/`trap`.
import type { Cfg } from '../cfg/builder.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { at } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** Strongly connected components of the reachable blocks (iterative Tarjan). */
function components(cfg: Cfg): number[][] {
  const n = cfg.blocks.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: number[][] = [];
  let counter = 0;
  for (const root of cfg.blocks) {
    if (!root.reachable || index[root.id] !== -1) continue;
    const work: [number, number][] = [[root.id, 0]];
    index[root.id] = low[root.id] = counter++;
    stack.push(root.id);
    onStack[root.id] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const v = top[0];
      const succs = cfg.blocks[v]!.succs;
      if (top[1] < succs.length) {
        const w = succs[top[1]++]!;
        if (w === cfg.exit) continue;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w] === 1) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] === index[v]) {
        const comp: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(w);
        } while (w !== v);
        out.push(comp.sort((a, b) => a - b));
      }
    }
  }
  return out;
}

/** Functions that may end the thread (contain `exit` or `trap`, or call one that does), and indirect calls' callers. */
function mayEndThread(ctx: CheckContext): Set<string> {
  const graph = ctx.analysis.callGraph();
  const ends = new Set<string>();
  for (const fn of ctx.functions) {
    if (fn.instructions.some((i) => i.node.opcode === 'exit' || i.node.opcode === 'trap')) ends.add(fn.name);
  }
  for (const decl of ctx.analysis.model.functionsByName.values()) if (decl.decl.body === null) ends.add(decl.name); // unknown bodies
  let changed = true;
  while (changed) {
    changed = false;
    for (const [caller, callees] of graph.callees) {
      if (!ends.has(caller) && callees.some((c) => ends.has(c))) {
        ends.add(caller);
        changed = true;
      }
    }
  }
  return ends;
}

function callMayEnd(ctx: CheckContext, fn: FunctionModel, index: number, ends: ReadonlySet<string>): boolean {
  const site = ctx.analysis.callGraph().sites.find((s) => s.caller === fn.name && s.instruction === index);
  if (site === undefined) return true;
  if (site.indirect && site.callees.length === 0) return true;
  return site.callees.some((c) => ends.has(c));
}

export const F063: Check = {
  meta: {
    id: 'F063',
    name: 'infinite-loop',
    category: 'control-flow',
    severity: 'high',
    points: 1,
    description: 'A loop that no path leaves: no edge out of it, and no `ret`, `exit` or `trap` inside it.',
    rationale: 'A thread that enters such a loop never finishes, so the kernel hangs until the watchdog or the user kills it (and a '
      + 'spin-wait with no exit condition cannot be released by another thread either).',
    remedy: 'Give the loop an exit condition (`@p bra` out of it), or end it with `ret`/`exit` where it is meant to stop.',
    notes: 'Judged on cycles of the CFG, not only natural loops: every strongly connected set of reachable blocks (two or more, or '
      + 'one with an edge to itself) with no edge to a block outside it nor to the function exit fails, so irreducible cycles are '
      + 'covered too. A guarded `@p ret/exit/trap` or `@p bra` out of the cycle is an exit, and so is a call of a function that may '
      + 'end the thread (it contains `exit`/`trap`, or calls one that does, or has no body here, or an indirect call with no known '
      + 'targets): such a loop is not judged. Reported at the first instruction of the cycle\'s first block.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n$SPIN:\n\tnanosleep.u32 100;\n\tbra.uni $SPIN;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 f)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [f];\n$SPIN:\n\tld.volatile.global.u32 %r1, [%rd1];\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $SPIN;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    let ends: Set<string> | undefined;
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const cfg = ctx.analysis.cfg(fn);
      for (const comp of components(cfg)) {
        const inside = new Set(comp);
        const cyclic = comp.length > 1 || cfg.blocks[comp[0]!]!.succs.includes(comp[0]!);
        if (!cyclic) continue;
        if (comp.some((b) => cfg.blocks[b]!.succs.some((s) => !inside.has(s)))) continue;
        let escapes = false;
        for (const b of comp) {
          const blk = cfg.blocks[b]!;
          for (let i = blk.start; i < blk.end && !escapes; i++) {
            if (fn.instructions[i]!.node.opcode !== 'call') continue;
            ends ??= mayEndThread(ctx);
            if (callMayEnd(ctx, fn, i, ends)) escapes = true;
          }
        }
        if (escapes) continue;
        const first = cfg.blocks[comp[0]!]!;
        if (first.start === first.end) continue;
        const lines = comp.map((b) => cfg.blocks[b]!).filter((b) => b.end > b.start).map((b) => fn.instructions[b.end - 1]!.node.range.line);
        out.push({
          message: `this loop of ${fn.name} has no exit: no branch leaves it and it contains no ret, exit or trap (closes at line ${Math.max(...lines)})`,
          ...at(ctx, fn, first.start),
        });
      }
    }
    return found(out);
  },
};
