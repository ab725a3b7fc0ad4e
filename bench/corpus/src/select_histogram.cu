// ptx-debug benchmark corpus: cub::DeviceHistogram, cub::DeviceSelect,
// cub::DevicePartition, cub::DeviceRunLengthEncode, cub::DeviceAdjacentDifference.
// Several sample/value types and user-defined predicates.
// The host function is never executed; it only forces kernel instantiation.
#include <cub/cub.cuh>
#include <cuda/std/array>
#include <cstdint>

namespace corpus {

template <typename T>
struct LessThan {
  T bound;
  __host__ __device__ bool operator()(const T& v) const { return v < bound; }
};

template <typename T>
struct InRange {
  T lo, hi;
  __host__ __device__ bool operator()(const T& v) const { return lo <= v && v < hi; }
};

struct IsOddFlag {
  __host__ __device__ bool operator()(std::uint8_t f) const { return (f & 1u) != 0; }
};

template <typename SampleT, typename LevelT>
void histograms(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const SampleT* samples = nullptr;
  unsigned int* hist = nullptr;
  const LevelT* levels = nullptr;
  cub::DeviceHistogram::HistogramEven(tmp, bytes, samples, hist, 257, LevelT(0), LevelT(256), n);
  cub::DeviceHistogram::HistogramRange(tmp, bytes, samples, hist, 257, levels, n);
  // 2D (row-strided) variant
  cub::DeviceHistogram::HistogramEven(
    tmp, bytes, samples, hist, 65, LevelT(0), LevelT(64), n, n, (size_t)n * sizeof(SampleT));

  // RGBA pixels, histogram over RGB.
  ::cuda::std::array<unsigned int*, 3> hists{hist, hist, hist};
  ::cuda::std::array<int, 3> nlev{257, 257, 257};
  ::cuda::std::array<LevelT, 3> lo{LevelT(0), LevelT(0), LevelT(0)};
  ::cuda::std::array<LevelT, 3> hi{LevelT(256), LevelT(256), LevelT(256)};
  cub::DeviceHistogram::MultiHistogramEven<4, 3>(tmp, bytes, samples, hists, nlev, lo, hi, n);
  ::cuda::std::array<const LevelT*, 3> lvls{levels, levels, levels};
  cub::DeviceHistogram::MultiHistogramRange<4, 3>(tmp, bytes, samples, hists, nlev, lvls, n);
}

template <typename T>
void selects(int n) {
  void* tmp = nullptr;
  size_t bytes = 0;
  const T* in = nullptr;
  T* out = nullptr;
  T* out2 = nullptr;
  const std::uint8_t* flags = nullptr;
  int* num_sel = nullptr;
  cub::DeviceSelect::If(tmp, bytes, in, out, num_sel, n, LessThan<T>{T(10)});
  cub::DeviceSelect::If(tmp, bytes, out, num_sel, n, InRange<T>{T(1), T(7)}); // in-place
  cub::DeviceSelect::Flagged(tmp, bytes, in, flags, out, num_sel, n);
  cub::DeviceSelect::FlaggedIf(tmp, bytes, in, flags, out, num_sel, n, IsOddFlag{});
  cub::DeviceSelect::Unique(tmp, bytes, in, out, num_sel, n);
  const int* keys = nullptr;
  int* keys_out = nullptr;
  cub::DeviceSelect::UniqueByKey(tmp, bytes, keys, in, keys_out, out, num_sel, n);

  cub::DevicePartition::If(tmp, bytes, in, out, num_sel, n, LessThan<T>{T(3)});
  cub::DevicePartition::Flagged(tmp, bytes, in, flags, out, num_sel, n);
  cub::DevicePartition::If(
    tmp, bytes, in, out, out2, out, num_sel, n, LessThan<T>{T(3)}, InRange<T>{T(3), T(9)});

  int* lengths = nullptr;
  int* offsets = nullptr;
  cub::DeviceRunLengthEncode::Encode(tmp, bytes, in, out, lengths, num_sel, n);
  cub::DeviceRunLengthEncode::NonTrivialRuns(tmp, bytes, in, offsets, lengths, num_sel, n);

  cub::DeviceAdjacentDifference::SubtractLeftCopy(tmp, bytes, in, out, n);
  cub::DeviceAdjacentDifference::SubtractRightCopy(tmp, bytes, in, out, n);
  cub::DeviceAdjacentDifference::SubtractLeft(tmp, bytes, out, n);
}

void instantiate_all(int n) {
  histograms<std::uint8_t, int>(n);
  histograms<std::uint16_t, int>(n);
  histograms<float, float>(n);

  selects<std::int8_t>(n);
  selects<std::int32_t>(n);
  selects<std::uint64_t>(n);
  selects<float>(n);
}

} // namespace corpus
