// F069: the CFG of a function is irreducible.
import { at } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F069: Check = {
  meta: {
    id: 'F069',
    name: 'irreducible-cfg',
    category: 'control-flow',
    severity: 'info',
    points: 0,
    description: 'A function whose control flow is irreducible: a cycle that can be entered at more than one block.',
    rationale: 'Compilers never produce irreducible control flow from structured code; ptxas handles it, but its reconvergence and '
      + 'optimization are weaker there, and this analyzer\'s loop-based facts (induction variables, loop exits) do not apply to it.',
    remedy: 'Restructure the code so that every loop has one entry (its header), e.g. by duplicating the code between the entries.',
    notes: 'Judged by a depth-first search of the CFG from the entry: a retreating edge whose target does not dominate its source makes '
      + 'the function irreducible. One finding per function, at the last instruction of the source block of its first such edge (a branch or the fall-through into the cycle), naming the others\' count.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<2>;\n'
        + '\tld.param.u32 %r1, [n];\n\tsetp.eq.s32 %p1, %r1, 0;\n\t@%p1 bra B;\nA:\n\tadd.s32 %r1, %r1, 1;\nB:\n\tadd.s32 %r1, %r1, 2;\n'
        + '\tsetp.lt.s32 %p2, %r1, 100;\n\t@%p2 bra A;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<2>;\n'
        + '\tld.param.u32 %r1, [n];\nA:\n\tadd.s32 %r1, %r1, 2;\n\tsetp.lt.s32 %p2, %r1, 100;\n\t@%p2 bra A;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const edges = ctx.analysis.loops(fn).irreducibleEdges;
      if (edges.length === 0) continue;
      const cfg = ctx.analysis.cfg(fn);
      const [from, to] = edges[0]!;
      const src = cfg.blocks[from]!;
      const dst = cfg.blocks[to]!;
      const target = dst.labels[0] ?? (dst.end > dst.start ? `line ${fn.instructions[dst.start]!.node.range.line}` : `block ${to}`);
      const more = edges.length > 1 ? ` (and ${edges.length - 1} more such edge${edges.length > 2 ? 's' : ''})` : '';
      out.push({ message: `the CFG of ${fn.name} is irreducible: the edge to ${target} enters a cycle that it does not dominate${more}`, ...at(ctx, fn, src.end - 1) });
    }
    return found(out);
  },
};
