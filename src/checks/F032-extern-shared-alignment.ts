// F032: an `.extern .shared` array's `.align` is smaller than the widest access made through it.
import { isExtern, isSharedVariable, mnemonic, variableAccesses, variableAlignment, type VariableAccess } from './address-facts.js';
import type { VariableSymbol } from '../cfg/symbols.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F032: Check = {
  meta: {
    id: 'F032',
    name: 'extern-shared-alignment',
    category: 'address-spaces',
    severity: 'low',
    points: 1,
    description: 'An `.extern .shared` array\'s `.align` is smaller than the widest access made through it.',
    rationale: 'A vector access (`ld.shared.v4.f32`) needs an address aligned to its full width; the declared alignment is what the code '
      + 'promises the loader. Dynamic shared memory usually starts 16-byte (or better) aligned anyway, so this rarely faults, but a second '
      + 'dynamic array carved out after the first, or a future loader, only owes the declared alignment: "misaligned address".',
    remedy: 'Declare the array with the alignment of its widest access: `.extern .shared .align 16 .b8 smem[];` (CUDA: '
      + '`extern __shared__ __align__(16) float4 smem[];`).',
    notes: 'Judged: every access with a data type (`ld`, `ldu`, `st`, `atom`, `red`, `mbarrier`, `cp.async`) whose address is based on an '
      + '`.extern .shared` variable, directly or through registers (`mov`, `cvta`, `cvt`, `add`, `sub`, `mad` with the pointer as addend). '
      + 'The alignment is the `.align` given, else the element size. It fails, once per variable, when the widest such access moves more '
      + 'bytes than the alignment; the finding is at the first widest access. n/a without `.extern .shared` variables. '
      + 'nvcc 13 never produces the pattern: it declares every `.extern .shared` array with `.align 16` or more, whatever the C++ '
      + 'type or `__align__`, and no shared access is wider than 16 bytes; the bug comes from hand-written PTX or other generators.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.extern .shared .align 4 .b8 smem[];\n.visible .entry k()\n{\n'
        + '\t.reg .f32 %f<5>;\n\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [smem];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.extern .shared .align 16 .b8 smem[];\n.visible .entry k()\n{\n'
        + '\t.reg .f32 %f<5>;\n\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [smem];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const externs = (v: VariableSymbol): boolean => isSharedVariable(v) && isExtern(v);
    const declared = [...ctx.analysis.model.variables.values()].some(externs)
      || ctx.functions.some((f) => f.instructions.length > 0 && [...f.scope.variables.values()].some(externs));
    if (!declared) return na('the module declares no .extern .shared array');
    const widest = new Map<VariableSymbol, VariableAccess>();
    for (const x of variableAccesses(ctx, externs)) {
      const w = widest.get(x.base.symbol);
      if (w === undefined || x.width > w.width) widest.set(x.base.symbol, x);
    }
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const [v, x] of widest) {
      const align = variableAlignment(v);
      if (align === undefined || x.width <= align) continue;
      const node = x.fn.instructions[x.index]!.node;
      out.push({
        message: `${mnemonic(node)} moves ${x.width} bytes through .extern .shared ${v.name}, declared .align ${align}`,
        location: ctx.locate(node.range, x.fn, x.index),
        function: x.fn.name,
        related: [{ location: ctx.locate(v.declarator.range), message: `${v.name} is declared with alignment ${align} here` }],
      });
    }
    return found(out);
  },
};
