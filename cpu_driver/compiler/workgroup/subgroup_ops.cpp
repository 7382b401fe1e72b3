// What one lane of a sub-group collective gets from the lanes' posted values (shuffles, votes, ballots, reductions, scans).
#include "cpu_driver/compiler/host_runtime.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace zeal::cpu::detail {
namespace {

// IEEE half <-> float, so that half reductions round like the device's half arithmetic.
float half_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | mantissa << 13);
  if (exponent == 0) return (sign ? -1.0f : 1.0f) * std::ldexp(float(mantissa), -24);
  return std::bit_cast<float>(sign | (exponent + 112) << 23 | mantissa << 13);
}

uint16_t float_to_half(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint16_t sign = uint16_t((bits >> 16) & 0x8000);
  float magnitude = std::fabs(f);
  if (std::isnan(f)) return uint16_t(sign | 0x7e00);
  if (magnitude >= 65520.0f) return uint16_t(sign | 0x7c00); // rounds to infinity
  if (magnitude < std::ldexp(1.0f, -14)) {                    // subnormal: a multiple of 2^-24, rounded to even
    return uint16_t(sign | uint16_t(std::nearbyint(magnitude * std::ldexp(1.0f, 24))));
  }
  uint32_t m = std::bit_cast<uint32_t>(magnitude);
  uint32_t rounded = m + 0xfff + ((m >> 13) & 1); // round to nearest even at bit 13
  return uint16_t(sign | (((rounded >> 23) - 112) << 10 | ((rounded >> 13) & 0x3ff)));
}

struct Half {
  uint16_t bits;
};

template <class T> struct Arith {
  using Wide = T; // arithmetic happens in T, except for half
  static Wide load(const unsigned char *p) { T v; std::memcpy(&v, p, sizeof v); return v; }
  static void store(Wide v, void *out) { std::memcpy(out, &v, sizeof(T)); }
  static Wide lowest() { return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest(); }
  static Wide highest() { return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max(); }
  static Wide round(Wide v) { return v; }
};
template <> struct Arith<Half> {
  using Wide = float;
  static Wide load(const unsigned char *p) { uint16_t v; std::memcpy(&v, p, 2); return half_to_float(v); }
  static void store(Wide v, void *out) { uint16_t h = float_to_half(v); std::memcpy(out, &h, 2); }
  static Wide lowest() { return -std::numeric_limits<float>::infinity(); }
  static Wide highest() { return std::numeric_limits<float>::infinity(); }
  static Wide round(Wide v) { return half_to_float(float_to_half(v)); } // every step rounds to half
};

template <class W> W identity(SgArith op, W lowest, W highest) {
  switch (op) {
  case SgArith::Mul: case SgArith::LogicalAnd: return W(1);
  case SgArith::Min: return highest;
  case SgArith::Max: return lowest;
  case SgArith::And: if constexpr (std::is_integral_v<W>) return W(~W(0)); else return W(0);
  default: return W(0);
  }
}

template <class W> W apply(SgArith op, W a, W b) {
  switch (op) {
  case SgArith::Add: return W(a + b);
  case SgArith::Mul: return W(a * b);
  case SgArith::Min: return b < a ? b : a;
  case SgArith::Max: return a < b ? b : a;
  case SgArith::LogicalAnd: return W(a != W(0) && b != W(0));
  case SgArith::LogicalOr: return W(a != W(0) || b != W(0));
  case SgArith::LogicalXor: return W((a != W(0)) != (b != W(0)));
  default: break;
  }
  if constexpr (std::is_integral_v<W>) {
    if (op == SgArith::And) return W(a & b);
    if (op == SgArith::Or) return W(a | b);
    if (op == SgArith::Xor) return W(a ^ b);
  }
  return a;
}

