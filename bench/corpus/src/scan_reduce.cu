// ptx-debug benchmark corpus: cub::DeviceScan, cub::DeviceReduce and
// cub::DeviceSegmentedReduce instantiations over several value types and
// reduction operators (built-in and user-defined functors).
// The host function is never executed; it only forces kernel instantiation.
#include <cub/cub.cuh>
#include <cuda/std/functional>
#include <cuda/std/type_traits>
#include <thrust/iterator/counting_iterator.h>
#include <cstdint>

namespace corpus {

struct Float3 {
  float x, y, z;
};

struct Float3Add {
  __host__ __device__ Float3 operator()(const Float3& a, const Float3& b) const {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
  }
};

struct AbsMax {
  template <typename T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    if constexpr (::cuda::std::is_signed_v<T>) {
      T aa = a < T(0) ? T(-a) : a;
      T bb = b < T(0) ? T(-b) : b;
      return aa < bb ? b : a;
    } else {
      return a < b ? b : a;
    }
  }
};

struct SaturatingAdd {
  __host__ __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const {
    long long s = (long long)a + b;
    return s > 2147483647LL ? 2147483647 : (s < -2147483648LL ? (-2147483647 - 1) : (std::int32_t)s);
  }
};

template <typename T>
void scans(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const T* in = nullptr;
  T* out = nullptr;
  cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
  cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, ::cuda::maximum<>{}, n);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, in, out, ::cuda::minimum<>{}, T(0), n);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, in, out, AbsMax{}, T(0), n);
  // Scan-by-key with int keys
  const int* keys = nullptr;
  cub::DeviceScan::InclusiveSumByKey(tmp, bytes, keys, in, out, n);
  cub::DeviceScan::ExclusiveSumByKey(tmp, bytes, keys, in, out, n);
  cub::DeviceScan::InclusiveScanByKey(tmp, bytes, keys, in, out, ::cuda::maximum<>{}, n);
}

template <typename T>
void reductions(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const T* in = nullptr;
  T* out = nullptr;
  int* idx = nullptr;
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  cub::DeviceReduce::Min(tmp, bytes, in, out, n);
  cub::DeviceReduce::Max(tmp, bytes, in, out, n);
  cub::DeviceReduce::Reduce(tmp, bytes, in, out, n, AbsMax{}, T(0));
  cub::DeviceReduce::ArgMax(tmp, bytes, in, out, idx, n);
  cub::DeviceReduce::ArgMin(tmp, bytes, in, out, idx, n);
  cub::DeviceReduce::TransformReduce(
    tmp, bytes, in, out, n, ::cuda::std::plus<>{}, ::cuda::std::negate<>{}, T(0));
  // Reduce-by-key
  const int* keys_in = nullptr;
  int* keys_out = nullptr;
  int* num_runs = nullptr;
  cub::DeviceReduce::ReduceByKey(
    tmp, bytes, keys_in, keys_out, in, out, num_runs, ::cuda::std::plus<>{}, n);
}

template <typename T>
void segmented(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const T* in = nullptr;
  T* out = nullptr;
  const int* offsets = nullptr;
  cub::KeyValuePair<int, T>* kv = nullptr;
  cub::DeviceSegmentedReduce::Sum(tmp, bytes, in, out, n, offsets, offsets + 1);
  cub::DeviceSegmentedReduce::Min(tmp, bytes, in, out, n, offsets, offsets + 1);
  cub::DeviceSegmentedReduce::Max(tmp, bytes, in, out, n, offsets, offsets + 1);
  cub::DeviceSegmentedReduce::Reduce(tmp, bytes, in, out, n, offsets, offsets + 1, AbsMax{}, T(0));
  cub::DeviceSegmentedReduce::ArgMax(tmp, bytes, in, kv, n, offsets, offsets + 1);
  cub::DeviceSegmentedReduce::ArgMin(tmp, bytes, in, kv, n, offsets, offsets + 1);
}

template <typename... Ts>
void all_types(int n) {
  (scans<Ts>(n), ...);
  (reductions<Ts>(n), ...);
  (segmented<Ts>(n), ...);
}

void instantiate_all(int n) {
  all_types<std::int32_t, std::uint64_t, float, double>(n);

  void* tmp = nullptr;
  size_t bytes = 0;
  // User-defined value type and operator.
  const Float3* f3 = nullptr;
  Float3* f3o = nullptr;
  cub::DeviceScan::InclusiveScan(tmp, bytes, f3, f3o, Float3Add{}, n);
  cub::DeviceScan::ExclusiveScan(tmp, bytes, f3, f3o, Float3Add{}, Float3{0, 0, 0}, n);
  cub::DeviceReduce::Reduce(tmp, bytes, f3, f3o, n, Float3Add{}, Float3{0, 0, 0});
  const int* offsets = nullptr;
  cub::DeviceSegmentedReduce::Reduce(tmp, bytes, f3, f3o, n, offsets, offsets + 1, Float3Add{}, Float3{0, 0, 0});

  // Saturating integer scan and reduce, and 64-bit item counts.
  const std::int32_t* i32 = nullptr;
  std::int32_t* i32o = nullptr;
  cub::DeviceScan::InclusiveScan(tmp, bytes, i32, i32o, SaturatingAdd{}, n);
  cub::DeviceReduce::Reduce(tmp, bytes, i32, i32o, n, SaturatingAdd{}, 0);
  cub::DeviceScan::InclusiveSum(tmp, bytes, i32, i32o, (std::int64_t)n);
  cub::DeviceReduce::Sum(tmp, bytes, (const double*)nullptr, (double*)nullptr, (std::int64_t)n);

  // Fancy iterators.
  thrust::counting_iterator<int> count(0);
  cub::DeviceReduce::Sum(tmp, bytes, count, i32o, n);
  cub::DeviceScan::ExclusiveSum(tmp, bytes, count, i32o, n);
}

} // namespace corpus
