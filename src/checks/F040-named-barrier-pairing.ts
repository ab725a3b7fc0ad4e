// F040: a named barrier id is used by `bar.arrive` but never by a waiting
// barrier, or arrive and sync on one id use different thread counts.
import type { FunctionModel } from '../cfg/symbols.js';
import { syncFactsAnalysis, syncOp, type BarrierInfo } from './sync-facts.js';
import type { Check, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

const hasArrive = (fn: FunctionModel): boolean => fn.instructions.some((i) => syncOp(i.node) === 'arrive');

/** A finding with the arrive it is about (its function and instruction), reported once. */
type Keyed = Omit<Finding, 'id' | 'severity'> & { readonly key: string };

/** One part's: whether its functions arrive at a barrier, its roots' findings, and whether every function was a
 *  root (its tree declares no kernel: a part thread's holds only the functions the part needs, so the module may
 *  still have kernels elsewhere; the join then drops these findings, as the part's roots would have been none). */
interface Summary {
  readonly arrives: boolean;
  readonly findings: readonly Keyed[];
  readonly everyFunction: boolean;
}

export const F040: Check = {
  meta: {
    id: 'F040',
    name: 'named-barrier-pairing',
    category: 'synchronization',
    severity: 'medium',
    points: 1,
    description: 'A named barrier id is used by `bar.arrive` but never by `bar.sync`/`bar.red`, or arrive and sync on one id use different thread counts.',
    rationale: 'A producer–consumer pair on a named barrier works only when the consumers wait on the id the producers arrive at, with the same '
      + 'expected thread count; otherwise the arrivals are lost (the consumers read early) or the barrier never completes.',
    remedy: 'Give the arriving and the waiting side the same barrier id and the same thread count (producers + consumers).',
    notes: 'Per kernel, with the device functions it calls (directly, transitively); in a module that declares no kernel, per function. '
      + 'An arrive in a device function several kernels call is reported once, for the first. Only immediate ids are paired (a register id is '
      + 'left alone). An arrive whose id no `bar.sync`/`barrier.sync`/`bar.red`/`barrier.red` of the kernel uses fails. Counts are '
      + 'compared when both are immediates; a waiting barrier with no count counts every thread of the CTA and is compared with the '
      + 'arrive\'s count only when the block size is known.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 128, 1, 1\n{\n\tbar.arrive 1, 128;\n\tbar.sync 2, 128;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n.reqntid 128, 1, 1\n{\n\tbar.arrive 1, 128;\n\tbar.sync 1, 128;\n\tret;\n}\n',
    },
  },
  split: {
    // Each root (a kernel, or every function of a module without kernels) with its callees, in its part.
    part(ctx): Summary {
      const arrives = ctx.functions.some(hasArrive);
      const graph = ctx.analysis.callGraph();
      const out: Keyed[] = [];
      const reported = new Set<string>();
      const kernels = ctx.module.statements.some((s) => s.kind === 'Function' && s.isEntry);
      for (const root of kernels ? ctx.functions.filter((f) => f.isEntry) : ctx.functions) {
        // The kernel and every function it may call.
        const members: FunctionModel[] = [];
        const seen = new Set<string>();
        const stack = [root.name];
        while (stack.length > 0) {
          const name = stack.pop()!;
          if (seen.has(name)) continue;
          seen.add(name);
          const f = ctx.analysis.function(name);
          if (f !== undefined) members.push(f);
          stack.push(...(graph.callees.get(name) ?? []));
        }
        // Read off the instructions: the facts are computed only for a kernel that arrives somewhere.
        if (!members.some(hasArrive)) continue;
        const waits = new Map<number, { b: BarrierInfo; fn: FunctionModel }[]>();
        const arrs: { b: BarrierInfo; fn: FunctionModel }[] = [];
        for (const fn of members) {
          const facts = ctx.analysis.get(fn, syncFactsAnalysis);
          for (const b of facts.barriers) {
            if (b.idValue === undefined) continue;
            if (b.op === 'arrive') arrs.push({ b, fn });
            else {
              const list = waits.get(b.idValue) ?? [];
              list.push({ b, fn });
              waits.set(b.idValue, list);
            }
          }
        }
        const rootSize = ctx.analysis.blockSize(root);
        const threads = rootSize === undefined ? undefined : rootSize[0] * rootSize[1] * rootSize[2];
        for (const a of arrs) {
          const key = `${a.fn.name}:${a.b.index}`;
          if (reported.has(key)) continue;
          const node = a.fn.instructions[a.b.index]!.node;
          const where = { location: ctx.locate(node.range, a.fn, a.b.index), function: a.fn.name };
          const w = waits.get(a.b.idValue!);
          if (w === undefined) {
            reported.add(key);
            out.push({ key, message: `${node.opcode}${node.modifiers.join('')} at line ${node.range.line} arrives at barrier ${a.b.idValue!}, which no bar.sync/bar.red of kernel ${root.name} waits on: the arrivals signal nobody`, ...where });
            continue;
          }
          const mine = a.b.countValue;
          if (mine === undefined) continue;
          const other = w.find((x) => {
            const c = x.b.countValue ?? (x.b.count === undefined ? threads : undefined);
            return c !== undefined && c !== mine;
          });
          if (other !== undefined) {
            reported.add(key);
            const on = other.fn.instructions[other.b.index]!.node;
            const theirs = other.b.countValue ?? threads;
            out.push({
              key,
              message: `${node.opcode}${node.modifiers.join('')} at line ${node.range.line} arrives at barrier ${a.b.idValue!} expecting ${mine} threads, but ${on.opcode}${on.modifiers.join('')} at line ${on.range.line} waits on it for ${theirs ?? '?'} threads`,
              ...where,
              related: [{ location: ctx.locate(on.range, other.fn, other.b.index), message: 'the waiting barrier with another count' }],
            });
          }
        }
      }
      return { arrives, findings: out, everyFunction: !kernels };
    },
    join(ctx, parts: readonly Summary[]) {
      if (!parts.some((p) => p.arrives)) return na('no bar.arrive/barrier.arrive in the module');
      const kernels = ctx.module.statements.some((s) => s.kind === 'Function' && s.isEntry);
      // An arrive in a function that kernels of several parts call: reported for the first, as on the whole module.
      const reported = new Set<string>();
      const out: Omit<Finding, 'id' | 'severity'>[] = [];
      for (const { key, ...finding } of parts.flatMap((p) => (kernels && p.everyFunction ? [] : p.findings))) {
        if (reported.has(key)) continue;
        reported.add(key);
        out.push(finding);
      }
      return found(out);
    },
  },
  run: (ctx) => runWhole(F040.split!, ctx),
};
