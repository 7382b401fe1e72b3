// Host implementations of OpenCL math functions the C library lacks (sinpi, rootn, fract, ...), and the libm functions kernels reach.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <dlfcn.h>

#include <cmath>
#include <limits>
#include <math.h>
#include <numbers>
#include <vector>

namespace zeal::cpu::detail {
namespace {

constexpr double pi = std::numbers::pi;

// sin(pi * r) for r in [-1, 1] after an exact reduction to [-0.5, 0.5], so
// that integers give exact zeros and half-integers exact ones.
double sinpi_reduced(double r) {
  if (r > 0.5) r = 1.0 - r;
  else if (r < -0.5) r = -1.0 - r;
  return std::sin(pi * r);
}

double sinpi(double x) {
  if (!std::isfinite(x)) return x - x; // NaN, raising invalid for infinities
  double r = std::fmod(x, 2.0);       // exact
  if (r > 1.0) r -= 2.0;
  else if (r < -1.0) r += 2.0;
  double s = sinpi_reduced(r);
  return s == 0.0 ? std::copysign(0.0, x) : s;
}

double cospi(double x) {
  if (!std::isfinite(x)) return x - x;
  double r = std::fabs(std::fmod(x, 2.0)); // [0, 2)
  if (r > 1.0) r = 2.0 - r;                // [0, 1], cos(pi r) unchanged
  return sinpi_reduced(0.5 - r);           // cos(pi r) = sin(pi (1/2 - r)); 0.5 - r is exact here
}

double tanpi(double x) {
  double c = cospi(x);
  return c == 0.0 ? std::copysign(std::numeric_limits<double>::infinity(), sinpi(x)) : sinpi(x) / c;
}

template <class T>
T maxmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax > ay ? x : ay > ax ? y : std::fmax(x, y);
}

template <class T>
T minmag(T x, T y) {
  T ax = std::fabs(x), ay = std::fabs(y);
  return ax < ay ? x : ay < ax ? y : std::fmin(x, y);
}

double rootn(double x, int n) {
  if (n == 0 || (x < 0 && n % 2 == 0)) return std::numeric_limits<double>::quiet_NaN();
  if (n == 1) return x;
  if (n == 3) return std::cbrt(x);
  if (n == -1) return 1.0 / x;
  double magnitude = std::pow(std::fabs(x), 1.0 / n);
  // Odd roots keep the sign, zeros included; even roots of -0 are +0 or +inf.
  return n % 2 != 0 ? std::copysign(magnitude, x) : magnitude;
}

template <class T>
T fract(T x, T *whole) {
  T floor = std::floor(x);
  *whole = floor;
  if (std::isinf(x)) return std::copysign(T(0), x);
  if (std::isnan(x)) return x; // fmin below would return its other operand
  return std::fmin(x - floor, std::nextafter(T(1), T(0)));
}

// OpenCL's sincos returns the sine and stores the cosine.
float sincosf_opencl(float x, float *cosine) {
  float sine;
  ::sincosf(x, &sine, cosine);
  return sine;
}
double sincos_opencl(double x, double *cosine) {
  double sine;
  ::sincos(x, &sine, cosine);
  return sine;
}

// Float versions round a double result once: accurate to well under the OpenCL limits.
float sinpif(float x) { return float(sinpi(x)); }
float cospif(float x) { return float(cospi(x)); }
float tanpif(float x) { return float(tanpi(x)); }
double acospi(double x) { return std::acos(x) / pi; }
double asinpi(double x) { return std::asin(x) / pi; }
double atanpi(double x) { return std::atan(x) / pi; }
double atan2pi(double y, double x) { return std::atan2(y, x) / pi; }
float acospif(float x) { return float(acospi(x)); }
float asinpif(float x) { return float(asinpi(x)); }
float atanpif(float x) { return float(atanpi(x)); }
float atan2pif(float y, float x) { return float(atan2pi(y, x)); }
float pownf(float x, int n) { return float(std::pow(double(x), n)); }
double pown(double x, int n) { return std::pow(x, double(n)); }
float rootnf(float x, int n) { return float(rootn(x, n)); }
float maxmagf(float x, float y) { return maxmag(x, y); }
double maxmagd(double x, double y) { return maxmag(x, y); }
float minmagf(float x, float y) { return minmag(x, y); }
double minmagd(double x, double y) { return minmag(x, y); }
float fractf(float x, float *whole) { return fract(x, whole); }
double fractd(double x, double *whole) { return fract(x, whole); }


} // namespace

