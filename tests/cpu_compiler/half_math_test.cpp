// The math library on half, scalar and half2 to half16, against long-double references within OpenCL's half limits.
#include "half.hpp"
#include "math_reference.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cmath>

namespace zeal::cpu::test {
namespace {

// OpenCL C's ULP limits for half, in the order of unary[] (lgamma has none; 4 here).
constexpr double unary_limits[40] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 2, 2, 2, 4, 4, 2, 2, 2, 2,
                                     0, 0, 2, 2, 2, 2, 0, 0, 0, 1, 2, 2, 2, 1, 2, 2, 2, 4, 0, 4};
// atan2 ... powr as in binary[] (fma and divide are exact), then mad, fmin, fmax.
constexpr double binary_limits[17] = {2, 2, 0, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0};
constexpr size_t unary_count = 40, binary_count = 17;

// A limit of 0 ulp means correctly rounded: within half an ulp of the exact value.
double allowed(double limit) { return limit == 0 ? 0.5 : limit; }

// Units in the last place of half between `got` and the reference; NaN matches NaN.
double ulps(Half got, Real want) {
  if (std::isnan(want)) return is_nan(got) ? 0 : INFINITY;
  Half rounded = Half(double(want));
  if (std::isinf(float(rounded))) return float(got) == float(rounded) ? 0 : INFINITY;
  if (is_nan(got)) return INFINITY;
  return double(std::fabs(Real(float(got)) - want)) / half_ulp(std::fabs(double(rounded)));
}

Real binary_reference(size_t k, Half x, Half y) {
  Real a = float(x), b = float(y);
  switch (k) {
  case 5:
    if (is_nan(x) || is_nan(y)) return NAN;
    return float(a == b ? y : next_half(x, b > a));
  case 11: return a * b + a; // exact in long double for these inputs
  case 14: return a * b + a; // mad may round the product: allowed below
  case 15: return std::fmin(a, b);
  case 16: return std::fmax(a, b);
  default: return binary[k].reference(a, b);
  }
}

std::vector<Half> half_inputs(size_t n, uint32_t seed) {
  std::vector<double> values = inputs(n, seed);
  return {values.begin(), values.end()};
}

void check_unary(Half x, Half got, size_t k) {
  Real want = unary[k].reference(Real(float(x)));
  // Near lgamma's zeros only an absolute bound makes sense.
  bool near_zero = k == 39 && std::fabs(want) < 1e-2;
  double error = near_zero ? double(std::fabs(Real(float(got)) - want)) * 1e3 : ulps(got, want);
  EXPECT_LE(error, allowed(unary_limits[k])) << unary[k].name << "(" << float(x) << ") = " << float(got) << ", want "
                                    << double(want);
}

void check_binary(Half x, Half y, Half got, size_t k) {
  const char *name = k < 14 ? binary[k].name : k == 14 ? "mad" : k == 15 ? "fmin" : "fmax";
  Real want = binary_reference(k, x, y);
  double error = ulps(got, want);
  if (k == 14) error = std::min(error, ulps(got, Real(float(Half(float(x) * float(y)))) + Real(float(x))));
  EXPECT_LE(error, allowed(binary_limits[k])) << name << "(" << float(x) << ", " << float(y) << ") = " << float(got)
                                     << ", want " << double(want);
}

void run_half_math(const char *kernel_name, unsigned lanes) {
  SCOPED_TRACE(kernel_name);
  auto program = build("half_math");
  ASSERT_NE(program, nullptr);
  constexpr size_t n = 96; // a multiple of every width, 3 included
  std::vector<Half> x = half_inputs(n, 7), y = half_inputs(n, 11);
  std::rotate(y.begin(), y.begin() + 5, y.end());
  std::vector<Half> out(n * unary_count), out2(n * binary_count);
  Half *px = x.data(), *py = y.data(), *pout = out.data(), *pout2 = out2.data();
  const void *args[] = {&px, &py, &pout, &pout2};
  uint32_t items = uint32_t(n / lanes);
  run(*program->find_kernel(kernel_name), args, Range{1, {items, 1, 1}, {1, 1, 1}});
  for (size_t i = 0; i < n; ++i) {
    size_t item = i / lanes, lane = i % lanes;
    for (size_t k = 0; k < unary_count; ++k) check_unary(x[i], out[(item * unary_count + k) * lanes + lane], k);
    for (size_t k = 0; k < binary_count; ++k) check_binary(x[i], y[i], out2[(item * binary_count + k) * lanes + lane], k);
  }
}

TEST(HalfMath, ScalarWithinOpenCLHalfLimits) { run_half_math("half_math", 1); }
TEST(HalfMath, Half2LaneByLane) { run_half_math("half_math2", 2); }
TEST(HalfMath, Half3LaneByLane) { run_half_math("half_math3", 3); }
TEST(HalfMath, Half4LaneByLane) { run_half_math("half_math4", 4); }
TEST(HalfMath, Half8LaneByLane) { run_half_math("half_math8", 8); }
TEST(HalfMath, Half16LaneByLane) { run_half_math("half_math16", 16); }

void run_half_special(const char *kernel_name, unsigned lanes) {
  SCOPED_TRACE(kernel_name);
  auto program = build("half_math");
  ASSERT_NE(program, nullptr);
  constexpr size_t n = 32;
  std::vector<Half> x = half_inputs(n, 3), out(n * 15);
  std::vector<int32_t> k(n), iout(n * 4);
  for (size_t i = 0; i < n; ++i) k[i] = int32_t(i % 10) - 4;
  Half *px = x.data(), *pout = out.data();
  int32_t *pk = k.data(), *piout = iout.data();
  const void *args[] = {&px, &pk, &pout, &piout};
  run(*program->find_kernel(kernel_name), args, Range{1, {uint32_t(n / lanes), 1, 1}, {1, 1, 1}});
  for (size_t i = 0; i < n; ++i) {
    size_t item = i / lanes, lane = i % lanes;
    auto o = [&](size_t r) { return out[(item * 15 + r) * lanes + lane]; };
    auto io = [&](size_t r) { return iout[(item * 4 + r) * lanes + lane]; };
    float v = float(x[i]);
    int m = k[i];
    SCOPED_TRACE(::testing::Message() << "x = " << v << ", n = " << m);
    EXPECT_LE(ulps(o(0), std::pow(Real(v), Real(m))), 4) << "pown gave " << float(o(0));
    Real root = m == 0 || (v < 0 && m % 2 == 0) ? Real(NAN)
                : v == 0 ? (m > 0 ? (m % 2 ? Real(v) : Real(0)) : (m % 2 ? std::copysign(Real(INFINITY), Real(v)) : Real(INFINITY)))
                         : std::copysign(std::pow(std::fabs(Real(v)), 1 / Real(m)), m % 2 ? Real(v) : Real(1));
    EXPECT_LE(ulps(o(1), root), 4) << "rootn gave " << float(o(1));
    EXPECT_EQ(float(o(2)), float(Half(std::ldexp(v, m)))) << "ldexp";
    int e = 0;
    EXPECT_EQ(float(o(3)), std::frexp(v, &e)) << "frexp";
    EXPECT_EQ(io(0), e) << "frexp exponent";
    float whole;
    EXPECT_EQ(float(o(4)), std::modf(v, &whole)) << "modf";
    EXPECT_EQ(float(o(5)), whole) << "modf whole";
    EXPECT_EQ(float(o(6)), float(Half(std::fmin(v - std::floor(v), 0x1.ffcp-1f)))) << "fract, rounded to half";
    EXPECT_EQ(float(o(7)), std::floor(v)) << "fract floor";
    EXPECT_LE(ulps(o(8), std::sin(Real(v))), 2) << "sincos sin";
    EXPECT_LE(ulps(o(9), std::cos(Real(v))), 2) << "sincos cos";
    EXPECT_EQ(io(1), std::ilogb(v)) << "ilogb";
    int q = 0;
    EXPECT_EQ(float(o(10)), std::remquo(v, 0.75f, &q)) << "remquo";
    EXPECT_EQ(io(2), q & 7) << "remquo quotient bits";
    EXPECT_EQ(half_bits(o(11)), 0x7e00 | (uint16_t(m) & 0xff)) << "nan(code)";
    EXPECT_EQ(float(o(12)), std::fmin(std::fmax(v, -1.5f), 2.25f)) << "clamp";
    EXPECT_EQ(float(o(13)), std::fmin(v, 0.5f)) << "min";
    EXPECT_EQ(float(o(14)), std::fmax(v, 0.5f)) << "max";
  }
}

TEST(HalfMath, FunctionsWithIntegerAndPointerOperands) { run_half_special("half_special", 1); }
TEST(HalfMath, Half4FunctionsWithIntegerAndPointerOperands) { run_half_special("half_special4", 4); }
TEST(HalfMath, Half8FunctionsWithIntegerAndPointerOperands) { run_half_special("half_special8", 8); }

// fract of a tiny negative half is 1 - 2^-24 in float, which rounds to 1.0 in half: it must stay below 1.
TEST(HalfMath, FractStaysBelowOne) {
  auto program = build("half_math");
  ASSERT_NE(program, nullptr);
  Half x[4] = {Half(-0x1p-24f), Half(-0x1p-14f), Half(-0.25f), Half(NAN)};
  std::vector<Half> out(4 * 15);
  int32_t k[4] = {1, 1, 1, 1}, iout[16];
  Half *px = x, *pout = out.data();
  int32_t *pk = k, *piout = iout;
  const void *args[] = {&px, &pk, &pout, &piout};
  run(*program->find_kernel("half_special4"), args, Range{1, {1, 1, 1}, {1, 1, 1}});
  auto fract = [&](size_t lane) { return out[6 * 4 + lane]; };
  EXPECT_EQ(half_bits(fract(0)), 0x3bff) << "fract(-2^-24) is the largest half below 1";
  EXPECT_EQ(half_bits(fract(1)), 0x3bff) << "fract(-2^-14)";
  EXPECT_EQ(float(fract(2)), 0.75f) << "fract(-0.25)";
  EXPECT_TRUE(is_nan(fract(3))) << "fract(NaN)";
}

} // namespace
} // namespace zeal::cpu::test
