// Long-double references of the OpenCL math functions and the inputs the math tests share.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <vector>

namespace zeal::cpu::test {

using Real = long double;
inline constexpr Real pi = std::numbers::pi_v<long double>;

// sinpi and friends reduced exactly, so that integers and half-integers give exact zeros.
inline Real sinpi(Real x) {
  Real r = std::fmod(x, Real(2));
  if (r > 1) r -= 2;
  if (r < -1) r += 2;
  if (r > 0.5L) r = 1 - r;
  if (r < -0.5L) r = -1 - r;
  Real s = std::sin(pi * r);
  return s == 0 ? std::copysign(Real(0), x) : s;
}
inline Real cospi_exact(Real x) {
  Real r = std::fabs(std::fmod(x, Real(2)));
  if (r > 1) r = 2 - r;
  return sinpi(0.5L - r) + 0; // +0: cos is never -0
}

struct Unary {
  const char *name;
  double ulps; // OpenCL's limit for float (and, as here, double)
  Real (*reference)(Real);
};

inline const Unary unary[40] = {
    {"acos", 4, [](Real x) { return std::acos(x); }},
    {"acosh", 4, [](Real x) { return std::acosh(x); }},
    {"acospi", 5, [](Real x) { return std::acos(x) / pi; }},
    {"asin", 4, [](Real x) { return std::asin(x); }},
    {"asinh", 4, [](Real x) { return std::asinh(x); }},
    {"asinpi", 5, [](Real x) { return std::asin(x) / pi; }},
    {"atan", 5, [](Real x) { return std::atan(x); }},
    {"atanh", 5, [](Real x) { return std::atanh(x); }},
    {"atanpi", 5, [](Real x) { return std::atan(x) / pi; }},
    {"cbrt", 2, [](Real x) { return std::cbrt(x); }},
    {"ceil", 0, [](Real x) { return std::ceil(x); }},
    {"cos", 4, [](Real x) { return std::cos(x); }},
    {"cosh", 4, [](Real x) { return std::cosh(x); }},
    {"cospi", 4, cospi_exact},
    {"erfc", 16, [](Real x) { return std::erfc(x); }},
    {"erf", 16, [](Real x) { return std::erf(x); }},
    {"exp", 3, [](Real x) { return std::exp(x); }},
    {"exp2", 3, [](Real x) { return std::exp2(x); }},
    {"exp10", 3, [](Real x) { return std::pow(Real(10), x); }},
    {"expm1", 3, [](Real x) { return std::expm1(x); }},
    {"fabs", 0, [](Real x) { return std::fabs(x); }},
    {"floor", 0, [](Real x) { return std::floor(x); }},
    {"log", 3, [](Real x) { return std::log(x); }},
    {"log2", 3, [](Real x) { return std::log2(x); }},
    {"log10", 3, [](Real x) { return std::log10(x); }},
    {"log1p", 2, [](Real x) { return std::log1p(x); }},
    {"logb", 0, [](Real x) { return std::logb(x); }},
    {"rint", 0, [](Real x) { return std::rint(x); }},
    {"round", 0, [](Real x) { return std::round(x); }},
    {"rsqrt", 2, [](Real x) { return 1 / std::sqrt(x); }},
    {"sin", 4, [](Real x) { return std::sin(x); }},
    {"sinh", 4, [](Real x) { return std::sinh(x); }},
    {"sinpi", 4, sinpi},
    {"sqrt", 0, [](Real x) { return std::sqrt(x); }}, // correctly rounded
    {"tan", 5, [](Real x) { return std::tan(x); }},
    {"tanh", 5, [](Real x) { return std::tanh(x); }},
    {"tanpi", 6, [](Real x) { Real c = cospi_exact(x); return c == 0 ? std::copysign(Real(INFINITY), sinpi(x)) : sinpi(x) / c; }},
    {"tgamma", 16, [](Real x) { return std::tgamma(x); }},
    {"trunc", 0, [](Real x) { return std::trunc(x); }},
    {"lgamma", 16, [](Real x) { return std::lgamma(x); }},
};

template <class T>
inline T maxmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax > ay ? x : ay > ax ? y : std::fmax(x, y);
}
template <class T>
inline T minmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax < ay ? x : ay < ax ? y : std::fmin(x, y);
}

// Binary functions whose reference needs T itself (exact ones) get it from `exact`.
struct Binary {
  const char *name;
  double ulps;
  Real (*reference)(Real, Real);
};

// powr by the OpenCL C spec: pow for x >= 0, NaN where pow would not give it.
inline Real powr(Real x, Real y) {
  bool nan = std::isnan(x) || std::isnan(y) || x < 0 || (x == 0 && y == 0) || (std::isinf(x) && y == 0) ||
             (x == 1 && std::isinf(y));
  return nan ? NAN : std::pow(std::fabs(x), y);
}

inline const Binary binary[14] = {
    {"atan2", 6, [](Real x, Real y) { return std::atan2(x, y); }},
    {"atan2pi", 6, [](Real x, Real y) { return std::atan2(x, y) / pi; }},
    {"fdim", 0, [](Real x, Real y) { return std::fdim(x, y); }},
    {"fmod", 0, [](Real x, Real y) { return std::fmod(x, y); }},
    {"hypot", 4, [](Real x, Real y) { return std::hypot(x, y); }},
    {"nextafter", 0, nullptr},
    {"pow", 16, [](Real x, Real y) { return std::pow(x, y); }},
    {"remainder", 0, [](Real x, Real y) { return std::remainder(x, y); }},
    {"maxmag", 0, [](Real x, Real y) { return maxmag(x, y); }},
    {"minmag", 0, [](Real x, Real y) { return minmag(x, y); }},
    {"copysign", 0, [](Real x, Real y) { return std::copysign(x, y); }},
    {"fma", 0, nullptr},
    {"divide", 0, [](Real x, Real y) { return x / y; }},
    {"powr", 16, [](Real x, Real y) { return powr(std::fabs(x), y); }},
};

// Inputs: small numbers and special ones first, then pseudo-random ones in [-20, 20].
inline std::vector<double> inputs(size_t n, uint32_t seed) {
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 1e-3, 0.75, -0.3, 1.5, 10.0, -7.0, 2.0, 0.1, 19.5};
  uint32_t state = seed;
  while (values.size() < n) {
    state = state * 1664525u + 1013904223u;
    values.push_back(double(int32_t(state >> 8) % 40000) / 2000.0);
  }
  return values;
}

} // namespace zeal::cpu::test