std::span<const RuntimeSymbol> math_helper_symbols() {
  static const std::vector<RuntimeSymbol> symbols = [] {
    std::vector<RuntimeSymbol> list = {
        {"zeal_sinpif", address(&sinpif)}, {"zeal_sinpi", address(&sinpi)},
        {"zeal_cospif", address(&cospif)}, {"zeal_cospi", address(&cospi)},
        {"zeal_tanpif", address(&tanpif)}, {"zeal_tanpi", address(&tanpi)},
        {"zeal_acospif", address(&acospif)}, {"zeal_acospi", address(&acospi)},
        {"zeal_asinpif", address(&asinpif)}, {"zeal_asinpi", address(&asinpi)},
        {"zeal_atanpif", address(&atanpif)}, {"zeal_atanpi", address(&atanpi)},
        {"zeal_atan2pif", address(&atan2pif)}, {"zeal_atan2pi", address(&atan2pi)},
        {"zeal_pownf", address(&pownf)}, {"zeal_pown", address(&pown)},
        {"zeal_rootnf", address(&rootnf)}, {"zeal_rootn", address(&rootn)},
        {"zeal_maxmagf", address(&maxmagf)}, {"zeal_maxmag", address(&maxmagd)},
        {"zeal_minmagf", address(&minmagf)}, {"zeal_minmag", address(&minmagd)},
        {"zeal_fractf", address(&fractf)}, {"zeal_fract", address(&fractd)},
        {"zeal_sincosf", address(&sincosf_opencl)}, {"zeal_sincos", address(&sincos_opencl)},
        // The C library, for what has no LLVM intrinsic.
        {"acosf", address<F1>(&::acosf)}, {"acos", address<D1>(&::acos)},
        {"acoshf", address<F1>(&::acoshf)}, {"acosh", address<D1>(&::acosh)},
        {"asinf", address<F1>(&::asinf)}, {"asin", address<D1>(&::asin)},
        {"asinhf", address<F1>(&::asinhf)}, {"asinh", address<D1>(&::asinh)},
        {"atanf", address<F1>(&::atanf)}, {"atan", address<D1>(&::atan)},
        {"atanhf", address<F1>(&::atanhf)}, {"atanh", address<D1>(&::atanh)},
        {"atan2f", address<F2>(&::atan2f)}, {"atan2", address<D2>(&::atan2)},
        {"cbrtf", address<F1>(&::cbrtf)}, {"cbrt", address<D1>(&::cbrt)},
        {"coshf", address<F1>(&::coshf)}, {"cosh", address<D1>(&::cosh)},
        {"sinhf", address<F1>(&::sinhf)}, {"sinh", address<D1>(&::sinh)},
        {"tanf", address<F1>(&::tanf)}, {"tan", address<D1>(&::tan)},
        {"tanhf", address<F1>(&::tanhf)}, {"tanh", address<D1>(&::tanh)},
        {"erff", address<F1>(&::erff)}, {"erf", address<D1>(&::erf)},
        {"erfcf", address<F1>(&::erfcf)}, {"erfc", address<D1>(&::erfc)},
        {"exp10f", address<F1>(&::exp10f)}, {"exp10", address<D1>(&::exp10)},
        {"expm1f", address<F1>(&::expm1f)}, {"expm1", address<D1>(&::expm1)},
        {"log1pf", address<F1>(&::log1pf)}, {"log1p", address<D1>(&::log1p)},
        {"logbf", address<F1>(&::logbf)}, {"logb", address<D1>(&::logb)},
        {"lgammaf", address<F1>(&::lgammaf)}, {"lgamma", address<D1>(&::lgamma)},
        {"tgammaf", address<F1>(&::tgammaf)}, {"tgamma", address<D1>(&::tgamma)},
        {"fdimf", address<F2>(&::fdimf)}, {"fdim", address<D2>(&::fdim)},
        {"fmodf", address<F2>(&::fmodf)}, {"fmod", address<D2>(&::fmod)},
        {"hypotf", address<F2>(&::hypotf)}, {"hypot", address<D2>(&::hypot)},
        {"nextafterf", address<F2>(&::nextafterf)}, {"nextafter", address<D2>(&::nextafter)},
        {"remainderf", address<F2>(&::remainderf)}, {"remainder", address<D2>(&::remainder)},
        {"ldexpf", address<float(float, int)>(&::ldexpf)}, {"ldexp", address<double(double, int)>(&::ldexp)},
        {"ilogbf", address<int(float)>(&::ilogbf)}, {"ilogb", address<int(double)>(&::ilogb)},
        {"frexpf", address<float(float, int *)>(&::frexpf)}, {"frexp", address<double(double, int *)>(&::frexp)},
        {"modff", address<float(float, float *)>(&::modff)}, {"modf", address<double(double, double *)>(&::modf)},
        {"remquof", address<float(float, float, int *)>(&::remquof)},
        {"remquo", address<double(double, double, int *)>(&::remquo)},
        {"lgammaf_r", address<float(float, int *)>(&::lgammaf_r)},
        {"lgamma_r", address<double(double, int *)>(&::lgamma_r)},
    };
    // Half conversions without F16C, and double -> half always, are libgcc calls.
    for (const char *name : {"__extendhfsf2", "__truncsfhf2", "__truncdfhf2"}) {
      if (void *found = ::dlsym(RTLD_DEFAULT, name)) list.push_back({name, found});
    }
    return list;
  }();
  return symbols;
}

} // namespace zeal::cpu::detail
