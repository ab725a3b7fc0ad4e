#!/usr/bin/env node
// The ptx-debug command: runs the compiled CLI and sets the exit code.
import { main } from '../dist/cli/main.js';

// A reader that stops early (`| head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

process.exitCode = await main(process.argv);
