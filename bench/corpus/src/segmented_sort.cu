// ptx-debug benchmark corpus: cub::DeviceSegmentedRadixSort,
// cub::DeviceSegmentedSort and cub::DeviceMergeSort (comparison sorts with
// user-defined comparators). The host function is never executed; it only
// forces kernel instantiation.
#include <cub/cub.cuh>
#include <cstdint>

namespace corpus {

struct Point2 {
  float x, y;
};

struct ByDistance {
  __host__ __device__ bool operator()(const Point2& a, const Point2& b) const {
    return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y;
  }
};

struct AbsLess {
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return (a < T(0) ? -a : a) < (b < T(0) ? -b : b);
  }
};

template <typename K, typename V>
void segmented_radix(int n, int segs) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const int* off = nullptr;
  cub::DeviceSegmentedRadixSort::SortPairs(
    tmp, bytes, (const K*)nullptr, (K*)nullptr, (const V*)nullptr, (V*)nullptr, n, segs, off, off + 1);
  cub::DeviceSegmentedRadixSort::SortKeysDescending(tmp, bytes, (const K*)nullptr, (K*)nullptr, n, segs, off, off + 1);
}

template <typename K, typename V>
void segmented_sort(int n, int segs) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const int* off = nullptr;
  cub::DeviceSegmentedSort::SortPairs(
    tmp, bytes, (const K*)nullptr, (K*)nullptr, (const V*)nullptr, (V*)nullptr, n, segs, off, off + 1);
  cub::DeviceSegmentedSort::StableSortKeys(tmp, bytes, (const K*)nullptr, (K*)nullptr, n, segs, off, off + 1);
}

template <typename K, typename V, typename Cmp>
void merge_sort(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceMergeSort::SortPairs(tmp, bytes, (K*)nullptr, (V*)nullptr, n, Cmp{});
  cub::DeviceMergeSort::SortKeysCopy(tmp, bytes, (const K*)nullptr, (K*)nullptr, n, Cmp{});
}

void instantiate_all(int n, int segs) {
  segmented_radix<std::uint32_t, std::uint32_t>(n, segs);
  segmented_radix<double, std::uint64_t>(n, segs);

  segmented_sort<std::uint32_t, std::uint32_t>(n, segs);
  segmented_sort<float, std::int32_t>(n, segs);

  merge_sort<std::int32_t, std::uint32_t, ::cuda::std::less<>>(n);
  merge_sort<double, std::int32_t, ::cuda::std::greater<>>(n);
  merge_sort<float, std::uint64_t, AbsLess>(n);
  merge_sort<Point2, std::int32_t, ByDistance>(n);
}

} // namespace corpus
