// F021: a generic ld/st/atom/red whose address can only be a generic address
// of shared memory made by `cvta.shared` (the seeds' GenericAddressCorruption).
import { ATOM_MASK, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { isDebugBuild, mnemonic, provenanceChain } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

const OPCODES: ReadonlySet<string> = new Set(['ld', 'ldu', 'st', 'atom', 'red']);
const SHARED_GENERIC = PROV['shared-generic'];

/** `cvta.shared` / `cvta.shared::cta` (not `cvta.to.shared`, not the cluster forms). */
export function isCvtaShared(node: { readonly opcode: string; readonly modifiers: readonly string[] }): boolean {
  return node.opcode === 'cvta' && !node.modifiers.includes('.to') && (node.modifiers.includes('.shared') || node.modifiers.includes('.shared::cta'));
}

export const F021: Check = {
  meta: {
    id: 'F021',
    name: 'generic-shared-address',
    category: 'address-spaces',
    severity: 'medium',
    points: 1,
    description: 'A generic (no state space) `ld`/`st`/`atom`/`red` uses an address whose every reaching definition derives from `cvta.shared`.',
    rationale: 'The seeds blamed this shape (GenericAddressCorruption: `cvta.shared` → 64-bit arithmetic → generic `ld`/`st`) for "address 0x1" crashes. '
      + 'On an H200 it ran correctly and compute-sanitizer found nothing, so by default it is a performance and clarity finding: a generic '
      + 'access must test the address window at run time, takes a 64-bit address register, and hides from readers (and tools) that the '
      + 'memory is shared. The `seeds` profile makes it critical.',
    remedy: 'Address shared memory directly: `mov.u32 %r, smem;` plus a 32-bit offset, and `ld.shared`/`st.shared`/`atom.shared` on it; '
      + 'keep `cvta.shared` for pointers that must be passed where a generic pointer is expected.',
    notes: 'Judged: every `ld`, `ldu`, `st`, `atom` and `red` that names no state space. It fails when the provenance of its address is exactly '
      + '{shared-generic}: every definition that reaches it derives from `cvta.shared` (or `cvta.shared::cta`) through moves, integer '
      + 'conversions and address arithmetic. An address that may also be global or anything else (`selp` of a shared and a global pointer, '
      + 'a `.func` argument, a pointer loaded from memory) passes, as does a distributed-shared-memory address (`mapa`, `cvta.shared::cluster`, '
      + 'which nvcc itself accesses generically). The finding carries the chain from the `cvta.shared` to the access. '
      + 'Departure: a module compiled for debugging (`.target sm_XY, debug`, what `nvcc -G` writes) is n/a. nvcc -G keeps every pointer '
      + 'generic on purpose (it emits exactly this shape for every `__shared__` array access), and the optimizing build of the same source '
      + 'uses `ld/st.shared`; reporting it would blame the compiler\'s debug mode, not the code. LLVM output that casts a shared pointer to '
      + 'generic and calls a generic-address intrinsic on it (`llvm.nvvm.atomic.add.gen.i.cta` after `addrspacecast`) really has the '
      + 'shape and is reported.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tmov.u32 %r1, %tid.x;\n\tcvta.shared.u64 %rd1, smem;\n\tmul.wide.u32 %rd2, %r1, 4;\n'
        + '\tadd.u64 %rd3, %rd1, %rd2;\n\tst.u32 [%rd3], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, smem;\n\tmad.lo.u32 %r3, %r1, 4, %r2;\n'
        + '\tst.shared.u32 [%r3], %r1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    if (isDebugBuild(ctx.module)) return na('a debug build (.target ..., debug: nvcc -G keeps shared pointers generic on purpose)');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const prov = ctx.analysis.get(fn, provenanceAnalysis);
      const flow = prov.flow;
      for (let a = 0; a < flow.addrIns.length; a++) {
        if (flow.addrSpace[a] !== 0 || flow.addrTensorMap[a] === 1) continue;
        if ((prov.addressProvenance[a]! & ATOM_MASK) !== SHARED_GENERIC) continue;
        const i = flow.addrIns[a]!;
        const node = fn.instructions[i]!.node;
        if (!OPCODES.has(node.opcode)) continue;
        const access = prov.accessesAt(i).find((x) => x.operand === flow.addrOperand[a]);
        if (access === undefined) continue;
        const chain = provenanceChain(ctx, fn, access, SHARED_GENERIC, isCvtaShared);
        const via = chain.length > 1 ? ` (from ${chain[0]!.what} at line ${chain[0]!.location.line})` : '';
        out.push({
          message: `generic ${mnemonic(node)} through a cvta.shared address${via}: use ${node.opcode}.shared with a 32-bit shared-window offset`,
          location: ctx.locate(node.range, fn, i),
          function: fn.name,
          chain,
        });
      }
    }
    return found(out);
  },
};
