// F023: a shared-window address (a `.shared` symbol taken by `mov`, no
// `cvta`) reaches a generic or `.global` access: it points into the wrong
// memory (the seeds' MissingDirectShared).
import { ACCESS_SPACES, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { mnemonic, provenanceChain } from './address-facts.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

const WINDOW = PROV['shared-window'];
const GENERIC = ACCESS_SPACES.indexOf('generic');
const GLOBAL = ACCESS_SPACES.indexOf('global');

/** Where a shared-window address is made: `mov` of a `.shared` symbol, `cvta.to.shared`. */
function isWindowSource(node: A.Instruction): boolean {
  if (node.opcode === 'cvta') return node.modifiers.includes('.to');
  if (node.opcode !== 'mov') return false;
  return node.operands[1] !== undefined && node.operands[1].kind !== 'Vector';
}

/** The accesses F023 reports, by function: instruction index → address-table entry. F024 leaves them to it. */
export function windowAsGeneric(ctx: CheckContext, fn: FunctionModel): Map<number, number> {
  const prov = ctx.analysis.get(fn, provenanceAnalysis);
  const flow = prov.flow;
  const out = new Map<number, number>();
  for (let a = 0; a < flow.addrIns.length; a++) {
    const space = flow.addrSpace[a];
    if ((space !== GENERIC && space !== GLOBAL) || flow.addrTensorMap[a] === 1) continue;
    if ((prov.addressProvenance[a]! & WINDOW) === 0) continue;
    // `ld [smem+8]`: ptxas takes a variable named in a generic access by its generic address.
    if (space === GENERIC && flow.addrSymbol[a] !== undefined) continue;
    if (!out.has(flow.addrIns[a]!)) out.set(flow.addrIns[a]!, a);
  }
  return out;
}

export const F023: Check = {
  meta: {
    id: 'F023',
    name: 'shared-window-as-generic',
    category: 'address-spaces',
    severity: 'high',
    points: 3,
    description: 'An address with shared-window provenance (a `.shared` symbol taken by `mov`, no `cvta`) reaches a generic or `.global` access: it points into the wrong memory.',
    rationale: 'A `.shared` symbol taken by `mov` is an offset in the shared window (a small number), not a generic address: used by a generic '
      + 'or `.global` access it reads or writes global memory at that small address, which faults ("illegal address") or, worse, hits '
      + 'something else. This is the seeds\' MissingDirectShared: the `.shared` qualifier or the `cvta.shared` was forgotten.',
    remedy: 'Either name the space (`ld.shared`/`st.shared` on the window address) or convert it first (`cvta.shared.u64 %rd, %rd_window;`) '
      + 'when a generic pointer is really needed.',
    notes: 'Judged: every memory operand of an instruction whose state space for it is generic (none named) or `.global`, tensor maps excepted. '
      + 'It fails when the address\'s provenance includes shared-window on some path: a `mov` of a `.shared` variable (or `cvta.to.shared`) '
      + 'reaches it through moves, integer conversions and address arithmetic with no `cvta.shared` between. A mix with other origins '
      + '(`selp` of a window and a global pointer) fails too: the window path is wrong. A `.shared` variable named in a generic access (`ld.u32 %r, [smem+8]`) passes: ptxas '
      + 'takes it by its generic address; named in a `.global` access it fails (ptxas: "State space mismatch"). The finding carries the chain from the `mov` to the '
      + 'access. For a `.global` access this is also a provenance mismatch; F023 reports it and F024 does not.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tmov.u64 %rd1, smem;\n\tadd.u64 %rd2, %rd1, 8;\n\tld.u32 %r1, [%rd2];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tmov.u64 %rd1, smem;\n\tadd.u64 %rd2, %rd1, 8;\n\tld.shared.u32 %r1, [%rd2];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const prov = ctx.analysis.get(fn, provenanceAnalysis);
      for (const [i, a] of windowAsGeneric(ctx, fn)) {
        const node = fn.instructions[i]!.node;
        const access = prov.accessesAt(i).find((x) => x.operand === prov.flow.addrOperand[a]);
        const space = prov.flow.addrSpace[a] === GLOBAL ? '.global' : 'generic';
        const direct = access?.symbol !== undefined;
        const chain = access === undefined || direct ? [] : provenanceChain(ctx, fn, access, WINDOW, isWindowSource);
        out.push({
          message: direct
            ? `${mnemonic(node)} names the .shared variable ${access.symbol!.name} in a ${space} access: it is a shared-window offset, not a ${space === 'generic' ? 'generic' : 'global'} address`
            : `${space} ${mnemonic(node)} through a shared-window address${chain.length > 1 ? ` (from ${chain[0]!.what} at line ${chain[0]!.location.line})` : ''}: add .shared or convert it with cvta.shared`,
          location: ctx.locate(node.range, fn, i),
          function: fn.name,
          ...(chain.length > 0 ? { chain } : {}),
        });
      }
    }
    return found(out);
  },
};
