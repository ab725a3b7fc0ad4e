// A child process of `analyze` (`--jobs N`, and every file under the CLI): it
// is sent the options once, then files one at a time; it reads, parses and
// checks each and sends the result back with its index. Processes, not
// threads: on the bench host eight 7 MB files took 116 s on eight threads of
// one process and 89 s on eight processes (docs/performance.md); each process
// has its own heap limit and heap policy. It exits when its parent goes away.
import { analyzeOne, type AnalyzeOptions } from './analyze.js';
import { exposeCollector, fullCollection } from './heap.js';
import { mark } from './timeline.js';

interface Message { readonly options?: AnalyzeOptions; readonly index?: number; readonly file?: string }

let options: AnalyzeOptions = {};
// (Before any file: the flags a file's part threads name their code cache by stay the same from file to file.)
exposeCollector();
process.on('disconnect', () => process.exit(0));
process.on('message', (m: Message) => {
  if (m.options !== undefined) {
    options = m.options;
    return;
  }
  if (m.index === undefined || m.file === undefined) {
    process.disconnect();
    return;
  }
  const index = m.index;
  mark('file given');
  void analyzeOne(m.file, options).then((result) => {
    // The file's syntax tree and facts are garbage now: collected before the result is serialized, so
    // the heap shrinks first and the two do not add up to the peak.
    if (options.compactHeap === true) fullCollection();
    process.send?.({ index, result });
    mark('result sent');
  });
});
