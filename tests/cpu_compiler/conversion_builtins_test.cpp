// convert_* called by name, from every element type to every one, and the bfloat16 conversions, against host references.
#include "half.hpp"
#include "test_support.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace zeal::cpu::test {
namespace {

using Real = long double; // holds every value of every source type exactly

struct Type {
  const char *name;
  unsigned bits;
  bool is_float, is_signed;
};

// The order of conversions.cl's destinations.
constexpr Type types[] = {{"char", 8, false, true},    {"uchar", 8, false, false}, {"short", 16, false, true},
                          {"ushort", 16, false, false}, {"int", 32, false, true},   {"uint", 32, false, false},
                          {"long", 64, false, true},    {"ulong", 64, false, false}, {"half", 16, true, true},
                          {"float", 32, true, true},    {"double", 64, true, true}};
constexpr const char *integer_modifiers[] = {"", "_rte", "_rtz", "_rtp", "_rtn", "_sat", "_sat_rte", "_sat_rtz", "_sat_rtp", "_sat_rtn"};
constexpr size_t count = 95; // results per input

// A source value: its bits as the kernel reads them and its exact value.
struct Value {
  uint64_t bits;
  Real real;
  bool nan;
};

Real rounded(Real v, const std::string &mode) {
  if (mode == "_rte") return std::nearbyint(v); // the host rounds to nearest even
  if (mode == "_rtp") return std::ceil(v);
  if (mode == "_rtn") return std::floor(v);
  return std::trunc(v); // _rtz, the default to integers
}

// The result's bits, or nothing where the OpenCL C spec leaves it undefined (out of range without _sat).
std::optional<uint64_t> to_integer(const Value &v, const Type &from, const Type &to, const std::string &modifier) {
  bool saturate = modifier.find("_sat") != std::string::npos;
  std::string mode = modifier.substr(saturate ? 4 : 0);
  uint64_t mask = to.bits == 64 ? ~0ull : (1ull << to.bits) - 1;
  Real low = to.is_signed ? -std::ldexp(Real(1), int(to.bits - 1)) : 0;
  Real high = to.is_signed ? std::ldexp(Real(1), int(to.bits - 1)) - 1 : std::ldexp(Real(1), int(to.bits)) - 1;
  if (!from.is_float && !saturate) return v.bits & mask; // modulo 2^n of the sign- or zero-extended value
  if (v.nan) return saturate ? std::optional<uint64_t>(0) : std::nullopt;
  Real r = from.is_float ? rounded(v.real, mode) : v.real;
  if (r < low || r > high) {
    if (!saturate) return std::nullopt;
    r = r < low ? low : high;
  }
  uint64_t bits = r < 0 ? uint64_t(int64_t(r)) : uint64_t(r);
  return bits & mask;
}

template <class T>
uint64_t bits_of(T value) {
  if constexpr (sizeof(T) == 2) return half_bits(value);
  else if constexpr (sizeof(T) == 4) { uint32_t b; std::memcpy(&b, &value, 4); return b; }
  else { uint64_t b; std::memcpy(&b, &value, 8); return b; }
}

template <class T>
T next(T value, bool up) {
  if constexpr (sizeof(T) == 2) return next_half(value, up);
  else return std::nextafter(value, up ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
}

// Nearest (half through double: exact for every source whose value is finite in half),
// then one step where the mode rounds the other way.
template <class T>
uint64_t to_floating(Real v, const std::string &mode) {
  T nearest = sizeof(T) == 2 ? T(double(v)) : T(v);
  Real back = Real(double(nearest));
  T result = nearest;
  if ((mode == "_rtp" && back < v) || (mode == "_rtz" && v < 0 && back < v)) result = next(nearest, true);
  if ((mode == "_rtn" && back > v) || (mode == "_rtz" && v > 0 && back > v)) result = next(nearest, false);
  return bits_of(result);
}

std::optional<uint64_t> reference(const Value &v, const Type &from, const Type &to, const std::string &modifier) {
  if (!to.is_float) return to_integer(v, from, to, modifier);
  if (v.nan) return std::nullopt; // checked apart: NaN stays NaN
  if (to.bits == 16) return to_floating<Half>(v.real, modifier);
  if (to.bits == 32) return to_floating<float>(v.real, modifier);
  return to_floating<double>(v.real, modifier);
}

bool is_nan_bits(uint64_t bits, unsigned width) {
  if (width == 16) return (bits & 0x7fff) > 0x7c00;
  if (width == 32) return (bits & 0x7fffffff) > 0x7f800000;
  return (bits & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

// Source values: integers as 64-bit patterns truncated to the type, floating point rounded to it.
std::vector<Value> source_values(const Type &from, size_t n) {
  const double floats[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 127.5, 128.0, 255.5, 256.0, -128.6, -129.0,
                           32767.5, 32768.0, 65504.0, 65519.0, 65520.0, 65535.7, 1e10, -1e10, 2147483647.0,
                           2147483648.0, 4294967295.5, 4294967296.0, 9.3e18, -9.3e18, 9223372036854775807.0, 1.9e19,
                           3e19, INFINITY, -INFINITY, NAN, 3.4e38, -1e300, 1e-30, 1e-6, 0.1, 1.0 / 3, 16777217.0,
                           16777219.0, -16777217.0, 9007199254740993.0, 0x1.0000000000001p0, -0.7, 65503.9, 2049.0};
  const uint64_t integers[] = {0, 1, ~0ull, 127, 128, ~127ull, ~128ull, 255, 256, 32767, 32768, ~32768ull, 65504,
                               65519, 65520, 65535, 65536, 16777217, 16777219, ~16777216ull, 0x7fffffff, 0x80000000,
                               0xffffffff, (1ull << 53) + 1, 0x7fffffffffffffff, 0x8000000000000000,
                               (1ull << 62) + (1ull << 40) + 1, 2049, 2051, 4097, 4098, 0xfffe};
  std::vector<Value> values;
  uint64_t state = 12345;
  for (size_t i = 0; values.size() < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    if (from.is_float) {
      double d = i < std::size(floats) ? floats[i] : double(int64_t(state)) / double(1ull << (state >> 58));
      uint64_t bits = from.bits == 16 ? half_bits(Half(d)) : from.bits == 32 ? bits_of(float(d)) : bits_of(d);
      Real real = from.bits == 16 ? Real(float(Half(d))) : from.bits == 32 ? Real(float(d)) : Real(d);
      values.push_back({bits, real, std::isnan(d)});
    } else {
      uint64_t raw = i < std::size(integers) ? integers[i] : state >> (state & 63);
      unsigned shift = 64 - from.bits;
      uint64_t bits = raw << shift >> shift;
      Real real = from.is_signed ? Real(int64_t(raw << shift) >> shift) : Real(bits);
      // The kernel reads the sign-extended pattern back as a 64-bit value only through the conversions.
      values.push_back({from.is_signed ? uint64_t(int64_t(raw << shift) >> shift) : bits, real, false});
    }
  }
  return values;
}

void check_conversions(const Type &from, unsigned lanes) {
  std::string kernel_name = std::string("convert_from_") + from.name + (lanes > 1 ? std::to_string(lanes) : "");
  SCOPED_TRACE(kernel_name);
  auto program = build("conversions");
  ASSERT_NE(program, nullptr);
  constexpr size_t n = 64;
  std::vector<Value> values = source_values(from, n);
  std::vector<uint8_t> input(n * from.bits / 8);
  for (size_t i = 0; i < n; ++i) std::memcpy(&input[i * from.bits / 8], &values[i].bits, from.bits / 8);
  std::vector<uint64_t> out(n * count);
  void *pin = input.data(), *pout = out.data();
  const void *args[] = {&pin, &pout};
  run(*program->find_kernel(kernel_name.c_str()), args, Range{1, {uint32_t(n / lanes), 1, 1}, {1, 1, 1}});
  int failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    size_t item = i / lanes, lane = i % lanes;
    for (size_t k = 0; k < count; ++k) {
      const Type &to = types[k < 80 ? k / 10 : 8 + (k - 80) / 5];
      std::string modifier = integer_modifiers[k < 80 ? k % 10 : (k - 80) % 5];
      uint64_t got = out[(item * count + k) * lanes + lane];
      std::optional<uint64_t> want = reference(values[i], from, to, modifier);
      bool ok = to.is_float && values[i].nan ? is_nan_bits(got, to.bits) : !want || got == *want;
      if (ok) continue;
      ++failures;
      ADD_FAILURE() << "convert_" << to.name << modifier << "((" << from.name << ")" << double(values[i].real)
                    << ") gave bits 0x" << std::hex << got << ", want 0x" << (want ? *want : 0) << std::dec;
    }
  }
}

TEST(ConversionBuiltins, EveryScalarTypeToEveryTypeRoundsAndSaturatesAsOpenCLSays) {
  for (const Type &from : types) check_conversions(from, 1);
}

TEST(ConversionBuiltins, VectorsConvertLaneByLane) {
  for (const Type &from : {types[8], types[9], types[4], types[7]}) check_conversions(from, 4);
}

// --- bfloat16 ---------------------------------------------------------------------------

// Round to nearest even, NaN quiet, by arithmetic on the value rather than on the bits.
uint16_t bf16_reference(float f) {
  if (std::isnan(f)) return uint16_t(bits_of(f) >> 16 | 0x40);
  uint32_t bits = uint32_t(bits_of(f));
  float truncated, above;
  uint32_t low = bits & 0xffff0000u, high = low + 0x10000u;
  std::memcpy(&truncated, &low, 4);
  std::memcpy(&above, &high, 4);
  double distance_low = std::fabs(double(f) - double(truncated));
  double distance_high = std::isinf(above) ? std::ldexp(1.0, 128) - std::fabs(double(f)) : std::fabs(double(above) - double(f));
  if (std::isinf(f)) return uint16_t(bits >> 16);
  bool up = distance_high < distance_low || (distance_high == distance_low && (low >> 16) % 2 == 1);
  return uint16_t((up ? high : low) >> 16);
}

std::vector<float> bf16_inputs(size_t n) {
  std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 1.00390625f, 1.005859375f, 1.0078125f, 3.14159265f,
                               0x1.fffffep127f, -0x1.fffffep127f, 0x1.fe8p127f, INFINITY, -INFINITY, NAN, -NAN,
                               0x1p-149f, 0x1.8p-130f, 0x1.00018p0f, 0x1.00008p0f, 0x1.00010p0f, 65504.0f, 1e-40f};
  uint32_t signalling = 0x7f800001u; // a NaN whose payload lies in the dropped half
  float s;
  std::memcpy(&s, &signalling, 4);
  values.push_back(s);
  uint32_t state = 99;
  while (values.size() < n) {
    state = state * 1664525u + 1013904223u;
    float f;
    std::memcpy(&f, &state, 4);
    values.push_back(f);
  }
  return values;
}

TEST(Bfloat16Builtins, IgcNamesRoundToNearestEvenAndConvertBackExactly) {
  auto program = build("bfloat16");
  ASSERT_NE(program, nullptr);
  EXPECT_TRUE(program->linkage().imports.empty()) << "the driver defines IGC's conversions: nothing to import";
  constexpr size_t items = 4;
  std::vector<float> f = bf16_inputs(16 * items), to_float(6 * 16 * items, -1.0f);
  std::vector<uint16_t> h(16 * items), to_bf16(6 * 16 * items, 0xdead);
  for (size_t i = 0; i < h.size(); ++i) h[i] = uint16_t(i * 2654435761u >> 7);
  float *pf = f.data(), *pto_float = to_float.data();
  uint16_t *ph = h.data(), *pto_bf16 = to_bf16.data();
  const void *args[] = {&pf, &ph, &pto_bf16, &pto_float};
  run(*program->find_kernel("igc_bfloat16"), args, Range{1, {items, 1, 1}, {1, 1, 1}});
  const unsigned widths[] = {1, 2, 3, 4, 8, 16};
  for (size_t i = 0; i < items; ++i) {
    for (size_t w = 0; w < 6; ++w) {
      for (size_t j = 0; j < widths[w]; ++j) {
        float x = f[16 * i + j];
        uint16_t bits = h[16 * i + j];
        EXPECT_EQ(to_bf16[6 * 16 * i + 16 * w + j], bf16_reference(x)) << "width " << widths[w] << ", " << x;
        float back = to_float[6 * 16 * i + 16 * w + j];
        EXPECT_EQ(uint32_t(bits_of(back)), uint32_t(bits) << 16) << "width " << widths[w] << ", bits " << bits;
      }
    }
  }
}

// The names cl_intel_bfloat16_conversions gives the OpenCL C built-ins reach the driver as
// OpConvertFToBF16INTEL and OpConvertBF16ToFINTEL, with capability Bfloat16ConversionINTEL (6115).
TEST(Bfloat16Builtins, SpirvInstructionsRoundToNearestEvenAndConvertBackExactly) {
  auto built = compile_spirv(load_kernel("bfloat16_conversions"), {});
  ASSERT_TRUE(built.ok()) << built.error().log;
  BuiltKernels::get().add(**built);
  constexpr size_t items = 8;
  std::vector<float> f = bf16_inputs(4 * items), to_float(8 * items);
  std::vector<uint16_t> h(4 * items), to_bf16(8 * items);
  for (size_t i = 0; i < h.size(); ++i) h[i] = uint16_t(i * 40503u + 7);
  float *pf = f.data(), *pto_float = to_float.data();
  uint16_t *ph = h.data(), *pto_bf16 = to_bf16.data();
  const void *args[] = {&pf, &ph, &pto_bf16, &pto_float};
  run(*(*built)->find_kernel("intel_bfloat16"), args, Range{1, {items, 1, 1}, {1, 1, 1}});
  for (size_t i = 0; i < 4 * items; ++i) {
    for (size_t vector = 0; vector < 2; ++vector) {
      size_t at = 8 * (i / 4) + 4 * vector + i % 4;
      EXPECT_EQ(to_bf16[at], bf16_reference(f[i])) << f[i];
      EXPECT_EQ(uint32_t(bits_of(to_float[at])), uint32_t(h[i]) << 16) << h[i];
    }
  }
}

} // namespace
} // namespace zeal::cpu::test
