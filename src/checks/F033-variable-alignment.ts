// F033: a non-extern variable is accessed with a width larger than its declared alignment.
import { isExtern, mnemonic, variableAccesses, variableAlignment } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F033: Check = {
  meta: {
    id: 'F033',
    name: 'variable-alignment',
    category: 'address-spaces',
    severity: 'medium',
    points: 1,
    description: 'A non-extern variable is accessed with a width larger than its declared alignment.',
    rationale: 'ptxas places a variable only at its declared alignment (its `.align`, else its element size): a `.v4.f32` access to a '
      + '`.shared .align 4` array is misaligned whenever the array lands on an address that is not a multiple of 16, which depends on the '
      + 'other variables of the kernel. The result is a "misaligned address" fault that appears and disappears with unrelated edits.',
    remedy: 'Raise the declaration\'s `.align` to the widest access (`.shared .align 16 .b8 tile[4096];`), or split the access into narrower '
      + 'ones.',
    notes: 'Judged: every access with a data type (`ld`, `ldu`, `st`, `atom`, `red`, `mbarrier`, `cp.async`) whose address is based on a '
      + 'non-extern variable of any state space but `.param`, directly or through registers (`mov`, `cvta`, `cvt`, `add`, `sub`, `mad` with the pointer '
      + 'as addend). The alignment is the `.align` given, else the element size (× the vector length for `.v2`/`.v4` variables). It fails '
      + 'when the access moves more bytes than that alignment; the offset is not considered (an offset that breaks an otherwise legal '
      + 'alignment is F051\'s). `.extern` arrays are F032\'s, and parameters F075\'s (a parameter read wider than declared is '
      + 'out of its bounds first; the ABI lays parameters out). An `.align` after `.ptr` is the pointee\'s alignment and is ignored.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 4 .b8 tile[64];\n\t.reg .f32 %f<5>;\n'
        + '\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+16];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 16 .b8 tile[64];\n\t.reg .f32 %f<5>;\n'
        + '\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+16];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const x of variableAccesses(ctx, (v) => !isExtern(v) && v.space !== '.param')) {
      const v = x.base.symbol;
      const align = variableAlignment(v);
      if (align === undefined || x.width <= align) continue;
      const node = x.fn.instructions[x.index]!.node;
      out.push({
        message: `${mnemonic(node)} moves ${x.width} bytes through ${v.space} ${v.name}, which is only ${align}-byte aligned`,
        location: ctx.locate(node.range, x.fn, x.index),
        function: x.fn.name,
        related: [{ location: ctx.locate(v.declarator.range), message: `${v.name} is declared with alignment ${align} here` }],
      });
    }
    return found(out);
  },
};
