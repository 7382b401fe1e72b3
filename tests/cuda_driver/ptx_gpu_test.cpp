// The back end's PTX run on a GPU (the lent machine, through scripts/gpu-kit.sh): the test kernels' PTX, made at
// build time by ptx_emit, loaded with the CUDA driver API and launched with the hidden parameters, results checked on
// the host. Links nothing but libdl and gtest, so it runs as it is there; without CUDA or a device it skips.
// The few driver entry points it needs are resolved here, until the runtime's zeal_cuda_api has launches.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

extern const char ptx_ptx_basics[];
extern const char ptx_ptx_subgroups[];
extern const char ptx_ptx_segments[];

namespace {

using CUresult = int;
using CUdeviceptr = uint64_t;
using Handle = void *;

struct Cuda {
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGet)(int *, int) = nullptr;
  CUresult (*cuCtxCreate_v2)(Handle *, unsigned, int) = nullptr;
  CUresult (*cuCtxDestroy_v2)(Handle) = nullptr;
  CUresult (*cuModuleLoadDataEx)(Handle *, const void *, unsigned, int *, void **) = nullptr;
  CUresult (*cuModuleGetFunction)(Handle *, Handle, const char *) = nullptr;
  CUresult (*cuMemAlloc_v2)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemFree_v2)(CUdeviceptr) = nullptr;
  CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*cuMemcpyDtoH_v2)(void *, CUdeviceptr, size_t) = nullptr;
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, Handle,
                             void **, void **) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;
};

template <class F>
bool resolve(void *library, F &slot, const char *name) {
  slot = reinterpret_cast<F>(dlsym(library, name));
  return slot != nullptr;
}

// The library and a context on device 0, or why there is none.
struct Gpu {
  Cuda api;
  Handle context = nullptr;
  std::string why;

  Gpu() {
    void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      why = std::string("no CUDA driver library: ") + dlerror();
      return;
    }
    bool all = resolve(library, api.cuInit, "cuInit") && resolve(library, api.cuDeviceGet, "cuDeviceGet") &&
               resolve(library, api.cuCtxCreate_v2, "cuCtxCreate_v2") &&
               resolve(library, api.cuCtxDestroy_v2, "cuCtxDestroy_v2") &&
               resolve(library, api.cuModuleLoadDataEx, "cuModuleLoadDataEx") &&
               resolve(library, api.cuModuleGetFunction, "cuModuleGetFunction") &&
               resolve(library, api.cuMemAlloc_v2, "cuMemAlloc_v2") && resolve(library, api.cuMemFree_v2, "cuMemFree_v2") &&
               resolve(library, api.cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2") &&
               resolve(library, api.cuMemcpyDtoH_v2, "cuMemcpyDtoH_v2") &&
               resolve(library, api.cuLaunchKernel, "cuLaunchKernel") &&
               resolve(library, api.cuCtxSynchronize, "cuCtxSynchronize");
    int device = 0;
    if (!all) why = "libcuda.so.1 lacks an entry point the test calls";
    else if (api.cuInit(0) != 0 || api.cuDeviceGet(&device, 0) != 0) why = "CUDA has no device";
    else if (api.cuCtxCreate_v2(&context, 0, device) != 0) why = "no CUDA context could be made";
  }
  ~Gpu() {
    if (context != nullptr) api.cuCtxDestroy_v2(context);
  }
};

Gpu &gpu() {
  static Gpu instance;
  return instance;
}

// ptx_reserved_shared_bytes (ptx_compiler.hpp, which this test does not link): the hidden values' bytes at the start
// of dynamic shared memory.
constexpr unsigned kReserved = 32;

// The hidden parameters every entry takes after the kernel's own.
struct Hidden {
  uint64_t offset[3] = {0, 0, 0};
  uint32_t dim = 1;
};