// Reduce, scans and clustered reduce over the active lanes, in lane order.
template <class T> void fold(SgOp kind, SgArith op, const CollectiveView &v, uint32_t arg, void *out) {
  using A = Arith<T>;
  using W = typename A::Wide;
  W acc = identity<W>(op, A::lowest(), A::highest());
  uint32_t first = 0, last = v.size; // lanes [first, last)
  if (kind == SgOp::ScanInclusive) last = v.lane + 1;
  if (kind == SgOp::ScanExclusive) last = v.lane;
  if (kind == SgOp::ClusteredReduce && arg != 0) {
    first = v.lane / arg * arg;
    last = std::min(v.size, first + arg);
  }
  bool logical = op == SgArith::LogicalAnd || op == SgArith::LogicalOr || op == SgArith::LogicalXor;
  for (uint32_t j = first; j < last; ++j) {
    if ((v.active >> j & 1) == 0) continue;
    W value = A::load(v.posts[j]);
    acc = A::round(apply(op, acc, logical ? W(value != W(0)) : value));
  }
  A::store(acc, out);
}

// The same results for every active lane at once, in one pass in lane order:
// a scan writes each lane's result as the running value passes it, so every
// lane gets exactly what fold() computes for it alone.
template <class T> void fold_lanes(SgOp kind, SgArith op, const CollectiveView &v, const CollectiveRecord *lanes) {
  using A = Arith<T>;
  using W = typename A::Wide;
  W acc = identity<W>(op, A::lowest(), A::highest());
  bool logical = op == SgArith::LogicalAnd || op == SgArith::LogicalOr || op == SgArith::LogicalXor;
  for (uint32_t j = 0; j < v.size; ++j) {
    if ((v.active >> j & 1) == 0) continue;
    if (kind == SgOp::ScanExclusive) A::store(acc, lanes[j].out);
    W value = A::load(v.posts[j]);
    acc = A::round(apply(op, acc, logical ? W(value != W(0)) : value));
    if (kind == SgOp::ScanInclusive) A::store(acc, lanes[j].out);
  }
  if (kind != SgOp::Reduce) return;
  for (uint32_t j = 0; j < v.size; ++j) {
    if (v.active >> j & 1) A::store(acc, lanes[j].out);
  }
}

// Calls `f` with a value of the C++ type of `element`.
template <class F> void with_type(SgElement element, F &&f) {
  switch (element) {
  case SgElement::I8: return f(int8_t{});
  case SgElement::U8: return f(uint8_t{});
  case SgElement::I16: return f(int16_t{});
  case SgElement::U16: return f(uint16_t{});
  case SgElement::I32: return f(int32_t{});
  case SgElement::U32: return f(uint32_t{});
  case SgElement::I64: return f(int64_t{});
  case SgElement::U64: return f(uint64_t{});
  case SgElement::F16: return f(Half{});
  case SgElement::F32: return f(float{});
  case SgElement::F64: return f(double{});
  }
}

void fold_typed(SgOp kind, SgArith op, SgElement element, const CollectiveView &v, uint32_t arg, void *out) {
  with_type(element, [&](auto type) { fold<decltype(type)>(kind, op, v, arg, out); });
}

uint32_t element_bytes(SgElement element) {
  switch (element) {
  case SgElement::I8: case SgElement::U8: return 1;
  case SgElement::I16: case SgElement::U16: case SgElement::F16: return 2;
  case SgElement::I32: case SgElement::U32: case SgElement::F32: return 4;
  default: return 8;
  }
}

int32_t predicate(const CollectiveView &v, uint32_t j) {
  int32_t value;
  std::memcpy(&value, v.posts[j], sizeof value);
  return value;
}

// Lane j's bytes at `offset`; a lane outside the sub-group or not taking part
// (undefined behaviour in OpenCL) gives the caller's own value instead of garbage.
const unsigned char *source(const CollectiveView &v, int64_t j, uint32_t offset) {
  bool valid = j >= 0 && j < int64_t(v.size) && (v.active >> j & 1);
  return (valid ? v.posts[j] : v.posts[v.lane]) + offset;
}

