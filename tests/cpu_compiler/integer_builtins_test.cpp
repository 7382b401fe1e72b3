// Integer built-ins, table-driven: every result of every work-item against a host reference, for each type and int4.
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <limits>
#include <type_traits>

namespace zeal::cpu::test {
namespace {

__extension__ typedef __int128 Wide;

template <class T>
T saturate(Wide value) {
  return T(std::clamp<Wide>(value, Wide(std::numeric_limits<T>::min()), Wide(std::numeric_limits<T>::max())));
}

template <class T>
using Unsigned = std::make_unsigned_t<T>;

template <class T>
T mul_hi(T x, T y) {
  constexpr int bits = sizeof(T) * 8;
  if constexpr (bits == 64 && std::is_unsigned_v<T>) {
    __extension__ typedef unsigned __int128 UWide;
    return T((UWide(x) * UWide(y)) >> 64);
  } else {
    return T((Wide(x) * Wide(y)) >> bits);
  }
}

template <class T>
T rotate(T x, T y) {
  constexpr unsigned bits = sizeof(T) * 8;
  Unsigned<T> v = Unsigned<T>(x), n = Unsigned<T>(Unsigned<T>(y) % bits);
  return n == 0 ? x : T(Unsigned<T>(v << n) | Unsigned<T>(v >> (bits - n)));
}

template <class T>
T mad_sat(T x, T y, T z) {
  if constexpr (sizeof(T) == 8 && std::is_unsigned_v<T>) {
    __extension__ typedef unsigned __int128 UWide;
    UWide product = UWide(x) * UWide(y);
    UWide sum = product + z;
    bool overflow = (x != 0 && product / x != y) || sum < product || sum > UWide(std::numeric_limits<T>::max());
    return overflow ? std::numeric_limits<T>::max() : T(sum);
  } else if constexpr (sizeof(T) == 8) {
    Wide product = Wide(x) * Wide(y); // fits: |x * y| < 2^126
    return saturate<T>(product + z);
  } else {
    return saturate<T>(Wide(x) * Wide(y) + z);
  }
}

// The host reference, in the order integer_builtins.cl writes its results.
template <class T>
std::array<T, 16> reference(T x, T y, T z) {
  using U = Unsigned<T>;
  constexpr int bits = sizeof(T) * 8;
  T lo = std::min(y, z), hi = std::max(y, z);
  return {
      T(U(x < 0 ? U(-Wide(x)) : U(x))),
      T(U(Wide(std::max(x, y)) - Wide(std::min(x, y)))),
      saturate<T>(Wide(x) + Wide(y)),
      saturate<T>(Wide(x) - Wide(y)),
      T((Wide(x) + Wide(y)) >> 1),
      T((Wide(x) + Wide(y) + 1) >> 1),
      T(std::countl_zero(U(x))),
      T(std::countr_zero(U(x))),
      T(std::popcount(U(x))),
      mul_hi(x, y),
      T(U(U(mul_hi(x, y)) + U(z))),
      rotate(x, y),
      std::min(x, y),
      std::max(x, y),
      std::min(std::max(x, lo), hi),
      mad_sat(x, y, z),
  };
  static_assert(bits > 0);
}

const char *const names[16] = {"abs",  "abs_diff", "add_sat", "sub_sat", "hadd",   "rhadd",  "clz", "ctz",
                               "popcount", "mul_hi", "mad_hi", "rotate", "min", "max", "clamp", "mad_sat"};

// Edge values of T plus a deterministic spread.
template <class T>
std::vector<T> inputs(size_t n, uint64_t seed) {
  std::vector<T> values = {T(0), T(1), T(-1), std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(2),
                           T(std::numeric_limits<T>::max() / 2), T(std::numeric_limits<T>::min() / 2)};
  uint64_t state = seed;
  while (values.size() < n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    values.push_back(T(state >> 17));
  }
  values.resize(n);
  return values;
}

template <class T>
void check_family(const Program &program, const char *kernel_name, unsigned lanes = 1) {
  SCOPED_TRACE(kernel_name);
  const KernelInfo *kernel = program.find_kernel(kernel_name);
  ASSERT_NE(kernel, nullptr);
  constexpr size_t items = 64; // scalars per input array
  std::vector<T> a = inputs<T>(items, 1), b = inputs<T>(items, 2), c = inputs<T>(items, 3);
  std::rotate(b.begin(), b.begin() + 3, b.end()); // pair every edge value with others
  std::rotate(c.begin(), c.begin() + 5, c.end());
  std::vector<T> out(items * 16);
  T *pa = a.data(), *pb = b.data(), *pc = c.data(), *pout = out.data();
  const void *args[] = {&pa, &pb, &pc, &pout};
  uint32_t work_items = uint32_t(items / lanes);
  run(*kernel, args, Range{1, {work_items / 8, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < items; ++i) {
    size_t item = i / lanes, lane = i % lanes;
    std::array<T, 16> expected = reference(a[i], b[i], c[i]);
    for (size_t k = 0; k < 16; ++k) {
      ASSERT_EQ(int64_t(out[(item * 16 + k) * lanes + lane]), int64_t(expected[k]))
          << names[k] << "(" << int64_t(a[i]) << ", " << int64_t(b[i]) << ", " << int64_t(c[i]) << ")";
    }
  }
}

struct IntegerBuiltinsKernels {
  static constexpr const char *stem = "integer_builtins";
};
using IntegerBuiltins = ProgramSuite<IntegerBuiltinsKernels>;

TEST_F(IntegerBuiltins, Int) { check_family<int32_t>(*program, "int_family"); }
TEST_F(IntegerBuiltins, Uint) { check_family<uint32_t>(*program, "uint_family"); }
TEST_F(IntegerBuiltins, Char) { check_family<int8_t>(*program, "char_family"); }
TEST_F(IntegerBuiltins, Uchar) { check_family<uint8_t>(*program, "uchar_family"); }
TEST_F(IntegerBuiltins, Short) { check_family<int16_t>(*program, "short_family"); }
TEST_F(IntegerBuiltins, Long) { check_family<int64_t>(*program, "long_family"); }
TEST_F(IntegerBuiltins, Ulong) { check_family<uint64_t>(*program, "ulong_family"); }
TEST_F(IntegerBuiltins, Int4LaneByLane) { check_family<int32_t>(*program, "int4_family", 4); }

TEST_F(IntegerBuiltins, UpsampleAnd24BitMultiplies) {
  const KernelInfo *kernel = program->find_kernel("int_misc");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t items = 32;
  std::vector<int32_t> a = inputs<int32_t>(items, 4), b = inputs<int32_t>(items, 5), c = inputs<int32_t>(items, 6);
  std::vector<int64_t> out(items * 5);
  int32_t *pa = a.data(), *pb = b.data(), *pc = c.data();
  int64_t *pout = out.data();
  const void *args[] = {&pa, &pb, &pc, &pout};
  run(*kernel, args, Range{1, {4, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < items; ++i) {
    int32_t x = a[i], y = b[i], z = c[i];
    int32_t x24 = int32_t(uint32_t(x) << 8) >> 8, y24 = int32_t(uint32_t(y) << 8) >> 8;
    const int64_t *o = out.data() + i * 5;
    EXPECT_EQ(o[0], int32_t(uint32_t(int16_t(x)) << 16 | uint16_t(y))) << "upsample(short, ushort) " << i;
    EXPECT_EQ(o[1], int64_t(uint64_t(int64_t(x)) << 32 | uint32_t(y))) << "upsample(int, uint) " << i;
    EXPECT_EQ(o[2], int64_t(uint16_t(uint8_t(x)) << 8 | uint8_t(y))) << "upsample(uchar, uchar) " << i;
    EXPECT_EQ(o[3], int32_t(int64_t(x24) * y24)) << "mul24 " << i;
    EXPECT_EQ(o[4], int32_t(uint32_t(int64_t(x24) * y24) + uint32_t(z))) << "mad24 " << i;
  }
}

} // namespace
} // namespace zeal::cpu::test
