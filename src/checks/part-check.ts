// One part of a large module checked as a part thread checks it
// (src/part-worker.ts): the module parsed again without the functions the part
// does not need (src/checks/part-text.ts: the callees and the functions its
// bodies name are found here, since the parts are cut before the module is
// parsed), the part-by-part checks and the split checks' summaries run on the
// part's functions, and what the report needs of the part.
import { reachableFrom } from '../cfg/callgraph.js';
import { AnalysisContext } from '../cfg/context.js';
import { releaseCompiled } from '../cfg/keep-compiled.js';
import type { Module } from '../parser/ast.js';
import { parsePtx } from '../parser/parse.js';
import type { PartMessage, PartWork } from './parallel.js';
import { partOutline } from './outline.js';
import { partText, stringSource, type ModuleSource } from './part-text.js';
import { checkPart } from './run.js';
import type { Check, CheckContext } from './types.js';
import { mark } from '../timeline.js';

/**
 * The module parsed with only `functions` (declaration offsets) and the functions they name, transitively (their
 * callees, and any function a body names otherwise, such as one whose address it takes): parsed with theirs
 * first, then again with the functions found, until none is missing. Also the text parsed (the module without
 * the other functions: the tree's positions are the module's).
 */
export function parsePart(work: PartWork, functions: readonly number[], source: ModuleSource = stringSource(work.text)): { module: Module; analysis: AnalysisContext; text: string } | undefined {
  const keep = new Set(functions);
  const named = new Map<string, number[]>();
  for (const b of work.bodies) {
    const list = named.get(b.name);
    if (list === undefined) named.set(b.name, [b.decl]);
    else list.push(b.decl);
  }
  for (;;) {
    const part = partText(source, work.bodies, keep);
    const parsed = parsePtx(part.text, { origin: part.origin });
    if (parsed.errors.length > 0) return undefined;
    const analysis = new AnalysisContext(parsed.module, work.analysisOptions);
    const wanted = new Set(reachableFrom(analysis.callGraph(), analysis.functions.map((fn) => fn.name)));
    for (const fn of analysis.functions) for (const u of fn.unresolved) wanted.add(u.name.name);
    let more = false;
    for (const name of wanted) {
      for (const decl of named.get(name) ?? []) {
        if (keep.has(decl)) continue;
        keep.add(decl);
        more = true;
      }
    }
    if (!more) return { module: parsed.module, analysis, text: part.text };
  }
}

/** Checks part `index` of `work` as a part thread does: the part-by-part checks, the split checks' summaries.
 *  `source`: the module's text as the thread holds it (default: `work.text`). */
export function checkOnePart(work: PartWork, checks: readonly Check[], split: readonly Check[], index: number, source?: ModuleSource): PartMessage {
  const part = work.parts[index]!;
  const parsed = parsePart(work, part, source);
  // The analyses' closures kept from the last part (src/cfg/keep-compiled.ts) hold its facts and tree: let go
  // of them once this part is parsed (its own analyses keep theirs as they run).
  releaseCompiled();
  if (parsed === undefined) return { part: index, error: 'the module did not parse again' };
  const { module, analysis, text } = parsed;
  const mine = new Set(part);
  const functions = analysis.functions.filter((fn) => mine.has(fn.decl.range.offset));
  if (functions.length !== part.length) return { part: index, error: 'the part\'s functions were not found again' };
  const ctx: CheckContext = {
    // (The part's text, not the module's: the checks read positions from the tree, never from the text.)
    module, text, analysis, functions,
    locate: () => { throw new Error('unused: checkPart gives the part its own locate'); },
    ...(work.resources !== undefined ? { resources: work.resources } : {}),
  };
  const outcome = checkPart(checks, ctx, functions, undefined, split);
  return {
    part: index, results: [...outcome.results], summaries: [...outcome.summaries],
    ...(work.outline ? { outline: partOutline(module, functions) } : {}),
  };
}

/** Checks parts of `work` until none is left to take (the part threads share the counter `PartWork.next` and
 *  take the parts in `PartWork.order`), posting what each gave. */
export function takeParts(work: PartWork, checks: readonly Check[], split: readonly Check[], source: ModuleSource, post: (m: PartMessage) => void): void {
  const next = new Int32Array(work.next);
  for (let i = Atomics.add(next, 0, 1); i < work.order.length; i = Atomics.add(next, 0, 1)) {
    const part = work.order[i]!;
    mark(`part ${part} start`);
    let message: PartMessage;
    try {
      message = checkOnePart(work, checks, split, part, source);
    } catch (err) {
      message = { part, error: err instanceof Error ? err.message : String(err) };
    }
    // (No forced collection between parts: V8's `gc()` also drops compiled code, and every part would
    // compile the checks again: twice the time, measured.)
    post(message);
    mark(`part ${part} end`);
  }
}
