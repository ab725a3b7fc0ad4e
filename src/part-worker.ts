// A worker thread checking parts of one large module (src/checks/parallel.ts).
// It is started before the module is parsed and sent the work when it is.
// It checks each part it takes from the shared counter (src/checks/part-check.ts)
// and posts what the part gave.
import { parentPort } from 'node:worker_threads';
import { CHECKS } from './checks/index.js';
import type { PartMessage, PartWork, SentWork } from './checks/parallel.js';
import { checkOnePart } from './checks/part-check.js';
import { mark } from './timeline.js';

const byId = new Map(CHECKS.map((c) => [c.meta.id as string, c]));

function checkAll(work: PartWork): void {
  const next = new Int32Array(work.next);
  const checks = work.checks.map((id) => byId.get(id)!);
  const split = work.split.map((id) => byId.get(id)!);
  for (let i = Atomics.add(next, 0, 1); i < work.order.length; i = Atomics.add(next, 0, 1)) {
    const part = work.order[i]!;
    mark(`part ${part} start`);
    let message: PartMessage;
    try {
      message = checkOnePart(work, checks, split, part);
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
/** The work as posted, with its text a string again (one copy per thread, decoded from the shared bytes). */
function receivedWork(sent: SentWork): PartWork {
  // (The shared bytes are let go: once every thread has its string, nothing holds them.)
  const { textBytes, ...work } = sent;
  return { ...work, text: Buffer.from(textBytes).toString('utf8') };
}

parentPort?.once('message', (work: SentWork | null) => {
  mark('thread given work');
  if (work !== null) checkAll(receivedWork(work));
});
