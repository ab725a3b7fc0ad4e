// A worker thread of `analyze --jobs N`: reads, parses and checks the files it
// is sent, and posts each result back with its index.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeOne, type AnalyzeOptions } from './analyze.js';
import { fullCollection } from './heap.js';

interface Job { readonly index: number; readonly file: string }

const options = workerData as AnalyzeOptions;
parentPort?.on('message', (job: Job | null) => {
  if (job === null) {
    process.exit(0);
  }
  void analyzeOne(job.file, options).then((result) => {
    // The file's syntax tree and facts are garbage now: collected before the result is copied to the main
    // thread, so this thread's heap shrinks first and the two do not add up to the peak.
    if (options.compactHeap === true) fullCollection();
    parentPort?.postMessage({ index: job.index, result });
  });
});
