// SPV_INTEL_2d_block_io on the CPU driver (issue 47): loads (plain, transformed to the packed layout, transposed),
// prefetches and stores of 2-D blocks, one sub-group of 16 per kernel, each inside the region, across its right
// and bottom edges and before its start. What each lane must hold is written here from the extension's mapping
// rules, case by case: a block as wide as the sub-group gives each lane one column, a narrower one gives
// successive rows to successive groups of lanes, a wider one gives each lane consecutive columns; loads read zero
// out of bounds and stores leave memory there alone.
#include "test_support.hpp"
#include "tests/support/intel_spirv.hpp"

#include <functional>
#include <string>
#include <vector>

namespace zeal::cpu::test {
namespace {

constexpr uint32_t kLanes = 16, kLaneBytes = 32;

// A region of `columns` x `rows` elements of `bytes` each, rows `pitch` bytes apart, each element's value made
// from its row and column.
struct Surface {
  uint32_t bytes, columns = 40, rows = 24;
  uint32_t width() const { return columns * bytes; }
  uint32_t pitch() const { return width() + 24; }
  size_t size() const { return size_t(pitch()) * rows; }
  uint64_t value(int64_t row, int64_t column) const { // zero out of bounds
    if (row < 0 || column < 0 || row >= rows || column >= columns) return 0;
    const uint32_t v = uint32_t(row * 131 + column * 7 + 1);
    if (bytes == 8) return uint64_t(v) << 32 | (v ^ 0x5a5a5a5au);
    return bytes == 4 ? v * 0x01010101u : bytes == 2 ? v & 0xffff : v & 0xff;
  }
};

// lane, slot -> the value the extension assigns it.
using Expected = std::function<uint64_t(uint32_t lane, uint32_t slot)>;

class Block2d : public CpuDriver, public ::testing::WithParamInterface<const char *> {
protected:
  ze_module_handle_t module() {
    if (module_ != nullptr) return module_;
    std::string log;
    EXPECT_EQ(ZE_RESULT_SUCCESS, build(zeal::test::with_intel_instructions(read_kernel("block_2d.spv")), module_, &log,
                                       GetParam()))
        << log;
    return module_;
  }

  // Runs `kernel` over a surface of `bytes` elements at (x, y); checks the `slots` values of `slot_bytes` each
  // lane copies out.
  void expect_load(const char *kernel, uint32_t bytes, int32_t x, int32_t y, uint32_t slots, uint32_t slot_bytes,
                   const Expected &expected) {
    SCOPED_TRACE(std::string(kernel) + " at " + std::to_string(x) + "," + std::to_string(y));
    const Surface s{bytes};
    auto *memory = shared_array<uint8_t>(s.size());
    for (uint32_t r = 0; r < s.rows; ++r)
      for (uint32_t c = 0; c < s.columns; ++c) {
        const uint64_t v = s.value(r, c);
        std::memcpy(memory + size_t(r) * s.pitch() + size_t(c) * bytes, &v, bytes);
      }
    auto *out = shared_array<uint8_t>(kLanes * kLaneBytes);
    std::memset(out, 0xcd, kLanes * kLaneBytes);
    run(kernel, memory, s, x, y, out, out);
    for (uint32_t lane = 0; lane < kLanes; ++lane)
      for (uint32_t slot = 0; slot < slots; ++slot) {
        uint64_t got = 0;
        std::memcpy(&got, out + lane * kLaneBytes + slot * slot_bytes, slot_bytes);
        EXPECT_EQ(expected(lane, slot), got) << "lane " << lane << ", value " << slot;
      }
  }

