// ptx-debug benchmark corpus: cub::DeviceRadixSort instantiations.
//
// Instantiates SortKeys / SortKeysDescending / SortPairs / SortPairsDescending
// for many key types x value types, plus a custom key type sorted through a
// decomposer. The host function below is never executed; it only exists so that
// every kernel template gets instantiated and emitted into the PTX module.
#include <cub/cub.cuh>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>

namespace corpus {

struct PackedKey {
  std::int32_t hi;
  float lo;
};

struct PackedKeyDecomposer {
  __host__ __device__ ::cuda::std::tuple<std::int32_t&, float&> operator()(PackedKey& k) const {
    return {k.hi, k.lo};
  }
};

template <typename K>
void sort_keys(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceRadixSort::SortKeys(tmp, bytes, (const K*)nullptr, (K*)nullptr, n);
  cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, (const K*)nullptr, (K*)nullptr, n);
}

template <typename K, typename V>
void sort_pairs(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceRadixSort::SortPairs(tmp, bytes, (const K*)nullptr, (K*)nullptr, (const V*)nullptr, (V*)nullptr, n);
  cub::DeviceRadixSort::SortPairsDescending(
    tmp, bytes, (const K*)nullptr, (K*)nullptr, (const V*)nullptr, (V*)nullptr, n);
}

template <typename K, typename... Vs>
void sort_all(int n) {
  sort_keys<K>(n);
  (sort_pairs<K, Vs>(n), ...);
}

void instantiate_all(int n) {
  sort_all<std::int8_t, std::uint32_t, double>(n);
  sort_all<std::uint8_t, std::uint32_t, std::uint64_t>(n);
  sort_all<std::int16_t, std::int32_t, float>(n);
  sort_all<std::uint16_t, std::uint32_t, std::uint64_t>(n);
  sort_all<std::int32_t, std::int32_t, std::uint64_t, float, double>(n);
  sort_all<std::uint32_t, std::uint32_t, std::uint64_t, float, double>(n);
  sort_all<std::int64_t, std::int32_t, std::uint64_t, double>(n);
  sort_all<std::uint64_t, std::uint32_t, std::uint64_t, double>(n);
  sort_all<float, std::uint32_t, std::uint64_t, float>(n);
  sort_all<double, std::uint32_t, std::uint64_t, double>(n);
  sort_all<__half, std::uint32_t, __half>(n);
  sort_all<__nv_bfloat16, std::uint32_t, __nv_bfloat16>(n);

  // Custom key type through a decomposer.
  void* tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceRadixSort::SortKeys(
    tmp, bytes, (const PackedKey*)nullptr, (PackedKey*)nullptr, n, PackedKeyDecomposer{});
  cub::DeviceRadixSort::SortPairs(
    tmp,
    bytes,
    (const PackedKey*)nullptr,
    (PackedKey*)nullptr,
    (const std::uint32_t*)nullptr,
    (std::uint32_t*)nullptr,
    n,
    PackedKeyDecomposer{});

  // 64-bit item count selects a different offset type in the dispatch layer.
  cub::DeviceRadixSort::SortPairs(
    tmp,
    bytes,
    (const std::uint32_t*)nullptr,
    (std::uint32_t*)nullptr,
    (const std::uint32_t*)nullptr,
    (std::uint32_t*)nullptr,
    (std::int64_t)n);
}

} // namespace corpus