class PtxOnGpu : public ::testing::Test {
protected:
  void SetUp() override {
    if (!gpu().why.empty()) GTEST_SKIP() << gpu().why;
    cuda = &gpu().api;
  }
  void TearDown() override {
    for (CUdeviceptr buffer : buffers) cuda->cuMemFree_v2(buffer);
  }
  Handle function(const char *ptx, const char *name) {
    Handle module = nullptr, kernel = nullptr;
    char log[4096] = {0};
    int options[] = {5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */};
    void *values[] = {log, reinterpret_cast<void *>(sizeof log)};
    EXPECT_EQ(0, cuda->cuModuleLoadDataEx(&module, ptx, 2, options, values)) << log;
    EXPECT_EQ(0, cuda->cuModuleGetFunction(&kernel, module, name)) << name;
    return kernel;
  }
  template <class T>
  CUdeviceptr buffer(const std::vector<T> &contents) {
    CUdeviceptr pointer = 0;
    EXPECT_EQ(0, cuda->cuMemAlloc_v2(&pointer, contents.size() * sizeof(T)));
    EXPECT_EQ(0, cuda->cuMemcpyHtoD_v2(pointer, contents.data(), contents.size() * sizeof(T)));
    buffers.push_back(pointer);
    return pointer;
  }
  template <class T>
  std::vector<T> read(CUdeviceptr pointer, size_t count) {
    std::vector<T> contents(count);
    EXPECT_EQ(0, cuda->cuMemcpyDtoH_v2(contents.data(), pointer, count * sizeof(T)));
    return contents;
  }
  // Launches with the kernel's arguments followed by the hidden ones, and, as the runtime does (Kernel::record), the
  // reserved bytes of dynamic shared memory before `local_bytes` of local arguments (at offsets from kReserved).
  void launch(Handle kernel, std::vector<void *> args, Hidden &hidden, const unsigned (&groups)[3],
              const unsigned (&local)[3], unsigned local_bytes = 0) {
    unsigned shared_bytes = kReserved + local_bytes;
    for (uint64_t &offset : hidden.offset) args.push_back(&offset);
    args.push_back(&hidden.dim);
    ASSERT_EQ(0, cuda->cuLaunchKernel(kernel, groups[0], groups[1], groups[2], local[0], local[1], local[2],
                                      shared_bytes, nullptr, args.data(), nullptr));
    ASSERT_EQ(0, cuda->cuCtxSynchronize());
  }

  Cuda *cuda = nullptr;
  std::vector<CUdeviceptr> buffers;
};

TEST_F(PtxOnGpu, AVectorAddAddsEveryElement) {
  const size_t n = 1000;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) a[i] = float(i), b[i] = float(2 * i);
  CUdeviceptr da = buffer(a), db = buffer(b), dc = buffer(std::vector<float>(n));
  Hidden hidden;
  launch(function(ptx_ptx_basics, "vadd"), {&da, &db, &dc}, hidden, {10, 1, 1}, {100, 1, 1});
  std::vector<float> c = read<float>(dc, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(3.0f * float(i), c[i]) << i;
}

TEST_F(PtxOnGpu, ALocalPointerIsAnOffsetIntoDynamicSharedMemoryBesideStaticLocals) {
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i) in[i] = 100 * i;
  CUdeviceptr din = buffer(in), dout = buffer(std::vector<int>(64)), bias = buffer(std::vector<int>{7});
  uint32_t offset = kReserved + 16; // the runtime lays out local arguments; this one starts 16 bytes past its own
  Hidden hidden;
  launch(function(ptx_ptx_basics, "local_reverse"), {&din, &dout, &offset, &bias}, hidden, {1, 1, 1}, {64, 1, 1},
         16 + 64 * 4);
  std::vector<int> out = read<int>(dout, 64);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(100 * (63 - i) + (63 - i) + 7, out[i]) << i;
}

TEST_F(PtxOnGpu, AFunctionThatIsNotInlinedSeesTheGlobalOffsetAndWorkDimensions) {
  CUdeviceptr out = buffer(std::vector<uint64_t>(64));
  Hidden hidden;
  hidden.offset[0] = 5;
  hidden.dim = 2;
  launch(function(ptx_ptx_basics, "hidden_in_callee"), {&out}, hidden, {1, 1, 1}, {32, 1, 1});
  std::vector<uint64_t> values = read<uint64_t>(out, 64);
  for (int i = 0; i < 32; ++i) ASSERT_EQ(7u, values[i + 5]) << i; // stored at get_global_id(0) = 5 + i
}

TEST_F(PtxOnGpu, WorkItemBuiltInsMatchTheLaunch) {
  CUdeviceptr out = buffer(std::vector<uint64_t>(32 * 6 * 12));
  Hidden hidden;
  hidden.offset[1] = 1;
  hidden.dim = 2;
  launch(function(ptx_ptx_basics, "work_items"), {&out}, hidden, {4, 3, 1}, {8, 2, 1});
  std::vector<uint64_t> values = read<uint64_t>(out, 32 * 6 * 12);
  for (uint64_t y = 0; y < 6; ++y) {
    for (uint64_t x = 0; x < 32; ++x) {
      const uint64_t *r = &values[(y * 32 + x) * 12];
      std::vector<uint64_t> got(r, r + 11);
      std::vector<uint64_t> want = {y + 1, 1, y % 2, 8, 2, 0, 4, 1, 2, (y % 2) * 8 + x % 8, y * 32 + x};
      ASSERT_EQ(want, got) << "x " << x << " y " << y;
    }
  }
}

