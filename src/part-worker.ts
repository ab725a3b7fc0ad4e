// A child process checking parts of one large module (src/checks/parallel.ts).
// It is sent the work once, then one part at a time: for each, it parses the
// module with every body but the part's and its callees' left out, runs the
// part-by-part checks on the part's functions, and sends the results back.
// Processes, not threads: threads of one process contend for what they share
// (on the bench host eight files took 82 s on eight threads of one process and
// 23 s in eight processes). It exits when its parent goes away.
import { AnalysisContext } from './cfg/context.js';
import { CHECKS } from './checks/index.js';
import type { PartMessage, PartRequest, PartWork } from './checks/parallel.js';
import { checkPart } from './checks/run.js';
import type { CheckContext } from './checks/types.js';
import { parsePtx } from './parser/parse.js';

let work: PartWork | undefined;
const byId = new Map(CHECKS.map((c) => [c.meta.id as string, c]));

function checkOne(w: PartWork, index: number): PartMessage {
  const part = w.parts[index]!;
  const keep = new Set(part.keep);
  const skip = new Map<number, number>();
  for (const [decl, open, close] of w.bodies) if (!keep.has(decl)) skip.set(open, close);
  const parsed = parsePtx(w.text, { skipBodies: skip });
  if (parsed.errors.length > 0) return { part: index, error: 'the module did not parse again' };
  const analysis = new AnalysisContext(parsed.module, w.analysisOptions);
  const mine = new Set(part.functions);
  const functions = analysis.functions.filter((fn) => mine.has(fn.decl.range.offset));
  if (functions.length !== part.functions.length) return { part: index, error: 'the part\'s functions were not found again' };
  const ctx: CheckContext = {
    module: parsed.module, text: w.text, analysis, functions,
    locate: () => { throw new Error('unused: checkPart gives the part its own locate'); },
    ...(w.resources !== undefined ? { resources: w.resources } : {}),
  };
  const checks = w.checks.map((id) => byId.get(id)!);
  return { part: index, results: [...checkPart(checks, ctx, functions)] };
}

process.on('disconnect', () => process.exit(0));
process.on('message', (m: PartRequest) => {
  if (m.work !== undefined) {
    work = m.work;
    return;
  }
  if (m.part === undefined || work === undefined) {
    process.disconnect();
    return;
  }
  let message: PartMessage;
  try {
    message = checkOne(work, m.part);
  } catch (err) {
    message = { part: m.part, error: err instanceof Error ? err.message : String(err) };
  }
  // (No forced collection between parts: V8's `gc()` also drops compiled code, and every part would
  // compile the checks again: twice the time, measured.)
  process.send?.(message);
});
