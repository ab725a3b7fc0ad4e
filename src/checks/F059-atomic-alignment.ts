// F059: an atomic whose address is provably misaligned for its operand size,
// or whose address's provenance disagrees with the state space it names.
import { affineAnalysis } from '../cfg/dataflow/affine.js';
import { formatProvenance, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { assumptionsAndSilencing, LANE_ASSUMPTION, memoryAccesses, misalignment, opText } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F059: Check = {
  meta: {
    id: 'F059',
    name: 'atomic-alignment',
    category: 'memory',
    severity: 'medium',
    points: 1,
    description: 'An atomic (`atom`, `red`) whose address is provably not a multiple of its operand size, or whose address points into another state space than the one it names.',
    rationale: 'A misaligned atomic faults; an atomic that names `.shared` on a global pointer (or `.global` on a shared one) updates the wrong memory, and its atomicity is lost with it.',
    remedy: 'Keep atomic operands naturally aligned (a 64-bit counter on an 8-byte boundary, `__align__(8)` in structs), and name the space the pointer really points into (or use the generic form).',
    notes: 'Precise rule: for every `atom` and `red`, the operand size (type × vector width: `atom.add.u64` 8, `atom.add.noftz.bf16x2` 4, '
      + '`atom.global.v4.f32.add` 16) and the affine address are judged as F051 does (known base alignment and constants for every thread, or '
      + 'adjacent lanes a non-multiple apart where whole warps reach the atomic). Space: the provenance of the address (see the catalog\'s '
      + '"Provenance") is compared with the space the instruction names; a mismatch (no possible origin fits the space) fails, a partial or '
      + 'unknown provenance does not. Generic atomics accept any origin.'
      + assumptionsAndSilencing('F059', LANE_ASSUMPTION),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 8 .b8 counters[64];\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n'
        + '\tmov.u32 %r1, counters;\n\tatom.shared.add.u64 %rd1, [%r1+4], 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 8 .b8 counters[64];\n.entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n'
        + '\tmov.u32 %r1, counters;\n\tatom.shared.add.u64 %rd1, [%r1+8], 1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    for (const fn of ctx.functions) {
      for (const a of memoryAccesses(ctx.analysis, fn)) {
        if (a.kind !== 'atomic') continue;
        seen++;
        const where = { location: ctx.locate(a.ins.node.range, fn, a.index), function: fn.name };
        const addr = ctx.analysis.get(fn, provenanceAnalysis).accessesAt(a.index).find((x) => x.kind === 'memory');
        if (addr !== undefined && addr.agreement === 'mismatch') {
          out.push({ message: `${opText(a.ins)} names .${addr.space} but its address comes from ${formatProvenance(addr.provenance)}`, ...where });
          continue;
        }
        if (a.form === undefined || a.bytes === undefined) continue;
        const why = misalignment(ctx.analysis, fn, ctx.analysis.get(fn, affineAnalysis), a.index, a.form, a.bytes);
        if (why !== undefined) out.push({ message: `misaligned ${opText(a.ins)}: ${why}`, ...where });
      }
    }
    if (seen === 0) return na('no atomics');
    return found(out);
  },
};
