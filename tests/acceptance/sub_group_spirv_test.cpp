// The cl_intel_spirv_subgroups environment through zeal's public C++ API: every type it lists for the four
// SubgroupShuffleINTEL instructions and for buffer block reads and writes, at every sub-group size the
// device has (kernels from sg_shuffle*.cl and sg_block_io.cl), against references computed per sub-group.
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

namespace {

// The sizes the kernels are compiled for; a device runs those of them it has.
constexpr uint32_t kCompiledSizes[] = {4, 8, 16, 32, 64};

std::vector<uint32_t> sizes_to_run(const zeal::device &dev) {
  const std::vector<uint32_t> device_sizes = dev.info_array<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES);
  std::vector<uint32_t> sizes;
  for (uint32_t s : kCompiledSizes)
    if (std::find(device_sizes.begin(), device_sizes.end(), s) != device_sizes.end()) sizes.push_back(s);
  return sizes;
}

// A USM buffer of bytes, 64-byte aligned (block writes need 16).
class Bytes {
public:
  Bytes(zeal::queue &q, size_t size, uint8_t fill)
      : q_(q), size_(size), data_(static_cast<uint8_t *>(zeal::malloc_shared(size, q, 64))) {
    std::memset(data_, fill, size);
  }
  ~Bytes() { zeal::free(data_, q_); }
  Bytes(const Bytes &) = delete;
  Bytes &operator=(const Bytes &) = delete;
  uint8_t *get() const { return data_; }
  size_t size() const { return size_; }

private:
  zeal::queue &q_;
  size_t size_;
  uint8_t *data_;
};

// A value per scalar that survives any bit-preserving move, distinct for nearby indices: integers,
// finite floats, halves and doubles (no NaN, whose payload a conversion could change).
enum class Kind { integer, floating, half, double_ };

void put_scalar(uint8_t *at, Kind kind, size_t bytes, uint64_t index) {
  switch (kind) {
  case Kind::integer: {
    const uint64_t v = (index + 1) * 0x9E3779B97F4A7C15ull;
    std::memcpy(at, &v, bytes); // the low bytes, little-endian
    return;
  }
  case Kind::floating: {
    const float v = static_cast<float>(index) * 0.25f - 100.0f;
    std::memcpy(at, &v, sizeof v);
    return;
  }
  case Kind::half: {
    const uint16_t v = static_cast<uint16_t>(0x1000 + index % 0x5000); // finite, exponent below 0x1f
    std::memcpy(at, &v, sizeof v);
    return;
  }
  case Kind::double_: {
    const double v = static_cast<double>(index) * 0.5 + 0.125;
    std::memcpy(at, &v, sizeof v);
    return;
  }
  }
}

// ---- Shuffles -------------------------------------------------------------------------------------------

struct ShuffleType {
  const char *name; // the OpenCL C type, as in the kernel names shuffle_<name>_<size>
  Kind kind;
  size_t scalar;    // bytes
  size_t components;
  // A 3-vector occupies the space of a 4-vector; only its 3 components are compared.
  size_t stride() const { return scalar * (components == 3 ? 4 : components); }
  size_t used() const { return scalar * components; }
};

std::ostream &operator<<(std::ostream &os, const ShuffleType &t) { return os << t.name; }

// Every type the spec lists for the shuffles: 32-bit float and int scalars and 2/3/4/8/16-vectors
// (uint as a scalar too), 64-bit int scalars, half and double scalars, 16-bit int scalars and vectors.
const ShuffleType kShuffleTypes[] = {
    {"float", Kind::floating, 4, 1},  {"float2", Kind::floating, 4, 2}, {"float3", Kind::floating, 4, 3},
    {"float4", Kind::floating, 4, 4}, {"float8", Kind::floating, 4, 8}, {"float16", Kind::floating, 4, 16},
    {"int", Kind::integer, 4, 1},     {"int2", Kind::integer, 4, 2},    {"int3", Kind::integer, 4, 3},
    {"int4", Kind::integer, 4, 4},    {"int8", Kind::integer, 4, 8},    {"int16", Kind::integer, 4, 16},
    {"uint", Kind::integer, 4, 1},    {"long", Kind::integer, 8, 1},    {"ulong", Kind::integer, 8, 1},
    {"half", Kind::half, 2, 1},       {"double", Kind::double_, 8, 1},  {"short", Kind::integer, 2, 1},
    {"short2", Kind::integer, 2, 2},  {"short3", Kind::integer, 2, 3},  {"short4", Kind::integer, 2, 4},
    {"short8", Kind::integer, 2, 8},  {"short16", Kind::integer, 2, 16}, {"ushort", Kind::integer, 2, 1},
};

// Which input element each output of sg_shuffle.cl's kernels takes, for the work-item at `lane` of a
// sub-group of `s` starting at element `base`: x is in[0, n), y is in[n, 2n); delta 3, xor mask s - 1.
size_t shuffle_source(int op, size_t base, size_t lane, size_t s, size_t n) {
  switch (op) {
  case 0: return base + (lane * 5 + 3) % s;                                  // shuffle
  case 1: return lane + 3 < s ? base + lane + 3 : n + base + lane + 3 - s;  // down: x, then y
  case 2: return lane >= 3 ? n + base + lane - 3 : base + s + lane - 3;     // up: y, x before it
  default: return base + (lane ^ (s - 1));                                   // xor
  }
}

class ShuffleAcceptance : public ::testing::TestWithParam<ShuffleType> {};

