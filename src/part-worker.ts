// A worker thread checking parts of one large module (src/checks/parallel.ts).
// It is started before the module is parsed and sent the work when it is.
// It checks each part it takes from the shared counter (src/checks/part-check.ts:
// `takeParts`) and posts what the part gave.
import { parentPort } from 'node:worker_threads';
import { CHECKS } from './checks/index.js';
import type { PartWork, SentWork } from './checks/parallel.js';
import { takeParts } from './checks/part-check.js';
import { asciiSource, stringSource, type ModuleSource } from './checks/part-text.js';
import { mark } from './timeline.js';

const byId = new Map(CHECKS.map((c) => [c.meta.id as string, c]));

function checkAll(work: PartWork, source: ModuleSource): void {
  const checks = work.checks.map((id) => byId.get(id)!);
  const split = work.split.map((id) => byId.get(id)!);
  takeParts(work, checks, split, source, (m) => parentPort?.postMessage(m));
}

// Started before the module is parsed: the work (or null, nothing to do) comes as the first message.
mark('thread loaded');
/** The work as posted, and the module's text as this thread reads it: ASCII text stays in the shared bytes
 *  (each part makes strings of its pieces), any other becomes a string again (one copy per thread). */
function receivedWork(sent: SentWork): { work: PartWork; source: ModuleSource } {
  const { textBytes, ascii, ...work } = sent;
  if (ascii !== undefined) return { work, source: asciiSource(textBytes, ascii.lines, ascii.end) };
  const text = Buffer.from(textBytes).toString('utf8');
  return { work: { ...work, text }, source: stringSource(text) };
}

parentPort?.once('message', (sent: SentWork | null) => {
  mark('thread given work');
  if (sent === null) return;
  const { work, source } = receivedWork(sent);
  checkAll(work, source);
});