// `second`: where a two-value shuffle's second value starts in a post.
const unsigned char *shuffled(SgOp op, const CollectiveView &v, uint32_t arg, uint32_t second) {
  const int64_t lane = v.lane, max = v.max_size;
  switch (op) {
  case SgOp::Shuffle: case SgOp::Broadcast: return source(v, arg, 0);
  case SgOp::ShuffleXor: return source(v, lane ^ arg, 0);
  case SgOp::ShuffleUpKhr: return source(v, lane - int64_t(arg), 0);
  case SgOp::ShuffleDownKhr: return source(v, lane + int64_t(arg), 0);
  case SgOp::BroadcastFirst: return source(v, std::countr_zero(v.active), 0);
  // intel_sub_group_shuffle_down(current, next, delta): posts hold current then next.
  case SgOp::ShuffleDown: {
    int64_t j = lane + int64_t(arg);
    return j < max ? source(v, j, 0) : source(v, j - max, second);
  }
  // intel_sub_group_shuffle_up(previous, current, delta): posts hold previous then current.
  default: {
    int64_t j = lane - int64_t(arg);
    return j >= 0 ? source(v, j, second) : source(v, j + max, 0);
  }
  }
}

// --- Sub-group matrix products (cl_intel_subgroup_matrix_multiply_accumulate and its tf32 extension) ---

struct MatrixShape {
  uint32_t element_bits;      // of a and b's components: 4, 8, 16 or 32 (tf32)
  bool a_signed, b_signed;    // integer components
  bool is_float;
};

MatrixShape shape_of(SgMatrix kind) {
  switch (kind) {
  case SgMatrix::I8I8: return {8, true, true, false};
  case SgMatrix::I8U8: return {8, true, false, false};
  case SgMatrix::U8I8: return {8, false, true, false};
  case SgMatrix::U8U8: return {8, false, false, false};
  case SgMatrix::I4I4: return {4, true, true, false};
  case SgMatrix::I4U4: return {4, true, false, false};
  case SgMatrix::U4I4: return {4, false, true, false};
  case SgMatrix::U4U4: return {4, false, false, false};
  case SgMatrix::TF32: return {32, true, true, true};
  default: return {16, true, true, true}; // fp16 and bf16, either accumulator
  }
}

// Component k of packed operand bytes, `bits` wide, lowest bits first.
int32_t integer_component(const unsigned char *bytes, uint32_t k, uint32_t bits, bool is_signed) {
  const uint32_t bit = k * bits;
  const uint32_t value = bits == 8 ? bytes[bit / 8] : (bytes[bit / 8] >> (bit % 8)) & 0xfu;
  const bool negative = is_signed && (value >> (bits - 1) & 1);
  return negative ? int32_t(value) - (1 << bits) : int32_t(value);
}

float float_component(const unsigned char *bytes, uint32_t k, SgMatrix kind) {
  if (kind == SgMatrix::TF32) {
    uint32_t bits;
    std::memcpy(&bits, bytes + 4 * k, 4);
    return std::bit_cast<float>(bits & ~0x1fffu); // tf32 keeps 10 of the 23 mantissa bits
  }
  uint16_t bits;
  std::memcpy(&bits, bytes + 2 * k, 2);
  const bool bf16 = kind == SgMatrix::BF16 || kind == SgMatrix::BF16AccBF16;
  return bf16 ? std::bit_cast<float>(uint32_t(bits) << 16) : half_to_float(bits);
}

uint16_t float_to_bfloat16(float f) { // round to nearest even; a NaN stays a NaN
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return uint16_t(bits >> 16 | 0x40);
  return uint16_t((bits + 0x7fff + (bits >> 16 & 1)) >> 16);
}

