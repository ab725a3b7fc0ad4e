// F026: a store or atomic targets `.const` space, or an address with const
// provenance.
import { ACCESS_SPACES, formatProvenance, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { mnemonic, provenanceChain, WRITE_OPCODES } from './address-facts.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

const CONST_ATOMS = PROV.const | PROV['const-generic'];
const CONST = ACCESS_SPACES.indexOf('const');

/** Writes F026 reports in `fn`: instruction index → address-table entry. F024 leaves them to it. */
export function constWrites(ctx: CheckContext, fn: FunctionModel): Map<number, number> {
  const prov = ctx.analysis.get(fn, provenanceAnalysis);
  const flow = prov.flow;
  const out = new Map<number, number>();
  for (let a = 0; a < flow.addrIns.length; a++) {
    const i = flow.addrIns[a]!;
    if (out.has(i) || flow.addrTensorMap[a] === 1) continue;
    // The written address is the instruction's first memory operand.
    if (a > flow.insAddrStart[i]!) continue;
    if (!WRITE_OPCODES.has(fn.instructions[i]!.node.opcode)) continue;
    if (flow.addrSpace[a] === CONST || (prov.addressProvenance[a]! & CONST_ATOMS) !== 0) out.set(i, a);
  }
  return out;
}

const isConstSource = (node: A.Instruction): boolean =>
  (node.opcode === 'mov' && node.operands[1]?.kind === 'Name') || (node.opcode === 'cvta' && (node.modifiers.includes('.const')));

export const F026: Check = {
  meta: {
    id: 'F026',
    name: 'const-write',
    category: 'address-spaces',
    severity: 'high',
    points: 1,
    description: 'A store or atomic targets `.const` space, or an address with const provenance.',
    rationale: 'Constant memory is read-only to kernels: ptxas rejects `st.const`, and a generic store through a `cvta.const` address '
      + 'faults at run time (or is silently dropped), so the value the code meant to keep is lost.',
    remedy: 'Write the data to `.global` memory instead (fill `.const` tables from the host with cudaMemcpyToSymbol), or drop the `.const` '
      + 'qualifier of a table the kernel updates.',
    notes: 'Judged: `st`, `red`, `atom` and `stmatrix`, by the address they write (their first memory operand). It fails when the instruction '
      + 'names `.const`, or when the address\'s provenance includes const or const-generic on some path (a `.const` variable taken by '
      + '`mov` or `cvta.const`, and arithmetic on it). The finding carries the chain from the const address to the write. F024 leaves these '
      + 'writes to F026.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.const .align 4 .b8 table[64];\n.visible .entry k()\n{\n'
        + '\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\tmov.u32 %r1, %tid.x;\n\tcvta.const.u64 %rd1, table;\n\tst.u32 [%rd1], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.const .align 4 .b8 table[64];\n.visible .entry k()\n{\n'
        + '\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n\tcvta.const.u64 %rd1, table;\n\tld.u32 %r1, [%rd1];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const prov = ctx.analysis.get(fn, provenanceAnalysis);
      for (const [i, a] of constWrites(ctx, fn)) {
        const node = fn.instructions[i]!.node;
        const access = prov.accessesAt(i).find((x) => x.operand === prov.flow.addrOperand[a]);
        const chain = access === undefined || access.register === undefined ? [] : provenanceChain(ctx, fn, access, CONST_ATOMS, isConstSource);
        const what = prov.flow.addrSpace[a] === CONST
          ? `${mnemonic(node)} writes .const space`
          : `${mnemonic(node)} writes through an address into constant memory ${formatProvenance(prov.addressProvenance[a]!)}`;
        out.push({
          message: `${what}: constant memory is read-only to kernels`,
          location: ctx.locate(node.range, fn, i),
          function: fn.name,
          ...(chain.length > 1 ? { chain } : {}),
        });
      }
    }
    return found(out);
  },
};
