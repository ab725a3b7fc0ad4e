# Sourced by the bench scripts on the GPU machine (docs/performance.md, "Results"): node from
# .device/node.xz (xz -9 of the development machine's node), the corpus from .device/corpus.tar.xz
# (bench/corpus/build.sh's output, unpacked with fresh times so the bench finds it up to date),
# /usr/local/cuda/bin on the PATH. Run with `carry: [".device"]`.
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
[ -x /tmp/node ] || { xz -d -c .device/node.xz > /tmp/node && chmod +x /tmp/node; }
mkdir -p bench/.cache
[ -f bench/.cache/radix_sort.ptx ] || { tar -xJf .device/corpus.tar.xz -C bench/.cache && touch bench/.cache/*.ptx; }
export PATH=/usr/local/cuda/bin:$PATH
