// What a report needs of a module once its checks have run (its outline):
// the suppression comments, its functions' names and lines, what stands on
// each line (for fingerprints). Made from the tree, or, when the main thread
// holds the declarations alone, from what the part threads sent of each part.
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type { Comment, Module } from '../parser/ast.js';
import { commentsOutsideBodies, commentsWithin } from './comments.js';
import { instructionIndex, instructionsOnLines, instructionsOnLinesOf, joinIndexes, type InstructionIndex } from './fingerprint.js';
import type { EarlyPrints } from './early-prints.js';
import { collectSuppressions, isSuppression } from './suppressions.js';
import type { Finding } from './types.js';

/** What the report needs of a module once its checks have run. */
export interface ModuleOutline {
  readonly suppressions: ReturnType<typeof collectSuppressions>;
  readonly functions: readonly { readonly name: string; readonly isEntry: boolean; readonly line: number }[];
  /** What stands on each of the `wanted` lines of the text (see `instructionsOnLines`). */
  readonly lines: (wanted: ReadonlySet<number>) => ReadonlyMap<number, string>;
  /** Fingerprints made before the report (src/checks/early-prints.ts). */
  readonly known?: (f: Pick<Finding, 'location' | 'function'>) => string | undefined;
}

// (Each closure in a scope of its own: a closure keeps every variable its scope's closures capture.)
const linesNow = (index: InstructionIndex, text: string) => (wanted: ReadonlySet<number>): ReadonlyMap<number, string> => instructionsOnLines(index, text, wanted);
/** `linesNow` over the parts' indexes, joined when first asked (with every fingerprint made early, never). */
const linesJoined = (indexes: readonly InstructionIndex[], text: string): ModuleOutline['lines'] => {
  let joined: InstructionIndex | undefined;
  return (wanted) => instructionsOnLines(joined ??= joinIndexes(indexes), text, wanted);
};
const linesLater = (functions: readonly FunctionModel[], text: string) => (wanted: ReadonlySet<number>): ReadonlyMap<number, string> =>
  instructionsOnLinesOf(functions, text, wanted);

/** `eager`: computed now, keeping nothing of the tree; otherwise when a report first needs them. */
export function outline(module: Module, text: string, analysis: AnalysisContext, eager: boolean): ModuleOutline {
  return {
    suppressions: collectSuppressions(module.comments),
    functions: analysis.functions.map((f) => ({ name: f.name, isEntry: f.isEntry, line: f.decl.range.line })),
    lines: eager ? linesNow(instructionIndex(analysis.model.functions), text) : linesLater(analysis.model.functions, text),
  };
}

/** What part threads send of their parts for the report (`partsOutline`). */
export interface PartOutline {
  /** The suppression comments in the part's function bodies. */
  readonly comments: readonly Comment[];
  /** The part's instructions. */
  readonly index: InstructionIndex;
}

/** What a part thread sends of its part for the report: `functions` are the part's (the tree may hold more). */
export function partOutline(module: Module, functions: readonly FunctionModel[]): PartOutline {
  const comments = commentsWithin(module.comments, functions.map((fn) => fn.decl.body!.range)).filter(isSuppression);
  return { comments, index: instructionIndex(functions) };
}

/**
 * The outline of a module from a tree of its declarations (`module`, its function bodies left out) and what
 * the part threads sent of every part (in module order); `bodies`, the declaration offsets of the functions
 * with bodies; `prints`, fingerprints made as the parts came.
 */
export function partsOutline(module: Module, text: string, bodies: ReadonlySet<number>, parts: readonly PartOutline[], prints?: EarlyPrints): ModuleOutline {
  // (The declarations' tree holds a body only where the fast parser gave way to the reference parser.)
  const comments = [...commentsOutsideBodies(module), ...parts.flatMap((p) => p.comments)].sort((x, y) => x.range.offset - y.range.offset);
  const functions: { name: string; isEntry: boolean; line: number }[] = [];
  for (const s of module.statements) {
    if (s.kind === 'Function' && bodies.has(s.range.offset)) functions.push({ name: s.name, isEntry: s.isEntry, line: s.range.line });
  }
  return {
    suppressions: collectSuppressions(comments), functions, lines: linesJoined(parts.map((p) => p.index), text),
    ...(prints !== undefined ? { known: (f: Pick<Finding, 'location' | 'function'>) => prints.get(f) } : {}),
  };
}