TEST_F(PtxOnGpu, AtomicsOnGlobalLocalAnd64BitMemoryCountEveryWorkItem) {
  CUdeviceptr g = buffer(std::vector<int>(64)), g64 = buffer(std::vector<int64_t>(8)), f = buffer(std::vector<float>(8));
  CUdeviceptr ai = buffer(std::vector<int>(64));
  uint32_t local = kReserved;
  Hidden hidden;
  launch(function(ptx_ptx_basics, "atomics"), {&g, &g64, &f, &local, &ai}, hidden, {4, 1, 1}, {64, 1, 1}, 4);
  std::vector<int> counts = read<int>(g, 4), fetched = read<int>(ai, 2);
  EXPECT_EQ((std::vector<int>{256, 256, 255, 1}), counts);
  EXPECT_EQ(512, read<int64_t>(g64, 1)[0]);
  EXPECT_EQ(4 * 64 * 64, fetched[0]); // each work-item adds its group's count of 64
  EXPECT_EQ(5, fetched[1]);
}

TEST_F(PtxOnGpu, SubGroupIdsAndASubGroupBarrierHoldForAShortLastWarp) {
  const size_t n = 48;
  CUdeviceptr out = buffer(std::vector<uint32_t>(n * 6));
  Hidden hidden;
  launch(function(ptx_ptx_subgroups, "sg_ids"), {&out}, hidden, {1, 1, 1}, {48, 1, 1});
  std::vector<uint32_t> values = read<uint32_t>(out, n * 6);
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> got(values.begin() + i * 6, values.begin() + i * 6 + 6);
    std::vector<uint32_t> want = {i < 32 ? 32u : 16u, 32, 2, i / 32, i % 32, 2};
    EXPECT_EQ(want, got) << i;
  }
}

TEST_F(PtxOnGpu, WorkGroupCollectivesCombineEverySubGroupOfTheGroup) {
  const size_t group = 80, n = 2 * group; // sub-groups of 32, 32 and 16 in each of two groups
  std::vector<int> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = int(i % group) + 1;
  CUdeviceptr din = buffer(in), out = buffer(std::vector<int>(n)), fout = buffer(std::vector<float>(n));
  Hidden hidden;
  launch(function(ptx_ptx_subgroups, "wg_collectives"), {&din, &out, &fout}, hidden, {2, 1, 1}, {80, 1, 1});
  std::vector<int> ints = read<int>(out, n);
  std::vector<float> floats = read<float>(fout, n);
  for (size_t i = 0; i < n; ++i) {
    int l = int(i % group);
    int exclusive_max = l == 0 ? INT32_MIN : l;
    EXPECT_EQ(3240 + (l + 1) * (l + 2) / 2 + exclusive_max + 6 + 1 + 1 + 1, ints[i]) << i;
    EXPECT_EQ(80.0f + float(l * (l + 1) / 2), floats[i]) << i;
  }
}

TEST_F(PtxOnGpu, BallotsMasksAndNonUniformVotesCountTheSubGroupsLanes) {
  const uint32_t n = 48;
  std::vector<int> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = int(i);
  CUdeviceptr din = buffer(in), out = buffer(std::vector<uint32_t>(n * 10));
  Hidden hidden;
  launch(function(ptx_ptx_subgroups, "sg_ballots"), {&din, &out}, hidden, {1, 1, 1}, {48, 1, 1});
  std::vector<uint32_t> values = read<uint32_t>(out, n * 10);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t l = i % 32;
    bool first = i < 32; // lanes 3 to 31 vote yes in the first sub-group, all 16 in the second
    std::vector<uint32_t> want = first ? std::vector<uint32_t>{0xfffffff8u, 29, l >= 3 ? l - 2 : 0, l >= 3 ? l - 3 : 0, 3,
                                                              31, l >= 3 ? 1u : 0u, (1u << l) - 1, 1, l == 0 ? 1u : 0u}
                                       : std::vector<uint32_t>{0xffffu, 16, l + 1, l, 0, 15, 1, (1u << l) - 1, 33,
                                                              l == 0 ? 2u : 1u};
    std::vector<uint32_t> got(values.begin() + i * 10, values.begin() + i * 10 + 10);
    EXPECT_EQ(want, got) << i;
  }
}

