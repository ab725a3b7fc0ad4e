// ptx-debug benchmark corpus: hand-written kernels built from CUB block- and
// warp-level collectives (BlockLoad/BlockStore, BlockRadixSort, BlockScan,
// BlockReduce, BlockHistogram, BlockExchange, WarpReduce, WarpScan), each
// instantiated over several (type, block size, items per thread, algorithm)
// combinations. The host function is never executed; it only references the
// kernels so that they are instantiated.
#include <cub/cub.cuh>
#include <cstdint>

namespace corpus {

// ---------------------------------------------------------------------------
// Block-wide radix sort of a tile, optionally with values.
template <typename KeyT,
          typename ValueT,
          int BLOCK_THREADS,
          int ITEMS_PER_THREAD,
          cub::BlockLoadAlgorithm LOAD_ALG,
          bool DESCENDING>
__global__ void __launch_bounds__(BLOCK_THREADS)
  block_sort_kernel(const KeyT* keys_in, const ValueT* vals_in, KeyT* keys_out, ValueT* vals_out, int n) {
  using LoadK  = cub::BlockLoad<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, LOAD_ALG>;
  using LoadV  = cub::BlockLoad<ValueT, BLOCK_THREADS, ITEMS_PER_THREAD, LOAD_ALG>;
  using Sort   = cub::BlockRadixSort<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, ValueT>;
  using StoreK = cub::BlockStore<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using StoreV = cub::BlockStore<ValueT, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union {
    typename LoadK::TempStorage load_k;
    typename LoadV::TempStorage load_v;
    typename Sort::TempStorage sort;
    typename StoreK::TempStorage store_k;
    typename StoreV::TempStorage store_v;
  } smem;

  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  const int base     = blockIdx.x * TILE;
  const int valid    = min(TILE, n - base);
  KeyT keys[ITEMS_PER_THREAD];
  ValueT vals[ITEMS_PER_THREAD];
  LoadK(smem.load_k).Load(keys_in + base, keys, valid, KeyT(0));
  __syncthreads();
  LoadV(smem.load_v).Load(vals_in + base, vals, valid, ValueT(0));
  __syncthreads();
  if constexpr (DESCENDING) {
    Sort(smem.sort).SortDescending(keys, vals);
  } else {
    Sort(smem.sort).Sort(keys, vals);
  }
  __syncthreads();
  StoreK(smem.store_k).Store(keys_out + base, keys, valid);
  __syncthreads();
  StoreV(smem.store_v).Store(vals_out + base, vals, valid);
}

// Keys-only sort into a blocked arrangement then striped store.
template <typename KeyT, int BLOCK_THREADS, int ITEMS_PER_THREAD, int RADIX_BITS>
__global__ void __launch_bounds__(BLOCK_THREADS) block_sort_keys_kernel(KeyT* data, int begin_bit, int end_bit) {
  using Sort = cub::BlockRadixSort<KeyT, BLOCK_THREADS, ITEMS_PER_THREAD, cub::NullType, RADIX_BITS>;
  __shared__ typename Sort::TempStorage smem;
  KeyT keys[ITEMS_PER_THREAD];
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  cub::LoadDirectStriped<BLOCK_THREADS>(threadIdx.x, data + blockIdx.x * TILE, keys);
  Sort(smem).SortBlockedToStriped(keys, begin_bit, end_bit);
  cub::StoreDirectStriped<BLOCK_THREADS>(threadIdx.x, data + blockIdx.x * TILE, keys);
}

// ---------------------------------------------------------------------------
// Block-wide scan, with a running prefix across tiles.
template <typename T>
struct RunningPrefix {
  T total;
  __device__ T operator()(T block_aggregate) {
    T old = total;
    total += block_aggregate;
    return old;
  }
};

template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD, cub::BlockScanAlgorithm ALG, bool INCLUSIVE>
__global__ void __launch_bounds__(BLOCK_THREADS) block_scan_kernel(const T* in, T* out, int num_tiles) {
  using Load  = cub::BlockLoad<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_LOAD_TRANSPOSE>;
  using Scan  = cub::BlockScan<T, BLOCK_THREADS, ALG>;
  using Store = cub::BlockStore<T, BLOCK_THREADS, ITEMS_PER_THREAD, cub::BLOCK_STORE_TRANSPOSE>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } smem;
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  RunningPrefix<T> prefix{T(0)};
  for (int tile = 0; tile < num_tiles; ++tile) {
    T items[ITEMS_PER_THREAD];
    Load(smem.load).Load(in + tile * TILE, items);
    __syncthreads();
    if constexpr (INCLUSIVE) {
      Scan(smem.scan).InclusiveSum(items, items, prefix);
    } else {
      Scan(smem.scan).ExclusiveSum(items, items, prefix);
    }
    __syncthreads();
    Store(smem.store).Store(out + tile * TILE, items);
    __syncthreads();
  }
}

