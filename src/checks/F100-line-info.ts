// F100: a kernel has no `.loc` line information.
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F100: Check = {
  meta: {
    id: 'F100',
    name: 'line-info',
    category: 'instrumentation',
    severity: 'info',
    points: 0,
    description: 'A kernel none of whose instructions carries `.loc` line information.',
    rationale: 'Without `.loc`, compute-sanitizer, cuda-gdb and this analyzer can only name PTX lines, not the source lines the code '
      + 'came from. (PTX written by hand can point `.loc` at itself: `.file 1 "k.ptx"` and `.loc 1 LINE 0`.)',
    remedy: 'Compile with `nvcc -lineinfo` (or `-G`), `clang -g`/`-gline-tables-only` for LLVM, or keep Triton\'s default line info.',
    notes: 'Judged per `.entry` with at least one instruction: it fails when no instruction follows a `.loc` directive. Device functions '
      + 'are not judged on their own.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.file 1 "k.cu"\n.visible .entry k()\n{\n\t.loc 1 3 1\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const kernels = ctx.functions.filter((f) => f.isEntry && f.instructions.length > 0);
    if (kernels.length === 0) return na('no kernel with instructions');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of kernels) {
      if (fn.instructions.some((i) => i.loc !== undefined)) continue;
      out.push({ message: `${fn.name} has no .loc line information: crash locations map to PTX lines only`, location: ctx.locate(fn.decl.nameRange), function: fn.name });
    }
    return found(out);
  },
};
