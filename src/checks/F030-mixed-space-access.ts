// F030: one address value is used by both generic and state-space-specific
// accesses in a function.
import { ACCESS_SPACES, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { mnemonic } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

const OPCODES: ReadonlySet<string> = new Set(['ld', 'ldu', 'st', 'atom', 'red']);

export const F030: Check = {
  meta: {
    id: 'F030',
    name: 'mixed-space-access',
    category: 'address-spaces',
    severity: 'medium',
    points: 1,
    description: 'One address value is used by both generic and state-space-specific accesses in a function.',
    rationale: 'An address is either a generic address or a window address of one space, never both: if a value works for `ld.shared` it is '
      + 'a window offset and the generic access through it reads global memory at a small address, and the other way round. Code that '
      + 'mixes them on one register was edited halfway (a `.shared` added to some accesses, or a `cvta` forgotten).',
    remedy: 'Decide what the register holds: keep window addresses for `ld/st.shared` and convert a separate copy with `cvta.shared` for '
      + 'generic use (or the reverse with `cvta.to.shared`).',
    notes: 'Judged: the address registers of `ld`, `ldu`, `st`, `atom` and `red`. It fails when one definition of a register reaches, as '
      + 'the base of an address, both an access that names no state space and one that names a space (`[%rd4]` in `ld.u32` and in '
      + '`st.shared.u32`). One finding per definition, at the first access of the other kind, with the first access as related location. '
      + 'A `.global` window address used by a generic access (nvcc\'s and LLVM\'s global pointers are both) is not a mix: `.global` and '
      + 'generic addresses of global memory coincide, and compilers rely on it.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\t.shared .align 4 .b8 smem[64];\n\tmov.u64 %rd1, smem;\n\tld.shared.u32 %r1, [%rd1];\n\tst.u32 [%rd1+4], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\t.shared .align 4 .b8 smem[64];\n\tmov.u64 %rd1, smem;\n\tld.shared.u32 %r1, [%rd1];\n\tst.shared.u32 [%rd1+4], %r1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const GLOBAL = ACCESS_SPACES.indexOf('global');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const prov = ctx.analysis.get(fn, provenanceAnalysis);
      const flow = prov.flow;
      // Per definition: the first access of each kind (generic 0, space-specific 1) that it reaches.
      const first: Map<number, [number, number]> = new Map();
      const reported = new Set<number>();
      for (let a = 0; a < flow.addrIns.length; a++) {
        const u = flow.addrUse[a]!;
        if (u < 0 || flow.addrTensorMap[a] === 1) continue;
        const i = flow.addrIns[a]!;
        const node = fn.instructions[i]!.node;
        if (!OPCODES.has(node.opcode)) continue;
        const space = flow.addrSpace[a]!;
        if (space === GLOBAL) continue;
        const kind = space === 0 ? 0 : 1;
        for (let k = flow.useDefStart[u]!; k < flow.useDefStart[u + 1]!; k++) {
          const d = flow.useDefs[k]!;
          const seen = first.get(d) ?? [-1, -1];
          if (seen[kind] < 0) seen[kind] = i;
          first.set(d, seen);
          const other = seen[1 - kind]!;
          if (other < 0 || reported.has(d) || seen[kind] !== i) continue;
          reported.add(d);
          const reg = fn.registers[flow.defReg[d]!]!;
          const otherNode = fn.instructions[other]!.node;
          out.push({
            message: `${reg.name} is the address of ${kind === 0 ? 'generic' : 'state-space'} ${mnemonic(node)} and of ${kind === 0 ? 'state-space' : 'generic'} ${mnemonic(otherNode)} (line ${otherNode.range.line}): one value cannot be both`,
            location: ctx.locate(node.range, fn, i),
            function: fn.name,
            related: [{ location: ctx.locate(otherNode.range, fn, other), message: `${mnemonic(otherNode)} uses ${reg.name} here` }],
          });
        }
      }
    }
    return found(out);
  },
};
