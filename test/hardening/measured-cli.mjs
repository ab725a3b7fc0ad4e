// Runs the ptx-debug CLI (dist/) in this process and, on exit, reports the
// process's peak resident memory (worker threads included) on stderr as
// `PEAK_RSS_KB <n>`, so a test can bound both time and memory of one run.
import { writeSync } from 'node:fs';
import { main } from '../../dist/cli/main.js';

process.on('exit', () => { writeSync(2, `\nPEAK_RSS_KB ${process.resourceUsage().maxRSS}\n`); });
process.exitCode = await main(process.argv);
