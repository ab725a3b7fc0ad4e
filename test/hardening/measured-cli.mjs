// Runs the ptx-debug CLI (dist/) in this process and, on exit, reports the
// peak resident memory of this process and its children (the CLI analyzes each
// file in a child process; sampled every 50 ms) on stderr as `PEAK_RSS_KB <n>`,
// so a test can bound both time and memory of one run.
import { writeSync } from 'node:fs';
import { sampleTreeRss } from '../../bench/tree-rss.js';
import { main } from '../../dist/cli/main.js';

const sampler = sampleTreeRss();
process.on('exit', () => { writeSync(2, `\nPEAK_RSS_KB ${Math.round(sampler.stop() / 1024)}\n`); });
process.exitCode = await main(process.argv);
