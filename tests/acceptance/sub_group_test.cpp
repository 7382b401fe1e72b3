// The SYCL sub-group class test plan through zeal's public C++ API, on the device ZEAL_CPU_PROFILE selects.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kSentinel = 0xDEADBEEFu;

// A USM result list pre-filled with the sentinel, freed with its queue.
class Results {
public:
  Results(zeal::queue &q, size_t count) : q_(q), count_(count), data_(zeal::malloc_shared<uint32_t>(count, q)) {
    std::fill_n(data_, count, kSentinel);
  }
  ~Results() { zeal::free(data_, q_); }
  Results(const Results &) = delete;
  Results &operator=(const Results &) = delete;
  uint32_t *get() const { return data_; }
  const uint32_t *row(size_t item, size_t width) const { return data_ + item * width; }
  size_t unwritten() const { return static_cast<size_t>(std::count(data_, data_ + count_, kSentinel)); }

private:
  zeal::queue &q_;
  size_t count_;
  uint32_t *data_;
};

std::string join(const std::vector<uint32_t> &v) {
  std::string s;
  for (uint32_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// The plan's local range: 1023 in every dimension, halved ((n - 1) / 2 keeps it odd, so a work-group
// likely ends in an incomplete sub-group) in its largest dimension until the device can run it.
std::array<size_t, 3> plan_local_range(const zeal::device &dev) {
  const auto max_items = dev.info<std::array<size_t, 3>>(ZEAL_DEVICE_INFO_MAX_WORK_ITEM_SIZES);
  const auto max_group = dev.info<size_t>(ZEAL_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  std::array<size_t, 3> local{1023, 1023, 1023};
  for (int d = 0; d < 3; ++d)
    while (local[d] > max_items[d]) local[d] = (local[d] - 1) / 2;
  while (local[0] * local[1] * local[2] > max_group) {
    size_t &largest = *std::max_element(local.begin(), local.end());
    largest = (largest - 1) / 2;
  }
  return local;
}

TEST(SubGroupAcceptance, WithUnknownSubGroupSize_EveryWorkItemSeesConsistentSubGroupQueries) {
  constexpr size_t kQueries = 11;
  zeal::queue q;
  const zeal::device dev = q.get_device();
  const std::vector<uint32_t> sizes = dev.info_array<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES);
  ASSERT_FALSE(sizes.empty());

  const std::array<size_t, 3> local = plan_local_range(dev);
  const zeal::range<3> local_range(local[0], local[1], local[2]);
  const zeal::range<3> global_range(2 * local[0], 2 * local[1], 2 * local[2]);
  const size_t items = global_range.size();
  const size_t group_items = local_range.size();
  SCOPED_TRACE("device '" + dev.name() + "', local range {" + std::to_string(local[0]) + ", " +
               std::to_string(local[1]) + ", " + std::to_string(local[2]) + "}");

  Results out(q, items * kQueries);
  q.parallel_for(zeal::nd_range<3>(global_range, local_range), zeal::get_kernel_id("sub_group_queries"), out.get())
      .wait();

  EXPECT_EQ(out.unwritten(), 0u) << "every work-item writes every query";
  const uint32_t max_local = out.row(0, kQueries)[8];
  EXPECT_NE(std::find(sizes.begin(), sizes.end(), max_local), sizes.end())
      << "max local range " << max_local << " is not one of the device's sub-group sizes " << join(sizes);
  ASSERT_GT(max_local, 0u);

  const size_t groups = items / group_items;
  const size_t sub_groups_per_group = (group_items + max_local - 1) / max_local;
  std::vector<bool> seen(groups * sub_groups_per_group * max_local, false);
  for (size_t i = 0; i < items && !HasFailure(); ++i) {
    const uint32_t *r = out.row(i, kQueries);
    const uint32_t group_id = r[0], group_linear_id = r[1], local_id = r[2], local_linear_id = r[3];
    const uint32_t local_range_0 = r[4], local_linear_range = r[5], group_range = r[6], group_linear_range = r[7];
    const uint32_t max_local_range = r[8], leader = r[9], work_group = r[10];
    SCOPED_TRACE("work-item " + std::to_string(i));
    EXPECT_EQ(group_id, group_linear_id);
    EXPECT_LT(group_id, group_range);
    EXPECT_EQ(local_id, local_linear_id);
    EXPECT_LT(local_id, local_range_0);
    EXPECT_EQ(local_range_0, local_linear_range);
    EXPECT_LE(local_range_0, max_local_range);
    EXPECT_EQ(group_range, group_linear_range);
    EXPECT_EQ(group_range, sub_groups_per_group);
    EXPECT_EQ(max_local_range, max_local) << "max local range is the same for every work-item";
    EXPECT_EQ(leader, local_id == 0 ? 1u : 0u) << "leader iff local id 0";
    EXPECT_LT(work_group, groups);
    if (work_group < groups && group_id < sub_groups_per_group && local_id < max_local) {
      const size_t global_index = (work_group * sub_groups_per_group + group_id) * max_local + local_id;
      EXPECT_FALSE(seen[global_index]) << "global index " << global_index << " is not unique";
      seen[global_index] = true;
    }
  }
  EXPECT_EQ(static_cast<size_t>(std::count(seen.begin(), seen.end(), true)), items)
      << "one unique global index per work-item";
}

// The largest of the device's sub-group sizes up to 64, as the plan chooses; 0 if none.
uint32_t plan_sub_group_size(const std::vector<uint32_t> &sizes) {
  uint32_t chosen = 0;
  for (uint32_t s : sizes)
    if (s <= 64) chosen = std::max(chosen, s);
  return chosen;
}

// One work-group of 3*S - 1 work-items: sub-groups of S, S and S - 1.
void check_known_size(zeal::queue &q, uint32_t size) {
  constexpr size_t kQueries = 6;
  SCOPED_TRACE("required sub-group size " + std::to_string(size));
  const size_t items = 3 * size - 1;
  Results out(q, items * kQueries);
  q.parallel_for(zeal::nd_range<1>({items}, {items}), zeal::get_kernel_id("known_" + std::to_string(size)), out.get())
      .wait();
  ASSERT_EQ(out.unwritten(), 0u);
  for (size_t i = 0; i < items && !::testing::Test::HasFailure(); ++i) {
    const uint32_t *r = out.row(i, kQueries);
    SCOPED_TRACE("work-item " + std::to_string(i));
    EXPECT_EQ(r[0], i / size) << "sub-group id";
    EXPECT_EQ(r[1], i % size) << "local id";
    EXPECT_EQ(r[2], i / size < 2 ? size : size - 1) << "local range";
    EXPECT_EQ(r[3], 3u) << "group range";
    EXPECT_EQ(r[4], size) << "max local range";
    EXPECT_EQ(r[5], i % size == 0 ? 1u : 0u) << "leader";
  }
}

TEST(SubGroupAcceptance, WithKnownSubGroupSize_TheLargestSupportedSizeGivesSubGroupsOfSSAndSMinusOne) {
  zeal::queue q;
  const std::vector<uint32_t> sizes = q.get_device().info_array<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES);
  const uint32_t size = plan_sub_group_size(sizes);
  ASSERT_GE(size, 2u) << "every zeal CPU profile has a sub-group size from 2 to 64: " << join(sizes);
  check_known_size(q, size);
}

TEST(SubGroupAcceptance, WithKnownSubGroupSize_EverySupportedSizeOfTheOneImageRunsAndTheOthersAreRefused) {
  zeal::queue q;
  const zeal::device dev = q.get_device();
  const std::vector<uint32_t> sizes = dev.info_array<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES);
  size_t ran = 0;
  for (uint32_t size = 1; size <= 64; ++size) {
    const bool supported = std::find(sizes.begin(), sizes.end(), size) != sizes.end();
    const std::string name = "known_" + std::to_string(size);
    zeal::kernel k = q.get_kernel(zeal::get_kernel_id(name));
    EXPECT_EQ(k.compile_sub_group_size(), size) << name;
    if (supported) {
      if (size >= 2) check_known_size(q, size);
      ++ran;
      continue;
    }
    const std::string expected = "sub-group size " + std::to_string(size) + " required by kernel '" + name +
                                 "' is not supported by device '" + dev.name() + "' (supported: " + join(sizes) + ")";
    uint32_t unused = kSentinel;
    try {
      q.parallel_for(zeal::nd_range<1>({3 * size - 1}, {3 * size - 1}), k, &unused).wait();
      ADD_FAILURE() << name << " ran on a device without sub-group size " << size;
    } catch (const zeal::exception &e) {
      EXPECT_EQ(e.code(), zeal::errc::kernel_not_supported) << e.what();
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos)
          << "message: " << e.what() << "\nexpected it to hold: " << expected;
    }
    EXPECT_EQ(unused, kSentinel) << name << " must not run";
  }
  EXPECT_EQ(ran, sizes.size()) << "every device sub-group size (" << join(sizes) << ") has its kernel";
}

} // namespace
