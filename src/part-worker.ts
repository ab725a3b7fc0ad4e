// A worker thread checking parts of one large module (src/checks/parallel.ts).
// It is started before the module is parsed and sent the work when it is.
// For each part it takes from the shared counter, it parses the module with
// every body but the part's and its callees' left out (it finds the callees
// itself: the parts are cut before the module is parsed), runs the
// part-by-part checks on the part's functions, and posts the results.
import { parentPort } from 'node:worker_threads';
import { reachableFrom } from './cfg/callgraph.js';
import { AnalysisContext } from './cfg/context.js';
import { releaseCompiled } from './cfg/keep-compiled.js';
import { CHECKS } from './checks/index.js';
import type { PartMessage, PartWork } from './checks/parallel.js';
import { checkPart } from './checks/run.js';
import type { Check, CheckContext } from './checks/types.js';
import type { Module } from './parser/ast.js';
import { parsePtx } from './parser/parse.js';
import { mark } from './timeline.js';

const byId = new Map(CHECKS.map((c) => [c.meta.id as string, c]));

/**
 * The module parsed with only the bodies of `functions` (declaration offsets) and of the functions they
 * call, transitively: parsed with theirs first, then again with the callees found, until none is missing.
 */
function parsePart(work: PartWork, functions: readonly number[]): { module: Module; analysis: AnalysisContext } | undefined {
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

function checkOne(work: PartWork, checks: readonly Check[], index: number): PartMessage {
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
  return { part: index, results: [...checkPart(checks, ctx, functions)] };
}

function checkAll(work: PartWork): void {
  const next = new Int32Array(work.next);
  const checks = work.checks.map((id) => byId.get(id)!);
  for (let i = Atomics.add(next, 0, 1); i < work.order.length; i = Atomics.add(next, 0, 1)) {
    const part = work.order[i]!;
    mark(`part ${part} start`);
    let message: PartMessage;
    try {
      message = checkOne(work, checks, part);
    } catch (err) {
      message = { part, error: err instanceof Error ? err.message : String(err) };
    }
    // (No forced collection between parts: V8's `gc()` also drops compiled code, and every part would
    // compile the checks again: twice the time, measured.)
    parentPort?.postMessage(message);
    mark(`part ${part} end`);
  }
}

// Started before the module is parsed: the work (or null, nothing to do) comes as the first message.
mark('thread loaded');
parentPort?.once('message', (work: PartWork | null) => {
  mark('thread given work');
  if (work !== null) checkAll(work);
});
