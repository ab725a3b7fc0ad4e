// F094: a fence that follows an at-least-as-strong fence with no memory
// access between them on every path.
import type { FlatInstruction } from '../cfg/symbols.js';
import { solve } from '../cfg/dataflow/solver.js';
import { assumptionsAndSilencing, opText, touchesMemory } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** A memory fence's strength (semantics: acq_rel 1, sc 2; scope: cta 0 .. sys 3), or a proxy fence's kind. */
type Kind = { readonly mem: readonly [number, number] } | { readonly proxy: string };

const SCOPE: Readonly<Record<string, number>> = { '.cta': 0, '.cluster': 1, '.gpu': 2, '.gl': 2, '.sys': 3 };

function kindOf(ins: FlatInstruction): Kind | undefined {
  const n = ins.node;
  const m = n.modifiers;
  if (n.opcode === 'membar') {
    const scope = m.map((x) => SCOPE[x]).find((x) => x !== undefined);
    return scope === undefined || n.operands.length > 0 ? undefined : { mem: [2, scope] };
  }
  if (n.opcode !== 'fence' || n.operands.length > 0) return undefined;
  if (m[0] === '.proxy') return { proxy: m.join('') };
  if (m.length !== 2) return undefined;
  const sem = m[0] === '.sc' ? 2 : m[0] === '.acq_rel' ? 1 : undefined;
  const scope = SCOPE[m[1]!];
  return sem === undefined || scope === undefined ? undefined : { mem: [sem, scope] };
}

/** State: the weakest memory fence on every path since the last access (null: none), and the proxy fences on every path. */
interface State {
  readonly mem: readonly [number, number] | null;
  readonly proxies: readonly string[];
}

const TOP: State = { mem: [9, 9], proxies: ['*'] };
const NONE: State = { mem: null, proxies: [] };

function join(a: State, b: State): State {
  if (a === TOP) return b;
  if (b === TOP) return a;
  const mem = a.mem === null || b.mem === null ? null : [Math.min(a.mem[0], b.mem[0]), Math.min(a.mem[1], b.mem[1])] as const;
  return { mem, proxies: a.proxies.filter((p) => b.proxies.includes(p)) };
}

const equals = (a: State, b: State): boolean => a === b || (a.mem?.[0] === b.mem?.[0] && a.mem?.[1] === b.mem?.[1] && a.proxies.join() === b.proxies.join());

/** Whether the state already provides what fence `k` does. */
function covered(s: State, k: Kind): boolean {
  if ('proxy' in k) return s.proxies.includes(k.proxy);
  return s.mem !== null && s.mem[0] >= k.mem[0] && s.mem[1] >= k.mem[1];
}

function after(s: State, k: Kind | undefined, ins: FlatInstruction): State {
  if (k === undefined) return touchesMemory(ins) ? NONE : s;
  if ('proxy' in k) return { mem: s.mem, proxies: s.proxies.includes(k.proxy) ? s.proxies : [...s.proxies, k.proxy].sort() };
  const mem = s.mem === null ? k.mem : [Math.max(s.mem[0], k.mem[0]), Math.max(s.mem[1], k.mem[1])] as const;
  return { mem, proxies: s.proxies };
}

export const F094: Check = {
  meta: {
    id: 'F094',
    name: 'redundant-fence',
    category: 'performance',
    severity: 'info',
    points: 0,
    description: 'A fence follows, on every path, a fence at least as strong with no memory access between them.',
    rationale: 'A fence orders the accesses before it against those after it; a second fence with no access between adds nothing but its cost (a `.gpu`/`.sys` fence can take hundreds of cycles).',
    remedy: 'Keep the stronger fence of the pair and remove the other.',
    notes: 'Precise rule: a forward must-analysis per function of the fences executed since the last memory access (memory accesses as in '
      + 'F093). A memory fence (`fence.sc`/`fence.acq_rel` with a scope, `membar.cta/gl/sys` = `fence.sc`) is redundant when every path '
      + 'reaches it through a fence whose semantics (sc ≥ acq_rel) and scope (sys ≥ gpu ≥ cluster ≥ cta) are both at least its own; so '
      + '`fence.acq_rel.cta; fence.sc.gpu` reports nothing (the second is stronger) while `fence.sc.gpu; fence.acq_rel.cta` reports the second. '
      + 'A proxy fence (`fence.proxy.*`) is redundant after the same proxy fence. Guarded fences, `fence.mbarrier_init` and the newer '
      + '`fence.acquire`/`fence.release` forms are not compared.'
      + assumptionsAndSilencing('F094', 'none about the block.'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], 1;\n\tfence.sc.gpu;\n\tmembar.gl;\n\tst.global.u32 [%rd1+4], 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], 1;\n\tfence.sc.gpu;\n\tst.global.u32 [%rd1+4], 1;\n\tmembar.gl;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let fences = 0;
    for (const fn of ctx.functions) {
      const kinds = fn.instructions.map((i) => (i.node.guard === undefined ? kindOf(i) : undefined));
      if (kinds.every((k) => k === undefined)) continue;
      const cfg = ctx.analysis.cfg(fn);
      const guardedFence = (i: number): boolean => fn.instructions[i]!.node.guard !== undefined && (fn.instructions[i]!.node.opcode === 'fence' || fn.instructions[i]!.node.opcode === 'membar');
      const step = (s: State, i: number): State => (guardedFence(i) ? s : after(s, kinds[i], fn.instructions[i]!));
      const result = solve(cfg, {
        site: 'F094', direction: 'forward',
        boundary: () => NONE,
        initial: () => TOP,
        join,
        equals,
        transfer: (block, input) => {
          let s = input;
          for (let i = block.start; i < block.end; i++) s = step(s, i);
          return s;
        },
      });
      for (const block of cfg.blocks) {
        if (!block.reachable) continue;
        let s = result.atStart[block.id]!;
        for (let i = block.start; i < block.end; i++) {
          const k = kinds[i];
          if (k !== undefined) {
            fences++;
            if (s !== TOP && covered(s, k)) {
              const ins = fn.instructions[i]!;
              out.push({
                message: `${opText(ins)} follows a fence at least as strong with no memory access between them on every path: it orders nothing new`,
                location: ctx.locate(ins.node.range, fn, i),
                function: fn.name,
              });
            }
          }
          s = step(s, i);
        }
      }
    }
    if (fences === 0) return na('no fences');
    return found(out);
  },
};
