// F090: ld/st/mov name a half type (`.f16`, `.bf16` and their pairs) where the
// ISA requires `.b16`/`.b32` (the `ld.global.f16` bug), or f16 arithmetic
// on a target without it.
import type * as A from '../parser/ast.js';
import { moduleTarget } from './header.js';
import { mnemonic } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

const HALF_TYPES: Readonly<Record<string, string>> = { '.f16': '.b16', '.bf16': '.b16', '.f16x2': '.b32', '.bf16x2': '.b32' };
/** Instructions whose type list has no half types: data moves as bits. */
const MOVE_OPCODES: ReadonlySet<string> = new Set(['ld', 'ldu', 'st', 'mov']);
/** Arithmetic that takes `.f16`/`.f16x2` from sm_53 on. */
const F16_ARITHMETIC: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'fma', 'neg', 'abs', 'min', 'max', 'ex2', 'tanh', 'set', 'setp']);
const F16_SM = 53;

/** The half type an `ld`/`ldu`/`st`/`mov` names (which ptxas rejects: "Unexpected instruction types"), and the bit type to use. */
export function halfMemoryType(node: A.Instruction): { type: string; use: string } | undefined {
  if (!MOVE_OPCODES.has(node.opcode)) return undefined;
  for (const m of node.modifiers) {
    const use = HALF_TYPES[m];
    if (use !== undefined) return { type: m, use };
  }
  return undefined;
}

export const F090: Check = {
  meta: {
    id: 'F090',
    name: 'half-memory-type',
    category: 'known-patterns',
    severity: 'medium',
    points: 1,
    description: '`ld`/`st`/`mov` name `.f16`/`.bf16` where the ISA requires `.b16` (the `ld.global.f16` bug), or f16 arithmetic on a target without it.',
    rationale: 'Half-precision values move through memory and registers as bits: `ld`, `ldu`, `st` and `mov` have no `.f16`/`.bf16` types, '
      + 'and ptxas rejects them ("Unexpected instruction types specified for \'ld\'"). Emitters that carry the arithmetic type into the '
      + 'load write `ld.global.f16` and the module does not load at all. f16 arithmetic needs sm_53 or newer.',
    remedy: 'Move halves as bits: `ld.global.b16 %h1, [%rd1];` into a `.b16` (or `.f16`) register, `.b32` for `.f16x2`/`.bf16x2` pairs, '
      + '`mov.b16`/`mov.b32`; keep `.f16`/`.bf16` for the arithmetic and `cvt` instructions. For f16 arithmetic, target sm_53 or newer or '
      + 'convert to f32 first.',
    notes: 'Judged: every `ld` (`ld.global.nc` included), `ldu`, `st` (`st.async` included) and `mov` with a `.f16`, `.bf16`, `.f16x2` or '
      + '`.bf16x2` type modifier (ptxas 13 rejects each one); one finding per instruction, naming the bit type to use. F090 reports these '
      + 'instead of F009/F011. `atom`/`red` half types are F019\'s (`atom.add.noftz.f16` is valid). Also judged: `add`, `sub`, `mul`, '
      + '`fma`, `neg`, `abs`, `min`, `max`, `ex2`, `tanh`, `set`, `setp` on `.f16`/`.f16x2` when the module\'s `.target` is below sm_53 '
      + '(bf16 arithmetic needs sm_80/sm_90 and is F008\'s). n/a for a module without instructions.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .f16 %h<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.global.f16 %h1, [%rd2];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .f16 %h<2>;\n\t.reg .b64 %rd<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.global.b16 %h1, [%rd2];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (!ctx.functions.some((f) => f.instructions.length > 0)) return na('the module has no instructions');
    const target = moduleTarget(ctx.module);
    const oldTarget = target !== undefined && target.sm < F16_SM;
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const node = ins.node;
        const where = () => ({ location: ctx.locate(node.range, fn, ins.index), function: fn.name });
        const half = halfMemoryType(node);
        if (half !== undefined) {
          out.push({ message: `${mnemonic(node)}: ${node.opcode} has no ${half.type} type; move the bits with ${half.use}`, ...where() });
        } else if (oldTarget && F16_ARITHMETIC.has(node.opcode) && node.modifiers.some((m) => m === '.f16' || m === '.f16x2')) {
          out.push({ message: `${mnemonic(node)}: f16 arithmetic needs sm_${F16_SM} or newer, the module targets ${target.name}`, ...where() });
        }
      }
    }
    return found(out);
  },
};
