// Streaming stores: both copies of a versioned loop write exactly what plain code would.
#include "test_support.hpp"

#include "common/settings.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

namespace zeal::cpu::test {
namespace {

// ZEAL_CPU_STREAMING_STORES applies to the whole compiler suite as it does to
// the driver: the suite's second run sets it to 0 (CMakeLists.txt), so every
// vectorised loop of every test runs its non-temporal copy too.
class StreamingFromSettings : public ::testing::Environment {
  void SetUp() override {
    if (std::optional<uint64_t> threshold = zeal::settings().cpu_streaming_threshold) {
      set_streaming_store_threshold(*threshold);
    }
  }
};
[[maybe_unused]] const ::testing::Environment *const streaming_environment =
    ::testing::AddGlobalTestEnvironment(new StreamingFromSettings);

struct Streaming {
  static constexpr const char *stem = "streaming";
};

// Every launch streams (threshold 0) unless a test says otherwise; the threshold is restored after each test.
class StreamingStores : public ProgramSuite<Streaming> {
protected:
  void SetUp() override {
    saved_ = streaming_store_threshold();
    set_streaming_store_threshold(0);
  }
  void TearDown() override { set_streaming_store_threshold(saved_); }

private:
  uint64_t saved_ = UINT64_MAX;
};

// A buffer of `n` elements starting `shift` elements past a 64-byte boundary,
// with guard elements on both sides that no kernel may touch.
template <class T>
class Guarded {
public:
  Guarded(size_t n, size_t shift, T fill) : storage_(n + shift + 2 * guard + 64 / sizeof(T)), n_(n) {
    const auto base = reinterpret_cast<uintptr_t>(storage_.data() + guard);
    const size_t to_boundary = ((base + 63) / 64 * 64 - base) / sizeof(T);
    std::fill(storage_.begin(), storage_.end(), pattern());
    const auto begin = storage_.begin() + std::ptrdiff_t(guard + to_boundary + shift);
    std::fill(begin, begin + std::ptrdiff_t(n), fill);
    first_ = &*begin;
  }
  T *data() { return first_; }
  T &operator[](size_t i) { return first_[i]; }
  // True when nothing outside [data(), data() + n) changed.
  bool guards_intact() const {
    const T guard_value = pattern();
    for (const T *p = storage_.data(); p < storage_.data() + storage_.size(); ++p) {
      if (p >= first_ && p < first_ + n_) continue;
      if (std::memcmp(p, &guard_value, sizeof(T)) != 0) return false;
    }
    return true;
  }

private:
  static constexpr size_t guard = 64;
  static T pattern() {
    T value;
    std::memset(&value, 0x5a, sizeof(T));
    return value;
  }
  std::vector<T> storage_;
  size_t n_;
  T *first_ = nullptr;
};

// Which loops are versioned, per target: targets_test.cpp (CrossCompile).

// Aligned and misaligned outputs (the misaligned ones keep plain stores), group
// sizes that leave remainders, launches above and below the threshold.
TEST_F(StreamingStores, ScaleWritesEveryElementAndNothingElse) {
  const KernelInfo &k = kernel("stream_scale");
  for (uint64_t threshold : {uint64_t{0}, UINT64_MAX}) {
    set_streaming_store_threshold(threshold);
    for (uint32_t local : {1u, 3u, 16u, 64u, 256u, 257u}) {
      for (size_t shift : {0, 1, 3, 8}) {
        SCOPED_TRACE(::testing::Message() << "threshold " << threshold << " local " << local << " shift " << shift);
        const uint32_t groups = 9;
        const size_t n = size_t(groups) * local;
        Guarded<float> out(n, shift, -1.0f), in(n, (shift + 5) % 16, 0.0f);
        for (size_t i = 0; i < n; ++i) in[i] = float(i) * 0.25f - 7.0f;
        float *po = out.data(), *pi = in.data();
        const float scale = 3.0f;
        const void *args[] = {&po, &pi, &scale};
        run(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}});
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], scale * in[i]) << "element " << i;
        EXPECT_TRUE(out.guards_intact());
      }
    }
  }
}

// Rows of groups start at every alignment, so one launch takes both copies of the loop.
TEST_F(StreamingStores, RowsOfATwoDimensionalRangeMixBothCopies) {
  const KernelInfo &k = kernel("stream_rows");
  for (auto [gx, lx, gy, ly] : {std::array<uint32_t, 4>{5, 16, 7, 4}, {3, 37, 4, 3}, {2, 64, 2, 8}}) {
    SCOPED_TRACE(::testing::Message() << gx << "x" << lx << " by " << gy << "x" << ly);
    const size_t n = size_t(gx) * lx * gy * ly;
    Guarded<int> out(n, 0, -1), in(n, 0, 0);
    for (size_t i = 0; i < n; ++i) in[i] = int(i * 7);
    int *po = out.data(), *pi = in.data();
    const int salt = 0x1234;
    const void *args[] = {&po, &pi, &salt};
    run(k, args, Range{2, {gx, gy, 1}, {lx, ly, 1}});
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], int(i * 7) ^ salt) << "element " << i;
    EXPECT_TRUE(out.guards_intact());
  }
}

