// Phase marks for measuring where a run's time goes across its processes and
// threads: with PTX_DEBUG_TIMELINE=<file>, each mark appends one line
// "<epoch ms> <pid>.<thread> <heap MB> <rss MB> <label>" to that file (the
// heap is this thread's V8 heap in use, the RSS the whole process's); without
// it, a mark does nothing. Used on the bench host (docs/performance.md) to see what the main
// thread and the part threads do when.
import { appendFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';

const FILE = process.env.PTX_DEBUG_TIMELINE;

/** Records that the run reached `label` (nothing unless PTX_DEBUG_TIMELINE names a file). */
export function mark(label: string): void {
  if (FILE === undefined || FILE === '') return;
  try {
    const heap = Math.round(getHeapStatistics().used_heap_size / 1e6);
    const rss = Math.round(process.memoryUsage.rss() / 1e6);
    appendFileSync(FILE, `${Date.now()} ${process.pid}.${threadId} ${heap} ${rss} ${label}\n`);
  } catch {
    // A timeline that cannot be written is no reason to fail the run.
  }
}
