# Sourced by the bench scripts on the GPU machine (docs/performance.md, "Results"): node from
# .device/node.xz (xz -9 of the development machine's node), the corpus from .device/corpus.tar.xz
# (bench/corpus/build.sh's output, unpacked with fresh times so the bench finds it up to date),
# /usr/local/cuda/bin on the PATH. Run with `carry: [".device"]`.
# The repository root: the nearest folder above this script that holds package.json (a copy of these scripts
# in .device/ then works too; a fixed ../../.. pointed above the root from there, and node was never unpacked).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
while [ "$root" != / ] && [ ! -f "$root/package.json" ]; do root="$(dirname "$root")"; done
cd "$root" || exit 1
[ -s .device/node.xz ] || { echo "setup.sh: no .device/node.xz under $root (carry .device)" >&2; exit 1; }
# (A node left empty by a failed unpack is unpacked again.)
[ -x /tmp/node ] && [ -s /tmp/node ] || { xz -d -c .device/node.xz > /tmp/node && chmod +x /tmp/node; }
mkdir -p bench/.cache
[ -f bench/.cache/radix_sort.ptx ] || { tar -xJf .device/corpus.tar.xz -C bench/.cache && touch bench/.cache/*.ptx; }
export PATH=/usr/local/cuda/bin:$PATH