TEST_F(PtxOnGpu, BlockReadsAndWritesGiveLaneLElementKAtKTimes32PlusL) {
  std::vector<uint32_t> in(128);
  std::vector<uint16_t> shorts(64);
  for (uint32_t i = 0; i < 128; ++i) in[i] = i * 7;
  for (uint16_t i = 0; i < 64; ++i) shorts[i] = uint16_t(i + 100);
  CUdeviceptr din = buffer(in), out = buffer(std::vector<uint32_t>(128));
  CUdeviceptr sin = buffer(shorts), sout = buffer(std::vector<uint16_t>(64));
  Hidden hidden;
  launch(function(ptx_ptx_subgroups, "sg_blocks"), {&din, &out, &sin, &sout}, hidden, {2, 1, 1}, {32, 1, 1});
  std::vector<uint32_t> words = read<uint32_t>(out, 128);
  std::vector<uint16_t> halves = read<uint16_t>(sout, 64);
  for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(in[i] + ((i % 64) < 32 ? 1u : 2u), words[i]) << i;
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(uint16_t(2 * (i + 100)), halves[i]) << i;
}

// The host's answer for sg_reduce at `i`, with sub-groups of 32 work-items (the last one shorter).
struct Reduced {
  int ints;
  float floats;
  int64_t longs;
};
Reduced reduce_reference(const std::vector<int> &in, const std::vector<float> &fin, size_t i) {
  size_t first = i / 32 * 32, end = std::min(first + 32, in.size());
  int sum = 0, low = INT32_MAX, high = INT32_MIN, inclusive = 0, before_max = INT32_MIN, any = 0, all = 1;
  float fsum = 0, fmin = INFINITY;
  for (size_t j = first; j < end; ++j) {
    sum += in[j], low = std::min(low, in[j]), high = std::max(high, in[j]);
    any |= in[j] > 4, all &= in[j] > 0, fsum += fin[j];
    if (j <= i) inclusive += in[j], fmin = std::min(fmin, fin[j]);
    if (j < i) before_max = std::max(before_max, in[j]);
  }
  return {sum + low + high + inclusive + before_max + any + all, fsum + fmin, sum};
}

TEST_F(PtxOnGpu, SubGroupReductionsScansAndVotesCoverAFullAndAShortWarp) {
  const size_t n = 48;
  std::vector<int> in(n);
  std::vector<float> fin(n);
  for (size_t i = 0; i < n; ++i) in[i] = int(i) + 1, fin[i] = float(i % 7);
  CUdeviceptr din = buffer(in), dfin = buffer(fin), out = buffer(std::vector<int>(n));
  CUdeviceptr fout = buffer(std::vector<float>(n)), lout = buffer(std::vector<int64_t>(n));
  Hidden hidden;
  launch(function(ptx_ptx_subgroups, "sg_reduce"), {&din, &out, &dfin, &fout, &lout}, hidden, {1, 1, 1}, {48, 1, 1});
  std::vector<int> ints = read<int>(out, n);
  std::vector<float> floats = read<float>(fout, n);
  std::vector<int64_t> longs = read<int64_t>(lout, n);
  for (size_t i = 0; i < n; ++i) {
    Reduced want = reduce_reference(in, fin, i);
    EXPECT_EQ(want.ints, ints[i]) << i;
    EXPECT_EQ(want.floats, floats[i]) << i;
    EXPECT_EQ(want.longs, longs[i]) << i;
  }
}

TEST_F(PtxOnGpu, SubGroupShufflesTakeTheLanesTheyName) {
  const size_t n = 64;
  std::vector<int> in(n);
  std::vector<float> fin(n);
  for (size_t i = 0; i < n; ++i) in[i] = int(3 * i), fin[i] = float(i) * 0.5f;
  CUdeviceptr din = buffer(in), dfin = buffer(fin), out = buffer(std::vector<int>(n)), fout = buffer(std::vector<float>(n));
  uint32_t delta = 1;
  Hidden hidden;
  launch(function(ptx_ptx_subgroups, "sg_shuffles"), {&din, &out, &dfin, &fout, &delta}, hidden, {1, 1, 1}, {64, 1, 1});
  std::vector<int> ints = read<int>(out, n);
  std::vector<float> floats = read<float>(fout, n);
  for (size_t i = 0; i < n; ++i) {
    size_t base = i / 32 * 32, lane = i % 32;
    auto at = [&](size_t l) { return in[base + l]; };
    int down = lane + 1 < 32 ? at(lane + 1) : at(lane + 1 - 32) + 1000;
    int up = lane >= 1 ? at(lane - 1) : at(lane + 31) - 1;
    EXPECT_EQ(at(1) + down + up + at(lane ^ 1) + at(3), ints[i]) << i;
    EXPECT_EQ(fin[base + 1] * 2 + fin[base + (lane ^ 1)], floats[i]) << i;
  }
}

