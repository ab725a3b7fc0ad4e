// Facts of the module header that several checks read: the `.version`, the
// GPU target, and a range for findings about directives that are absent.
import type { Module, SourceRange, TargetDirective, VersionDirective } from '../parser/ast.js';
import { gpuTarget, type ParsedTarget } from '../parser/isa/targets.js';

/** The module's first `.version` directive. */
export function versionDirective(module: Module): VersionDirective | undefined {
  return module.statements.find((s): s is VersionDirective => s.kind === 'Version');
}

/** The module's `.version` as "major.minor", when it has one. */
export function moduleVersion(module: Module): string | undefined {
  const v = versionDirective(module);
  return v === undefined ? undefined : `${v.major}.${v.minor}`;
}

/** The module's first `.target` directive. */
export function targetDirective(module: Module): TargetDirective | undefined {
  return module.statements.find((s): s is TargetDirective => s.kind === 'Target');
}

/** The GPU architecture the module targets (`sm_90a`), when it names one. */
export function moduleTarget(module: Module): ParsedTarget | undefined {
  const t = targetDirective(module);
  return t === undefined ? undefined : gpuTarget(t.targets);
}

/** Line 1, column 1: where findings about a missing header directive go when nothing better exists. */
export const FILE_START: SourceRange = { line: 1, column: 1, offset: 0, endLine: 1, endColumn: 1, endOffset: 0 };
