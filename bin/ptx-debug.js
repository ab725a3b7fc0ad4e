#!/usr/bin/env node
// The ptx-debug command: runs the compiled CLI and sets the exit code.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv);
