// zeCommandListAppendMemoryCopyRegion (2-D and 3-D, every byte checked) and zeCommandListAppendMemoryCopyFromContext.
#include "test_support.hpp"

#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace zeal::cpu::test {
namespace {

// A 2-D or 3-D array of bytes in a shared allocation: its pitches and how many bytes it holds.
struct Array {
  uint8_t *bytes;
  uint32_t row_pitch;
  uint32_t slice_pitch;
  size_t size;
};

class CopyRegion : public CpuDriver {
protected:
  // An array of `slices` slices, each `rows` rows of `row_pitch` bytes plus `slice_padding`, filled with `fill`
  // (or, when fill is negative, with a byte pattern that differs between neighbouring bytes, rows and slices).
  Array array(uint32_t row_pitch, uint32_t rows, uint32_t slices, uint32_t slice_padding, int fill) {
    uint32_t slice_pitch = row_pitch * rows + slice_padding;
    size_t size = size_t{slice_pitch} * slices;
    auto *bytes = shared_array<uint8_t>(size);
    for (size_t i = 0; i < size; ++i) bytes[i] = fill >= 0 ? uint8_t(fill) : uint8_t(i * 7 + i / 251);
    return {bytes, row_pitch, slice_pitch, size};
  }

  // What `dst` must hold after copying the region: a copy of its old bytes with the region replaced from `src`.
  static std::vector<uint8_t> expected_after(const Array &dst, const ze_copy_region_t &d, const Array &src,
                                             const ze_copy_region_t &s) {
    std::vector<uint8_t> expected(dst.bytes, dst.bytes + dst.size);
    for (uint32_t z = 0; z < std::max(d.depth, 1u); ++z)
      for (uint32_t y = 0; y < d.height; ++y)
        for (uint32_t x = 0; x < d.width; ++x)
          expected[size_t{d.originZ + z} * dst.slice_pitch + size_t{d.originY + y} * dst.row_pitch + d.originX + x] =
              src.bytes[size_t{s.originZ + z} * src.slice_pitch + size_t{s.originY + y} * src.row_pitch + s.originX +
                        x];
    return expected;
  }

  static void expect_bytes(const std::vector<uint8_t> &expected, const uint8_t *got) {
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(int(expected[i]), int(got[i])) << "byte " << i;
  }

  ze_result_t copy(ze_command_list_handle_t list, const Array &dst, const ze_copy_region_t &d, const Array &src,
                   const ze_copy_region_t &s, ze_event_handle_t signal = nullptr, uint32_t wait_count = 0,
                   ze_event_handle_t *waits = nullptr) {
    return zeCommandListAppendMemoryCopyRegion(list, dst.bytes, &d, dst.row_pitch, dst.slice_pitch, src.bytes, &s,
                                               src.row_pitch, src.slice_pitch, signal, wait_count, waits);
  }

  // Copies the region on an immediate list, waits for it, and checks every byte of `dst`.
  void copy_and_expect(const Array &dst, const ze_copy_region_t &d, const Array &src, const ze_copy_region_t &s) {
    std::vector<uint8_t> expected = expected_after(dst, d, src, s);
    ze_event_handle_t done = event();
    ZE_ASSERT_OK(copy(immediate_list(), dst, d, src, s, done));
    ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
    expect_bytes(expected, dst.bytes);
  }
};

TEST_F(CopyRegion, ASubRectangleGoesBetweenDifferentlyPitchedArraysOnAnImmediateList) {
  Array src = array(64, 16, 1, 0, -1);
  Array dst = array(48, 20, 1, 0, 0xee);
  const std::vector<uint8_t> src_before(src.bytes, src.bytes + src.size);
  ze_copy_region_t s{5, 3, 0, 20, 7, 0}, d{11, 4, 0, 20, 7, 0};
  ASSERT_NO_FATAL_FAILURE(copy_and_expect(dst, d, src, s));
  expect_bytes(src_before, src.bytes);
}

TEST_F(CopyRegion, ASubBoxGoesBetweenDifferentlyPitchedArraysOnARegularListEachTimeItRuns) {
  Array src = array(40, 12, 6, 20, -1);
  Array dst = array(33, 10, 5, 0, 0x5a);
  ze_copy_region_t s{3, 2, 1, 17, 6, 3}, d{9, 4, 2, 17, 6, 3};
  std::vector<uint8_t> expected = expected_after(dst, d, src, s);
  ze_command_list_handle_t list = regular_list();
  ZE_ASSERT_OK(copy(list, dst, d, src, s));
  ZE_ASSERT_OK(zeCommandListClose(list));
  ze_command_queue_handle_t q = make_queue();
  for (int round = 0; round < 2; ++round) {
    std::memset(dst.bytes, 0x5a, dst.size);
    ZE_ASSERT_OK(zeCommandQueueExecuteCommandLists(q, 1, &list, nullptr));
    ZE_ASSERT_OK(zeCommandQueueSynchronize(q, UINT64_MAX));
    expect_bytes(expected, dst.bytes);
  }
}

TEST_F(CopyRegion, ContiguousRowsAndDepthZeroCopyOneSliceLikeDepthOne) {
  // Width equal to both pitches: each slice is one block. originZ still selects the slice.
  Array src = array(16, 8, 3, 0, -1);
  Array dst = array(16, 8, 3, 0, 0);
  ze_copy_region_t s{0, 2, 2, 16, 5, 0}, d{0, 1, 1, 16, 5, 0};
  copy_and_expect(dst, d, src, s);
}

TEST_F(CopyRegion, TheCopyWaitsForItsEventsAndRunsAfterTheAppendReturns) {
  Array src = array(32, 8, 1, 0, -1);
  Array dst = array(32, 8, 1, 0, 0);
  ze_copy_region_t r{4, 1, 0, 8, 6, 1};
  std::vector<uint8_t> expected = expected_after(dst, r, src, r);
  ze_event_handle_t gate = event(), done = event();
  ZE_ASSERT_OK(copy(immediate_list(), dst, r, src, r, done, 1, &gate));
  EXPECT_EQ(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1'000'000));
  expect_bytes(std::vector<uint8_t>(dst.size, 0), dst.bytes);
  ZE_ASSERT_OK(zeEventHostSignal(gate));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  expect_bytes(expected, dst.bytes);
}

