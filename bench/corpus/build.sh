#!/usr/bin/env bash
# Build the large-input PTX corpus used by `npm run bench`.
#
# Usage: bench/corpus/build.sh [CACHE_DIR]
#   CACHE_DIR  output directory for the .ptx files (default: <repo>/bench/.cache)
#
# Environment:
#   NVCC    nvcc binary (default: nvcc)
#   JOBS    parallel nvcc jobs (default: number of CPUs)
#   VERIFY  if set to 1, also run `ptxas -arch=sm_90 FILE -o /dev/null` on every
#           output and print how long it took
#   PTXAS   ptxas binary for VERIFY (default: ptxas)
#
# Every src/*.cu is compiled with `nvcc -ptx -arch=sm_90 -O3` to CACHE_DIR/<name>.ptx.
# A file is skipped when its .ptx already exists and is newer than the source.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CACHE="${1:-$ROOT/bench/.cache}"
NVCC="${NVCC:-nvcc}"
PTXAS="${PTXAS:-ptxas}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
NVCC_FLAGS=(-ptx -arch=sm_90 -O3)

if ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "build.sh: '$NVCC' not found (set NVCC=/path/to/nvcc)" >&2
  exit 1
fi

mkdir -p "$CACHE"
CACHE="$(cd "$CACHE" && pwd)"

shopt -s nullglob
SOURCES=("$HERE"/src/*.cu)
if [ ${#SOURCES[@]} -eq 0 ]; then
  echo "build.sh: no sources in $HERE/src" >&2
  exit 1
fi

fail=0
pids=()
names=()
start_all=$(date +%s)

compile() {
  local src="$1" out="$2" name t0 t1
  name="$(basename "$src")"
  t0=$(date +%s)
  # Write to a temp file and rename, so an interrupted build never leaves a
  # truncated .ptx that looks up to date.
  if "$NVCC" "${NVCC_FLAGS[@]}" "$src" -o "$out.tmp.$$"; then
    mv -f "$out.tmp.$$" "$out"
    t1=$(date +%s)
    echo "compiled  $name in $((t1 - t0)) s"
  else
    rm -f "$out.tmp.$$"
    echo "FAILED    $name" >&2
    return 1
  fi
}

for src in "${SOURCES[@]}"; do
  name="$(basename "$src" .cu)"
  out="$CACHE/$name.ptx"
  if [ -f "$out" ] && [ "$out" -nt "$src" ]; then
    echo "up to date $name.ptx"
    continue
  fi
  # Throttle to $JOBS concurrent compiles.
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do
    wait -n || fail=1
  done
  compile "$src" "$out" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do
  wait -n || fail=1
done
# Collect the exit status of any job that finished between checks.
wait || fail=1

end_all=$(date +%s)
echo "build time: $((end_all - start_all)) s (JOBS=$JOBS)"

total=0
echo "outputs in $CACHE:"
for src in "${SOURCES[@]}"; do
  name="$(basename "$src" .cu)"
  out="$CACHE/$name.ptx"
  if [ -f "$out" ]; then
    size=$(stat -c %s "$out")
    total=$((total + size))
    printf '  %12d bytes  %7.2f MB  %s\n' "$size" "$(awk -v s="$size" 'BEGIN{print s/1048576}')" "$name.ptx"
  else
    printf '  %12s        %7s     %s\n' "-" "missing" "$name.ptx"
    fail=1
  fi
done
printf '  %12d bytes  %7.2f MB  total\n' "$total" "$(awk -v s="$total" 'BEGIN{print s/1048576}')"

if [ "${VERIFY:-0}" = "1" ]; then
  echo "verifying with $PTXAS -arch=sm_90:"
  for src in "${SOURCES[@]}"; do
    name="$(basename "$src" .cu)"
    out="$CACHE/$name.ptx"
    [ -f "$out" ] || continue
    t0=$(date +%s.%N)
    if "$PTXAS" -arch=sm_90 "$out" -o /dev/null; then
      t1=$(date +%s.%N)
      printf '  ok    %6.2f s  %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}')" "$name.ptx"
    else
      echo "  FAIL            $name.ptx" >&2
      fail=1
    fi
  done
fi

exit $fail
