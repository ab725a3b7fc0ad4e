// F004: a label is defined twice in one `{ }` block.
import type { Block, Label } from '../parser/ast.js';
import type { Check, Finding } from './types.js';
import { found, na, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

export const F004: Check = {
  meta: {
    id: 'F004',
    name: 'duplicate-label',
    category: 'module',
    severity: 'high',
    points: 1,
    description: 'A label is defined twice in the same `{ }` block.',
    rationale: 'A branch to a duplicated label is ambiguous; ptxas rejects the module ("Duplicate definition of label").',
    remedy: 'Rename one of the labels, or wrap inlined code that reuses a label name in its own `{ }` block.',
    notes: 'Labels are block-scoped: the same name in sibling blocks (two inlined `asm` blocks), or in a nested block shadowing an outer one, '
      + 'is allowed. Only definitions directly in the same block collide. The finding is at the second definition.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\nL1:\n\tret;\nL1:\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t{\n\tL1:\n\t}\n\t{\n\tL1:\n\t}\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Draft[] = [];
    let labels = 0;
    const visit = (block: Block, fn: string): void => {
      const seen = new Map<string, Label>();
      for (const s of block.statements) {
        if (s.kind === 'Label') {
          labels++;
          const prev = seen.get(s.name);
          if (prev === undefined) seen.set(s.name, s);
          else {
            out.push({
              message: `label ${s.name} is defined twice in this block (first at line ${prev.range.line})`,
              location: ctx.locate(s.range), function: fn,
              related: [{ location: ctx.locate(prev.range), message: `first definition of ${s.name}` }],
            });
          }
        } else if (s.kind === 'Block') visit(s, fn);
      }
    };
    for (const fn of ctx.functions) if (fn.decl.body !== null) visit(fn.decl.body, fn.name);
    if (labels === 0) return na('the module defines no labels');
    return out.length === 0 ? pass() : found(out);
  },
};
