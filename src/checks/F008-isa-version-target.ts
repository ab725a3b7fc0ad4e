// F008: an instruction, modifier, type or directive needs a newer `.version`
// or a target outside its allowed set.
import type { FunctionDecl, ModuleStatement, SourceRange, Statement } from '../parser/ast.js';
import { DIRECTIVE_BY_NAME } from '../parser/isa/directives.js';
import { matchInstruction } from '../parser/isa/match.js';
import { availabilityProblem, type ParsedTarget } from '../parser/isa/targets.js';
import type { Availability } from '../parser/isa/types.js';
import { moduleTarget, moduleVersion } from './header.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na, pass, runWhole } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

/** Directive uses in statements, the keyword and where it is written: of functions, their declarations'
 *  unless `bodies`, and their bodies' only with it. */
function directiveUses(stmts: readonly (ModuleStatement | Statement)[], bodies: boolean): { name: string; range: SourceRange }[] {
  const out: { name: string; range: SourceRange }[] = [];
  const fnUses = (f: FunctionDecl): void => {
    for (const l of f.linkage) out.push({ name: l, range: f.nameRange });
    for (const d of f.directives) out.push({ name: d.name, range: d.range });
  };
  for (const s of stmts) {
    switch (s.kind) {
      case 'Function':
        if (!bodies) fnUses(s);
        else if (s.body !== null) out.push(...directiveUses(s.body.statements, true));
        break;
      case 'Variable':
        for (const l of s.linkage) out.push({ name: l, range: s.range });
        for (const q of s.qualifiers) if (DIRECTIVE_BY_NAME.has(q.name)) out.push({ name: q.name, range: q.range });
        break;
      case 'Alias': out.push({ name: '.alias', range: s.range }); break;
      case 'BranchTargets': out.push({ name: '.branchtargets', range: s.range }); break;
      case 'CallTargets': out.push({ name: '.calltargets', range: s.range }); break;
      case 'CallPrototype':
        out.push({ name: '.callprototype', range: s.range });
        for (const d of s.directives) out.push({ name: d.name, range: d.range });
        break;
      case 'Block': out.push(...directiveUses(s.statements, bodies)); break;
      default: break;
    }
  }
  return out;
}

function instructionProblems(ctx: CheckContext, version: string, target: ParsedTarget | undefined, out: Draft[]): void {
  // The same few hundred availabilities are judged for every instruction: each once.
  const judged = new Map<Availability, string | undefined>();
  const availabilityProblemOf = (since: Availability): string | undefined => {
    if (judged.has(since)) return judged.get(since);
    const p = availabilityProblem(since, version, target);
    judged.set(since, p);
    return p;
  };
  for (const fn of ctx.functions) {
    for (const ins of fn.instructions) {
      const m = matchInstruction(ins.node);
      if (m === undefined) continue; // unknown: F009's
      const problems: string[] = [];
      const p = availabilityProblemOf(m.spec.since);
      if (p !== undefined) problems.push(`${m.spec.opcode} ${p}`);
      for (const g of m.spec.modifiers) {
        const value = m.groups.get(g.name);
        const since = value === undefined ? undefined : g.since?.[value];
        if (since === undefined) continue;
        const q = availabilityProblemOf(since);
        if (q !== undefined) problems.push(`${value} ${q}`);
      }
      if (problems.length > 0) {
        const text = [ins.node.opcode, ...ins.node.modifiers].join('');
        out.push({ message: `${text}: ${problems.join('; ')}`, location: ctx.locate(ins.node.range, fn, ins.index), function: fn.name });
      }
    }
  }
}

function directiveProblems(ctx: CheckContext, uses: readonly { name: string; range: SourceRange }[], version: string, out: Draft[]): void {
  const target = moduleTarget(ctx.module);
  for (const use of uses) {
    const spec = DIRECTIVE_BY_NAME.get(use.name);
    if (spec === undefined) continue;
    const p = availabilityProblem(spec.since, version, target);
    if (p !== undefined) out.push({ message: `${use.name} ${p}`, location: ctx.locate(use.range) });
  }
}

export const F008: Check = {
  meta: {
    id: 'F008',
    name: 'isa-version-target',
    category: 'module',
    severity: 'high',
    points: 1,
    description: 'An instruction, modifier, type or directive needs a newer `.version` or a target outside its allowed set (e.g. `wgmma` only sm_90a, `tcgen05` only the `a`/`f` Blackwell targets, `cp.async` sm_80+).',
    rationale: 'ptxas rejects a feature the declared `.version` or `.target` does not have ("requires .target sm_90a", "not supported on .target sm_75", "requires PTX ISA .version 8.0"); '
      + 'such code often comes from copying a kernel between projects that build for different GPUs.',
    remedy: 'Raise `.version` to what the feature needs, build for a target that has it (e.g. sm_90a for wgmma), or guard the code by architecture at the source level.',
    notes: 'Each instruction is matched to the ISA table (the same matcher as F009); its opcode\'s availability and that of every modifier '
      + 'value it uses (types included) are checked against the module\'s `.version` and GPU target. A feature with a minimum SM '
      + 'number admits every later target, `a` and `f` variants included; one with an explicit target set admits an `sm_XYa` entry '
      + 'only on that target, and an `sm_XYf` entry on the `a`/`f` targets of the same family from XY on (sm_100f: sm_100a/f, sm_103a/f). '
      + 'Directives (function directives, linkage, `.alias`, `.attribute`, target lists) are checked against their `since` the same way. '
      + 'Unknown opcodes and modifiers are F009\'s; a module without `.version` is n/a (F002 reports it). One finding per instruction or directive.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\twgmma.fence.sync.aligned;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90a\n.address_size 64\n.entry k()\n{\n\twgmma.fence.sync.aligned;\n\tret;\n}\n',
    },
  },
  split: {
    // Instructions and the directives in bodies part by part; the module-level directives once.
    part(ctx): Draft[] {
      const version = moduleVersion(ctx.module);
      if (version === undefined) return [];
      const out: Draft[] = [];
      instructionProblems(ctx, version, moduleTarget(ctx.module), out);
      directiveProblems(ctx, directiveUses(ctx.functions.map((fn) => fn.decl), true), version, out);
      return out;
    },
    join(ctx, parts: readonly Draft[][]) {
      const version = moduleVersion(ctx.module);
      if (version === undefined) return na('the module has no .version');
      const out = parts.flat();
      directiveProblems(ctx, directiveUses(ctx.module.statements, false), version, out);
      return out.length === 0 ? pass() : found(out);
    },
  },
  run: (ctx) => runWhole(F008.split!, ctx),
};