// Max-scan plus block reduction of the tile.
template <typename T, int BLOCK_THREADS, int ITEMS_PER_THREAD, cub::BlockScanAlgorithm SCAN_ALG, cub::BlockReduceAlgorithm RED_ALG>
__global__ void __launch_bounds__(BLOCK_THREADS) block_scan_reduce_kernel(const T* in, T* out, T* block_max, int n) {
  using Scan   = cub::BlockScan<T, BLOCK_THREADS, SCAN_ALG>;
  using Reduce = cub::BlockReduce<T, BLOCK_THREADS, RED_ALG>;
  __shared__ union {
    typename Scan::TempStorage scan;
    typename Reduce::TempStorage reduce;
  } smem;
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  const int base     = blockIdx.x * TILE;
  T items[ITEMS_PER_THREAD];
  cub::LoadDirectBlocked(threadIdx.x, in + base, items, n - base, T(0));
  T agg = Reduce(smem.reduce).Reduce(items, ::cuda::maximum<>{});
  __syncthreads();
  Scan(smem.scan).InclusiveScan(items, items, ::cuda::maximum<>{});
  cub::StoreDirectBlocked(threadIdx.x, out + base, items, n - base);
  if (threadIdx.x == 0) {
    block_max[blockIdx.x] = agg;
  }
}

// ---------------------------------------------------------------------------
// Block histogram over 8-bit samples.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int BINS, cub::BlockHistogramAlgorithm ALG>
__global__ void __launch_bounds__(BLOCK_THREADS) block_histogram_kernel(const std::uint8_t* in, unsigned int* hist) {
  using Hist = cub::BlockHistogram<std::uint8_t, BLOCK_THREADS, ITEMS_PER_THREAD, BINS, ALG>;
  __shared__ typename Hist::TempStorage smem;
  __shared__ unsigned int bins[BINS];
  std::uint8_t samples[ITEMS_PER_THREAD];
  cub::LoadDirectStriped<BLOCK_THREADS>(threadIdx.x, in + blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD, samples);
  Hist(smem).Histogram(samples, bins);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += BLOCK_THREADS) {
    atomicAdd(hist + b, bins[b]);
  }
}

// ---------------------------------------------------------------------------
// Warp-level reductions and scans (several logical warp sizes).
template <typename T, int LOGICAL_WARP, int WARPS_PER_BLOCK>
__global__ void __launch_bounds__(LOGICAL_WARP * WARPS_PER_BLOCK)
  warp_kernel(const T* in, T* sums, T* maxes, T* scans, int n) {
  using WReduce = cub::WarpReduce<T, LOGICAL_WARP>;
  using WScan   = cub::WarpScan<T, LOGICAL_WARP>;
  __shared__ typename WReduce::TempStorage red[WARPS_PER_BLOCK];
  __shared__ typename WScan::TempStorage scn[WARPS_PER_BLOCK];
  const int warp = threadIdx.x / LOGICAL_WARP;
  const int lane = threadIdx.x % LOGICAL_WARP;
  const int gid  = blockIdx.x * blockDim.x + threadIdx.x;
  T v            = gid < n ? in[gid] : T(0);
  T s            = WReduce(red[warp]).Sum(v);
  T m            = WReduce(red[warp]).Reduce(v, ::cuda::maximum<>{});
  T partial      = WReduce(red[warp]).Sum(v, n - (gid - lane));
  T inc, exc;
  WScan(scn[warp]).Scan(v, inc, exc, ::cuda::std::plus<>{});
  if (lane == 0) {
    sums[gid / LOGICAL_WARP]  = s + partial;
    maxes[gid / LOGICAL_WARP] = m;
  }
  if (gid < n) {
    scans[gid] = inc + exc;
  }
}

// Segmented warp reduction with head flags.
template <typename T, int LOGICAL_WARP>
__global__ void warp_segmented_kernel(const T* in, const int* heads, T* out) {
  using WReduce = cub::WarpReduce<T, LOGICAL_WARP>;
  __shared__ typename WReduce::TempStorage tmp[1024 / LOGICAL_WARP];
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid]      = WReduce(tmp[threadIdx.x / LOGICAL_WARP]).HeadSegmentedSum(in[gid], heads[gid]);
}

// ---------------------------------------------------------------------------
// Host-side instantiation helpers.
template <typename K, typename V, int BT, int IPT>
void sort_variants() {
  block_sort_kernel<K, V, BT, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE, false><<<1, BT>>>(nullptr, nullptr, nullptr, nullptr, 0);
  block_sort_kernel<K, V, BT, IPT, cub::BLOCK_LOAD_DIRECT, true><<<1, BT>>>(nullptr, nullptr, nullptr, nullptr, 0);
  block_sort_keys_kernel<K, BT, IPT, 4><<<1, BT>>>(nullptr, 0, 8 * sizeof(K));
  block_sort_keys_kernel<K, BT, IPT, 5><<<1, BT>>>(nullptr, 0, 8 * sizeof(K));
}

