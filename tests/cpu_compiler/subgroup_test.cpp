// Sub-groups: ids and sizes for every size, and every collective against a host reference computed per sub-group,
// with collectives as sync points of barrier-free regions (the default) and as fibers (the fallback).
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <regex>
#include <set>
#include <thread>
#include <tuple>

namespace zeal::cpu::test {
namespace {

enum class Scheme { Regions, Fibers };

CompileOptions options_for(Scheme scheme, CompileOptions options = {}) {
  options.fiber_barriers = scheme == Scheme::Fibers;
  return options;
}

std::string scheme_name(Scheme scheme) { return scheme == Scheme::Regions ? "regions" : "fibers"; }

// A suite whose tests share subgroups.cl, built once per scheme for the suite.
template <class Param>
class SubGroupSuite : public ::testing::TestWithParam<Param> {
protected:
  static void SetUpTestSuite() {
    regions_log = debug_log([] { programs[int(Scheme::Regions)] = build("subgroups", options_for(Scheme::Regions)); });
    fibers_log = debug_log([] { programs[int(Scheme::Fibers)] = build("subgroups", options_for(Scheme::Fibers)); });
  }
  static void TearDownTestSuite() {
    for (auto &program : programs) program.reset();
  }
  static const Program *program_for(Scheme scheme) { return programs[int(scheme)].get(); }
  static const KernelInfo &find(Scheme scheme, const std::string &name) {
    const Program *program = program_for(scheme);
    const KernelInfo *found = program ? program->find_kernel(name) : nullptr;
    EXPECT_NE(found, nullptr) << name;
    return *found;
  }
  static inline std::unique_ptr<Program> programs[2];
  static inline std::string regions_log; // what the regions build logged at debug level
  static inline std::string fibers_log;  // the fibers build's
};

// Tests of one sub-group size under one scheme.
class SubGroups : public SubGroupSuite<std::tuple<Scheme, uint32_t>> {
protected:
  Scheme scheme() const { return std::get<0>(GetParam()); }
  uint32_t size() const { return std::get<1>(GetParam()); }
  const Program *program() const { return program_for(scheme()); }
  const KernelInfo &kernel(const std::string &name) const { return find(scheme(), name); }
};

// Sizes 4..64 are the profiles'; 1, 2, 3, 5 and 7 only the compiler's (no device list given).
INSTANTIATE_TEST_SUITE_P(Sizes, SubGroups,
                         ::testing::Combine(::testing::Values(Scheme::Regions, Scheme::Fibers),
                                            ::testing::Values(1u, 2u, 3u, 4u, 5u, 7u, 8u, 16u, 32u, 64u)),
                         [](const auto &tested) {
                           return scheme_name(std::get<0>(tested.param)) + "_" + std::to_string(std::get<1>(tested.param));
                         });

// Tests under one scheme.
class SubGroupSchemes : public SubGroupSuite<Scheme> {
protected:
  Scheme scheme() const { return GetParam(); }
  const Program *program() const { return program_for(scheme()); }
  const KernelInfo &kernel(const std::string &name) const { return find(scheme(), name); }
};

INSTANTIATE_TEST_SUITE_P(Schemes, SubGroupSchemes, ::testing::Values(Scheme::Regions, Scheme::Fibers),
                         [](const auto &tested) { return scheme_name(tested.param); });

std::string suffix(uint32_t s) { return std::to_string(s); }

TEST_P(SubGroups, OneGroupOf3SMinus1ItemsHasTwoFullSubGroupsAndAPartialOne) {
  ASSERT_NE(program(), nullptr);
  const uint32_t s = size(), n = 3 * s - 1;
  const KernelInfo &k = kernel("ids_" + suffix(s));
  EXPECT_EQ(k.required_subgroup_size, s);
  EXPECT_TRUE(k.uses_barriers) << "sub_group_elect is a collective: work-items wait for their sub-group";
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  std::vector<uint32_t> out(size_t(n) * 7, 0xdead);
  uint32_t *p = out.data();
  const void *args[] = {&p};
  run(k, args, Range{1, {1, 1, 1}, {n, 1, 1}});
  for (uint32_t i = 0; i < n; ++i) {
    SCOPED_TRACE(::testing::Message() << "S " << s << " work-item " << i);
    const uint32_t *o = &out[size_t(i) * 7];
    uint32_t id = i / s;
    // Two full sub-groups and one of S-1 (for S = 1 that one is empty: two sub-groups).
    const uint32_t groups = s == 1 ? 2u : 3u;
    EXPECT_EQ(o[0], id < 2 ? s : s - 1) << "sub-group size";
    EXPECT_EQ(o[1], s);
    EXPECT_EQ(o[2], groups);
    EXPECT_EQ(o[3], groups);
    EXPECT_EQ(o[4], id);
    EXPECT_EQ(o[5], i % s);
    EXPECT_EQ(o[6], i % s == 0 ? 1u : 0u) << "the leader";
  }
}

// The reference: what lane `lane` of the sub-group holding `x` (its lanes' inputs) gets for result r.
int reference(const std::vector<int> &x, uint32_t lane, uint32_t s, uint32_t sg_id, int r) {
  const uint32_t n = uint32_t(x.size());
  auto sum = [&](uint32_t from, uint32_t to) { int a = 0; for (uint32_t j = from; j < to; ++j) a += x[j]; return a; };
  auto own = [&](int64_t j) { return j >= 0 && j < int64_t(n) ? x[size_t(j)] : x[lane]; };
  switch (r) {
  case 0: return x[(lane * 3 + 1) % n];
  case 1: return own(lane ^ 1u);
  case 2: return lane + 1 < s ? own(lane + 1) : own(int64_t(lane) + 1 - s) + 1000;
  case 3: return int64_t(lane) - 2 >= 0 ? x[lane - 2] : own(int64_t(lane) - 2 + s) - 1000;
  case 4: return sum(0, n);
  case 5: return sum(0, lane + 1);
  case 6: return lane == 0 ? INT32_MIN : *std::max_element(x.begin(), x.begin() + lane);
  case 7: return *std::min_element(x.begin(), x.end());
  case 8: return x[n > 1 ? 1 : 0];
  case 9: return std::all_of(x.begin(), x.end(), [](int v) { return v > 0; });
  case 10: return std::any_of(x.begin(), x.end(), [](int v) { return v > 50; });
  case 11: return int(std::count_if(x.begin(), x.end(), [](int v) { return v & 1; }));
  case 12: return sg_id == 0 ? sum(0, n) : sum(0, lane);
  case 13: {
    int a = lane % 2 == 0 ? 0 : INT32_MIN;
    for (uint32_t j = lane % 2; j < n; j += 2) a = lane % 2 == 0 ? a + x[j] : std::max(a, x[j]);
    return a;
  }
  case 14: { int a = 0; for (int v : x) a ^= v; return a; }
  case 15: { int a = 0; for (uint32_t j = 0; j <= lane; ++j) a |= x[j]; return a; }
  case 16: return lane >= 2 ? x[2] : -7;
  case 17: return x[0];
  case 18: { // iteration k counts the lanes whose lane % 3 > k
    int a = 0;
    for (uint32_t k = 0; k < lane % 3; ++k) for (uint32_t j = 0; j < n; ++j) a += j % 3 > k;
    return a;
  }
  default: return std::all_of(x.begin(), x.end(), [](int v) { return v % 5 != 0; });
  }
}

void check_ops(const KernelInfo &k, uint32_t s, uint32_t n) {
  std::vector<int> in(n), out(size_t(n) * 20, -12345);
  for (uint32_t i = 0; i < n; ++i) in[i] = int((i * 37 + 11) % 101) - 20;
  const int *pin = in.data();
  int *pout = out.data();
  const void *args[] = {&pin, &pout};
  run(k, args, Range{1, {1, 1, 1}, {n, 1, 1}});
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t first = i / s * s, lane = i - first, size = std::min(s, n - first);
    std::vector<int> x(in.begin() + first, in.begin() + first + size);
    for (int r = 0; r < 20; ++r) {
      // Out-of-range sources are undefined in OpenCL: those lanes are not checked.
      if (r == 1 && (lane ^ 1u) >= size) continue;
      if (r == 2 && (size < s && lane + 1 >= size)) continue;
      if (r == 3 && lane < 2 && lane + s - 2 >= size) continue;
      ASSERT_EQ(out[size_t(i) * 20 + r], reference(x, lane, s, i / s, r))
          << "S " << s << " work-items " << n << " work-item " << i << " result " << r;
    }
  }
}

TEST_P(SubGroups, CollectivesMatchAHostReferencePerSubGroup) {
  ASSERT_NE(program(), nullptr);
  const uint32_t s = size();
  const KernelInfo &k = kernel("ops_" + suffix(s));
  EXPECT_TRUE(k.uses_barriers) << "collectives: work-items wait for their sub-group";
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  for (uint32_t n : {3 * s - 1, s, 2 * s, 1u}) check_ops(k, s, n);
}

TEST_P(SubGroupSchemes, KernelsWithoutARequiredSizeRunWithThePrimarySize) {
  CompileOptions options = options_for(scheme());
  for (uint32_t primary : {16u, 8u}) {
    options.primary_subgroup_size = primary;
    auto program = build("subgroups", options);
    ASSERT_NE(program, nullptr);
    check_ops(*program->find_kernel("ops_default"), primary, 3 * primary - 1);
    check_ops(*program->find_kernel("ops_default"), primary, 100);
  }
}

// The invariants of the SYCL sub-group test plan, on a 3-D launch of 2x2x2 groups.
TEST_P(SubGroupSchemes, ThreeDimensionalLaunchKeepsTheSyclInvariants) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("ids_3d");
  EXPECT_FALSE(k.uses_barriers) << "queries alone stay on the work-item loop";
  const std::array<uint32_t, 3> local = {7, 5, 3};
  const uint32_t per_group = 7 * 5 * 3, total = per_group * 8;
  std::vector<uint32_t> out(size_t(total) * 6, 0xdeadbeef);
  uint32_t *p = out.data();
  const void *args[] = {&p};
  run(k, args, Range{3, {2, 2, 2}, local});
  std::set<uint64_t> seen;
  const uint32_t max = out[4];
  EXPECT_TRUE(max == 4 || max == 8 || max == 16 || max == 32 || max == 64) << max;
  for (uint32_t g = 0; g < total; ++g) {
    const uint32_t *o = &out[size_t(g) * 6];
    SCOPED_TRACE(::testing::Message() << "global linear id " << g);
    EXPECT_LT(o[0], o[3]) << "sub-group id within the number of sub-groups";
    EXPECT_LT(o[1], o[2]) << "local id within the sub-group's size";
    EXPECT_LE(o[2], o[4]);
    EXPECT_EQ(o[4], max) << "one max size for every work-item";
    EXPECT_EQ(o[3], (per_group + max - 1) / max);
    EXPECT_TRUE(seen.insert((uint64_t(o[5]) * o[3] + o[0]) * max + o[1]).second) << "unique index";
  }
  EXPECT_EQ(seen.size(), total);
}

