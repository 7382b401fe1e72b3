// The host's half (_Float16) for the tests of half built-ins: bits, units in the last place, neighbours.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace zeal::cpu::test {

using Half = _Float16;

inline uint16_t half_bits(Half h) {
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

inline Half half_from_bits(uint16_t bits) {
  Half h;
  std::memcpy(&h, &bits, 2);
  return h;
}

inline bool is_nan(Half h) { return std::isnan(float(h)); }

// The next half towards +infinity (up) or -infinity; NaN and the infinity in that direction stay.
inline Half next_half(Half h, bool up) {
  uint16_t bits = half_bits(h);
  if (is_nan(h) || bits == (up ? 0x7c00 : 0xfc00)) return h;
  if ((bits & 0x7fff) == 0) return half_from_bits(up ? 0x0001 : 0x8001);
  bool negative = bits & 0x8000;
  return half_from_bits(uint16_t(negative == up ? bits - 1 : bits + 1));
}

// One unit in the last place at magnitude `m` (finite): 2^-24 among the subnormals.
inline double half_ulp(double m) {
  if (m < 0x1p-14) return 0x1p-24;
  int exponent = 0;
  std::frexp(m, &exponent); // m in [2^(exponent-1), 2^exponent)
  return std::ldexp(1.0, exponent - 11);
}

} // namespace zeal::cpu::test
