// F024: an access's state space disagrees with where its address points.
import { ACCESS_SPACES, agreement, ATOM_MASK, ATOMS, formatProvenance, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { isAddressOrigin, mnemonic, provenanceChain } from './address-facts.js';
import { constWrites } from './F026-const-write.js';
import { windowAsGeneric } from './F023-shared-window-as-generic.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Spaces F024 judges (generic accesses are F021/F023's; `.param` is F027's). */
const JUDGED: ReadonlySet<string> = new Set(['global', 'shared', 'shared::cluster', 'local', 'const']);

export const F024: Check = {
  meta: {
    id: 'F024',
    name: 'provenance-mismatch',
    category: 'address-spaces',
    severity: 'high',
    points: 1,
    description: 'An access\'s state space disagrees with its address provenance (a global pointer used with `.shared`/`.local`/`.const`, or a `.local`/`.const`/shared address used with `.global`).',
    rationale: 'A state-space access interprets its address in that space\'s window: a global pointer used by `ld.shared` reads a '
      + 'shared-memory offset that happens to equal the low bits of the pointer, and a `.local` or generic address used by `ld.global` '
      + 'reads unrelated global memory or faults. ptxas checks this only for variables named directly ("State space mismatch"), never '
      + 'through registers.',
    remedy: 'Use the access space the address was made for, or convert it: `cvta.to.global`/`cvta.to.shared` turn a generic address into '
      + 'a window address, `cvta.shared`/`cvta.local` the other way; a kernel pointer parameter goes through `cvta.to.global` before '
      + '`ld/st.global`.',
    notes: 'Judged: every memory operand whose instruction names `.global`, `.shared`/`.shared::cta`, `.shared::cluster`, `.local` or `.const`. '
      + 'It fails when the address\'s provenance includes, on some path, an origin that space does not take: `.global` takes global and '
      + 'generic-global (a raw kernel pointer parameter: F029 reports that); `.shared` takes shared-window; `.shared::cluster` shared-window '
      + 'and shared-cluster; `.local` local; `.const` const. Addresses of unknown origin (a pointer loaded from memory, a `.func` argument) '
      + 'pass. Register addresses carry the chain from where the wrong origin appears (the `ld.param`, `cvta` or `mov` of the '
      + 'variable) to the access. Generic accesses are F021/F023\'s and `.param` accesses F027\'s. The more specific check reports first: a shared-window '
      + 'address in a `.global` access is F023\'s, a write through a const address F026\'s.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.shared.u32 %r1, [%rd2];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.global.u32 %r1, [%rd2];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const prov = ctx.analysis.get(fn, provenanceAnalysis);
      const flow = prov.flow;
      let f023: Map<number, number> | undefined;
      let f026: Map<number, number> | undefined;
      for (let a = 0; a < flow.addrIns.length; a++) {
        const space = ACCESS_SPACES[flow.addrSpace[a]!]!;
        if (!JUDGED.has(space) || flow.addrTensorMap[a] === 1) continue;
        const mask = prov.addressProvenance[a]!;
        const verdict = agreement(space, mask);
        if (verdict !== 'mismatch' && verdict !== 'partial') continue;
        const i = flow.addrIns[a]!;
        f023 ??= windowAsGeneric(ctx, fn);
        f026 ??= constWrites(ctx, fn);
        if (f023.has(i) || f026.has(i)) continue;
        const node = fn.instructions[i]!.node;
        const origin = (mask & ATOM_MASK & (PROV.global | PROV['generic-global'])) !== 0 ? 'a global pointer' : 'an address';
        // The chain of the first origin the space does not take.
        const bad = (mask & ATOM_MASK) & ~(PROV.unknown | PROV.generic);
        const atom = ATOMS.map((x) => PROV[x]).find((bit) => (bad & bit) !== 0 && agreement(space, bit) === 'mismatch') ?? 0;
        const access = flow.addrUse[a]! < 0 || atom === 0 ? undefined : prov.accessesAt(i).find((x) => x.operand === flow.addrOperand[a]);
        const chain = access === undefined ? [] : provenanceChain(ctx, fn, access, atom, isAddressOrigin);
        out.push({
          ...(chain.length > 1 ? { chain } : {}),
          message: `${mnemonic(node)} accesses .${space} through ${origin} of provenance ${formatProvenance(mask)}`
            + `${verdict === 'partial' ? ' (on some paths)' : ''}`,
          location: ctx.locate(node.range, fn, i),
          function: fn.name,
        });
      }
    }
    return found(out);
  },
};