template <class T> std::vector<T> filled(size_t n, T first) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = T(first + T(i % 97));
  return v;
}

// Each kernel's path is in the log at info level: loops (sub-group by
// sub-group for a kernel using sub-groups), regions, or fibers and why.
TEST_P(SubGroupSchemes, TheLogSaysAtInfoLevelWhichPathEachKernelTakes) {
  const std::string &log = scheme() == Scheme::Regions ? regions_log : fibers_log;
  auto says = [&](const std::string &text) { return log.find("[info] kernel " + text) != std::string::npos; };
  EXPECT_TRUE(says("'lanes_plain' runs its work-items in loops, sub-group by sub-group, 8 lanes at a time, when "
                   "local_size[0] is a multiple of 8"))
      << log.substr(0, 3000);
  if (scheme() == Scheme::Regions) {
    EXPECT_TRUE(says("'ops_16' runs as regions, loops over its work-items between barriers and collectives; "));
    EXPECT_TRUE(says("'collectives_and_barriers' runs as regions, "));
  } else {
    EXPECT_TRUE(says("'ops_16' runs its work-items on fibers (a stack each) for its barriers and collectives: "
                     "-zeal-barriers=fibers asks for them"));
  }
}

TEST_P(SubGroupSchemes, ShufflesOfEveryListedTypeRotateByOneLane) {
  ASSERT_NE(program(), nullptr);
  const uint32_t n = 24; // three sub-groups of 8
  std::vector<float> f4 = filled<float>(n * 4, 0.5f), f3 = filled<float>(n * 4, 2.f);
  // int16 is 64-byte aligned (the JIT uses aligned 512-bit loads), as device allocations are.
  struct alignas(64) Int16 { int v[16]; };
  std::vector<Int16> i16_storage(n);
  int *i16 = i16_storage[0].v;
  for (uint32_t i = 0; i < n * 16; ++i) i16[i] = int(i % 97) - 40;
  std::vector<int> i16c(i16, i16 + n * 16);
  std::vector<int64_t> l = filled<int64_t>(n, int64_t(1) << 40);
  std::vector<uint16_t> h(n);
  for (uint32_t i = 0; i < n; ++i) h[i] = uint16_t(0x3c00 + i); // distinct halves
  std::vector<double> d = filled<double>(n, 0.25);
  std::vector<int16_t> s8 = filled<int16_t>(n * 8, -300);
  std::vector<uint16_t> us = filled<uint16_t>(n, 60000);
  std::vector<uint32_t> u2 = filled<uint32_t>(n * 2, 7);
  auto f4c = f4, f3c = f3; auto lc = l; auto hc = h; auto dc = d; auto s8c = s8; auto usc = us; auto u2c = u2;
  void *ptrs[] = {f4.data(), f3.data(), i16, l.data(), h.data(), d.data(), s8.data(), us.data(), u2.data()};
  const void *args[9];
  for (int a = 0; a < 9; ++a) args[a] = &ptrs[a];
  EXPECT_EQ(kernel("typed_shuffles").barrier_regions, scheme() == Scheme::Regions);
  run(kernel("typed_shuffles"), args, Range{1, {1, 1, 1}, {n, 1, 1}});
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t src = i / 8 * 8 + (i % 8 + 1) % 8, x = i ^ 1u;
    for (int c = 0; c < 4; ++c) ASSERT_EQ(f4[i * 4 + c], f4c[src * 4 + c]) << i;
    for (int c = 0; c < 3; ++c) ASSERT_EQ(f3[i * 4 + c], f3c[src * 4 + c]) << i;
    for (int c = 0; c < 16; ++c) ASSERT_EQ(i16[i * 16 + c], i16c[src * 16 + c]) << i;
    ASSERT_EQ(l[i], lc[src]);
    ASSERT_EQ(h[i], hc[src]);
    ASSERT_EQ(d[i], dc[src]);
    for (int c = 0; c < 8; ++c) ASSERT_EQ(s8[i * 8 + c], s8c[src * 8 + c]) << i;
    ASSERT_EQ(us[i], usc[src]);
    for (int c = 0; c < 2; ++c) ASSERT_EQ(u2[i * 2 + c], u2c[x * 2 + c]) << i;
  }
}

