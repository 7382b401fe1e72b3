// Work-group barriers (fibers) and kernel-scope local memory: every work-item checked against a host reference.
#include "test_support.hpp"

#include <numeric>

namespace zeal::cpu::test {
namespace {

// Every test runs with both schemes: barrier-free regions in work-item loops
// (the default) and fibers (the fallback).
struct AsRegions {
  static constexpr const char *stem = "barriers";
  static CompileOptions options() { return {}; }
  static constexpr bool regions = true;
};
struct AsFibers {
  static constexpr const char *stem = "barriers";
  static CompileOptions options() {
    CompileOptions options;
    options.fiber_barriers = true;
    return options;
  }
  static constexpr bool regions = false;
};
template <class Scheme>
using Barriers = ProgramSuite<Scheme>;
using Schemes = ::testing::Types<AsRegions, AsFibers>;
struct SchemeName {
  template <class T>
  static std::string GetName(int) {
    return T::regions ? "regions" : "fibers";
  }
};
TYPED_TEST_SUITE(Barriers, Schemes, SchemeName);

std::vector<int> iota_values(size_t n, int first = 1) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}

TYPED_TEST(Barriers, KernelsReportTheirBarriersAndStaticLocalBytes) {
  ASSERT_NE(this->program, nullptr);
  EXPECT_TRUE(this->kernel("local_reduce").uses_barriers);
  EXPECT_TRUE(this->kernel("barrier_in_call").uses_barriers);
  EXPECT_FALSE(this->kernel("no_barrier").uses_barriers);
  for (const char *name : {"local_reduce", "barrier_in_call", "rotate_rounds", "nested_loops", "private_array_across",
                           "divergent_sub_group_barrier"}) {
    EXPECT_EQ(this->kernel(name).barrier_regions, TypeParam::regions) << name;
  }
  EXPECT_FALSE(this->kernel("no_barrier").barrier_regions);
  // Private memory: the array each work-item keeps across the barrier; none without one.
  EXPECT_GE(this->kernel("private_array_across").private_bytes, 8u * sizeof(int));
  EXPECT_EQ(this->kernel("no_barrier").private_bytes, 0u);
  EXPECT_EQ(this->kernel("local_reduce").static_local_bytes, 0u);
  EXPECT_EQ(this->kernel("rotate_rounds").static_local_bytes, 1024u * sizeof(int));
  EXPECT_EQ(this->kernel("uniform_branch").static_local_bytes, 256u * sizeof(int));
  // Two variables of one kernel: 512 ints, then 512 shorts.
  EXPECT_EQ(this->kernel("mirror_3d").static_local_bytes, 512u * sizeof(int) + 512u * sizeof(short));
}

// A tree reduction per group, for group sizes from 1 to 1024 (odd ones too).
TYPED_TEST(Barriers, LocalReductionForGroupSizesFrom1To1024) {
  ASSERT_NE(this->program, nullptr);
  for (uint32_t local : {1u, 2u, 3u, 7u, 64u, 100u, 255u, 256u, 1000u, 1024u}) {
    SCOPED_TRACE(::testing::Message() << "group size " << local);
    const uint32_t groups = 5;
    std::vector<int> in = iota_values(size_t(local) * groups, -50), out(groups, -1), scratch(local);
    int *pin = in.data(), *pout = out.data(), *pscratch = scratch.data();
    const void *args[] = {&pin, &pout, &pscratch};
    run(this->kernel("local_reduce"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t g = 0; g < groups; ++g) {
      ASSERT_EQ(out[g], std::accumulate(in.begin() + g * local, in.begin() + (g + 1) * local, 0)) << "group " << g;
    }
  }
}

TYPED_TEST(Barriers, BarriersInsideALoopKeepEveryRoundInStep) {
  ASSERT_NE(this->program, nullptr);
  for (uint32_t local : {1u, 13u, 256u, 1024u}) {
    const uint32_t groups = 3;
    const int rounds = 9;
    std::vector<int> in = iota_values(size_t(local) * groups, 0), data = in;
    int *pdata = data.data();
    int rounds_arg = rounds;
    const void *args[] = {&pdata, &rounds_arg};
    run(this->kernel("rotate_rounds"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t g = 0; g < groups; ++g) {
      for (uint32_t l = 0; l < local; ++l) {
        ASSERT_EQ(data[g * local + l], in[g * local + (l + rounds) % local] + rounds) << "size " << local << " item " << l;
      }
    }
  }
}

TYPED_TEST(Barriers, ABarrierInAUniformBranchTakenOrNot) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 256, groups = 2;
  for (int mirror : {1, 0}) {
    std::vector<int> in = iota_values(local * groups), data = in;
    int *pdata = data.data();
    const void *args[] = {&pdata, &mirror};
    run(this->kernel("uniform_branch"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t i = 0; i < local * groups; ++i) {
      int expected = mirror ? in[i / local * local + (local - 1 - i % local)] : -in[i];
      ASSERT_EQ(data[i], expected) << "mirror " << mirror << " item " << i;
    }
  }
}

// Work-item (x, y, z) of a launch of `range`: its global coordinates and ids within its group.
struct Item {
  uint64_t x, y, z, lx, ly, lz, local_linear;
};

// Runs `k` over `range` with in = 1, 2, ... (one int per work-item) and calls check(item, at, in, out) for every
// work-item, where at(x, y, z) is the index of global coordinates in the buffers.
template <class Check>
void run_and_check_items(const KernelInfo &k, const Range &range, Check check) {
  uint32_t per_group = range.local[0] * range.local[1] * range.local[2];
  uint32_t total = per_group * range.groups[0] * range.groups[1] * range.groups[2];
  std::vector<int> in = iota_values(total, 1), out(total, 0);
  int *pin = in.data(), *pout = out.data();
  const void *args[] = {&pin, &pout};
  run(k, args, range);
  uint64_t global[3];
  for (int d = 0; d < 3; ++d) global[d] = uint64_t(range.groups[d]) * range.local[d];
  auto at = [&](uint64_t x, uint64_t y, uint64_t z) { return (z * global[1] + y) * global[0] + x; };
  for (uint64_t z = 0; z < global[2]; ++z) {
    for (uint64_t y = 0; y < global[1]; ++y) {
      for (uint64_t x = 0; x < global[0]; ++x) {
        uint64_t lx = x % range.local[0], ly = y % range.local[1], lz = z % range.local[2];
        Item item{x, y, z, lx, ly, lz, (lz * range.local[1] + ly) * range.local[0] + lx};
        check(item, at, in, out);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

void check_mirror(const KernelInfo &k, const Range &range) {
  const uint64_t per_group = uint64_t(range.local[0]) * range.local[1] * range.local[2];
  run_and_check_items(k, range, [&](const Item &i, auto at, const std::vector<int> &in, const std::vector<int> &out) {
    uint64_t mirror = per_group - 1 - i.local_linear;
    uint64_t mx = mirror % range.local[0], my = mirror / range.local[0] % range.local[1];
    uint64_t mz = mirror / (range.local[0] * range.local[1]);
    uint64_t source = at(i.x - i.lx + mx, i.y - i.ly + my, i.z - i.lz + mz);
    ASSERT_EQ(out[at(i.x, i.y, i.z)], in[source] * 1000 + int(mirror)) << i.x << "," << i.y << "," << i.z;
  });
}

TYPED_TEST(Barriers, KernelScopeLocalsIn1D2DAnd3DGroups) {
  ASSERT_NE(this->program, nullptr);
  const KernelInfo &k = this->kernel("mirror_3d");
  check_mirror(k, Range{1, {3, 1, 1}, {8, 1, 1}});
  check_mirror(k, Range{2, {2, 3, 1}, {4, 5, 1}});
  check_mirror(k, Range{3, {2, 2, 2}, {8, 4, 2}});
  check_mirror(k, Range{3, {1, 1, 1}, {8, 8, 8}});
  check_mirror(k, Range{3, {3, 1, 2}, {1, 1, 1}});
}

// A region with a loop that only x = 0 runs (a row's sum after a barrier): rows of 1, 2, odd and 16 work-items.
void check_row_leaders(const KernelInfo &k, const Range &range) {
  run_and_check_items(k, range, [&](const Item &i, auto at, const std::vector<int> &in, const std::vector<int> &out) {
    int sum = 0;
    if (i.lx == 0) {
      for (uint64_t x = 0; x < range.local[0]; ++x) sum += in[at(i.x + x, i.y, i.z)];
    }
    ASSERT_EQ(out[at(i.x, i.y, i.z)], sum * 1000 + in[at(i.x, i.y, i.z)] * 10 + int(i.local_linear % 10))
        << i.x << "," << i.y << "," << i.z;
  });
}

TYPED_TEST(Barriers, OnlyTheFirstWorkItemOfEachRowRunsALoop) {
  ASSERT_NE(this->program, nullptr);
  const KernelInfo &k = this->kernel("row_leaders");
  check_row_leaders(k, Range{1, {3, 1, 1}, {16, 1, 1}});
  check_row_leaders(k, Range{1, {2, 1, 1}, {1, 1, 1}});
  check_row_leaders(k, Range{2, {2, 2, 1}, {2, 3, 1}});
  check_row_leaders(k, Range{3, {1, 2, 2}, {1, 4, 3}});
  check_row_leaders(k, Range{3, {2, 1, 2}, {7, 2, 3}});
}

TYPED_TEST(Barriers, ABarrierInANonInlinedFunction) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 32, groups = 4;
  std::vector<int> in = iota_values(local * groups), data = in, slots(local);
  int *pdata = data.data(), *pslots = slots.data();
  const void *args[] = {&pdata, &pslots};
  run(this->kernel("barrier_in_call"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
  for (uint32_t i = 0; i < local * groups; ++i) {
    ASSERT_EQ(data[i], in[i / local * local + (local - 1 - i % local)] + 1) << "item " << i;
  }
}

TYPED_TEST(Barriers, GroupsWithBarriersOnTwoThreadsAtOnce) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 128, groups = 64;
  std::vector<int> in = iota_values(local * groups), data = in;
  int *pdata = data.data();
  int rounds = 5;
  const void *args[] = {&pdata, &rounds};
  run_on_threads(this->kernel("rotate_rounds"), args, Range{1, {groups, 1, 1}, {local, 1, 1}}, 2);
  for (uint32_t i = 0; i < local * groups; ++i) {
    ASSERT_EQ(data[i], in[i / local * local + (i % local + rounds) % local] + rounds) << "item " << i;
  }
}

TYPED_TEST(Barriers, ABarrierFreeKernelBesideThemStillRuns) {
  ASSERT_NE(this->program, nullptr);
  std::vector<int> data = iota_values(64);
  int *pdata = data.data();
  const void *args[] = {&pdata};
  run(this->kernel("no_barrier"), args, Range{1, {4, 1, 1}, {16, 1, 1}});
  for (int i = 0; i < 64; ++i) ASSERT_EQ(data[i], 2 * (i + 1));
}

TYPED_TEST(Barriers, ManyBarriersInALoop) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 64;
  std::vector<int> out(local * 2, 0);
  int *pout = out.data();
  int count = 100;
  const void *args[] = {&pout, &count};
  run(this->kernel("barrier_loop"), args, Range{1, {2, 1, 1}, {local, 1, 1}});
  // slot[0] is work-item 0's value, which doubles each round from 0: it stays 0.
  for (uint32_t i = 0; i < local * 2; ++i) ASSERT_EQ(out[i], int(i % local)) << "item " << i;
}

// A private array written before a barrier and read after it: one copy per work-item.
TYPED_TEST(Barriers, APrivateArrayLivesAcrossABarrier) {
  ASSERT_NE(this->program, nullptr);
  for (uint32_t local : {1u, 5u, 64u, 300u}) {
    const uint32_t groups = 3, total = local * groups;
    std::vector<int> in = iota_values(total, -7), data = in, tmp(local);
    int *pdata = data.data(), *ptmp = tmp.data();
    const void *args[] = {&pdata, &ptmp};
    run(this->kernel("private_array_across"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t i = 0; i < total; ++i) {
      uint32_t l = i % local, mirror = local - 1 - l;
      int expected = in[i - l + mirror] * int(mirror % 8 + 1) + 36 * in[i];
      ASSERT_EQ(data[i], expected) << "size " << local << " item " << i;
    }
  }
}

// Barriers in an inner loop that every work-item leaves early the same way.
TYPED_TEST(Barriers, BarriersInNestedLoopsWithAUniformContinue) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 24, groups = 2;
  const int outer = 3, inner = 5;
  std::vector<int> in = iota_values(local * groups, 10), data = in, tmp(local);
  int *pdata = data.data(), *ptmp = tmp.data();
  int outer_arg = outer, inner_arg = inner;
  const void *args[] = {&pdata, &outer_arg, &inner_arg, &ptmp};
  run(this->kernel("nested_loops"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
  for (uint32_t g = 0; g < groups; ++g) {
    std::vector<int> v(in.begin() + g * local, in.begin() + (g + 1) * local);
    for (int i = 0; i < outer; ++i) {
      for (int j = 0; j < inner; ++j) {
        if (j % 3 == 2) continue;
        std::vector<int> next(local);
        for (uint32_t l = 0; l < local; ++l) next[l] = v[(l + 1) % local] + i;
        v = next;
      }
    }
    for (uint32_t l = 0; l < local; ++l) ASSERT_EQ(data[g * local + l], v[l]) << "group " << g << " item " << l;
  }
}

TYPED_TEST(Barriers, AStructArgumentIsReadOnBothSidesOfABarrier) {
  ASSERT_NE(this->program, nullptr);
  struct Params {
    int scale, bias;
  } params{3, -11};
  const uint32_t local = 40, groups = 2;
  std::vector<int> in = iota_values(local * groups), data = in, tmp(local);
  int *pdata = data.data(), *ptmp = tmp.data();
  const void *args[] = {&pdata, &params, &ptmp};
  run(this->kernel("struct_across"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
  for (uint32_t i = 0; i < local * groups; ++i) {
    ASSERT_EQ(data[i], in[i / local * local + (local - 1 - i % local)] * 3 - 11) << "item " << i;
  }
}

TYPED_TEST(Barriers, AFunctionWithABarrierCalledTwice) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 33, groups = 3;
  std::vector<int> in = iota_values(local * groups), data = in, slots(local);
  int *pdata = data.data(), *pslots = slots.data();
  const void *args[] = {&pdata, &pslots};
  run(this->kernel("exchange_twice"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
  for (uint32_t i = 0; i < local * groups; ++i) ASSERT_EQ(data[i], 2 * in[i]) << "item " << i;
}

TYPED_TEST(Barriers, AUniformEarlyReturnSkipsTheBarrier) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 16, groups = 2;
  for (int stop : {1, 0}) {
    std::vector<int> in = iota_values(local * groups), data = in, tmp(local);
    int *pdata = data.data(), *ptmp = tmp.data();
    const void *args[] = {&pdata, &stop, &ptmp};
    run(this->kernel("early_return"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t i = 0; i < local * groups; ++i) {
      ASSERT_EQ(data[i], stop ? in[i] : in[i / local * local + (local - 1 - i % local)]) << "stop " << stop;
    }
  }
}

// A value computed from memory before the barrier (so kept, not recomputed) in 3-D groups.
TYPED_TEST(Barriers, AValueKeptAcrossABarrierIn3DGroups) {
  ASSERT_NE(this->program, nullptr);
  for (Range range : {Range{3, {2, 2, 2}, {4, 3, 2}}, Range{2, {3, 2, 1}, {5, 7, 1}}, Range{3, {1, 1, 1}, {1, 1, 1}}}) {
    uint32_t per_group = range.local[0] * range.local[1] * range.local[2];
    uint32_t total = per_group * range.groups[0] * range.groups[1] * range.groups[2];
    std::vector<int> in = iota_values(total, 5), out(total, 0), tmp(per_group);
    int *pin = in.data(), *pout = out.data(), *ptmp = tmp.data();
    const void *args[] = {&pin, &pout, &ptmp};
    run(this->kernel("neighbour_3d"), args, range);
    uint64_t global[3];
    for (int d = 0; d < 3; ++d) global[d] = uint64_t(range.groups[d]) * range.local[d];
    for (uint64_t z = 0; z < global[2]; ++z) {
      for (uint64_t y = 0; y < global[1]; ++y) {
        for (uint64_t x = 0; x < global[0]; ++x) {
          uint64_t g = (z * global[1] + y) * global[0] + x;
          uint64_t lx = x % range.local[0], ly = y % range.local[1], lz = z % range.local[2];
          uint64_t lin = (lz * range.local[1] + ly) * range.local[0] + lx, next = (lin + 1) % per_group;
          uint64_t nx = next % range.local[0], ny = next / range.local[0] % range.local[1];
          uint64_t nz = next / (range.local[0] * range.local[1]);
          uint64_t neighbour = ((z - lz + nz) * global[1] + (y - ly + ny)) * global[0] + (x - lx + nx);
          ASSERT_EQ(out[g], 3 * in[g] + 3 * in[neighbour]) << x << "," << y << "," << z;
        }
      }
    }
  }
}

// A sub-group barrier reaches the driver as a work-group barrier (the
// translator drops the scope); sub-groups that skip it must not stop the
// others from passing it.
TYPED_TEST(Barriers, OnlyOneSubGroupReachesASubGroupBarrier) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 24, groups = 2; // sub-groups of 8
  std::vector<int> in = iota_values(local * groups), data = in, tmp(local);
  int *pdata = data.data(), *ptmp = tmp.data();
  const void *args[] = {&pdata, &ptmp};
  run(this->kernel("divergent_sub_group_barrier"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
  for (uint32_t i = 0; i < local * groups; ++i) {
    uint32_t l = i % local;
    ASSERT_EQ(data[i], l < 8 ? in[i - l + (7 - l)] : -in[i]) << "item " << i;
  }
}

// A division guarded by a test of its divisor, its quotient used after a
// barrier: computing it once for the group must not move it out of the test.
TYPED_TEST(Barriers, AGuardedDivisionIsNotComputedWhereItsGuardFailed) {
  ASSERT_NE(this->program, nullptr);
  const uint32_t local = 13, groups = 2;
  for (int divisor : {0, 7, -3}) {
    SCOPED_TRACE(::testing::Message() << "divisor " << divisor);
    std::vector<int> in = iota_values(local * groups, -4), data = in, tmp(local);
    int *pdata = data.data(), *ptmp = tmp.data();
    const void *args[] = {&pdata, &divisor, &ptmp};
    run(this->kernel("guarded_division"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t i = 0; i < local * groups; ++i) {
      uint32_t l = i % local;
      ASSERT_EQ(data[i], divisor == 0 ? -1 : in[i - l + (l + 1) % local] + 1000 / divisor) << "item " << i;
    }
  }
}

// Private values of 1 to 16 bytes and of several alignments kept across
// barriers, for group sizes that are and are not multiples of a vector.
TYPED_TEST(Barriers, PrivateValuesOfEverySizeLiveAcrossBarriers) {
  ASSERT_NE(this->program, nullptr);
  for (uint32_t local : {1u, 3u, 8u, 13u, 64u, 257u}) {
    SCOPED_TRACE(::testing::Message() << "group size " << local);
    const uint32_t groups = 3, total = local * groups;
    std::vector<int> in = iota_values(total, -20), data = in, tmp(local);
    int *pdata = data.data(), *ptmp = tmp.data();
    const void *args[] = {&pdata, &ptmp};
    run(this->kernel("mixed_private_across"), args, Range{1, {groups, 1, 1}, {local, 1, 1}});
    for (uint32_t i = 0; i < total; ++i) {
      const int x = in[i];
      const int own = int(char(x)) + int(char(x >> 1)) + int(char(x >> 2)) + int(short(x * 3)) +
                      int(float(x) + float(x) * 0.5f + float(x) * 0.25f) + int(double(x) * 1.5) + int(char(x & 0x7f)) +
                      x * 5;
      // Shifted left, then read one to the right: each item ends with its own value.
      ASSERT_EQ(data[i], own + x * 1000) << "item " << i;
    }
  }
}

// The kernels the compiler used to refuse now run.
TEST(BarrierKernelsOnceRefused, ReverseInGroupThroughALocalArgument) {
  auto program = build("barrier");
  ASSERT_NE(program, nullptr);
  std::vector<int> in = iota_values(48), out(48), tmp(16);
  int *pin = in.data(), *pout = out.data(), *ptmp = tmp.data();
  const void *args[] = {&pin, &pout, &ptmp};
  run(*program->find_kernel("reverse_in_group"), args, Range{1, {3, 1, 1}, {16, 1, 1}});
  for (int i = 0; i < 48; ++i) ASSERT_EQ(out[i], in[i / 16 * 16 + 15 - i % 16]) << "item " << i;
}

TEST(BarrierKernelsOnceRefused, AKernelScopeLocalVariable) {
  auto program = build("local_variable");
  ASSERT_NE(program, nullptr);
  const KernelInfo &k = *program->find_kernel("local_variable");
  EXPECT_EQ(k.static_local_bytes, 64u * sizeof(int));
  // Without a barrier, each work-item reads a slot it wrote itself only at the
  // mirror position; with one work-item per group that is its own slot 63.
  std::vector<int> in = iota_values(64), out(64, 0);
  int *pin = in.data(), *pout = out.data();
  const void *args[] = {&pin, &pout};
  run(k, args, Range{1, {1, 1, 1}, {64, 1, 1}});
  EXPECT_EQ(out[63], in[0]) << "work-items run in order, so item 63 sees item 0's store";
}

} // namespace
} // namespace zeal::cpu::test
