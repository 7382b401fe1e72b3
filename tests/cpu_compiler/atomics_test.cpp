// Atomics on global and local memory, with work-groups spread over two threads so that they really race.
#include "test_support.hpp"

#include <algorithm>
#include <set>

namespace zeal::cpu::test {
namespace {

constexpr uint32_t local_size = 64, groups = 64, items = local_size * groups;
const Range range{1, {groups, 1, 1}, {local_size, 1, 1}};

struct AtomicsKernels {
  static constexpr const char *stem = "atomics";
};
using Atomics = ProgramSuite<AtomicsKernels>;

TEST_F(Atomics, IntAndUintOperationsFromEveryWorkItem) {
  ASSERT_NE(program, nullptr);
  std::vector<int32_t> i = {0, 0, 0, 0, 1000, -1000, -1, 0, 0, 0};
  std::vector<uint32_t> u = {~0u, 0, ~0u, 0};
  int32_t *pi = i.data();
  uint32_t *pu = u.data();
  const void *args[] = {&pi, &pu};
  run_on_threads(kernel("int_ops"), args, range, 2);
  int32_t sum = 0, xor_all = 0;
  for (int32_t g = 0; g < int32_t(items); ++g) sum += g, xor_all ^= g;
  EXPECT_EQ(i[0], sum);
  EXPECT_EQ(i[1], -sum);
  EXPECT_EQ(i[2], int32_t(items));
  EXPECT_EQ(i[3], -int32_t(items));
  EXPECT_EQ(i[4], -100);
  EXPECT_EQ(i[5], int32_t(items) - 101);
  EXPECT_EQ(i[6], int32_t(0x80000000u)) << "every bit but the sign was cleared";
  EXPECT_EQ(i[7], 0x7fffffff);
  EXPECT_EQ(i[8], xor_all);
  EXPECT_EQ(i[9], 2 * int32_t(items));
  EXPECT_EQ(u[0], 7u);
  EXPECT_EQ(u[1], (items - 1) * 3u);
  EXPECT_EQ(u[2], 0u) << "unsigned min sees g - 1 = 0 for g = 1";
  EXPECT_EQ(u[3], ~0u) << "unsigned max sees 0xffffffff for g = 0";
}

TEST_F(Atomics, LongAndUlongOperations) {
  ASSERT_NE(program, nullptr);
  std::vector<int64_t> l = {0, 0, 0, 100, 0, 0, 0, 5};
  std::vector<uint64_t> u = {0};
  int64_t *pl = l.data();
  uint64_t *pu = u.data();
  const void *args[] = {&pl, &pu};
  run_on_threads(kernel("long_ops"), args, range, 2);
  int64_t sum = 0, xor_all = 0, or_all = 0;
  for (int64_t g = 0; g < int64_t(items); ++g) sum += g, xor_all ^= g, or_all |= int64_t(1) << (g % 63);
  EXPECT_EQ(l[0], sum << 32) << "64-bit adds carry into the high word";
  EXPECT_EQ(l[1], -sum);
  EXPECT_EQ(l[2], int64_t(items));
  EXPECT_EQ(l[3], -5);
  EXPECT_EQ(l[4], int64_t(items - 1) << 33);
  EXPECT_EQ(l[5], or_all);
  EXPECT_EQ(l[6], xor_all);
  EXPECT_EQ(u[0], ~uint64_t(0));
  EXPECT_EQ(l[7], 5 + 3 * int64_t(items));
}

TEST_F(Atomics, OpenCL20ExplicitFormsAndCompareExchange) {
  ASSERT_NE(program, nullptr);
  std::vector<int32_t> a = {0, 0, 0, -1, 0, 0, 0, 0, -1, 42}, seen(3 * items, 0);
  int32_t *pa = a.data(), *pseen = seen.data();
  const void *args[] = {&pa, &pseen};
  run_on_threads(kernel("explicit_ops"), args, range, 2);
  int32_t sum = 0, xor_all = 0;
  for (int32_t g = 0; g < int32_t(items); ++g) sum += g, xor_all ^= g;
  EXPECT_EQ(a[0], sum);
  EXPECT_EQ(a[1], -sum);
  EXPECT_EQ(a[2], 0x7fffffff);
  EXPECT_EQ(a[3], int32_t(0x80000000u));
  EXPECT_EQ(a[4], xor_all);
  EXPECT_EQ(a[5], -int32_t(items - 1));
  EXPECT_EQ(a[6], int32_t(items - 1));
  // Exactly one work-item won the compare-exchange, and a[7] names it.
  ASSERT_EQ(std::count(seen.begin(), seen.begin() + items, 1), 1);
  int32_t winner = int32_t(std::find(seen.begin(), seen.begin() + items, 1) - seen.begin());
  EXPECT_EQ(a[7], winner + 1);
  // Exchanges form one chain: every value but the last was seen exactly once.
  std::multiset<int32_t> before(seen.begin() + items, seen.begin() + 2 * items);
  before.insert(a[8]);
  std::multiset<int32_t> expected;
  for (int32_t g = 0; g < int32_t(items); ++g) expected.insert(g);
  expected.insert(-1);
  EXPECT_EQ(before, expected);
  EXPECT_TRUE(std::all_of(seen.begin() + 2 * items, seen.end(), [](int32_t v) { return v == 42; })) << "atomic_load";
}

TEST_F(Atomics, ACompareExchangeLoopCountsEveryWorkItemAndFloatExchangesChain) {
  ASSERT_NE(program, nullptr);
  int32_t counter = 0;
  float value = -1.0f;
  std::vector<float> old(items, 0.0f);
  int32_t *pcounter = &counter;
  float *pvalue = &value, *pold = old.data();
  const void *args[] = {&pcounter, &pvalue, &pold};
  run_on_threads(kernel("cmpxchg_counter"), args, range, 2);
  EXPECT_EQ(counter, int32_t(items));
  std::multiset<float> chain(old.begin(), old.end());
  chain.insert(value);
  std::multiset<float> expected{-1.0f};
  for (uint32_t g = 0; g < items; ++g) expected.insert(float(g));
  EXPECT_EQ(chain, expected);
}

TEST_F(Atomics, LocalAtomicsBuildAHistogramPerGroup) {
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> in(items);
  for (uint32_t i = 0; i < items; ++i) in[i] = i * 7919u % 1000u;
  std::vector<int32_t> bins(16, 0);
  uint32_t *pin = in.data();
  int32_t *pbins = bins.data();
  const void *args[] = {&pin, &pbins};
  run_on_threads(kernel("local_histogram"), args, range, 2);
  std::vector<int32_t> expected(16, 0);
  for (uint32_t v : in) ++expected[v % 16];
  EXPECT_EQ(bins, expected);
  EXPECT_EQ(kernel("local_histogram").static_local_bytes, 16u * sizeof(int32_t));
}

} // namespace
} // namespace zeal::cpu::test
