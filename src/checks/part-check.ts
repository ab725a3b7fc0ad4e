// One part of a large module checked as a part thread checks it
// (src/part-worker.ts): the module parsed again with every body but the part's
// and its callees' left out (the callees are found here: the parts are cut
// before the module is parsed), the part-by-part checks and the split checks'
// summaries run on the part's functions, and what the report needs of the part.
import { reachableFrom } from '../cfg/callgraph.js';
import { AnalysisContext } from '../cfg/context.js';
import { releaseCompiled } from '../cfg/keep-compiled.js';
import type { Module } from '../parser/ast.js';
import { parsePtx } from '../parser/parse.js';
import type { PartMessage, PartWork } from './parallel.js';
import { partOutline } from './outline.js';
import { checkPart } from './run.js';
import type { Check, CheckContext } from './types.js';

/**
 * The module parsed with only the bodies of `functions` (declaration offsets) and of the functions they
 * call, transitively: parsed with theirs first, then again with the callees found, until none is missing.
 */
export function parsePart(work: PartWork, functions: readonly number[]): { module: Module; analysis: AnalysisContext } | undefined {
  const keep = new Set(functions);
  for (;;) {
    const skip = new Map<number, number>();
    for (const b of work.bodies) if (!keep.has(b.decl)) skip.set(b.open, b.close);
    const parsed = parsePtx(work.text, { skipBodies: skip });
    if (parsed.errors.length > 0) return undefined;
    const analysis = new AnalysisContext(parsed.module, work.analysisOptions);
    const mine = analysis.functions.filter((fn) => keep.has(fn.decl.range.offset)).map((fn) => fn.name);
    const called = reachableFrom(analysis.callGraph(), mine);
    let more = false;
    for (const b of work.bodies) {
      if (!keep.has(b.decl) && called.has(b.name)) {
        keep.add(b.decl);
        more = true;
      }
    }
    if (!more) return { module: parsed.module, analysis };
  }
}

/** Checks part `index` of `work` as a part thread does: the part-by-part checks, the split checks' summaries. */
export function checkOnePart(work: PartWork, checks: readonly Check[], split: readonly Check[], index: number): PartMessage {
  const part = work.parts[index]!;
  const parsed = parsePart(work, part);
  // The analyses' closures kept from the last part (src/cfg/keep-compiled.ts) hold its facts and tree: let go
  // of them once this part is parsed (its own analyses keep theirs as they run).
  releaseCompiled();
  if (parsed === undefined) return { part: index, error: 'the module did not parse again' };
  const { module, analysis } = parsed;
  const mine = new Set(part);
  const functions = analysis.functions.filter((fn) => mine.has(fn.decl.range.offset));
  if (functions.length !== part.length) return { part: index, error: 'the part\'s functions were not found again' };
  const ctx: CheckContext = {
    module, text: work.text, analysis, functions,
    locate: () => { throw new Error('unused: checkPart gives the part its own locate'); },
    ...(work.resources !== undefined ? { resources: work.resources } : {}),
  };
  const outcome = checkPart(checks, ctx, functions, undefined, split);
  return {
    part: index, results: [...outcome.results], summaries: [...outcome.summaries],
    ...(work.outline ? { outline: partOutline(module, functions) } : {}),
  };
}
