#!/bin/bash
# On the development machine: make.sh WORKTREE DEST bundles a built checkout's bench (WORKTREE/dist) for the
# GPU machine, which has no node_modules: DEST/x/bench-run.mjs, DEST/x/bench-parse-one.mjs, the analyze
# worker beside them and the part-worker bundles in DEST/bundle, where the bundled code looks for them.
# `make.sh . .device` for this code, `make.sh OTHER_WORKTREE .device/old` for ab.sh's other build.
set -eu
W=$(cd "$1" && pwd); mkdir -p "$2"; D=$(cd "$2" && pwd)
mkdir -p "$D/x" "$D/bundle"
B="import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);"
cd "$W"
npx esbuild bench/run.js --bundle --platform=node --format=esm --target=node20 --log-level=warning "--banner:js=$B" --outfile="$D/x/bench-run.mjs"
npx esbuild bench/parse-one.js --bundle --platform=node --format=esm --target=node20 --log-level=warning "--banner:js=$B" --outfile="$D/x/bench-parse-one.mjs"
cp dist/bundle/analyze-worker.js "$D/x/analyze-worker.js"
cp dist/bundle/part-worker.js dist/bundle/part-worker.cjs "$D/bundle/"
