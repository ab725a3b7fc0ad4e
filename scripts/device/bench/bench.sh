#!/bin/bash
# `npm run bench`'s code on the GPU machine's CPU, from the bundles in .device/x and .device/bundle (make.sh);
# the table it writes into docs/performance.md comes back as $OUT/performance.md.
set -u
source "$(dirname "$0")/setup.sh"
nproc; lscpu | grep 'Model name'; /tmp/node --version; ptxas --version | tail -1
BENCH_ONE=.device/x/bench-parse-one.mjs /tmp/node .device/x/bench-run.mjs 2>&1
cp docs/performance.md "$OUT/performance.md"