TEST_P(SubGroupSchemes, ReductionsAndScansOfLongUlongFloatDoubleHalfUint) {
  ASSERT_NE(program(), nullptr);
  const uint32_t n = 40; // two sub-groups of 16 and a partial one of 8
  std::vector<int64_t> l(n), ol(n);
  std::vector<uint64_t> ul(n), oul(n);
  std::vector<float> f(n), of(n);
  std::vector<double> d(n), od(n);
  std::vector<uint16_t> h(n), oh(n);
  std::vector<uint32_t> u(n), ou(n);
  for (uint32_t i = 0; i < n; ++i) {
    l[i] = (int64_t(i) - 20) << 33;
    ul[i] = (uint64_t(i * 7919 % 61) << 40) | i;
    f[i] = float(int(i * 13 % 29) - 14) * 0.5f;
    d[i] = double(i) * 0.125;
    h[i] = 0x3c00; // 1.0 in half
    u[i] = (i * 2654435761u) >> 3;
  }
  void *ptrs[] = {l.data(), ul.data(), f.data(), d.data(), h.data(), u.data(),
                  ol.data(), oul.data(), of.data(), od.data(), oh.data(), ou.data()};
  const void *args[12];
  for (int a = 0; a < 12; ++a) args[a] = &ptrs[a];
  run(kernel("typed_reductions"), args, Range{1, {1, 1, 1}, {n, 1, 1}});
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t first = i / 16 * 16, last = std::min(n, first + 16);
    int64_t sl = 0; for (uint32_t j = first; j <= i; ++j) sl += l[j];
    uint64_t mx = 0; for (uint32_t j = first; j < last; ++j) mx = std::max(mx, ul[j]);
    float mn = std::numeric_limits<float>::infinity(); for (uint32_t j = first; j < i; ++j) mn = std::min(mn, f[j]);
    double sd = 0; for (uint32_t j = first; j < last; ++j) sd += d[j];
    uint32_t mu = 0; for (uint32_t j = first; j <= i; ++j) mu = std::max(mu, u[j]);
    const uint16_t half_count = last - first == 16 ? 0x4c00 : 0x4800; // 16.0 or 8.0 in half
    SCOPED_TRACE(::testing::Message() << "work-item " << i);
    EXPECT_EQ(ol[i], sl);
    EXPECT_EQ(oul[i], mx);
    EXPECT_EQ(of[i], mn);
    EXPECT_EQ(od[i], sd);
    EXPECT_EQ(oh[i], half_count);
    EXPECT_EQ(ou[i], mu);
  }
}

