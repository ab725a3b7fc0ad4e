// F019: an atom/red operation/type combination is invalid, or invalid for the
// module's target.
import { ATOM_ONLY_OPERATIONS, ATOMIC_TYPES, VECTOR_ATOMICS_SM } from '../parser/isa/atomics.js';
import { moduleTarget } from './header.js';
import { typedInstructions, type TypedInstruction } from './operand-typing.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** What is wrong with an atom/red's operation, type and modifiers on target `sm`; empty when nothing is. */
export function atomicProblems(t: TypedInstruction, sm: number | undefined): string[] {
  const opcode = t.match.spec.opcode;
  const g = t.match.groups;
  const op = g.get('op');
  const type = g.get('type');
  if (op === undefined || type === undefined) return [];
  if (opcode === 'red' && ATOM_ONLY_OPERATIONS.has(op)) return [`red has no ${op} operation (use atom)`];
  const table = ATOMIC_TYPES[op];
  if (table === undefined) return [];
  const rule = table[type];
  if (rule === undefined) return [`${opcode}${op} takes ${Object.keys(table).join(', ')}, not ${type}`];
  const problems: string[] = [];
  if (sm !== undefined && sm < rule.sm) problems.push(`${opcode}${op}${type} needs sm_${rule.sm} or later (the module targets sm_${sm})`);
  const noftz = g.has('noftz');
  if (rule.noftz === true && !noftz) problems.push(`${opcode}${op}${type} needs .noftz`);
  if (rule.noftz !== true && noftz) problems.push(`.noftz applies only to .f16/.bf16 types and their pairs, not ${type}`);
  const vec = g.get('vec');
  if (vec === undefined) {
    if (!rule.scalar) problems.push(`${opcode}${op}${type} exists only as a vector (${rule.vectors.join('/')})`);
  } else {
    const space = g.get('space');
    if (!rule.vectors.includes(vec)) {
      problems.push(rule.vectors.length === 0 ? `${opcode}${op}${type} has no vector form` : `${opcode}${op}${type} takes ${rule.vectors.join('/')}, not ${vec}`);
    } else if (space !== undefined && space !== '.global') {
      problems.push(`vector ${opcode} operates on .global (or generic) memory, not ${space}`);
    } else if (sm !== undefined && sm < VECTOR_ATOMICS_SM) {
      problems.push(`vector ${opcode} needs sm_${VECTOR_ATOMICS_SM} or later (the module targets sm_${sm})`);
    }
  }
  return problems;
}

export const F019: Check = {
  meta: {
    id: 'F019',
    name: 'atomic-type',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'An `atom`/`red` operation/type combination is invalid for the declared target (e.g. `atom.add.noftz.f16` before sm_70).',
    rationale: 'ptxas rejects it ("Operation .add requires ... type", "\'.noftz\' modifier required", "requires .target sm_90"); an atomic with the wrong type silently changes meaning when ported (a `.b32` add is not an add), and half-precision and vector atomics exist only on newer GPUs.',
    remedy: 'Use the type the operation takes: bitwise ops and exch/cas on `.b32`/`.b64`, add on `.u32/.s32/.u64/.f32/.f64` (and half types with `.noftz`), inc/dec on `.u32`, min/max on integers; target an architecture that has the form, or emulate it with a `atom.cas` loop.',
    notes: 'The table is `src/parser/isa/atomics.ts` (ISA 9.7.13.5/6, checked against ptxas 13 on sm_75/80/86/90): `.and/.or/.xor` take `.b32/.b64`; '
      + '`.cas` `.b16` (sm_70), `.b32`, `.b64`, `.b128` (sm_90); `.exch` `.b32/.b64/.b128`; `.add` `.u32/.s32/.u64/.f32/.f64` (sm_60), `.f16` (sm_70) and '
      + '`.f16x2` with `.noftz`, `.bf16/.bf16x2` with `.noftz` (sm_90); `.inc/.dec` `.u32`; `.min/.max` `.u32/.s32/.u64/.s64`, and half types only as '
      + 'vectors. `.noftz` is required with half types and illegal otherwise. Vector atomics (sm_90, `.global` or generic): `.add` `.v2/.v4.f32`, '
      + '`.add/.min/.max` `.v2/.v4/.v8` of `.f16/.bf16` and `.v2/.v4` of their pairs. `red` has no `.cas/.exch`. Target minimums come from the '
      + 'module\'s `.target`; the `.version` an atomic needs is F008\'s. Operand register types are F011\'s (atomics take no wider register).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tatom.global.add.b32 %r1, [%rd1], 1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tatom.global.add.u32 %r1, [%rd1], 1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const sm = moduleTarget(ctx.module)?.sm;
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let any = false;
    for (const t of typedInstructions(ctx.analysis)) {
      const opcode = t.match.spec.opcode;
      if (opcode !== 'atom' && opcode !== 'red') continue;
      any = true;
      const problems = atomicProblems(t, sm);
      if (problems.length > 0) {
        out.push({
          message: `${t.ins.node.opcode}${t.ins.node.modifiers.join('')}: ${problems.join('; ')}`,
          location: ctx.locate(t.ins.node.range, t.fn, t.ins.index), function: t.fn.name,
        });
      }
    }
    if (!any) return na('the module has no atom or red instruction');
    return found(out);
  },
};