// Where row m, column k of `a` lies: the lane that holds it, and the component within that lane's post.
// Rows are spread over the lanes' components (each lane holds a_bits of every row, K / lanes components), except
// tf32, where lanes 0-7 hold the even rows and lanes 8-15 the odd ones (one row of 8 when M is 1).
struct APlace {
  uint32_t lane, component;
};
APlace place_in_a(SgMatrix kind, uint32_t m, uint32_t k, uint32_t rows, uint32_t a_bits, uint32_t element_bits) {
  if (kind == SgMatrix::TF32) {
    if (rows == 1) return {k, 0};
    return {k + (m % 2) * 8, m / 2};
  }
  const uint32_t per_lane = a_bits / element_bits;
  return {k / per_lane, m * per_lane + k % per_lane};
}

// Matrix A of one product, read once for the sub-group from every lane's post: rows x K values (integers or
// floats), and whether a lane taking part gave each (a lane that did not adds nothing).
struct MatrixA {
  static constexpr uint32_t max_rows = 8, max_k = 64;
  SgMatrix kind;
  MatrixShape shape;
  uint32_t rows, k_count;
  int32_t integer[max_rows][max_k];
  float real[max_rows][max_k];
  bool given[max_rows][max_k];
};

void read_a(uint32_t code, const CollectiveView &v, MatrixA &a) {
  a.kind = SgMatrix(code >> 8 & 0xff);
  const uint32_t a_bits = code >> 16 & 0xff;
  a.rows = std::min(code >> 24, MatrixA::max_rows);
  a.shape = shape_of(a.kind);
  a.k_count = a.kind == SgMatrix::TF32 ? 8 : 256 / a.shape.element_bits;
  for (uint32_t m = 0; m < a.rows; ++m) {
    for (uint32_t k = 0; k < a.k_count; ++k) {
      const APlace at = place_in_a(a.kind, m, k, a.rows, a_bits, a.shape.element_bits);
      a.given[m][k] = at.lane < v.size && (v.active >> at.lane & 1) != 0;
      if (!a.given[m][k]) continue;
      if (a.shape.is_float) a.real[m][k] = float_component(v.posts[at.lane], at.component, a.kind);
      else a.integer[m][k] = integer_component(v.posts[at.lane], at.component, a.shape.element_bits, a.shape.a_signed);
    }
  }
}

// A lane's column of acc + a x b, from its post: each product exact in float (f16, bf16 and tf32 products fit in 24
// bits) and summed in k order; integers in 32-bit wrapping arithmetic.
void lane_product(const MatrixA &a, const unsigned char *post, void *out) {
  const unsigned char *b = post + sg_matrix_b_at, *acc = post + sg_matrix_acc_at;
  const MatrixShape &s = a.shape;
  const bool narrow_acc = a.kind == SgMatrix::F16AccF16 || a.kind == SgMatrix::BF16AccBF16;
  auto *result = static_cast<unsigned char *>(out);
  if (!s.is_float) {
    int32_t column[MatrixA::max_k];
    for (uint32_t k = 0; k < a.k_count; ++k) column[k] = integer_component(b, k, s.element_bits, s.b_signed);
    for (uint32_t m = 0; m < a.rows; ++m) {
      uint32_t total;
      std::memcpy(&total, acc + 4 * m, 4);
      for (uint32_t k = 0; k < a.k_count; ++k)
        if (a.given[m][k]) total += uint32_t(a.integer[m][k] * column[k]);
      std::memcpy(result + 4 * m, &total, 4);
    }
    return;
  }
  float column[MatrixA::max_k];
  for (uint32_t k = 0; k < a.k_count; ++k) column[k] = float_component(b, k, a.kind);
  for (uint32_t m = 0; m < a.rows; ++m) {
    float sum;
    if (narrow_acc) {
      uint16_t bits;
      std::memcpy(&bits, acc + 2 * m, 2);
      sum = a.kind == SgMatrix::F16AccF16 ? half_to_float(bits) : std::bit_cast<float>(uint32_t(bits) << 16);
    } else {
      std::memcpy(&sum, acc + 4 * m, 4);
    }
    for (uint32_t k = 0; k < a.k_count; ++k)
      if (a.given[m][k]) sum += a.real[m][k] * column[k];
    if (narrow_acc) {
      const uint16_t bits = a.kind == SgMatrix::F16AccF16 ? float_to_half(sum) : float_to_bfloat16(sum);
      std::memcpy(result + 2 * m, &bits, 2);
    } else {
      std::memcpy(result + 4 * m, &sum, 4);
    }
  }
}