TEST_P(SubGroupSchemes, BlockReadsAndWritesMoveSTimesNConsecutiveElements) {
  ASSERT_NE(program(), nullptr);
  const uint32_t n = 32, groups = 2, total = n * groups;
  std::vector<uint32_t> src(total * 4), dst(total * 5, 0);
  std::vector<uint16_t> src16(total * 2), dst16(total * 2, 0);
  for (uint32_t i = 0; i < total * 4; ++i) src[i] = i * 3 + 1;
  for (uint32_t i = 0; i < total * 2; ++i) src16[i] = uint16_t(i * 5 + 2);
  void *ptrs[] = {src.data(), dst.data(), src16.data(), dst16.data()};
  const void *args[] = {&ptrs[0], &ptrs[1], &ptrs[2], &ptrs[3]};
  run(kernel("block_io"), args, Range{1, {groups, 1, 1}, {n, 1, 1}});
  for (uint32_t i = 0; i < total * 4; ++i) {
    // Element i belongs to lane (i % 8) of its block of 8 lanes x 4 components.
    ASSERT_EQ(dst[i], src[i] + (i % 8)) << i;
  }
  for (uint32_t i = 0; i < total * 2; ++i) ASSERT_EQ(dst16[i], src16[i]) << i;
  for (uint32_t g = 0; g < total; ++g) {
    uint32_t base = g / 8 * 32; // sub-group g/8 reads its first 8 elements
    ASSERT_EQ(dst[total * 4 + g], src[base + g % 8]) << g;
  }
}

