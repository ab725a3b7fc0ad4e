// F027: a kernel parameter is written, or `ld.param` reads an address that is
// not a parameter's.
import { ACCESS_SPACES, ATOM_MASK, formatProvenance, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { isAddressOrigin, mnemonic, provenanceChain, symbolBasesAnalysis, WRITE_OPCODES } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

const PARAM = ACCESS_SPACES.indexOf('param');
const PARAM_ATOMS = PROV.param | PROV['param-generic'];

export const F027: Check = {
  meta: {
    id: 'F027',
    name: 'param-write',
    category: 'address-spaces',
    severity: 'medium',
    points: 1,
    description: 'An entry-function parameter is written (`st.param` to a kernel parameter), or an `ld.param` address is neither a parameter symbol nor has param provenance.',
    rationale: 'Kernel parameters live in constant-bank memory shared by the whole grid and are read-only: a store to one is rejected by ptxas '
      + 'or undefined. `ld.param` through a register that holds something else (typically a pointer that was itself loaded from a '
      + 'parameter) reads the parameter buffer at a meaningless offset instead of the memory the pointer points to.',
    remedy: 'Copy the parameter into a register (`ld.param` then `mov`) and modify the copy; to read through a pointer parameter, load the '
      + 'pointer with `ld.param` and then use `ld.global` (after `cvta.to.global`) on it.',
    notes: 'Judged in `.entry` functions: every `st`, `red`, `atom` and `stmatrix` whose written address is a kernel parameter, named directly '
      + '(`st.param.u32 [n], %r1`) or through a register based on it (`mov` of the parameter, `cvta.param`, offsets), and every generic write '
      + 'through a `cvta.param` address. `.param` variables declared in the body (call arguments) are writable and pass. In every function: '
      + 'an `ld.param` whose address is a variable of another space, or a register whose provenance has no param origin on any path (a '
      + 'generic or global pointer, an integer) fails; a register of unknown origin (a `.func` argument) passes. Param-space accesses are '
      + 'judged here, not by F024. A register address of known origin carries the chain from that origin (e.g. the `ld.param` of a pointer).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [%rd1];\n\tret;\n}\n',
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
      const kernelParams = new Set(fn.isEntry ? fn.decl.params.flatMap((p) => p.declarators.map((d) => d.name)) : []);
      for (let a = 0; a < flow.addrIns.length; a++) {
        if (flow.addrTensorMap[a] === 1) continue;
        const i = flow.addrIns[a]!;
        const node = fn.instructions[i]!.node;
        const mask = prov.addressProvenance[a]!;
        const where = () => ({ location: ctx.locate(node.range, fn, i), function: fn.name });
        if (fn.isEntry && WRITE_OPCODES.has(node.opcode) && a === flow.insAddrStart[i]) {
          if (flow.addrSpace[a] !== PARAM && (mask & PARAM_ATOMS) === 0) continue;
          const base = ctx.analysis.get(fn, symbolBasesAnalysis).baseOf(i, flow.addrOperand[a]!);
          const param = base !== undefined && base.symbol.space === '.param' && kernelParams.has(base.symbol.name) ? base.symbol.name : undefined;
          if (param !== undefined) {
            out.push({ message: `${mnemonic(node)} writes the kernel parameter ${param}: kernel parameters are read-only`, ...where() });
          } else if (base === undefined && (mask & PROV['param-generic']) !== 0) {
            out.push({ message: `${mnemonic(node)} writes through a cvta.param address (a kernel parameter): kernel parameters are read-only`, ...where() });
          }
          continue;
        }
        if (node.opcode !== 'ld' || flow.addrSpace[a] !== PARAM) continue;
        const sym = flow.addrSymbol[a];
        if (sym !== undefined) {
          if (sym.space !== '.param') out.push({ message: `${mnemonic(node)} names ${sym.space} variable ${sym.name}, not a parameter`, ...where() });
          continue;
        }
        if (flow.addrUse[a]! < 0) continue;
        const atoms = mask & ATOM_MASK;
        if ((atoms & (PROV.param | PROV.unknown)) !== 0) continue;
        const reg = fn.registers[flow.useReg[flow.addrUse[a]!]!]!;
        const access = atoms === 0 ? undefined : prov.accessesAt(i).find((x) => x.operand === flow.addrOperand[a]);
        const chain = access === undefined ? [] : provenanceChain(ctx, fn, access, atoms & -atoms, isAddressOrigin);
        out.push({
          ...(chain.length > 1 ? { chain } : {}),
          message: `${mnemonic(node)} reads through ${reg.name}, which is not a parameter address (provenance ${formatProvenance(mask)})`
            + `${(atoms & (PROV.global | PROV['generic-global'] | PROV.generic)) !== 0 ? ': to read through a pointer use ld.global' : ''}`,
          ...where(),
        });
      }
    }
    return found(out);
  },
};
