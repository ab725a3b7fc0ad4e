// F086: the kernel has a pointer parameter it never accesses and no stored
// value depends on any load or parameter: its output cannot depend on its input.
import type * as A from '../parser/ast.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { taintAnalysis } from '../cfg/dataflow/taint.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { typeBytes } from '../cfg/symbols.js';
import { registersIn } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** Writes to memory: their stored values are the kernel's output. */
const WRITES = new Set(['st', 'atom', 'red', 'sust', 'sured', 'stmatrix', 'cp', 'multimem', 'tensormap']);

/** Whether the values loaded from parameter `name` ever reach an address, a stored value, a call or a branch. */
function paramUsed(ctx: CheckContext, fn: FunctionModel, name: string): boolean {
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const t = rd.table;
  const work: number[] = [];
  for (const ins of fn.instructions) {
    const node = ins.node;
    const names = (e: A.Expression): boolean => (e.kind === 'Name' && e.name === name && fn.resolve(e)?.kind === 'variable')
      || ((e.kind === 'Address' || e.kind === 'List' || e.kind === 'Vector') && e.elements.some(names))
      || (e.kind === 'Binary' && (names(e.left) || names(e.right)));
    if (!node.operands.some(names)) continue;
    // A parameter named anywhere but in a plain ld.param (mov of its address, cvta.param, a call argument) counts as used.
    if (node.opcode !== 'ld') return true;
    work.push(ins.index);
  }
  const seen = new Set<number>();
  while (work.length > 0) {
    const i = work.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    if (seen.size > 2000) return true;
    for (let s = t.defStart[i]!; s < t.defStart[i + 1]!; s++) {
      const r = t.defReg[s]!;
      for (const u of rd.usesOf(i, r)) {
        const node = fn.instructions[u]!.node;
        if (node.opcode === 'call' || node.opcode === 'bra' || node.opcode === 'brx' || WRITES.has(node.opcode) || node.guard !== undefined) return true;
        if (node.operands.some((o) => o.kind === 'Address' && registersIn(fn, o).some((x) => x.id === r))) return true;
        work.push(u);
      }
    }
  }
  return false;
}

export const F086: Check = {
  meta: {
    id: 'F086',
    name: 'placeholder-kernel',
    category: 'known-patterns',
    severity: 'high',
    points: 1,
    description: 'A kernel that ignores one of its pointer parameters and stores only values that depend on no load and no parameter: '
      + 'its output cannot depend on its input.',
    rationale: 'Such a kernel is a stub (a placeholder left from scaffolding, a body that was never written, generated code whose '
      + 'computation was lost): it runs and "succeeds" while computing nothing from its input.',
    remedy: 'Implement the kernel body (read the input the parameter points to), or remove the unused input parameter if the kernel '
      + 'really only fills memory.',
    notes: 'Judged per `.entry` with a body and without calls (a callee could read the input). A pointer parameter is a 64-bit one '
      + '(`.u64`/`.b64`/`.s64`, with or without `.ptr`); it is ignored when it is never named, or only loaded by `ld.param` into values '
      + 'that never reach an address, a stored value, a call, a guard or a branch. The output is constant when no value written to '
      + 'memory (`st`, `atom`, `red`, surface stores; their data operands) carries data from any load or `ld.param` (the taint '
      + 'analysis, through any data dependence): constants and %tid/%ctaid arithmetic only. Control dependence does not count, so '
      + '`if (i < n) out[i] = 0` still writes constants. A zero-fill or iota kernel whose only pointer is its output passes, and so '
      + 'does a kernel that stores nothing but uses all its pointers.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 in, .param .u64 out)\n{\n\t.reg .b32 %r<2>;\n'
        + '\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n'
        + '\tst.global.u32 [%rd3], 0;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 in, .param .u64 out)\n{\n\t.reg .b32 %r<3>;\n'
        + '\t.reg .b64 %rd<6>;\n\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd4, [in];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n'
        + '\tadd.s64 %rd5, %rd4, %rd2;\n\tld.global.u32 %r2, [%rd5];\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const kernels = ctx.functions.filter((f) => f.isEntry);
    if (kernels.length === 0) return na('no kernel with a body');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of kernels) {
      if (fn.instructions.some((i) => i.node.opcode === 'call')) continue;
      const pointers = fn.decl.params.flatMap((p) => {
        const type = p.qualifiers.find((q) => typeBytes(q.name) !== undefined)?.name;
        return type !== undefined && typeBytes(type) === 8 && !type.startsWith('.f') && p.qualifiers.every((q) => !q.name.startsWith('.v'))
          ? p.declarators.filter((d) => d.dims.length === 0).map((d) => d.name) : [];
      });
      if (pointers.length === 0) continue;
      judged++;
      // Whether the output depends on any input first: it almost always does, and that is one pass where
      // finding the ignored pointers is a pass per parameter.
      const taint = ctx.analysis.get(fn, taintAnalysis);
      const dependent = fn.instructions.some((ins) => {
        if (!WRITES.has(ins.node.opcode)) return false;
        const v = taint.storedValue(ins.index);
        return v === undefined || v.any !== 0;
      });
      if (dependent) continue;
      const ignored = pointers.filter((p) => !paramUsed(ctx, fn, p));
      if (ignored.length === 0) continue;
      const stores = fn.instructions.filter((i) => WRITES.has(i.node.opcode)).length;
      out.push({
        message: `${fn.name} ignores its pointer parameter${ignored.length === 1 ? '' : 's'} ${ignored.join(', ')} and ${stores === 0 ? 'stores nothing' : 'stores only constants and thread indices'}: its output cannot depend on its input`,
        location: ctx.locate(fn.decl.nameRange), function: fn.name,
      });
    }
    if (judged === 0) return na('no kernel with a pointer parameter');
    return found(out);
  },
};