TEST_F(CopyRegion, InterleavedRegionsOfOneArrayThatShareNoByteAreCopied) {
  // The left half of each row to the right half of the row below: the regions' spans overlap, their bytes do not.
  Array a = array(32, 10, 1, 0, -1);
  ze_copy_region_t s{0, 0, 0, 16, 9, 0}, d{16, 1, 0, 16, 9, 0};
  copy_and_expect(a, d, a, s);
}

TEST_F(CopyRegion, RegionsSharingAByteAreOverlappingRegions) {
  Array a = array(32, 10, 4, 0, 0);
  ze_command_list_handle_t list = immediate_list();
  ze_copy_region_t s{0, 0, 0, 16, 4, 0}, d{15, 3, 0, 16, 4, 0}; // share byte (15, 3)
  EXPECT_EQ(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, copy(list, a, d, a, s));
  ze_copy_region_t s3{0, 0, 0, 8, 8, 3}, d3{7, 7, 1, 8, 8, 3}; // share byte (7, 7) of slice 1
  EXPECT_EQ(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, copy(list, a, d3, a, s3));
  ze_copy_region_t d_next{8, 0, 0, 8, 8, 3}; // beside it: no byte in common
  ze_event_handle_t done = event();
  ZE_EXPECT_OK(copy(list, a, d_next, a, s3, done));
  ZE_EXPECT_OK(zeEventHostSynchronize(done, UINT64_MAX));
}

TEST_F(CopyRegion, RandomRegionsOfOneArrayAreRefusedExactlyWhenTheyShareAByte) {
  // Against a byte-by-byte reference: the verdict, and every byte of the array after each copy made.
  constexpr size_t size = 2048;
  auto *bytes = shared_array<uint8_t>(size);
  ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                               ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
  ze_command_list_handle_t list = nullptr;
  ZE_ASSERT_OK(zeCommandListCreateImmediate(context, device, &desc, &list));
  lists.push_back(list);
  std::mt19937 random(2026);
  auto below = [&](uint32_t n) { return uint32_t(random() % n); };
  int refused = 0, copied = 0;
  for (int round = 0; round < 600; ++round) {
    const uint32_t width = 1 + below(12), height = 1 + below(6), depth = below(4), slices = std::max(depth, 1u);
    struct Side {
      size_t base;
      uint32_t row_pitch, slice_pitch;
      ze_copy_region_t region;
      size_t at(uint32_t x, uint32_t y, uint32_t z) const {
        return base + size_t{region.originZ + z} * slice_pitch + size_t{region.originY + y} * row_pitch +
               region.originX + x;
      }
    } sides[2];
    for (Side &side : sides) {
      side.base = below(300);
      side.row_pitch = width + below(10);
      side.slice_pitch = height * side.row_pitch + below(20);
      side.region = {below(4), below(3), below(2), width, height, depth};
    }
    const Side &dst = sides[0], &src = sides[1];
    if (dst.at(width - 1, height - 1, slices - 1) >= size || src.at(width - 1, height - 1, slices - 1) >= size)
      continue;
    std::vector<bool> in_dst(size);
    bool overlap = false;
    for (uint32_t z = 0; z < slices; ++z)
      for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) in_dst[dst.at(x, y, z)] = true;
    for (uint32_t z = 0; z < slices; ++z)
      for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) overlap = overlap || in_dst[src.at(x, y, z)];
    for (size_t i = 0; i < size; ++i) bytes[i] = uint8_t(i * 13 + round);
    std::vector<uint8_t> expected(bytes, bytes + size);
    for (uint32_t z = 0; z < slices; ++z)
      for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) expected[dst.at(x, y, z)] = bytes[src.at(x, y, z)];
    ze_result_t result = zeCommandListAppendMemoryCopyRegion(
        list, bytes + dst.base, &dst.region, dst.row_pitch, dst.slice_pitch, bytes + src.base, &src.region,
        src.row_pitch, src.slice_pitch, nullptr, 0, nullptr);
    if (overlap) {
      ASSERT_EQ(ZE_RESULT_ERROR_OVERLAPPING_REGIONS, result) << "round " << round;
      ++refused;
    } else {
      ASSERT_EQ(ZE_RESULT_SUCCESS, result) << "round " << round;
      expect_bytes(expected, bytes);
      ++copied;
    }
  }
  EXPECT_GT(refused, 50) << "both verdicts are exercised";
  EXPECT_GT(copied, 50);
}

