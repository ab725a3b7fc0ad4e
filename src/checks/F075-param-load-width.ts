// F075: `ld.param` reads past the end of the declared parameter.
import type * as A from '../parser/ast.js';
import { typeBytes } from '../cfg/symbols.js';
import { at, intValue, mnemonic } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** `[name]`, `[name+8]`: the symbol name and constant offset of a param address. */
function nameAndOffset(a: A.AddressExpr): { name: A.NameExpr; offset: number } | undefined {
  if (a.elements.length !== 1) return undefined;
  const e = a.elements[0]!;
  if (e.kind === 'Name') return { name: e, offset: 0 };
  if (e.kind === 'Binary' && (e.op === '+' || e.op === '-') && e.left.kind === 'Name') {
    const v = intValue(e.right);
    if (v === undefined) return undefined;
    return { name: e.left, offset: Number(e.op === '+' ? v : -v) };
  }
  return undefined;
}

export const F075: Check = {
  meta: {
    id: 'F075',
    name: 'param-load-width',
    category: 'data-flow',
    severity: 'medium',
    points: 1,
    description: '`ld.param` reads bytes past the end of the parameter it names (offset + access width > declared size).',
    rationale: 'The extra bytes belong to the next parameter (or to nothing): a pointer declared `.u32` but loaded with `ld.param.u64` '
      + 'gets its high half from whatever follows. ptxas 13 accepts it with only an info message ("Potential out of bound access '
      + 'while accessing symbol").',
    remedy: 'Declare the parameter with the size it is read at (`.param .u64 ptr` for a pointer), or load it with the declared width.',
    notes: 'Judged for `ld.param` (any `::entry`/`::func` form) whose address names a `.param` variable with a known size directly, '
      + '`[p]` or `[p+off]`: kernel and function parameters, and the call-site `.param` variables of a call sequence. The width is the '
      + 'instruction\'s type size times its vector lanes. An address through a register (`mov.u64 %rd, p` then `ld.param [%rd+8]`) is '
      + 'not judged.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 flag)\n{\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [flag];\n\tst.global.u32 [%rd1], 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 flag)\n{\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [flag];\n\tst.global.u32 [%rd1], 0;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const node = ins.node;
        if (node.opcode !== 'ld' || !node.modifiers.some((m) => m === '.param' || m.startsWith('.param::'))) continue;
        const addr = node.operands.find((o): o is A.AddressExpr => o.kind === 'Address');
        const where = addr === undefined ? undefined : nameAndOffset(addr);
        if (where === undefined) continue;
        const sym = fn.resolve(where.name);
        if (sym?.kind !== 'variable' || sym.space !== '.param' || sym.size === undefined) continue;
        const type = node.modifiers.find((m) => typeBytes(m) !== undefined);
        const lanes = node.modifiers.find((m) => m === '.v2' || m === '.v4' || m === '.v8');
        if (type === undefined) continue;
        judged++;
        const width = typeBytes(type)! * (lanes === undefined ? 1 : Number(lanes.slice(2)));
        if (where.offset + width <= sym.size) continue;
        out.push({
          message: `${mnemonic(node)} reads ${width} byte${width === 1 ? '' : 's'} at offset ${where.offset} of ${sym.name}, which is declared with ${sym.size}: ${where.offset + width - sym.size} byte${where.offset + width - sym.size === 1 ? '' : 's'} past its end`,
          ...at(ctx, fn, ins.index),
        });
      }
    }
    if (judged === 0) return na('no ld.param of a named parameter');
    return found(out);
  },
};