// Sub-group block writes stream line by line where a line starts on a
// boundary: every element and nothing else, aligned or not, streaming or not,
// with rows of whole sub-groups (16, 64) and not (24: the work-item loop).
TEST_F(StreamingStores, BlockWritesWriteEveryElementAndNothingElse) {
  for (uint64_t threshold : {uint64_t{0}, UINT64_MAX}) {
    set_streaming_store_threshold(threshold);
    for (uint32_t local : {16u, 24u, 64u}) {
      for (size_t shift : {0, 1, 8}) {
        SCOPED_TRACE(::testing::Message() << "threshold " << threshold << " local " << local << " shift " << shift);
        const uint32_t groups = 7;
        const size_t n = size_t(groups) * local;
        Guarded<uint32_t> out(n, shift, 0xdeadbeefu), in(n, (shift + 5) % 16, 0u);
        for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 3 + 1);
        uint32_t *po = out.data(), *pi = in.data();
        const void *args[] = {&po, &pi};
        run(kernel("stream_blocks"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i] + 1u) << "element " << i;
        EXPECT_TRUE(out.guards_intact());
      }
    }
  }
}

TEST_F(StreamingStores, TwoOutputsOfDifferentElementSizes) {
  const KernelInfo &k = kernel("stream_pairs");
  for (uint32_t local : {8u, 33u, 128u}) {
    SCOPED_TRACE(::testing::Message() << "local " << local);
    const uint32_t groups = 6;
    const size_t n = size_t(groups) * local;
    Guarded<float> a(4 * n, 0, -1.0f), in(n, 2, 0.0f);
    Guarded<double> b(n, local % 2, -1.0);
    for (size_t i = 0; i < n; ++i) in[i] = float(i % 97) - 40.0f;
    float *pa = a.data(), *pi = in.data();
    double *pb = b.data();
    const void *args[] = {&pa, &pb, &pi};
    run(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (size_t i = 0; i < n; ++i) {
      for (int c = 0; c < 4; ++c) ASSERT_EQ(a[4 * i + c], in[i] + float(c)) << "element " << i << "." << c;
      ASSERT_EQ(b[i], double(in[i]) * 0.5) << "element " << i;
    }
    EXPECT_TRUE(a.guards_intact());
    EXPECT_TRUE(b.guards_intact());
  }
}

// Groups spread over threads: each thread's non-temporal stores are visible once it is joined.
TEST_F(StreamingStores, GroupsOnSeveralThreads) {
  const KernelInfo &k = kernel("stream_scale");
  const uint32_t groups = 64, local = 256;
  const size_t n = size_t(groups) * local;
  Guarded<float> out(n, 0, -1.0f), in(n, 0, 0.0f);
  for (size_t i = 0; i < n; ++i) in[i] = float(i);
  float *po = out.data(), *pi = in.data();
  const float scale = -2.0f;
  const void *args[] = {&po, &pi, &scale};
  run_on_threads(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}}, 4);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], scale * in[i]) << "element " << i;
  EXPECT_TRUE(out.guards_intact());
}

TEST_F(StreamingStores, KernelsLeftPlainStillRun) {
  const uint32_t groups = 4, local = 64;
  const size_t n = size_t(groups) * local;
  Guarded<float> in(n, 0, 0.0f);
  for (size_t i = 0; i < n; ++i) in[i] = float(i) + 0.5f;
  float *pi = in.data();
  {
    Guarded<float> out(n, 0, -1.0f);
    float *po = out.data();
    int count = 0;
    int *pc = &count;
    const void *args[] = {&po, &pi, &pc};
    run(kernel("stream_counted"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], in[i]) << "element " << i;
    EXPECT_EQ(count, int(n));
  }
  {
    Guarded<float> out(2 * n, 0, -1.0f);
    float *po = out.data();
    const void *args[] = {&po, &pi};
    run(kernel("stream_strided"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[2 * i], in[i]) << "element " << 2 * i;
      ASSERT_EQ(out[2 * i + 1], -1.0f) << "element " << 2 * i + 1;
    }
  }
}

} // namespace
} // namespace zeal::cpu::test
