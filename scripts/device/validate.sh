#!/usr/bin/env bash
# Runs on the GPU machine (no Node there: the CLI travels as a bundle with a
# compressed node binary in .device/). Everything it prints goes to
# $OUT/log.txt; recorded outputs go to $OUT/results.tar.gz.
set -u
cd "$(dirname "$0")/../.."
R=/tmp/ptx-debug-results
rm -rf "$R"; mkdir -p "$R"
xz -d -c .device/node.xz > /tmp/node && chmod +x /tmp/node
export PATH=/usr/local/cuda/bin:$PATH
P() { /tmp/node .device/ptx-debug.mjs "$@"; }
echo "== device"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; compute-sanitizer --version | tail -1; nvcc --version | tail -2
for k in race-raw race-raw-fixed barrier-divergence barrier-divergence-fixed; do
  kernel=${k//-/_}
  echo "== $k: plain run"; P run fixtures/gpu/$k.ptx --kernel $kernel --launch fixtures/gpu/specs/$k.json --out $R/$k-plain; echo "exit $?"
  for tool in racecheck synccheck; do
    echo "== $k: $tool"; P run fixtures/gpu/$k.ptx --kernel $kernel --launch fixtures/gpu/specs/$k.json --sanitizer $tool --out $R/$k-$tool --json > $R/$k-$tool.json; echo "exit $?"
    P run fixtures/gpu/$k.ptx --kernel $kernel --launch fixtures/gpu/specs/$k.json --sanitizer $tool --out $R/$k-$tool-b
  done
done
echo "== crash-markers: plain run"; P run fixtures/gpu/crash-markers.ptx --kernel crash_markers --launch fixtures/gpu/specs/crash-markers.json --out $R/crash; echo "exit $?"
cp $R/crash/debug_buf.bin $R/crash-debug_buf.bin 2>/dev/null
echo "== crash-analyze"; P crash-analyze --debug-buffer $R/crash/debug_buf.bin --markers fixtures/gpu/crash-markers.markers.json --ptx fixtures/gpu/crash-markers.ptx; echo "exit $?"
echo "== crash-markers: memcheck"; P run fixtures/gpu/crash-markers.ptx --kernel crash_markers --launch fixtures/gpu/specs/crash-markers.json --sanitizer memcheck --out $R/crash-mem --json > $R/crash-memcheck.json; echo "exit $?"
echo "== raw sanitizer outputs (for parser tests)"
for k in race-raw barrier-divergence; do
  /tmp/node -e "const j=require('$R/$k-'+(process.argv[1])+'.json');require('fs').writeFileSync('$R/$k-'+process.argv[1]+'.txt', j.sanitizer.raw)" racecheck 2>/dev/null
  /tmp/node -e "const j=require('$R/$k-'+(process.argv[1])+'.json');require('fs').writeFileSync('$R/$k-'+process.argv[1]+'.txt', j.sanitizer.raw)" synccheck 2>/dev/null
done
if [ -d scripts/triton ]; then
  echo "== triton"; PYTHONUNBUFFERED=1 timeout 300 python3 scripts/triton/gen_ptx.py $R/triton; echo "exit $?"
fi
tar -czf "$OUT/results.tar.gz" -C "$R" .
