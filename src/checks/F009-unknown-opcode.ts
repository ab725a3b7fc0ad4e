// F009: an opcode, or a combination of modifiers, the ISA table does not know.
import type { Instruction } from '../parser/ast.js';
import { matchInstruction } from '../parser/isa/match.js';
import { ISA_TABLE_VERSION } from '../parser/isa/opcodes/index.js';
import { compareVersions } from '../parser/isa/targets.js';
import { halfMemoryType } from './F090-half-memory-type.js';
import { moduleVersion } from './header.js';
import type { Check, Finding } from './types.js';
import { found, na, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

const HALF_TYPES: ReadonlySet<string> = new Set(['.f16', '.bf16', '.f16x2', '.bf16x2']);

/** An instruction's opcode and modifiers as written (spelled only for a finding: F009 looks at every instruction). */
const spelled = (node: Instruction): string => `${node.opcode}${node.modifiers.join('')}`;

export const F009: Check = {
  meta: {
    id: 'F009',
    name: 'unknown-opcode',
    category: 'module',
    severity: 'high',
    points: 1,
    description: 'An opcode, or a modifier combination, is not in the ISA table (typos like `ld.shraed`); n/a beyond the table\'s version.',
    rationale: 'ptxas rejects an unknown instruction or modifier ("Unknown modifier", "Not a name of any known instruction"); a typo in hand-written or templated PTX is found here with its line.',
    remedy: 'Fix the spelling, or use the modifiers the PTX ISA lists for the instruction (one per group: state space, type, rounding ...), and add the required ones (e.g. the type of `ld`, the comparison of `setp`).',
    notes: 'An instruction is matched to the table by the longest dotted opcode it starts with (`cp.async.bulk.tensor`), then each remaining '
      + 'modifier must belong to a distinct modifier group of that opcode, and every required group (the type, `setp`\'s comparison ...) '
      + 'must be present. When the module\'s `.version` is newer than the table\'s (ISA ' + ISA_TABLE_VERSION + '), something unknown '
      + 'may be new rather than a typo: the check is then n/a. One finding per instruction, at the instruction. `ld`/`ldu`/`st`/`mov` '
      + 'whose only unknown modifiers are half types (`.f16`, `.bf16` and pairs) are left to F090.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tld.shraed.u32 %r1, [%rd1];\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tld.shared.u32 %r1, [%rd1];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Draft[] = [];
    let n = 0;
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        n++;
        const node = ins.node;
        const m = matchInstruction(node);
        let message: string | undefined;
        // ld/ldu/st/mov with a half type are F090's (the more specific check reports).
        if (m !== undefined && halfMemoryType(node) !== undefined && m.unknown.every((x) => HALF_TYPES.has(x))) continue;
        if (m === undefined) message = `${spelled(node)}: ${node.opcode} is not a PTX instruction`;
        else if (m.unknown.length > 0) {
          const spec = m.spec;
          const named = m.unknown.map((mod) => {
            const g = spec.modifiers.find((x) => x.values.includes(mod));
            return g === undefined ? mod : `${mod} (a second ${g.name} modifier)`;
          });
          message = `${spelled(node)}: ${named.length === 1 ? 'modifier' : 'modifiers'} ${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} not valid for ${spec.opcode}`;
        } else if (m.missing.length > 0) {
          const groups = m.missing.map((name) => {
            const g = m.spec.modifiers.find((x) => x.name === name)!;
            const vals = g.values.length > 6 ? `${g.values.slice(0, 6).join(' ')} ...` : g.values.join(' ');
            return `${name} (${vals})`;
          });
          message = `${spelled(node)}: ${m.spec.opcode} needs a ${groups.join(' and a ')} modifier`;
        }
        if (message !== undefined) out.push({ message, location: ctx.locate(node.range, fn, ins.index), function: fn.name });
      }
    }
    if (n === 0) return na('the module has no instructions');
    const version = moduleVersion(ctx.module);
    if (out.length > 0 && version !== undefined && compareVersions(version, ISA_TABLE_VERSION) > 0) {
      return na(`beyond the table: the module's .version ${version} is newer than the ISA table (${ISA_TABLE_VERSION}), so ${out.length} unknown instruction(s) may be new ones`);
    }
    return out.length === 0 ? pass() : found(out);
  },
};