// One lane's result (a lane run alone, as fibers do).
void matrix_mad(uint32_t code, const CollectiveView &v, void *out) {
  MatrixA a;
  read_a(code, v, a);
  lane_product(a, v.posts[v.lane], out);
}

// Every lane's: matrix A read once for the sub-group.
void matrix_mad_lanes(uint32_t code, const CollectiveView &v, const CollectiveRecord *lanes) {
  MatrixA a;
  read_a(code, v, a);
  for (uint32_t j = 0; j < v.size; ++j)
    if (v.active >> j & 1) lane_product(a, v.posts[j], lanes[j].out);
}

} // namespace

uint32_t sg_post_bytes(uint32_t code) {
  const auto op = SgOp(code & 0xff);
  if (op == SgOp::MatrixMad) return sg_matrix_post_bytes;
  const uint32_t count = code >> 24, two = op == SgOp::ShuffleDown || op == SgOp::ShuffleUp ? 2 : 1;
  return element_bytes(SgElement(code >> 16 & 0xff)) * (count == 3 ? 4 : count) * two;
}

void combine_collective(uint32_t code, const CollectiveView &v, uint32_t arg, void *out) {
  auto op = SgOp(code & 0xff);
  auto arith = SgArith(code >> 8 & 0xff);
  auto element = SgElement(code >> 16 & 0xff);
  const uint32_t count = code >> 24;
  uint32_t bytes = element_bytes(element) * count;
  // The compiled code posts the second value at the first one's alloc size, and a 3-vector
  // takes the space of a 4-vector (subgroups.cpp, define_collective).
  uint32_t second = element_bytes(element) * (count == 3 ? 4 : count);
  int32_t result = 0;
  switch (op) {
  case SgOp::Barrier: return;
  case SgOp::MatrixMad: return matrix_mad(code, v, out);
  case SgOp::Reduce: case SgOp::ScanInclusive: case SgOp::ScanExclusive: case SgOp::ClusteredReduce:
    return fold_typed(op, arith, element, v, arg, out);
  case SgOp::Elect: result = int32_t(v.lane) == std::countr_zero(v.active); break;
  case SgOp::All: case SgOp::Any: case SgOp::AllEqual:
    result = op != SgOp::Any;
    for (uint32_t j = 0; j < v.size; ++j) {
      if ((v.active >> j & 1) == 0) continue;
      if (op == SgOp::All) result &= predicate(v, j) != 0;
      if (op == SgOp::Any) result |= predicate(v, j) != 0;
      if (op == SgOp::AllEqual) result &= std::memcmp(v.posts[j], v.posts[v.lane], bytes) == 0;
    }
    break;
  case SgOp::Ballot: {
    uint32_t words[4] = {};
    for (uint32_t j = 0; j < v.size; ++j) {
      if ((v.active >> j & 1) && predicate(v, j) != 0) words[j / 32] |= 1u << (j % 32);
    }
    std::memcpy(out, words, sizeof words);
    return;
  }
  default: std::memcpy(out, shuffled(op, v, arg, second), bytes); return;
  }
  std::memcpy(out, &result, sizeof result);
}

