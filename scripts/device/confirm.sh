#!/usr/bin/env bash
# On the GPU machine: `analyze --confirm` on the race and divergence fixtures
# and on emitter defect variants, plus a large streaming kernel for the
# device's measured bandwidth. Output goes to $OUT/confirm-log.txt.
set -u
cd "$(dirname "$0")/../.."
xz -d -c .device/node.xz > /tmp/node && chmod +x /tmp/node
export PATH=/usr/local/cuda/bin:$PATH
P() { /tmp/node .device/ptx-debug.mjs "$@"; }
for k in race-raw race-raw-fixed barrier-divergence barrier-divergence-fixed; do
  echo "== analyze --confirm $k"
  P analyze fixtures/gpu/$k.ptx --confirm --launch fixtures/gpu/specs/$k.json --no-color; echo "exit $?"
done
W=/tmp/emitted; mkdir -p $W
for kd in "gemm_tiled early-exit" "gemm_tiled no-trailing-barrier" "gemm_tiled no-barrier" "softmax_warp divergent-shuffle" "q4k_gemv generic-shared" "lz4_compress loaded-value-store" "lz4_compress computed-address"; do
  set -- $kd
  echo "== emit $1 --defect $2; analyze --confirm"
  P emit $1 --defect $2 --param M=64 --param N=64 --param K=64 -o $W/$1.$2.ptx 2>/dev/null || P emit $1 --defect $2 -o $W/$1.$2.ptx
  P analyze $W/$1.$2.ptx --confirm --launch $W/$1.$2.launch.json --no-color --quiet; echo "exit $?"
  P analyze $W/$1.$2.ptx --confirm --launch $W/$1.$2.launch.json --format json > $W/$1.$2.json
  /tmp/node -e "const j=require('$W/$1.$2.json');for(const f of j.files[0].findings)if(f.confirmation)console.log(f.id,'line',f.location.line,'->',f.confirmation.status,f.confirmation.tool??'',(f.confirmation.evidence||'').slice(0,160))"
done
echo "== streaming bandwidth: vector_add n=2^28"
P emit vector_add --param n=268435456 -o $W/va.ptx
P run $W/va.ptx --kernel vector_add --launch $W/va.launch.json
