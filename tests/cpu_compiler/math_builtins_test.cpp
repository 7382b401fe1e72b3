// The math library in float, double and float4 against long-double host references, within OpenCL's ULP limits.
#include "math_reference.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>

namespace zeal::cpu::test {
namespace {

template <class T>
T exact_binary(size_t k, T x, T y) {
  return k == 5 ? std::nextafter(x, y) : std::fma(x, y, x);
}

// Units in the last place of T between `got` and the reference; NaN matches NaN.
template <class T>
double ulps(T got, Real want) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : INFINITY;
  T rounded = T(want);
  if (std::isinf(rounded)) return got == rounded ? 0 : INFINITY;
  if (std::isnan(got)) return INFINITY;
  T magnitude = std::fabs(rounded);
  Real ulp = Real(std::nextafter(magnitude, std::numeric_limits<T>::infinity()) - magnitude);
  return double(std::fabs(Real(got) - want) / ulp);
}

template <class T>
void check(const std::vector<T> &x, const std::vector<T> &y, const std::vector<T> &out, const std::vector<T> &out2,
           unsigned lanes) {
  for (size_t i = 0; i < x.size(); ++i) {
    size_t item = i / lanes, lane = i % lanes;
    for (size_t k = 0; k < 40; ++k) {
      T got = out[(item * 40 + k) * lanes + lane];
      // lgamma has no OpenCL limit; near its zeros only an absolute bound makes sense.
      Real want = unary[k].reference(Real(x[i]));
      bool near_zero = k == 39 && std::fabs(want) < 1e-3;
      double error = near_zero ? double(std::fabs(Real(got) - want)) * 1e6 : ulps(got, want);
      EXPECT_LE(error, unary[k].ulps + 0.5) << unary[k].name << "(" << x[i] << ") = " << got << ", want " << double(want);
    }
    for (size_t k = 0; k < 14; ++k) {
      T got = out2[(item * 14 + k) * lanes + lane];
      Real want = binary[k].reference ? binary[k].reference(Real(x[i]), Real(y[i])) : Real(exact_binary(k, x[i], y[i]));
      EXPECT_LE(ulps(got, want), binary[k].ulps + 0.5)
          << binary[k].name << "(" << x[i] << ", " << y[i] << ") = " << got << ", want " << double(want);
    }
  }
}

template <class T>
void run_math(const char *kernel_name, unsigned lanes) {
  SCOPED_TRACE(kernel_name);
  auto program = build("math_builtins");
  ASSERT_NE(program, nullptr);
  constexpr size_t n = 64;
  std::vector<double> xs = inputs(n, 7), ys = inputs(n, 11);
  std::rotate(ys.begin(), ys.begin() + 5, ys.end());
  std::vector<T> x(xs.begin(), xs.end()), y(ys.begin(), ys.end()), out(n * 40), out2(n * 14);
  T *px = x.data(), *py = y.data(), *pout = out.data(), *pout2 = out2.data();
  const void *args[] = {&px, &py, &pout, &pout2};
  uint32_t items = uint32_t(n / lanes);
  run(*program->find_kernel(kernel_name), args, Range{1, {items / 4, 1, 1}, {4, 1, 1}});
  check(x, y, out, out2, lanes);
}

TEST(MathBuiltins, FloatWithinOpenCLLimits) { run_math<float>("math_float", 1); }
TEST(MathBuiltins, DoubleWithinOpenCLLimits) { run_math<double>("math_double", 1); }
TEST(MathBuiltins, Float4LaneByLane) { run_math<float>("math_float4", 4); }

// sin, cos, exp, log and pow in loops the vectoriser widens (work-groups of
// 64), where it calls libmvec's vector forms: still within OpenCL's limits,
// over large arguments (range reduction), negative ones (NaN from log and pow)
// and ones that overflow exp.
template <class T>
void run_vector_math(const char *kernel_name) {
  SCOPED_TRACE(kernel_name);
  auto program = build("math_builtins");
  ASSERT_NE(program, nullptr);
  constexpr size_t n = 1024;
  std::vector<double> xs = inputs(n, 5), ys = inputs(n, 9);
  for (size_t i = 0; i < n; i += 7) xs[i] *= 400; // up to ±4,000
  for (size_t i = 3; i < n; i += 11) xs[i] = 80 + double(i % 700); // exp overflows float, then double
  std::vector<T> x(xs.begin(), xs.end()), y(ys.begin(), ys.end()), out(5 * n);
  T *px = x.data(), *py = y.data(), *pout = out.data();
  const void *args[] = {&px, &py, &pout};
  run(*program->find_kernel(kernel_name), args, Range{1, {n / 64, 1, 1}, {64, 1, 1}});
  const struct {
    const char *name;
    double limit;
    Real (*reference)(Real, Real);
  } functions[] = {{"sin", 4, [](Real v, Real) { return std::sin(v); }},
                   {"cos", 4, [](Real v, Real) { return std::cos(v); }},
                   {"exp", 3, [](Real v, Real) { return std::exp(v); }},
                   {"log", 3, [](Real v, Real) { return std::log(v); }},
                   {"pow", 16, [](Real v, Real w) { return std::pow(v, w); }}};
  for (size_t f = 0; f < std::size(functions); ++f) {
    for (size_t i = 0; i < n; ++i) {
      const Real want = functions[f].reference(Real(x[i]), Real(y[i]));
      ASSERT_LE(ulps(out[f * n + i], want), functions[f].limit + 0.5)
          << functions[f].name << "(" << x[i] << ", " << y[i] << ") = " << out[f * n + i] << ", want " << double(want);
    }
  }
}

TEST(MathBuiltins, VectorisedFloatWithinOpenCLLimits) { run_vector_math<float>("vector_math_float"); }
TEST(MathBuiltins, VectorisedDoubleWithinOpenCLLimits) { run_vector_math<double>("vector_math_double"); }

TEST(MathBuiltins, FunctionsWithIntegerAndPointerOperands) {
  auto program = build("math_builtins");
  ASSERT_NE(program, nullptr);
  std::vector<double> xs = inputs(32, 3);
  std::vector<float> x(xs.begin(), xs.end()), out(32 * 11);
  std::vector<int32_t> n(32), iout(32 * 4);
  for (int i = 0; i < 32; ++i) n[i] = i % 10 - 4;
  float *px = x.data(), *pout = out.data();
  int32_t *pn = n.data(), *piout = iout.data();
  const void *args[] = {&px, &pn, &pout, &piout};
  run(*program->find_kernel("math_special"), args, Range{1, {4, 1, 1}, {8, 1, 1}});
  for (int i = 0; i < 32; ++i) {
    float v = x[i];
    int k = n[i];
    const float *o = &out[i * 11];
    const int32_t *io = &iout[i * 4];
    SCOPED_TRACE(::testing::Message() << "x = " << v << ", n = " << k);
    EXPECT_LE(ulps(o[0], std::pow(Real(v), Real(k))), 16.5) << "pown";
    Real root = k == 0 || (v < 0 && k % 2 == 0) ? Real(NAN)
                : v == 0 ? (k > 0 ? (k % 2 ? Real(v) : Real(0)) : (k % 2 ? std::copysign(Real(INFINITY), Real(v)) : Real(INFINITY)))
                         : std::copysign(std::pow(std::fabs(Real(v)), 1 / Real(k)), k % 2 ? Real(v) : Real(1));
    EXPECT_LE(ulps(o[1], root), 16.5) << "rootn gave " << o[1];
    EXPECT_EQ(o[2], std::ldexp(v, k)) << "ldexp";
    int e = 0;
    EXPECT_EQ(o[3], std::frexp(v, &e)) << "frexp";
    EXPECT_EQ(io[0], e) << "frexp exponent";
    float whole;
    EXPECT_EQ(o[4], std::modf(v, &whole)) << "modf";
    EXPECT_EQ(o[5], whole) << "modf whole";
    EXPECT_EQ(o[6], std::fmin(v - std::floor(v), 0x1.fffffep-1f)) << "fract";
    EXPECT_EQ(o[7], std::floor(v)) << "fract floor";
    EXPECT_LE(ulps(o[8], std::sin(Real(v))), 4.5) << "sincos sin";
    EXPECT_LE(ulps(o[9], std::cos(Real(v))), 4.5) << "sincos cos";
    EXPECT_EQ(io[1], std::ilogb(v)) << "ilogb";
    int q = 0;
    EXPECT_EQ(o[10], std::remquo(v, 0.75f, &q)) << "remquo";
    EXPECT_EQ(io[2], q & 7) << "remquo quotient bits";
    EXPECT_EQ(uint32_t(io[3]), 0x7fc00000u | (uint32_t(k) & 0xffu)) << "nan(code)";
  }
}

TEST(MathBuiltins, PowrSpecialCasesFollowTheOpenClSpec) {
  auto program = build("math_builtins");
  ASSERT_NE(program, nullptr);
  const float inf = INFINITY, nan = NAN;
  struct Case {
    float x, y, expected;
  };
  const Case cases[] = {
      {2.0f, 0.0f, 1.0f},    {2.0f, -0.0f, 1.0f},  {0.0f, -3.0f, inf},  {-0.0f, -3.0f, inf},   {0.0f, -inf, inf},
      {-0.0f, -inf, inf},    {0.0f, 3.0f, 0.0f},   {-0.0f, 3.0f, 0.0f}, {1.0f, 5.5f, 1.0f},    {-2.0f, 2.0f, nan},
      {-0.5f, 0.0f, nan},    {0.0f, 0.0f, nan},    {-0.0f, -0.0f, nan}, {inf, 0.0f, nan},      {inf, -0.0f, nan},
      {1.0f, inf, nan},      {1.0f, -inf, nan},    {2.0f, nan, nan},    {nan, 0.0f, nan},      {1.0f, nan, nan},
      {4.0f, 0.5f, 2.0f},    {inf, 2.0f, inf},     {inf, -2.0f, 0.0f},  {0.5f, inf, 0.0f},
  };
  constexpr size_t n = std::size(cases);
  std::vector<float> x(n), y(n), out(n);
  for (size_t i = 0; i < n; ++i) std::tie(x[i], y[i]) = std::pair{cases[i].x, cases[i].y};
  float *px = x.data(), *py = y.data(), *pout = out.data();
  const void *args[] = {&px, &py, &pout};
  run(*program->find_kernel("powr_special"), args, Range{1, {uint32_t(n), 1, 1}, {1, 1, 1}});
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(cases[i].expected)) {
      EXPECT_TRUE(std::isnan(out[i])) << "powr(" << x[i] << ", " << y[i] << ") = " << out[i];
    } else {
      EXPECT_EQ(out[i], cases[i].expected) << "powr(" << x[i] << ", " << y[i] << ")";
      EXPECT_EQ(std::signbit(out[i]), std::signbit(cases[i].expected)) << "powr(" << x[i] << ", " << y[i] << ")";
    }
  }
}

} // namespace
} // namespace zeal::cpu::test
