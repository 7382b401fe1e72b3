// Common, geometric and relational built-ins and vector loads/stores, table-driven against host references.
#include "test_support.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

namespace zeal::cpu::test {
namespace {

struct FloatBuiltinsKernels {
  static constexpr const char *stem = "float_builtins";
};
using FloatBuiltins = ProgramSuite<FloatBuiltinsKernels>;

constexpr float inf = std::numeric_limits<float>::infinity();
constexpr float nan = std::numeric_limits<float>::quiet_NaN();

std::vector<float> float_inputs(size_t n, uint32_t seed) {
  std::vector<float> values = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -2.5f, 3.75f, 1e-3f};
  uint32_t state = seed;
  while (values.size() < n) {
    state = state * 1664525u + 1013904223u;
    values.push_back(float(int32_t(state >> 8) % 20000) / 1000.0f);
  }
  return values;
}

// Distance in units in the last place; NaN matches NaN, infinities must be equal.
double ulps(double got, double want, bool is_float = true) {
  if (std::isnan(want)) return std::isnan(got) ? 0 : 1e30;
  if (std::isinf(want) || want == 0) return got == want ? 0 : std::fabs(got - want) / (is_float ? 1e-45 : 5e-324);
  double ulp = is_float ? std::nextafter(float(std::fabs(want)), inf) - float(std::fabs(want))
                        : std::nextafter(std::fabs(want), double(inf)) - std::fabs(want);
  return std::fabs(got - want) / ulp;
}

TEST_F(FloatBuiltins, CommonFunctions) {
  constexpr size_t items = 32;
  std::vector<float> a = float_inputs(items, 1), b = float_inputs(items, 2), c = float_inputs(items, 3), out(items * 12);
  std::rotate(b.begin(), b.begin() + 3, b.end());
  for (float &v : c) v = std::fabs(v) / 20.0f; // mix weights in [0, 1]
  float *pa = a.data(), *pb = b.data(), *pc = c.data(), *pout = out.data();
  const void *args[] = {&pa, &pb, &pc, &pout};
  run(kernel("common_family"), args, Range{1, {4, 1, 1}, {8, 1, 1}});
  const char *names[] = {"clamp", "degrees", "radians", "mix",  "step", "smoothstep",
                         "sign",  "min",     "max",     "fmin", "fmax", "clamp(x, -1, 1)"};
  for (size_t i = 0; i < items; ++i) {
    float x = a[i], y = b[i], z = c[i];
    float e0 = std::fmin(y, z), e1 = std::fmax(y, z) + 1.0f;
    float t = std::clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);
    float sign = x > 0 ? 1.0f : x < 0 ? -1.0f : x;
    const float expected[] = {std::fmin(std::fmax(x, std::fmin(y, z)), std::fmax(y, z)),
                              float(x * (180.0 / std::numbers::pi)),
                              float(x * (std::numbers::pi / 180.0)),
                              x + (y - x) * z,
                              x < y ? 0.0f : 1.0f,
                              t * t * (3.0f - 2.0f * t),
                              sign,
                              std::fmin(x, y),
                              std::fmax(x, y),
                              std::fmin(x, z),
                              std::fmax(x, z),
                              std::clamp(x, -1.0f, 1.0f)};
    for (size_t k = 0; k < std::size(expected); ++k) {
      EXPECT_LE(ulps(out[i * 12 + k], expected[k]), 2.0) << names[k] << " of " << x << ", " << y << ", " << z
                                                         << ": got " << out[i * 12 + k] << " want " << expected[k];
    }
    EXPECT_EQ(std::signbit(out[i * 12 + 6]), std::signbit(sign)) << "sign keeps the sign of zero, x = " << x;
  }
}