// A kernel without collectives keeps one work-item loop; when its rows hold
// whole sub-groups (16 x 3 x 2 with S 8) that loop runs sub-group by sub-group,
// its lanes vectorised and marked independent; otherwise (12 x 3 x 2, and 10
// x 1 x 1 with a partial sub-group) work-item by work-item. Both give the
// linear id's sub-group and lane, keep a private array per work-item, and move
// each sub-group's block.
TEST_P(SubGroupSchemes, WithoutCollectivesIdsPrivateArraysAndBlocksHoldWhetherRowsHoldWholeSubGroups) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("lanes_plain");
  EXPECT_FALSE(k.uses_barriers);
  for (const std::array<uint32_t, 3> local : {std::array<uint32_t, 3>{16, 3, 2}, {12, 3, 2}, {10, 1, 1}}) {
    const std::array<uint32_t, 3> groups = {2, 1, 3};
    const uint32_t per_group = local[0] * local[1] * local[2], total = per_group * 6;
    const uint32_t sub_groups = (per_group + 7) / 8;
    SCOPED_TRACE(::testing::Message() << "local size " << local[0] << " x " << local[1] << " x " << local[2]);
    std::vector<int> in(total), out(size_t(total) * 4, -1);
    std::vector<uint32_t> block_in(size_t(6) * sub_groups * 8), block_out(block_in.size(), 0xdeadbeef);
    for (uint32_t i = 0; i < total; ++i) in[i] = int(i * 7 % 23) - 5;
    for (size_t i = 0; i < block_in.size(); ++i) block_in[i] = uint32_t(i * 3 + 1);
    void *ptrs[] = {in.data(), out.data(), block_in.data(), block_out.data()};
    const void *args[] = {&ptrs[0], &ptrs[1], &ptrs[2], &ptrs[3]};
    run(k, args, Range{3, groups, local});
    for (uint32_t gz = 0; gz < groups[2]; ++gz) {
      for (uint32_t gx = 0; gx < groups[0]; ++gx) {
        const uint32_t group = gz * groups[0] + gx;
        for (uint32_t l = 0; l < per_group; ++l) {
          const uint32_t x = l % local[0], y = l / local[0] % local[1], z = l / (local[0] * local[1]);
          const uint32_t gid[3] = {gx * local[0] + x, y, gz * local[2] + z};
          const uint32_t g = (gid[2] * local[1] + gid[1]) * (groups[0] * local[0]) + gid[0];
          const uint32_t lane = l % 8, sg = l / 8;
          int priv[8];
          for (int j = 0; j < 8; ++j) priv[j] = in[g] * j + int(lane);
          const int mixed = priv[(lane * 3 + uint32_t(in[g])) & 7] + priv[lane];
          const int *o = &out[size_t(g) * 4];
          ASSERT_EQ(o[0], int(sg)) << "work-item " << l << " of group " << group;
          ASSERT_EQ(o[1], int(lane)) << "work-item " << l << " of group " << group;
          ASSERT_EQ(o[2], mixed) << "work-item " << l << " of group " << group;
          ASSERT_EQ(o[3], mixed + 1) << "work-item " << l << " of group " << group;
          const size_t at = (size_t(group) * sub_groups + sg) * 8 + lane;
          ASSERT_EQ(block_out[at], block_in[at] * 2 + lane) << "work-item " << l << " of group " << group;
        }
      }
    }
  }
}

// Which lanes take part where control flow diverges: the lanes of a sub-group
// at the same collective, whatever the others do (sub-group size 8).
TEST_P(SubGroupSchemes, CollectivesInDivergentBranchesAndLoopsTakeTheLanesThatReachThem) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("divergent_collectives");
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  for (uint32_t local : {1u, 3u, 8u, 29u, 64u, 100u}) {
    SCOPED_TRACE(::testing::Message() << "group size " << local);
    const uint32_t groups = 2, n = local * groups;
    std::vector<int> in(n), out(size_t(n) * 4, -12345);
    for (uint32_t i = 0; i < n; ++i) in[i] = int((i * 53 + 7) % 89) - 30;
    const int *pin = in.data();
    int *pout = out.data();
    const void *args[] = {&pin, &pout};
    run(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t l = i % local, sg = l / 8, lane = l % 8, first = i - lane;
      const uint32_t size = std::min(8u, local - sg * 8);
      const int *x = &in[first];
      const int sum = std::accumulate(x, x + size, 0);
      const int *o = &out[size_t(i) * 4];
      SCOPED_TRACE(::testing::Message() << "work-item " << i);
      EXPECT_EQ(o[0], sg % 2 == 1 ? sum : -1) << "only odd sub-groups reduce";
      EXPECT_EQ(o[1], lane < 3 ? std::accumulate(x, x + lane + 1, 0) : *std::max_element(x + 3, x + size))
          << "lanes 0-2 scan in the if, the others reduce in the else";
      int loop = 0;
      for (uint32_t t = 0; t < sg % 3; ++t) loop += int(t + 1) * sum;
      EXPECT_EQ(o[2], loop) << "a trip count per sub-group";
      // Round t holds the lanes above t; the first of them is lane t + 1.
      EXPECT_EQ(o[3], lane == 0 ? 0 : x[lane] + int(lane) - 1) << "a trip count per lane";
    }
  }
}

// Sub-group reductions and scans between work-group barriers, a kernel-scope
// local array and a local argument, with a partial last sub-group.
TEST_P(SubGroupSchemes, CollectivesWorkGroupBarriersAndLocalMemoryInOneKernel) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("collectives_and_barriers");
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  for (uint32_t local : {1u, 5u, 8u, 13u, 64u, 100u, 256u, 1021u}) {
    SCOPED_TRACE(::testing::Message() << "group size " << local);
    const uint32_t groups = 3, n = local * groups;
    std::vector<int> in(n), prefix(n, -1), mixed(n, -1), ring(local);
    for (uint32_t i = 0; i < n; ++i) in[i] = int((i * 31 + 5) % 41) - 20;
    const int *pin = in.data();
    int *pprefix = prefix.data(), *pmixed = mixed.data(), *pring = ring.data();
    const void *args[] = {&pin, &pprefix, &pmixed, &pring};
    run(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t g = 0; g < groups; ++g) {
      const int *x = &in[g * local];
      std::vector<int> y(x, x + local);
      for (int r = 0; r < 3; ++r) {
        std::vector<int> next(local);
        for (uint32_t l = 0; l < local; ++l) {
          const uint32_t first = l / 8 * 8, size = std::min(8u, local - first);
          next[l] = y[(l + 1) % local] * 2 + y[first + (l - first + 1) % size];
        }
        y = next;
      }
      for (uint32_t l = 0; l < local; ++l) {
        ASSERT_EQ(prefix[g * local + l], std::accumulate(x, x + l, 0)) << "group " << g << " work-item " << l;
        ASSERT_EQ(mixed[g * local + l], y[l]) << "group " << g << " work-item " << l;
      }
    }
  }
}