// What kernels/ptx_segments.cl writes for global id `i`, in groups of `group` work-items and sub-groups of `size`.
std::vector<int> segment_answers(const std::vector<int> &in, size_t i, size_t group, size_t size) {
  size_t local = i % group, sg = local / size, lane = local % size;
  size_t count = std::min(size, group - sg * size), first = i - lane;
  auto x = [&](size_t k) { return in[first + k]; };
  int sum = 0, inclusive = 0, exclusive_max = INT32_MIN, max = INT32_MIN, any7 = 0, all = 1, odd_sum = 0, cluster = 0;
  uint32_t ballot = 0;
  for (size_t k = 0; k < count; ++k) {
    sum += x(k);
    if (k <= lane) inclusive += x(k);
    if (k < lane) exclusive_max = std::max(exclusive_max, x(k));
    max = std::max(max, x(k));
    any7 |= x(k) == 7;
    all &= x(k) > 0;
    if (x(k) % 3 == 0) ballot |= 1u << k;
    if (x(k) & 1) odd_sum += x(k);
    if (k / 4 == lane / 4) cluster += x(k); // clusters of 4, the last one short where the sub-group is
  }
  size_t max_size = std::min(group, size);
  return {int(count), int(max_size), int((group + size - 1) / size), int(sg), int(lane), x((lane + 1) % count),
          x(lane ^ 1), lane + 1 < count ? x(lane + 1) : -1, lane > 0 ? x(lane - 1) : -1, x(0), sum, inclusive,
          exclusive_max, int(ballot), max, any7 + 2 * all, lane == 0, in[sg * max_size + lane],
          (x(lane) & 1) ? odd_sum : -1, sum + 1000 * inclusive, cluster};
}

// Sub-groups of 16 and 8 are segments of a warp, each with a short last one; a helper that kernels of all three
// sizes call reads the size its launch's entry stored; clustered reductions of 4 include a short last cluster.
TEST_F(PtxOnGpu, SubGroupsOfSixteenAndEightAnswerEveryBuiltInAsSegmentsOfAWarp) {
  struct Case {
    const char *kernel;
    size_t size, group;
  };
  // Last sub-groups of 10, 6 and 18 lanes: even (xor 1 stays inside), their last cluster of 4 short.
  for (Case c : {Case{"segments16", 16, 42}, Case{"segments8", 8, 22}, Case{"segments32", 32, 50}}) {
    const size_t n = 2 * c.group;
    std::vector<int> in(n);
    for (size_t i = 0; i < n; ++i) in[i] = int(i * 7 % 11) + 1;
    CUdeviceptr din = buffer(in), out = buffer(std::vector<int>(n * 21));
    Hidden hidden;
    const unsigned local = unsigned(c.group);
    launch(function(ptx_ptx_segments, c.kernel), {&din, &out}, hidden, {2, 1, 1}, {local, 1, 1});
    std::vector<int> values = read<int>(out, n * 21);
    for (size_t i = 0; i < n; ++i) {
      std::vector<int> got(values.begin() + long(i * 21), values.begin() + long(i * 21 + 21));
      ASSERT_EQ(segment_answers(in, i, c.group, c.size), got) << c.kernel << " work-item " << i;
    }
  }
}

TEST_F(PtxOnGpu, AReductionOverSubGroupsOfSixteenSumsFullAndShortOnes) {
  std::vector<float> in(40);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i);
  CUdeviceptr din = buffer(in), out = buffer(std::vector<float>(3));
  Hidden hidden;
  launch(function(ptx_ptx_segments, "sum16"), {&din, &out}, hidden, {1, 1, 1}, {40, 1, 1});
  EXPECT_EQ((std::vector<float>{120.0f, 376.0f, 284.0f}), read<float>(out, 3)); // 0..15, 16..31, 32..39
}

} // namespace