TEST_F(FloatBuiltins, GeometricFunctions) {
  constexpr size_t items = 16;
  std::vector<float> a = float_inputs(items * 4, 4), b = float_inputs(items * 4, 5), out(items * 16);
  std::fill(a.begin(), a.begin() + 4, 0.0f); // normalize of a zero vector stays zero
  float *pa = a.data(), *pb = b.data(), *pout = out.data();
  const void *args[] = {&pa, &pb, &pout};
  run(kernel("geometric_family"), args, Range{1, {2, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < items; ++i) {
    const float *x = &a[4 * i], *y = &b[4 * i];
    double dot = 0, len = 0, dist = 0;
    for (int k = 0; k < 4; ++k) {
      dot += double(x[k]) * y[k];
      len += double(x[k]) * x[k];
      dist += (double(x[k]) - y[k]) * (double(x[k]) - y[k]);
    }
    len = std::sqrt(len);
    dist = std::sqrt(dist);
    double cx = double(x[1]) * y[2] - double(x[2]) * y[1], cy = double(x[2]) * y[0] - double(x[0]) * y[2],
           cz = double(x[0]) * y[1] - double(x[1]) * y[0];
    const double expected[] = {dot, len, dist, len == 0 ? 0.0 : x[0] / len, len == 0 ? 0.0 : x[3] / len,
                               cx, cy, cz, 0.0, cx + cy + cz, len, double(x[0]) * y[0] + double(x[1]) * y[1],
                               std::fabs(x[0]), dist, len == 0 ? 0.0 : x[1] / len, double(x[0]) * y[0]};
    const float *o = &out[i * 16];
    for (size_t k = 0; k < std::size(expected); ++k) {
      // Sums of products may cancel: compare against the magnitude of the terms.
      double scale = std::max({1.0, std::fabs(expected[k]), len * len, dot});
      EXPECT_NEAR(o[k], expected[k], 4e-6 * scale) << "slot " << k << " of vector " << i;
    }
  }
}

TEST_F(FloatBuiltins, RelationalFunctions) {
  std::vector<float> a = {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, nan, 1e-40f, 2.0f, 3.0f, -5.0f, 1.17549435e-38f,
                          0.0f, nan, 4.0f, -inf};
  std::vector<float> b = {0.0f, 0.0f, 2.0f, -1.0f, inf, 0.0f, 1.0f, 0.0f, nan, 2.0f, -6.0f, 0.0f,
                          -0.0f, nan, 4.0f, inf};
  const size_t items = a.size();
  std::vector<int32_t> out(items * 16);
  float *pa = a.data(), *pb = b.data();
  int32_t *pout = out.data();
  const void *args[] = {&pa, &pb, &pout};
  run(kernel("relational_family"), args, Range{1, {2, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < items; ++i) {
    float x = a[i], y = b[i];
    bool unordered = std::isnan(x) || std::isnan(y);
    int v = -(x < y) + 2 * -(y < x) + 4 * -(x < 0.0f) + 8 * -(y < 0.0f);
    uint32_t bits = (std::bit_cast<uint32_t>(x) & 0xffffu) | (std::bit_cast<uint32_t>(y) & 0xffff0000u);
    const int32_t expected[] = {x == y, unordered || x != y, x > y, x >= y, x < y, x <= y, !unordered && x != y,
                                std::isfinite(x), std::isinf(x), std::isnan(x), std::isnormal(x), !unordered,
                                unordered, std::signbit(x), v, int32_t(bits)};
    for (size_t k = 0; k < std::size(expected); ++k) {
      EXPECT_EQ(out[i * 16 + k], expected[k]) << "slot " << k << " of (" << x << ", " << y << ")";
    }
  }
}

TEST_F(FloatBuiltins, SelectAnyAndAllLookAtTheTopBit) {
  std::vector<int32_t> m = {0, -1, 1, INT32_MIN, -1, -1, -1, -1, 0, 0, 0, 0x7fffffff};
  std::vector<float> a(12), b(12), out(12), expected(12);
  for (int i = 0; i < 12; ++i) a[i] = float(i), b[i] = float(-i - 100);
  std::vector<int32_t> flags(9);
  int32_t *pm = m.data(), *pflags = flags.data();
  float *pa = a.data(), *pb = b.data(), *pout = out.data();
  const void *args[] = {&pm, &pa, &pb, &pout, &pflags};
  run(kernel("select_any_all"), args, Range{1, {1, 1, 1}, {3, 1, 1}});
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], m[i] < 0 ? b[i] : a[i]) << "lane " << i;
  const int32_t want[] = {1, 0, 7, 1, 1, 9, 0, 0, 7}; // any, all, select(7, 9, m.x) for each int4
  for (int i = 0; i < 9; ++i) EXPECT_EQ(flags[i], want[i]) << "flag " << i;
}

TEST_F(FloatBuiltins, VectorLoadsAndStoresOfEveryWidthAndHalf) {
  std::vector<float> in(512), out(512, -1.0f), back(128, -1.0f);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i) * 0.5f + 0.25f;
  std::vector<uint16_t> halves(128, 0);
  float *pin = in.data(), *pout = out.data(), *pback = back.data();
  uint16_t *phalves = halves.data();
  const void *args[] = {&pin, &pout, &phalves, &pback};
  run(kernel("vector_io"), args, Range{1, {1, 1, 1}, {8, 1, 1}});
  auto copied = [&](size_t base, size_t n) {
    for (size_t k = base; k < base + n; ++k) ASSERT_EQ(out[k], in[k]) << "element " << k;
  };
  copied(0, 16);       // vload2/vstore2 over 8 work-items
  copied(64, 24);      // vload3
  copied(128, 32);     // vload4
  copied(192, 64);     // vload8
  copied(320, 128);    // vload16
  EXPECT_EQ(out[16], -1.0f) << "vstore2 wrote past its elements";
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(back[i], in[i]) << "a quarter-step value survives a round trip through half";
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(back[64 + 4 * i + k], in[4 * i + k]) << "vload_half4 " << i;
  }
  EXPECT_EQ(halves[1], 0x3a00u) << "0.75 as half"; // in[1] = 0.75
}