// Work-groups each on a thread of its own, one after another: a thread's fiber stacks are unmapped
// when it ends, and the next thread's are mapped where they were, at other offsets. Under ASan the
// stacks must come to each fiber clean (fibers.cpp asserts it), or zeal_cpu_subgroup's copy of a
// JIT'd frame's operand would trip on what an earlier stack left poisoned there.
TEST_P(SubGroupSchemes, CollectivesOnThreadsRunOneAfterAnotherGiveTheHostSums) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("collectives_and_barriers");
  for (uint32_t local : {64u, 13u, 100u, 8u, 256u, 5u, 64u, 1021u, 1u, 100u}) {
    SCOPED_TRACE(::testing::Message() << "group size " << local);
    std::vector<int> in(local), prefix(local, -1), mixed(local, -1), ring(local);
    for (uint32_t i = 0; i < local; ++i) in[i] = int(i % 7) - 3;
    const int *pin = in.data();
    int *pprefix = prefix.data(), *pmixed = mixed.data(), *pring = ring.data();
    const void *args[] = {&pin, &pprefix, &pmixed, &pring};
    std::thread([&] { run(k, args, Range{1, {1, 1, 1}, {local, 1, 1}}); }).join();
    for (uint32_t l = 0; l < local; ++l)
      ASSERT_EQ(prefix[l], std::accumulate(in.begin(), in.begin() + l, 0)) << "work-item " << l;
  }
}

// The work-group sum bench_cpu_compute_subgroups measures (its kernel file):
// a sub-group reduction, the sub-groups' sums combined through local memory
// after a barrier; sub-group by sub-group where rows hold whole sub-groups
// (256, 48, 16), by the host's combine where the last is partial (40, 8).
TEST_P(SubGroupSchemes, WorkGroupSumsOfSubGroupReductionsThroughLocalMemory) {
  std::unique_ptr<Program> sums = build("bench_subgroups", options_for(scheme()));
  ASSERT_NE(sums, nullptr);
  const KernelInfo *found = sums->find_kernel("reduce_subgroup");
  ASSERT_NE(found, nullptr);
  const KernelInfo &k = *found;
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  for (uint32_t local : {256u, 48u, 16u, 40u, 8u}) {
    SCOPED_TRACE(::testing::Message() << "group size " << local);
    const uint32_t groups = 5, n = local * groups;
    std::vector<int> in(n), out(groups, -1);
    for (uint32_t i = 0; i < n; ++i) in[i] = int((i * 41 + 9) % 53) - 26;
    const int *pin = in.data();
    int *pout = out.data();
    const void *args[] = {&pin, &pout};
    run(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t g = 0; g < groups; ++g) {
      EXPECT_EQ(out[g], std::accumulate(&in[g * local], &in[g * local] + local, 0)) << "group " << g;
    }
  }
}

// A chain of regions and combines, sub-group by sub-group where rows hold whole
// sub-groups (16, 24), and where they do not (12: a partial sub-group; 5).
TEST_P(SubGroupSchemes, CollectivesEveryWorkItemReachesInTurnThenOneInALoop) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("chained_collectives");
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  for (uint32_t local : {16u, 24u, 8u, 12u, 5u}) {
    for (int rounds : {0, 3}) {
      SCOPED_TRACE(::testing::Message() << "group size " << local << ", " << rounds << " rounds");
      const uint32_t groups = 3, n = local * groups;
      std::vector<int> in(n), out(n, -1);
      for (uint32_t i = 0; i < n; ++i) in[i] = int((i * 29 + 3) % 37) - 18;
      const int *pin = in.data();
      int *pout = out.data();
      const void *args[] = {&pin, &pout, &rounds};
      run(k, args, Range{1, {groups, 1, 1}, {local, 1, 1}});
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t l = i % local, lane = l % 8, first = i - lane, size = std::min(8u, local - l / 8 * 8);
        const int s = std::accumulate(&in[first], &in[first] + size, 0);
        // Lane j's inclusive scan of x + s; lane ^ 1 is outside a partial sub-group of odd size for its last lane.
        auto scan = [&](uint32_t j) { return std::accumulate(&in[first], &in[first] + j + 1, 0) + int(j + 1) * s; };
        const int other = (lane ^ 1u) < size ? scan(lane ^ 1u) : 0;
        if ((lane ^ 1u) >= size && rounds > 0) continue; // shuffling from a lane outside the sub-group: undefined
        ASSERT_EQ(out[i], in[i] + rounds * other) << "work-item " << i;
      }
    }
  }
}