TEST_P(ShuffleAcceptance, EveryShuffleAtEverySupportedSubGroupSizeMatchesThePerSubGroupReference) {
  const ShuffleType &t = GetParam();
  zeal::queue q;
  const zeal::device dev = q.get_device();
  if (t.kind == Kind::double_ && dev.info<uint32_t>(ZEAL_DEVICE_INFO_HAS_FP64) == 0)
    GTEST_SKIP() << "device '" << dev.name() << "' has no fp64";
  if (t.kind == Kind::half && dev.info<uint32_t>(ZEAL_DEVICE_INFO_HAS_FP16) == 0)
    GTEST_SKIP() << "device '" << dev.name() << "' has no fp16";
  static const char *const kOps[] = {"intel_sub_group_shuffle", "intel_sub_group_shuffle_down",
                                     "intel_sub_group_shuffle_up", "intel_sub_group_shuffle_xor"};
  const std::vector<uint32_t> sizes = sizes_to_run(dev);
  ASSERT_FALSE(sizes.empty()) << "device '" << dev.name() << "' has none of the compiled sub-group sizes";
  for (uint32_t size : sizes) {
    const std::string name = "shuffle_" + std::string(t.name) + "_" + std::to_string(size);
    SCOPED_TRACE(name);
    zeal::kernel k = q.get_kernel(zeal::get_kernel_id(name));
    const size_t s = k.compile_sub_group_size();
    ASSERT_EQ(s, size);
    const size_t n = 4 * s; // two work-groups of two full sub-groups
    Bytes in(q, 2 * n * t.stride(), 0), out(q, 4 * n * t.stride(), 0xA5);
    for (size_t e = 0; e < 2 * n; ++e)
      for (size_t c = 0; c < t.components; ++c)
        put_scalar(in.get() + e * t.stride() + c * t.scalar, t.kind, t.scalar, e * t.components + c);
    q.parallel_for(zeal::nd_range<1>({n}, {2 * s}), k, in.get(), out.get()).wait();
    for (size_t i = 0; i < n && !HasFailure(); ++i)
      for (int op = 0; op < 4; ++op) {
        const size_t from = shuffle_source(op, i - i % s, i % s, s, n);
        EXPECT_EQ(std::memcmp(out.get() + (4 * i + op) * t.stride(), in.get() + from * t.stride(), t.used()), 0)
            << kOps[op] << " of work-item " << i << " (lane " << i % s << ") should be input element " << from;
      }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryListedType, ShuffleAcceptance, ::testing::ValuesIn(kShuffleTypes),
                         [](const auto &param_info) { return std::string(param_info.param.name); });

// ---- Block reads and writes -----------------------------------------------------------------------------

struct BlockType {
  const char *name; // as in the kernel names block_<name>_<size>
  size_t scalar;    // bytes
  size_t components;
};

std::ostream &operator<<(std::ostream &os, const BlockType &t) { return os << t.name; }

const BlockType kBlockTypes[] = {
    {"uint", 4, 1},   {"uint2", 4, 2},   {"uint4", 4, 4},   {"uint8", 4, 8},
    {"ushort", 2, 1}, {"ushort2", 2, 2}, {"ushort4", 2, 4}, {"ushort8", 2, 8},
};

class BlockIoAcceptance : public ::testing::TestWithParam<BlockType> {};

TEST_P(BlockIoAcceptance, ABlockReadGivesComponentJOfLaneLElementJTimesSPlusLAndABlockWriteStoresItBack) {
  const BlockType &t = GetParam();
  zeal::queue q;
  const std::vector<uint32_t> sizes = sizes_to_run(q.get_device());
  ASSERT_FALSE(sizes.empty());
  for (uint32_t size : sizes) {
    const std::string name = "block_" + std::string(t.name) + "_" + std::to_string(size);
    SCOPED_TRACE(name);
    zeal::kernel k = q.get_kernel(zeal::get_kernel_id(name));
    const size_t s = k.compile_sub_group_size();
    ASSERT_EQ(s, size);
    const size_t n = 4 * s, sub_groups = 4, block = s * t.components;
    const size_t stride = (block + 7) & ~size_t{7}; // elements, as the kernel computes it
    Bytes in(q, sub_groups * stride * t.scalar, 0), out(q, sub_groups * stride * t.scalar, 0xA5),
        items(q, n * t.components * t.scalar, 0xA5);
    for (size_t e = 0; e < sub_groups * stride; ++e) put_scalar(in.get() + e * t.scalar, Kind::integer, t.scalar, e);
    q.parallel_for(zeal::nd_range<1>({n}, {2 * s}), k, in.get(), out.get(), items.get()).wait();
    auto element = [&](const Bytes &b, size_t index) { return b.get() + index * t.scalar; };
    for (size_t g = 0; g < sub_groups && !HasFailure(); ++g)
      for (size_t l = 0; l < s; ++l)
        for (size_t j = 0; j < t.components; ++j) {
          const size_t from = g * stride + j * s + l;
          EXPECT_EQ(std::memcmp(element(items, (g * s + l) * t.components + j), element(in, from), t.scalar), 0)
              << "block read: sub-group " << g << ", lane " << l << ", component " << j << " should be element "
              << from;
        }
    const std::vector<uint8_t> untouched(t.scalar, 0xA5);
    for (size_t g = 0; g < sub_groups && !HasFailure(); ++g)
      for (size_t e = 0; e < stride; ++e) {
        const size_t at = g * stride + e;
        EXPECT_EQ(std::memcmp(element(out, at), e < block ? element(in, at) : untouched.data(), t.scalar), 0)
            << "block write: element " << at << (e < block ? " should be written back" : " is past the block");
      }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryListedType, BlockIoAcceptance, ::testing::ValuesIn(kBlockTypes),
                         [](const auto &param_info) { return std::string(param_info.param.name); });

} // namespace