TEST_F(FloatBuiltins, ShuffleAndShuffle2PickLanesByTheMasksLowBits) {
  constexpr size_t items = 16;
  std::vector<float> x = float_inputs(items * 4, 4), y = float_inputs(items * 4, 5), one(items * 4), two(items * 4);
  std::vector<uint32_t> mask(items * 4);
  std::vector<int32_t> ints(items * 2);
  uint32_t state = 7;
  for (uint32_t &m : mask) m = (state = state * 1664525u + 1013904223u) >> 4; // high bits set too
  float *px = x.data(), *py = y.data(), *pone = one.data(), *ptwo = two.data();
  uint32_t *pmask = mask.data();
  int32_t *pints = ints.data();
  const void *args[] = {&px, &py, &pmask, &pone, &ptwo, &pints};
  run(kernel("shuffles"), args, Range{1, {2, 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < items; ++i) {
    for (size_t lane = 0; lane < 4; ++lane) {
      uint32_t m = mask[4 * i + lane];
      EXPECT_EQ(one[4 * i + lane], x[4 * i + m % 4]) << "shuffle, item " << i << " lane " << lane;
      float both = m % 8 < 4 ? x[4 * i + m % 4] : y[4 * i + m % 4];
      EXPECT_EQ(two[4 * i + lane], both) << "shuffle2, item " << i << " lane " << lane;
    }
    for (size_t lane = 0; lane < 2; ++lane) EXPECT_EQ(ints[2 * i + lane], 10 + int32_t(mask[4 * i + lane] % 4));
  }
}

float half_value(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  float magnitude = exponent == 0    ? std::ldexp(float(mantissa), -24)
                    : exponent == 31 ? (mantissa ? nan : inf)
                                     : std::ldexp(float(mantissa | 0x400), exponent - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

// The half nearest x in the direction `mode` asks, found among all halves.
float directed_half(float x, char mode) {
  float best = nan;
  for (uint32_t h = 0; h < 0x10000; ++h) {
    float v = half_value(uint16_t(h));
    if (std::isnan(v)) continue;
    bool allowed = mode == 'p' ? v >= x : mode == 'n' ? v <= x : std::fabs(v) <= std::fabs(x);
    bool closer = std::isnan(best) || std::fabs(v - x) < std::fabs(best - x);
    if (allowed && closer) best = v;
  }
  return best;
}

TEST_F(FloatBuiltins, VstoreHalfRoundsInEachMode) {
  std::vector<float> in = {1.0f, 1.0f / 3, -1.0f / 3, 0.1f, -0.1f, 65504.0f, 65519.0f, 70000.0f, -70000.0f,
                           1e-8f, -1e-8f, 3e-5f, -3e-5f, 1.00049f, -1.00049f, 2049.5f};
  std::vector<float> more = float_inputs(16, 9);
  in.insert(in.end(), more.begin(), more.end());
  for (float &v : more) v /= 7.0f;
  in.insert(in.end(), more.begin(), more.end());
  size_t n = in.size();
  std::vector<uint16_t> rte(n), rtz(n), rtp(n), rtn(n), rtz4(n);
  const float *pin = in.data();
  uint16_t *p0 = rte.data(), *p1 = rtz.data(), *p2 = rtp.data(), *p3 = rtn.data(), *p4 = rtz4.data();
  const void *args[] = {&pin, &p0, &p1, &p2, &p3, &p4};
  run(kernel("vstore_half_rounding"), args, Range{1, {uint32_t(n / 8), 1, 1}, {8, 1, 1}});
  for (size_t i = 0; i < n; ++i) {
    float x = in[i];
    float nearest = directed_half(x, 'p') - x <= x - directed_half(x, 'n') ? directed_half(x, 'p') : directed_half(x, 'n');
    if (std::fabs(x) >= 65520.0f) nearest = std::copysign(inf, x);
    EXPECT_EQ(half_value(rtz[i]), directed_half(x, 'z')) << "rtz " << x;
    EXPECT_EQ(half_value(rtz4[i]), directed_half(x, 'z')) << "rtz, four-wide " << x;
    EXPECT_EQ(half_value(rtp[i]), directed_half(x, 'p')) << "rtp " << x;
    EXPECT_EQ(half_value(rtn[i]), directed_half(x, 'n')) << "rtn " << x;
    if (directed_half(x, 'p') - x != x - directed_half(x, 'n')) { // ties are left to fptrunc
      EXPECT_EQ(half_value(rte[i]), nearest) << "rte " << x;
    }
  }
}

} // namespace
} // namespace zeal::cpu::test