namespace {

// Copies `bytes` bytes; the common sizes as fixed-size copies, not memcpy calls.
void copy_value(void *out, const unsigned char *from, uint32_t bytes) {
  switch (bytes) {
  case 4: std::memcpy(out, from, 4); return;
  case 8: std::memcpy(out, from, 8); return;
  case 16: std::memcpy(out, from, 16); return;
  default: std::memcpy(out, from, bytes); return;
  }
}

// Shuffles and broadcasts: one source lane each, the code decoded once.
void shuffle_lanes(SgOp op, uint32_t code, const CollectiveView &view, const CollectiveRecord *lanes) {
  const auto element = SgElement(code >> 16 & 0xff);
  const uint32_t count = code >> 24, bytes = element_bytes(element) * count;
  const uint32_t second = element_bytes(element) * (count == 3 ? 4 : count);
  CollectiveView lane_view = view;
  for (uint32_t j = 0; j < view.size; ++j) {
    if ((view.active >> j & 1) == 0) continue;
    lane_view.lane = j;
    copy_value(lanes[j].out, shuffled(op, lane_view, lanes[j].arg, second), bytes);
  }
}

} // namespace

void combine_sub_group(const CollectiveView &view, const CollectiveRecord *lanes) {
  const uint32_t first = uint32_t(std::countr_zero(view.active));
  const uint32_t code = lanes[first].code; // the lanes are at one call site: one code
  const auto op = SgOp(code & 0xff);
  uint32_t shared_bytes = 0; // of a result every lane shares: computed once
  switch (op) {
  case SgOp::Barrier: return;
  case SgOp::Reduce: case SgOp::ScanInclusive: case SgOp::ScanExclusive:
    with_type(SgElement(code >> 16 & 0xff), [&](auto type) {
      fold_lanes<decltype(type)>(op, SgArith(code >> 8 & 0xff), view, lanes);
    });
    return;
  case SgOp::All: case SgOp::Any: shared_bytes = sizeof(int32_t); break;
  case SgOp::Ballot: shared_bytes = 4 * sizeof(uint32_t); break;
  case SgOp::MatrixMad: return matrix_mad_lanes(code, view, lanes);
  case SgOp::Elect: case SgOp::AllEqual: case SgOp::ClusteredReduce: break;
  default: return shuffle_lanes(op, code, view, lanes);
  }
  CollectiveView lane_view = view;
  for (uint32_t j = first; j < view.size; ++j) {
    if ((view.active >> j & 1) == 0) continue;
    if (shared_bytes != 0 && j != first) {
      std::memcpy(lanes[j].out, lanes[first].out, shared_bytes);
      continue;
    }
    lane_view.lane = j;
    combine_collective(code, lane_view, lanes[j].arg, lanes[j].out);
  }
}

namespace {

// Bits of the ballot that belong to lanes of this sub-group.
bool bit(const uint32_t ballot[4], uint32_t j) { return j < 128 && (ballot[j / 32] >> (j % 32) & 1); }

extern "C" uint32_t zeal_cpu_ballot_query(HostWorkItem *wi, uint32_t kind, const uint32_t *ballot, uint32_t arg) {
  const uint64_t total = wi->local_size[0] * wi->local_size[1] * wi->local_size[2];
  const uint64_t linear = (wi->local_id[2] * wi->local_size[1] + wi->local_id[1]) * wi->local_size[0] + wi->local_id[0];
  const uint64_t s = wi->subgroup_size, first = linear / s * s;
  const uint32_t lane = uint32_t(linear - first), size = uint32_t(std::min(s, total - first));
  uint32_t count = 0, lsb = ~0u, msb = ~0u;
  for (uint32_t j = 0; j < size; ++j) {
    if (!bit(ballot, j)) continue;
    if (kind == 2 || (kind == 3 && j <= lane) || (kind == 4 && j < lane)) ++count;
    if (lsb == ~0u) lsb = j;
    msb = j;
  }
  switch (kind) {
  case 0: return bit(ballot, lane);
  case 1: return bit(ballot, arg);
  case 5: return lsb;
  case 6: return msb;
  default: return count;
  }
}

} // namespace

std::span<const RuntimeSymbol> subgroup_op_symbols() {
  static const RuntimeSymbol symbols[] = {
      {ballot_query_symbol, reinterpret_cast<void *>(&zeal_cpu_ballot_query)},
      block_2d_runtime_symbol(),
  };
  return symbols;
}

} // namespace zeal::cpu::detail
