// F087: a construct that ptxas 13 warns about as deprecated for the declared
// version and target.
import { at } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

/** `.version` as a number (8.5 → 85). */
function versionOf(statements: readonly { readonly kind: string }[]): number | undefined {
  const v = statements.find((s): s is { kind: 'Version'; major: number; minor: number } & typeof s => s.kind === 'Version');
  return v === undefined ? undefined : v.major * 10 + v.minor;
}

/** One part's: how many functions with bodies it has, its findings. */
interface Summary {
  readonly functions: number;
  readonly findings: Omit<Finding, 'id' | 'severity'>[];
}

export const F087: Check = {
  meta: {
    id: 'F087',
    name: 'deprecated-feature',
    category: 'known-patterns',
    severity: 'medium',
    points: 1,
    description: 'A construct that ptxas 13 reports as deprecated (or as a deprecated feature it no longer supports) for the module\'s '
      + '`.version` and `.target`.',
    rationale: 'Deprecated forms are kept for old code only: ptxas may already ignore or reject them, and they disappear in later PTX '
      + 'versions, so the module stops assembling with the next toolkit.',
    remedy: 'Use the replacement ptxas names: `.minnctapersm` for `.maxnctapersm`, `mma.sp::ordered_metadata` for `mma.sp`, no '
      + '`map_f64_to_f32` target option (f64 is native since sm_13).',
    notes: 'The table, each entry checked against ptxas 13.0: the function directive `.maxnctapersm` ("Deprecated feature: '
      + '\'.maxnctapersm directive\' not supported as of PTX version 2.1", an error since); the `.target` option `map_f64_to_f32` '
      + '("not supported with SM 1.3 or higher"); `mma.sp` without `::ordered_metadata` in a module of `.version` 8.5 or later (ptxas: '
      + '"Modifier \'.sp::ordered_metadata\' should be used on instruction \'mma\' instead of modifier \'.sp\'"). `shfl`/`vote` '
      + 'without `.sync` (deprecated since PTX 6.0) are F043\'s, which the catalog lets report first, and are not repeated here.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n.maxnctapersm 2\n{\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n.maxntid 128, 1, 1\n.minnctapersm 2\n{\n\tret;\n}\n',
    },
  },
  split: {
    // The instructions part by part; the module's directives once.
    part(ctx): Summary {
      const out: Omit<Finding, 'id' | 'severity'>[] = [];
      const version = versionOf(ctx.module.statements);
      for (const fn of version !== undefined && version >= 85 ? ctx.functions : []) {
        for (const ins of fn.instructions) {
          const node = ins.node;
          if (node.opcode === 'mma' && node.modifiers.includes('.sp')) {
            out.push({ message: 'mma.sp is deprecated in favour of mma.sp::ordered_metadata since PTX 8.5 (ptxas 13 advises the replacement)', ...at(ctx, fn, ins.index) });
          }
        }
      }
      return { functions: ctx.functions.length, findings: out };
    },
    join(ctx, parts: readonly Summary[]) {
      const out: Omit<Finding, 'id' | 'severity'>[] = [];
      for (const s of ctx.module.statements) {
        if (s.kind === 'Target' && s.targets.includes('map_f64_to_f32')) {
          out.push({ message: '.target option map_f64_to_f32 is deprecated: ptxas rejects it for every supported target (f64 is native)', location: ctx.locate(s.range) });
        }
        if (s.kind === 'Function') {
          for (const d of s.directives) {
            if (d.name === '.maxnctapersm') {
              out.push({ message: '.maxnctapersm is deprecated since PTX 2.0 and rejected by ptxas 13: use .minnctapersm (with .maxntid or .reqntid)', location: ctx.locate(d.range), function: s.name });
            }
          }
        }
      }
      if (parts.every((p) => p.functions === 0) && out.length === 0) return na('the module has no function bodies');
      return found([...out, ...parts.flatMap((p) => p.findings)]);
    },
  },
  run: (ctx) => runWhole(F087.split!, ctx),
};