template <typename T, int BT, int IPT>
void scan_variants() {
  block_scan_kernel<T, BT, IPT, cub::BLOCK_SCAN_RAKING, true><<<1, BT>>>(nullptr, nullptr, 0);
  block_scan_kernel<T, BT, IPT, cub::BLOCK_SCAN_RAKING_MEMOIZE, false><<<1, BT>>>(nullptr, nullptr, 0);
  block_scan_kernel<T, BT, IPT, cub::BLOCK_SCAN_WARP_SCANS, true><<<1, BT>>>(nullptr, nullptr, 0);
  block_scan_kernel<T, BT, IPT, cub::BLOCK_SCAN_WARP_SCANS, false><<<1, BT>>>(nullptr, nullptr, 0);
  block_scan_reduce_kernel<T, BT, IPT, cub::BLOCK_SCAN_WARP_SCANS, cub::BLOCK_REDUCE_WARP_REDUCTIONS>
    <<<1, BT>>>(nullptr, nullptr, nullptr, 0);
  block_scan_reduce_kernel<T, BT, IPT, cub::BLOCK_SCAN_RAKING, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>
    <<<1, BT>>>(nullptr, nullptr, nullptr, 0);
  block_scan_reduce_kernel<T, BT, IPT, cub::BLOCK_SCAN_RAKING_MEMOIZE, cub::BLOCK_REDUCE_RAKING>
    <<<1, BT>>>(nullptr, nullptr, nullptr, 0);
}

template <typename T>
void warp_variants() {
  warp_kernel<T, 32, 4><<<1, 128>>>(nullptr, nullptr, nullptr, nullptr, 0);
  warp_kernel<T, 16, 8><<<1, 128>>>(nullptr, nullptr, nullptr, nullptr, 0);
  warp_kernel<T, 8, 16><<<1, 128>>>(nullptr, nullptr, nullptr, nullptr, 0);
  warp_kernel<T, 4, 32><<<1, 128>>>(nullptr, nullptr, nullptr, nullptr, 0);
  warp_segmented_kernel<T, 32><<<1, 128>>>(nullptr, nullptr, nullptr);
  warp_segmented_kernel<T, 16><<<1, 128>>>(nullptr, nullptr, nullptr);
}

template <typename T>
void scans_for_type() {
  scan_variants<T, 64, 4>();
  scan_variants<T, 128, 8>();
  scan_variants<T, 256, 4>();
  scan_variants<T, 256, 16>();
  scan_variants<T, 512, 2>();
}

void instantiate_all() {
  sort_variants<std::uint32_t, std::uint32_t, 128, 4>();
  sort_variants<std::uint32_t, std::uint32_t, 256, 8>();
  sort_variants<std::uint32_t, float, 512, 4>();
  sort_variants<std::int32_t, std::uint64_t, 128, 16>();
  sort_variants<std::uint64_t, std::uint32_t, 256, 4>();
  sort_variants<std::int64_t, double, 128, 8>();
  sort_variants<float, std::int32_t, 256, 8>();
  sort_variants<double, std::int32_t, 128, 4>();
  sort_variants<std::uint16_t, std::uint16_t, 256, 12>();
  sort_variants<std::uint8_t, std::uint32_t, 64, 16>();

  scans_for_type<std::int32_t>();
  scans_for_type<std::uint32_t>();
  scans_for_type<std::int64_t>();
  scans_for_type<float>();
  scans_for_type<double>();

  block_histogram_kernel<128, 8, 256, cub::BLOCK_HISTO_SORT><<<1, 128>>>(nullptr, nullptr);
  block_histogram_kernel<128, 8, 256, cub::BLOCK_HISTO_ATOMIC><<<1, 128>>>(nullptr, nullptr);
  block_histogram_kernel<256, 16, 256, cub::BLOCK_HISTO_SORT><<<1, 256>>>(nullptr, nullptr);
  block_histogram_kernel<256, 16, 64, cub::BLOCK_HISTO_ATOMIC><<<1, 256>>>(nullptr, nullptr);
  block_histogram_kernel<512, 4, 128, cub::BLOCK_HISTO_SORT><<<1, 512>>>(nullptr, nullptr);

  warp_variants<std::int32_t>();
  warp_variants<std::uint32_t>();
  warp_variants<std::int64_t>();
  warp_variants<float>();
  warp_variants<double>();
}

} // namespace corpus
