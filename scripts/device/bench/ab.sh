#!/bin/bash
# The engine (parse, then every analysis of every function), best of 3 in one process, of two builds: the
# bundles in .device/old (the earlier code) and .device/x (this code), interleaved per module, for ROUNDS
# rounds; one JSON line per process in $OUT/ab.txt (analysesMs, ownParseMs: bench/parse-one.js).
set -u
source "$(dirname "$0")/setup.sh"
for round in $(seq ${ROUNDS:-2}); do
  for f in block_warp radix_sort scan_reduce segmented_sort select_histogram; do
    for v in old new; do
      one=.device/x/bench-parse-one.mjs; [ $v = old ] && one=.device/old/x/bench-parse-one.mjs
      echo "$round $v $(/tmp/node --max-old-space-size=16384 --max-inlined-bytecode-size=50 $one bench/.cache/$f.ptx 3 engine)"
    done
  done
done | tee "$OUT/ab.txt"
