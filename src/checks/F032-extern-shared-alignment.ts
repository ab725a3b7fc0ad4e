// F032: an `.extern .shared` array's `.align` is smaller than the widest access made through it.
import { isExtern, isSharedVariable, mnemonic, variableAccesses, variableAlignment } from './address-facts.js';
import type { VariableSymbol } from '../cfg/symbols.js';
import type { Check, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

const externShared = (v: VariableSymbol): boolean => isSharedVariable(v) && isExtern(v);

/** A variable's widest access in a part (the first of the widest), and the finding it makes, if any. */
interface Widest {
  readonly width: number;
  readonly finding: Omit<Finding, 'id' | 'severity'> | undefined;
}

/** One part's: whether it declares an extern shared array, each such variable's widest access (module-level
 *  variables by name, a function's by its function and declaration). */
interface Summary {
  readonly declared: boolean;
  readonly widest: readonly (readonly [string, Widest])[];
}

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
      + 'type or `__align__`, and no shared access is wider than 16 bytes; the bug comes from hand-written PTX or other generators. '
      + 'llc 14 does produce it: an `align 4` external shared array read as `<4 x float>` gives `.extern .shared .align 4` and '
      + '`ld.shared.v4.f32` (fixtures/checks/F032/fails/underaligned-v4.ll).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.extern .shared .align 4 .b8 smem[];\n.visible .entry k()\n{\n'
        + '\t.reg .f32 %f<5>;\n\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [smem];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.extern .shared .align 16 .b8 smem[];\n.visible .entry k()\n{\n'
        + '\t.reg .f32 %f<5>;\n\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [smem];\n\tret;\n}\n',
    },
  },
  split: {
    part(ctx): Summary {
      const declared = ctx.functions.some((f) => f.instructions.length > 0 && [...f.scope.variables.values()].some(externShared));
      const widest = new Map<string, Widest>();
      if (!declared && ![...ctx.analysis.model.variables.values()].some(externShared)) return { declared, widest: [] };
      for (const x of variableAccesses(ctx, externShared)) {
        const v = x.base.symbol;
        const key = v.global ? v.name : `${x.fn.name} ${v.declarator.range.offset}`;
        const w = widest.get(key);
        if (w !== undefined && x.width <= w.width) continue;
        const align = variableAlignment(v);
        const node = x.fn.instructions[x.index]!.node;
        widest.set(key, {
          width: x.width,
          finding: align === undefined || x.width <= align ? undefined : {
            message: `${mnemonic(node)} moves ${x.width} bytes through .extern .shared ${v.name}, declared .align ${align}`,
            location: ctx.locate(node.range, x.fn, x.index),
            function: x.fn.name,
            related: [{ location: ctx.locate(v.declarator.range), message: `${v.name} is declared with alignment ${align} here` }],
          },
        });
      }
      return { declared, widest: [...widest] };
    },
    join(ctx, parts: readonly Summary[]) {
      const declared = [...ctx.analysis.model.variables.values()].some(externShared) || parts.some((p) => p.declared);
      if (!declared) return na('the module declares no .extern .shared array');
      // The widest access of each variable, the first of the widest (as one walk over every function finds it).
      const widest = new Map<string, Widest>();
      for (const p of parts) {
        for (const [key, w] of p.widest) {
          const seen = widest.get(key);
          if (seen === undefined || w.width > seen.width) widest.set(key, w);
        }
      }
      return found([...widest.values()].flatMap((w) => (w.finding === undefined ? [] : [w.finding])));
    },
  },
  run: (ctx) => runWhole(F032.split!, ctx),
};