  void run(const char *kernel, uint8_t *memory, const Surface &s, int32_t x, int32_t y, uint8_t *out, uint8_t *in) {
    ze_kernel_handle_t k = kernel_of(kernel);
    ASSERT_NE(nullptr, k);
    const uint32_t width = s.width(), height = s.rows, pitch = s.pitch();
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 0, sizeof(memory), &memory));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 1, 4, &width));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 2, 4, &height));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 3, 4, &pitch));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 4, 4, &x));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 5, 4, &y));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 6, sizeof(out), &out));
    ZE_ASSERT_OK(zeKernelSetArgumentValue(k, 7, sizeof(in), &in));
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, kLanes, 1, 1));
    ZE_ASSERT_OK(launch_and_wait(k, {1, 1, 1}));
  }

  ze_kernel_handle_t kernel_of(const char *name) {
    ze_module_handle_t m = module();
    return m == nullptr ? nullptr : kernel(m, name);
  }

  // Inside, across the right and bottom edges, before the start.
  static constexpr int32_t kPlaces[][2] = {{4, 2}, {30, 18}, {-6, -3}};

  // Stores `kernel`'s block of `rows` x `columns` elements of `bytes` at each place, lane l's slot k holding the value
  // `stored(l, k)`; `element` says which lane and slot the element at (row, column) of the block comes from.
  void expect_store(const char *kernel, uint32_t bytes, uint32_t rows, uint32_t columns,
                    const std::function<std::pair<uint32_t, uint32_t>(int64_t row, int64_t column)> &element) {
    auto stored = [](uint32_t lane, uint32_t slot) { return uint32_t(0x3000 + lane * 16 + slot) * 0x00010001u; };
    for (auto [x, y] : kPlaces) {
      SCOPED_TRACE(std::string(kernel) + " at " + std::to_string(x) + "," + std::to_string(y));
      const Surface s{bytes};
      auto *memory = shared_array<uint8_t>(s.size());
      std::memset(memory, 0x5a, s.size());
      auto *in = shared_array<uint8_t>(kLanes * kLaneBytes);
      for (uint32_t lane = 0; lane < kLanes; ++lane)
        for (uint32_t slot = 0; slot < kLaneBytes / bytes; ++slot) {
          const uint32_t v = stored(lane, slot);
          std::memcpy(in + lane * kLaneBytes + slot * bytes, &v, bytes);
        }
      auto *out = shared_array<uint8_t>(kLanes * kLaneBytes);
      run(kernel, memory, s, x, y, out, in); // (and a prefetch before it)
      for (uint32_t r = 0; r < s.rows; ++r)
        for (uint32_t byte = 0; byte < s.pitch(); ++byte) {
          const int64_t row = int64_t(r) - y, column = int64_t(byte / bytes) - x;
          const bool written = byte < s.width() && row >= 0 && row < rows && column >= 0 && column < columns;
          uint8_t want = 0x5a;
          if (written) {
            const auto [lane, slot] = element(row, column);
            want = uint8_t(stored(lane, slot) >> (8 * (byte % bytes)));
          }
          ASSERT_EQ(want, memory[size_t(r) * s.pitch() + byte]) << "row " << r << ", byte " << byte;
        }
    }
  }

private:
  ze_module_handle_t module_ = nullptr;
};

TEST_P(Block2d, ABlockAsWideAsTheSubGroupGivesEachLaneAColumnBlockAfterBlock) {
  const Surface s{2};
  for (auto [x, y] : kPlaces) // 16-bit, 8 rows of 16, 2 blocks: lane l holds column l of block 0's rows, then 1's
    expect_load("load_16b_8r16x2c", 2, x, y, 16, 2, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      return s.value(y + slot % 8, x + 16 * (slot / 8) + lane);
    });
}

TEST_P(Block2d, AWiderBlockGivesEachLaneConsecutiveColumnsOfEveryRow) {
  const Surface s{1};
  for (auto [x, y] : kPlaces) // 8-bit, 4 rows of 32: lane l holds columns 2l and 2l+1 of each row
    expect_load("load_8b_4r32x1c", 1, x, y, 8, 1, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      return s.value(y + slot / 2, x + 2 * lane + slot % 2);
    });
}

