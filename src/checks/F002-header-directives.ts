// F002: the module header is malformed: `.version` first, `.target` right
// after it, each exactly once, and the version new enough for the target.
import type { ModuleStatement, TargetDirective, VersionDirective } from '../parser/ast.js';
import { compareVersions, gpuTarget, TARGET_BY_NAME } from '../parser/isa/targets.js';
import { FILE_START } from './header.js';
import type { Check, CheckContext, Finding } from './types.js';
import { declarationsOnly, found, pass } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

export const F002: Check = {
  meta: {
    id: 'F002',
    name: 'header-directives',
    category: 'module',
    severity: 'medium',
    points: 1,
    description: '`.version` is not the first statement, `.target` does not follow it, either is missing or repeated, or `.version` is below the minimum the target needs.',
    rationale: 'ptxas rejects a module whose header is out of order or whose `.version` predates its `.target` (e.g. `.version 7.0` with `.target sm_90`), before it looks at any kernel.',
    remedy: 'Start the module with `.version X.Y`, then `.target sm_XY`, then `.address_size 64`, each once; raise `.version` to at least the target\'s minimum (sm_75 6.3, sm_80 7.0, sm_86 7.1, sm_89/sm_90 7.8, sm_90a 8.0, sm_100 8.6, sm_120 8.7, sm_103/sm_100f 8.8, sm_110 9.0).',
    notes: 'Comments and blank lines may precede `.version`; any other statement first fails. The per-target minimum versions are data '
      + '(`src/parser/isa/targets.ts`), measured with ptxas 13.0 for sm_75 and later. A target the table does not know is not judged '
      + 'for its minimum version. Findings: a misplaced or repeated directive at that directive; a missing `.version` at line 1; a '
      + 'missing `.target` at the `.version`; a version below the target\'s minimum at the `.version`.',
    examples: {
      fails: '.version 7.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n.entry k()\n{\n\tret;\n}\n',
    },
  },
  split: declarationsOnly((ctx) => F002.run(ctx)),
  run(ctx: CheckContext) {
    const stmts: readonly ModuleStatement[] = ctx.module.statements;
    const out: Draft[] = [];
    const versions = stmts.filter((s): s is VersionDirective => s.kind === 'Version');
    const targets = stmts.filter((s): s is TargetDirective => s.kind === 'Target');
    const first = versions[0];
    if (first === undefined) {
      out.push({ message: 'the module has no .version directive (it must be the first statement)', location: ctx.locate(FILE_START) });
    } else if (stmts[0] !== first) {
      out.push({ message: '.version is not the first statement of the module', location: ctx.locate(first.range) });
    }
    for (const v of versions.slice(1)) out.push({ message: `.version is repeated (first at line ${first!.range.line})`, location: ctx.locate(v.range) });
    const target = targets[0];
    if (target === undefined) {
      out.push({ message: 'the module has no .target directive (it must follow .version)', location: ctx.locate(first?.range ?? FILE_START) });
    } else if (first !== undefined && stmts[stmts.indexOf(first) + 1] !== target) {
      out.push({ message: '.target does not immediately follow .version', location: ctx.locate(target.range) });
    }
    for (const t of targets.slice(1)) out.push({ message: `.target is repeated (first at line ${target!.range.line})`, location: ctx.locate(t.range) });
    if (first !== undefined && target !== undefined) {
      const gpu = gpuTarget(target.targets);
      const spec = gpu === undefined ? undefined : TARGET_BY_NAME.get(gpu.name);
      const version = `${first.major}.${first.minor}`;
      if (spec !== undefined && compareVersions(version, spec.minPtx) < 0) {
        out.push({
          message: `.version ${version} is below the minimum ${spec.minPtx} for .target ${spec.name}`,
          location: ctx.locate(first.range),
          related: [{ location: ctx.locate(target.range), message: `.target ${spec.name}` }],
        });
      }
    }
    return out.length === 0 ? pass() : found(out);
  },
};