TEST_F(CopyRegion, RegionsOfDifferentExtentsOrRowsWiderThanTheirPitchAreInvalidSize) {
  Array src = array(32, 8, 4, 0, 0);
  Array dst = array(32, 8, 4, 0, 0);
  ze_command_list_handle_t list = immediate_list();
  ze_copy_region_t r{0, 0, 0, 16, 4, 2};
  for (ze_copy_region_t other : {ze_copy_region_t{0, 0, 0, 15, 4, 2}, ze_copy_region_t{0, 0, 0, 16, 5, 2},
                                 ze_copy_region_t{0, 0, 0, 16, 4, 3}})
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, copy(list, dst, r, src, other)) << other.width << "x" << other.height
                                                                             << "x" << other.depth;
  Array narrow = array(8, 8, 4, 0, 0);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, copy(list, narrow, r, src, r)) << "16 bytes wide in rows of 8";
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, copy(list, dst, r, narrow, r)) << "the source side too";
  Array thin_slices{src.bytes, 32, 32 * 3, src.size}; // 4 rows of 32 bytes do not fit a slice of 96
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE, copy(list, dst, r, thin_slices, r));
  ze_copy_region_t flat{0, 0, 0, 16, 4, 1};
  ze_event_handle_t done = event();
  ZE_EXPECT_OK(copy(list, dst, flat, thin_slices, flat, done)) << "one slice needs no slice pitch";
  ZE_EXPECT_OK(zeEventHostSynchronize(done, UINT64_MAX));
}

TEST_F(CopyRegion, NullPointersAndWaitListsAreRefused) {
  Array a = array(32, 8, 1, 0, 0), b = array(32, 8, 1, 0, 0);
  ze_command_list_handle_t list = immediate_list();
  ze_copy_region_t r{0, 0, 0, 8, 8, 0};
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendMemoryCopyRegion(list, nullptr, &r, 32, 0, b.bytes, &r, 32, 0, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeCommandListAppendMemoryCopyRegion(list, a.bytes, nullptr, 32, 0,
                                                                                     b.bytes, &r, 32, 0, nullptr, 0,
                                                                                     nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendMemoryCopyRegion(list, a.bytes, &r, 32, 0, nullptr, &r, 32, 0, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER, zeCommandListAppendMemoryCopyRegion(list, a.bytes, &r, 32, 0,
                                                                                     b.bytes, nullptr, 32, 0, nullptr,
                                                                                     0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_SIZE,
            zeCommandListAppendMemoryCopyRegion(list, a.bytes, &r, 32, 0, b.bytes, &r, 32, 0, nullptr, 1, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            zeCommandListAppendMemoryCopyRegion(nullptr, a.bytes, &r, 32, 0, b.bytes, &r, 32, 0, nullptr, 0, nullptr));
}

TEST_F(CopyRegion, MemoryOfAnotherContextOfTheDriverIsCopiedFrom) {
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
  ze_context_handle_t other = nullptr;
  ZE_ASSERT_OK(zeContextCreate(driver, &desc, &other));
  ze_host_mem_alloc_desc_t host_desc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, nullptr, 0};
  constexpr size_t n = 300;
  void *theirs = nullptr;
  ZE_ASSERT_OK(zeMemAllocHost(other, &host_desc, n * sizeof(int), 0, &theirs));
  std::iota(static_cast<int *>(theirs), static_cast<int *>(theirs) + n, 17);
  auto *ours = shared_array<int>(n + 1);
  ours[n] = -5;
  ze_command_list_handle_t list = immediate_list();
  ze_event_handle_t done = event();
  const size_t bytes = n * sizeof(int);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
            zeCommandListAppendMemoryCopyFromContext(list, ours, nullptr, theirs, bytes, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendMemoryCopyFromContext(list, ours, other, nullptr, bytes, nullptr, 0, nullptr));
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NULL_POINTER,
            zeCommandListAppendMemoryCopyFromContext(list, nullptr, other, theirs, bytes, nullptr, 0, nullptr));
  ZE_ASSERT_OK(zeCommandListAppendMemoryCopyFromContext(list, ours, other, theirs, bytes, done, 0, nullptr));
  ZE_ASSERT_OK(zeEventHostSynchronize(done, UINT64_MAX));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(int(17 + i), ours[i]) << "at " << i;
  EXPECT_EQ(-5, ours[n]) << "nothing past the size";
  ZE_EXPECT_OK(zeMemFree(other, theirs));
  ZE_EXPECT_OK(zeContextDestroy(other));
}

} // namespace
} // namespace zeal::cpu::test