TEST_P(Block2d, ANarrowerBlockGivesSuccessiveRowsToSuccessiveGroupsOfLanes) {
  const Surface s{4};
  for (auto [x, y] : kPlaces) // 32-bit, 4 rows of 8: lanes 0-7 hold rows 0 and 2, lanes 8-15 rows 1 and 3
    expect_load("load_32b_4r8x1c", 4, x, y, 2, 4, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      return s.value(y + 2 * slot + lane / 8, x + lane % 8);
    });
}

TEST_P(Block2d, EightByteElementsLoadWhole) {
  const Surface s{8};
  for (auto [x, y] : kPlaces) // 64-bit, 2 rows of 16: lane l holds column l of each row
    expect_load("load_64b_2r16x1c", 8, x, y, 2, 8, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      return s.value(y + slot, x + lane);
    });
}

TEST_P(Block2d, TransformPacksRowsOfAColumnIntoThirtyTwoBits) {
  const Surface half{2}, byte{1};
  for (auto [x, y] : kPlaces) {
    expect_load("load_transform_16b_16r16x1c", 2, x, y, 8, 4, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      return half.value(y + 2 * slot, x + lane) | half.value(y + 2 * slot + 1, x + lane) << 16;
    });
    expect_load("load_transform_8b_32r16x1c", 1, x, y, 8, 4, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      uint32_t v = 0;
      for (uint32_t q = 0; q < 4; ++q) v |= byte.value(y + 4 * slot + q, x + lane) << (8 * q);
      return v;
    });
  }
}

// 8-byte elements cannot be packed into 32 bits: such a load reads and writes nothing (the lane's data is what it
// was), and the driver neither divides by zero nor stops.
TEST_P(Block2d, ATransformOfEightByteElementsIsNotRead) {
  const Surface s{8};
  auto *memory = shared_array<uint8_t>(s.size());
  std::memset(memory, 0x11, s.size());
  auto *out = shared_array<uint8_t>(kLanes * kLaneBytes);
  run("load_transform_64b_4r16x1c", memory, s, 0, 0, out, out);
  for (size_t i = 0; i < s.size(); ++i) ASSERT_EQ(0x11, memory[i]) << "byte " << i;
}

TEST_P(Block2d, TransposeGivesEachLaneARowOfTheBlock) {
  const Surface s{4};
  for (auto [x, y] : kPlaces) // 32-bit, 16 rows of 8, transposed: lane l holds row l's 8 values
    expect_load("load_transpose_32b_16r8x1c", 4, x, y, 8, 4, [&, x = x, y = y](uint32_t lane, uint32_t slot) {
      return s.value(y + lane, x + slot);
    });
}

TEST_P(Block2d, AStoreWritesEachLanesColumnAndNothingOutOfBounds) {
  // 16-bit and 32-bit, rows of 16: lane l's slot k is row k, column l.
  expect_store("store_16b_8r16x1c", 2, 8, 16, [](int64_t row, int64_t column) {
    return std::pair(uint32_t(column), uint32_t(row));
  });
  expect_store("store_32b_4r16x1c", 4, 4, 16, [](int64_t row, int64_t column) {
    return std::pair(uint32_t(column), uint32_t(row));
  });
  // 8-bit, rows of 32: lane l's slots 2k and 2k+1 are row k, columns 2l and 2l+1.
  expect_store("store_8b_4r32x1c", 1, 4, 32, [](int64_t row, int64_t column) {
    return std::pair(uint32_t(column / 2), uint32_t(2 * row + column % 2));
  });
}

INSTANTIATE_TEST_SUITE_P(Schemes, Block2d, ::testing::Values("", "-zeal-barriers=fibers"),
                         [](const auto &scheme) { return std::string(scheme.param[0] ? "fibers" : "regions"); });

} // namespace
} // namespace zeal::cpu::test