// Sub-groups of 8 cut a work-group by local linear id: a 5x3x2 one into 8, 8, 8
// and 6 lanes; in 16x3x2 and 8x1x3 ones, whose rows hold whole sub-groups, the
// regions run sub-group by sub-group with each collective's combine between them.
TEST_P(SubGroupSchemes, CollectivesInAThreeDimensionalWorkGroupFollowTheLinearId) {
  ASSERT_NE(program(), nullptr);
  const KernelInfo &k = kernel("collectives_3d");
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions);
  for (const std::array<uint32_t, 3> local : {std::array<uint32_t, 3>{5, 3, 2}, {16, 3, 2}, {8, 1, 3}}) {
    const std::array<uint32_t, 3> groups = {2, 1, 2};
    const uint32_t per_group = local[0] * local[1] * local[2], total = per_group * 4;
    std::vector<int> out(size_t(total) * 3, -1);
    int *p = out.data();
    const void *args[] = {&p};
    run(k, args, Range{3, groups, local});
    auto encoded = [&](uint32_t linear) {
      return int(linear / (local[0] * local[1]) * 10000 + linear / local[0] % local[1] * 100 + linear % local[0]);
    };
    for (uint32_t gz = 0; gz < 2; ++gz) {
      for (uint32_t gx = 0; gx < 2; ++gx) {
        for (uint32_t l = 0; l < per_group; ++l) {
          const uint32_t x = gx * local[0] + l % local[0], y = l / local[0] % local[1],
                         z = gz * local[2] + l / (local[0] * local[1]);
          const uint32_t global = (z * local[1] + y) * 2 * local[0] + x, first = l / 8 * 8,
                         size = std::min(8u, per_group - first);
          const int *o = &out[size_t(global) * 3];
          SCOPED_TRACE(::testing::Message() << "group " << local[0] << "x" << local[1] << "x" << local[2] << " ("
                                            << gx << ", 0, " << gz << "), local linear id " << l);
          ASSERT_EQ(o[0], int(size * first + size * (size - 1) / 2));
          ASSERT_EQ(o[1], int(l - first + 1));
          ASSERT_EQ(o[2], encoded(first + (l - first + 1) % size));
        }
      }
    }
  }
}

TEST(SubGroupsBuild, ARequiredSizeTheDeviceLacksFailsTheBuildNamingTheKernel) {
  CompileOptions options;
  options.subgroup_sizes = {8, 16};
  auto program = compile_spirv(load_kernel("subgroups"), options);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.error().log.find("ids_1"), std::string::npos) << program.error().log;
}

// An ahead-of-time binary keeps the primary size it was compiled with: loaded where the
// primary size differs, its kernels report and run with the baked-in size.
TEST_P(SubGroupSchemes, ABinaryKeepsThePrimarySizeItWasCompiledWith) {
  CompileOptions built_with = options_for(scheme());
  built_with.primary_subgroup_size = 8;
  auto program = build("primary_size", built_with); // subgroups.cl's ops_default and ops_16, alone
  ASSERT_NE(program, nullptr);
  EXPECT_EQ(program->find_kernel("ops_default")->subgroup_size, 8u);
  EXPECT_EQ(program->find_kernel("ops_16")->subgroup_size, 16u) << "a required size is the size it runs with";
  CompileOptions device; // no size list: the module's sizes 1 to 7 are the compiler's, not a profile's
  device.primary_subgroup_size = 16;
  auto blob = program->native_binary();
  ASSERT_TRUE(blob.ok()) << blob.error().message;
  auto loaded = load_native_binary(*blob, device);
  ASSERT_TRUE(loaded.ok()) << loaded.error().log;
  BuiltKernels::get().add(**loaded);
  const KernelInfo &k = *loaded.value()->find_kernel("ops_default");
  EXPECT_EQ(k.subgroup_size, 8u);
  EXPECT_EQ(k.barrier_regions, scheme() == Scheme::Regions) << "the binary keeps how the kernel runs";
  EXPECT_EQ(k.required_subgroup_size, 0u);
  check_ops(k, 8, 3 * 8 - 1);
}

TEST(SubGroupsNative, ABinaryWhoseBakedInSizeTheDeviceLacksIsRefusedNamingKernelAndSize) {
  CompileOptions built_with;
  built_with.primary_subgroup_size = 8;
  auto program = build("vector_add", built_with);
  ASSERT_NE(program, nullptr);
  CompileOptions device;
  device.subgroup_sizes = {16, 32};
  device.device_name = "the pvc profile";
  auto blob = program->native_binary();
  ASSERT_TRUE(blob.ok()) << blob.error().message;
  auto loaded = load_native_binary(*blob, device);
  ASSERT_FALSE(loaded.ok());
  const std::string &log = loaded.error().log;
  EXPECT_NE(log.find("kernel 'vector_add' was compiled for sub-group size 8"), std::string::npos) << log;
  EXPECT_NE(log.find("the pvc profile does not support; supported sub-group sizes: 16, 32"), std::string::npos)
      << log;
}

} // namespace
} // namespace zeal::cpu::test

