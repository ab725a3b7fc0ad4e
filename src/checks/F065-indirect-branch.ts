// F065: `brx.idx` lacks a valid `.branchtargets` list, or an indirect `call`
// has neither a `.calltargets` list nor a `.callprototype`.
import { at } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F065: Check = {
  meta: {
    id: 'F065',
    name: 'indirect-branch',
    category: 'control-flow',
    severity: 'medium',
    points: 1,
    description: '`brx.idx` whose target operand is not a label carrying a `.branchtargets` list of code labels, or an indirect `call` '
      + '(through a register) with neither a `.calltargets` list nor a `.callprototype`.',
    rationale: 'An indirect branch can only go where its `.branchtargets` list says, and ptxas needs to know an indirect call\'s '
      + 'signature ("Call to ... requires call prototype"); without them the control flow, and everything derived from it, is unknown.',
    remedy: 'Declare the jump table with `tbl: .branchtargets L0, L1, ...;` and branch with `brx.idx %r, tbl;`; give indirect calls a '
      + '`proto: .callprototype ...;` (or a `.calltargets` list) as their last operand.',
    notes: 'For `brx.idx`: the second operand must name a label followed by `.branchtargets`, and every entry must be a label of the '
      + 'function that starts code (not another table). For `call`: when the callee operand is a register or variable (an indirect '
      + 'call), the last operand must name a label followed by `.calltargets` or `.callprototype`. Names that resolve to nothing are '
      + 'F005\'s and are not reported again here.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .b32 %r<2>;\n\tld.param.u32 %r1, [n];\n'
        + '\tbrx.idx %r1, L0;\nL0:\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n\t.reg .b32 %r<2>;\n\tld.param.u32 %r1, [n];\n'
        + 'tbl: .branchtargets L0, L1;\n\tbrx.idx %r1, tbl;\nL0:\n\tret;\nL1:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const node = ins.node;
        if (node.opcode === 'brx') {
          judged++;
          const t = node.operands[1];
          const sym = t?.kind === 'Name' ? fn.resolve(t) : undefined;
          if (sym === undefined) continue; // F005
          if (sym.kind !== 'label' || sym.directive?.kind !== 'BranchTargets') {
            out.push({ message: `brx.idx goes through ${t?.kind === 'Name' ? t.name : 'an operand'}, which is not a .branchtargets list`, ...at(ctx, fn, ins.index) });
            continue;
          }
          const bad = sym.directive.names.filter((name) => {
            const l = fn.labels.find((x) => x.name === name);
            return l !== undefined && l.directive !== undefined;
          });
          if (bad.length > 0) out.push({ message: `.branchtargets ${sym.name} lists ${bad.join(', ')}, which label${bad.length === 1 ? 's a table' : ' tables'}, not code`, ...at(ctx, fn, ins.index) });
          continue;
        }
        if (node.opcode !== 'call') continue;
        const callee = node.operands.find((o) => o.kind !== 'List');
        if (callee?.kind !== 'Name') continue;
        const sym = fn.resolve(callee);
        if (sym === undefined || sym.kind === 'function') continue;
        if (sym.kind !== 'register' && sym.kind !== 'variable') continue;
        judged++;
        const last = node.operands[node.operands.length - 1];
        const table = last !== undefined && last !== callee && last.kind === 'Name' ? fn.resolve(last) : undefined;
        if (table?.kind === 'label' && (table.directive?.kind === 'CallTargets' || table.directive?.kind === 'CallPrototype')) continue;
        if (last !== undefined && last !== callee && last.kind === 'Name' && table === undefined) continue; // F005
        out.push({ message: `indirect call through ${callee.name} has neither a .calltargets list nor a .callprototype`, ...at(ctx, fn, ins.index) });
      }
    }
    if (judged === 0) return na('no brx.idx and no indirect call');
    return found(out);
  },
};