namespace zeal::cpu::test {
namespace {

// The element types of subgroups.cl's every_collective_<type> kernels.
enum class CollectiveType { Int, Uint, Long, Ulong, Char, Ushort, Float, Double };
constexpr CollectiveType collective_types[] = {CollectiveType::Int,  CollectiveType::Uint,   CollectiveType::Long,
                                               CollectiveType::Ulong, CollectiveType::Char,  CollectiveType::Ushort,
                                               CollectiveType::Float, CollectiveType::Double};
std::string type_name(CollectiveType type) {
  static const char *const names[] = {"int", "uint", "long", "ulong", "char", "ushort", "float", "double"};
  return names[int(type)];
}

// The compiled combines against the host's: each every_collective_<type> kernel runs two whole sub-groups (combined
// in compiled code, between lane loops or by the dispatcher), then the same kernel runs under fibers and with a
// partial sub-group (the host combines); every result must be the same bits. The floats carry fractions, a NaN and an infinity, so
// the order of additions and the compare chains of min and max show.
class CompiledCollectives : public SubGroupSuite<CollectiveType> {};

template <class T> std::vector<T> collective_inputs(uint32_t n) {
  std::vector<T> in(n);
  for (uint32_t i = 0; i < n; ++i) {
    int v = int((i * 37 + 11) % 23) - 11;
    if constexpr (std::is_floating_point_v<T>) {
      in[i] = T(v) * T(0.37) + T(i % 5) * T(1e-3);
      if (i == 21) in[i] = std::numeric_limits<T>::quiet_NaN();
      if (i == 26) in[i] = -std::numeric_limits<T>::infinity();
    } else {
      in[i] = T(v);
    }
  }
  return in;
}

template <class T> std::vector<T> run_collectives(const KernelInfo &k, std::array<uint32_t, 2> local) {
  const uint32_t n = local[0] * local[1];
  std::vector<T> in = collective_inputs<T>(n), out(size_t(n) * 24, T(0));
  const T *pin = in.data();
  T *pout = out.data();
  const void *args[] = {&pin, &pout};
  run(k, args, Range{2, {1, 1, 1}, {local[0], local[1], 1}});
  return out;
}

template <class T> void expect_same_as_host(const Program &regions, const Program &fibers, const std::string &name) {
  const KernelInfo *compiled = regions.find_kernel("every_collective_" + name);
  const KernelInfo *host = fibers.find_kernel("every_collective_" + name);
  ASSERT_TRUE(compiled != nullptr && host != nullptr) << name;
  ASSERT_TRUE(compiled->barrier_regions) << name;
  // Rows of 32 and 16: sub-group by sub-group, every combine between two lane
  // loops; rows of 8: the dispatcher's combine over the group's sub-groups;
  // 40 work-items: a partial sub-group, the host's.
  for (const std::array<uint32_t, 2> local : {std::array<uint32_t, 2>{32, 1}, {16, 2}, {8, 4}, {40, 1}}) {
    std::vector<T> got = run_collectives<T>(*compiled, local), want = run_collectives<T>(*host, local);
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0)
          << name << ", " << local[0] << "x" << local[1] << " work-items: work-item " << i / 24 << ", result "
          << i % 24 << ": " << +got[i] << " where the host gives " << +want[i];
    }
  }
}

// One test per type: each compiles its own two kernels (about 20 s without a cache), so that a sharded run spreads
// them over its entries.
class CompiledCollectivesOfType : public CompiledCollectives {};

TEST_P(CompiledCollectivesOfType, EveryCollectiveGivesTheHostsBits) {
  const Program *regions = program_for(Scheme::Regions), *fibers = program_for(Scheme::Fibers);
  ASSERT_TRUE(regions != nullptr && fibers != nullptr);
  const std::string type = type_name(GetParam());
  switch (GetParam()) {
  case CollectiveType::Int: expect_same_as_host<int32_t>(*regions, *fibers, type); break;
  case CollectiveType::Uint: expect_same_as_host<uint32_t>(*regions, *fibers, type); break;
  case CollectiveType::Long: expect_same_as_host<int64_t>(*regions, *fibers, type); break;
  case CollectiveType::Ulong: expect_same_as_host<uint64_t>(*regions, *fibers, type); break;
  case CollectiveType::Char: expect_same_as_host<int8_t>(*regions, *fibers, type); break;
  case CollectiveType::Ushort: expect_same_as_host<uint16_t>(*regions, *fibers, type); break;
  case CollectiveType::Float: expect_same_as_host<float>(*regions, *fibers, type); break;
  case CollectiveType::Double: expect_same_as_host<double>(*regions, *fibers, type); break;
  }
}

INSTANTIATE_TEST_SUITE_P(Types, CompiledCollectivesOfType, ::testing::ValuesIn(collective_types),
                         [](const ::testing::TestParamInfo<CollectiveType> &param) { return type_name(param.param); });

// The build says, per kernel, how many collective sites the dispatcher combines itself and how many run between
// lane loops; for these kernels, all.
TEST_F(CompiledCollectives, TheBuildLogSaysEverySiteOfTheseKernelsIsCompiled) {
  for (CollectiveType type : collective_types) {
    const std::string name = type_name(type);
    std::smatch found;
    const std::regex line("kernel 'every_collective_" + name +
                          "' runs as regions, loops over its work-items between barriers and collectives; ([0-9]+) of "
                          "its ([0-9]+) collective sites are combined in compiled code when the whole work-group waits "
                          "there, ([0-9]+) of them sub-group by sub-group between lane loops when rows hold whole "
                          "sub-groups\\n");
    ASSERT_TRUE(std::regex_search(regions_log, found, line)) << name << "\n" << regions_log.substr(0, 2000);
    EXPECT_EQ(found[1], found[2]) << name;
    EXPECT_GE(std::stoi(found[1]), 23) << name;
    // Every work-item reaches every site in turn: one chain from the kernel's start goes through all of them.
    EXPECT_EQ(found[3], found[1]) << name;
  }
}

} // namespace
} // namespace zeal::cpu::test
