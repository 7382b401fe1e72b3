// Sub-group matrix products (issue 47): cl_intel_subgroup_matrix_multiply_accumulate and its tf32 extension, every
// operand type, both sub-group sizes and several row counts, with collectives as regions and as fibers. The test
// lays the matrices out in the lanes as the extensions describe (a's rows spread over the lanes, b and acc one
// column a lane) and checks each result against a product computed on the host: integers exactly, floating point
// bit for bit with each product exact and the sum taken in k order, what the driver documents.
#include "test_support.hpp"
#include "tests/support/intel_spirv.hpp"

#include <bit>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace zeal::cpu::test {
namespace {

struct Case {
  const char *kernel;
  uint32_t sub_group, rows;
  std::string a, b;          // i8 u8 i4 u4 f16 bf16 tf32
  std::string acc;           // i32 f32 f16 bf16
  bool instruction = false;  // the SPIR-V instruction (matrix_mad_spirv.spvasm), not the OpenCL built-in
};

uint32_t element_bits(const std::string &type) {
  if (type == "i4" || type == "u4") return 4;
  if (type == "i8" || type == "u8") return 8;
  return type == "tf32" ? 32 : 16;
}

uint16_t bfloat16_bits(float f) {
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  return uint16_t((bits + 0x7fff + (bits >> 16 & 1)) >> 16);
}

// Random matrix elements of `type`, exactly representable, and their encodings (tf32 with noise in the 13 low
// mantissa bits the product must ignore).
struct Elements {
  std::vector<double> value;
  std::vector<uint32_t> bits;
};
Elements random_elements(const std::string &type, size_t n, std::mt19937 &rng) {
  Elements e;
  for (size_t i = 0; i < n; ++i) {
    if (type[0] == 'i' || type[0] == 'u') {
      const int bits = int(element_bits(type));
      const int low = type[0] == 'i' ? -(1 << (bits - 1)) : 0, high = type[0] == 'i' ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
      const int v = std::uniform_int_distribution<int>(low, high)(rng);
      e.value.push_back(v);
      e.bits.push_back(uint32_t(v) & ((1u << bits) - 1));
      continue;
    }
    const float v = float(std::uniform_int_distribution<int>(-255, 255)(rng)) / 16.0f;
    e.value.push_back(v);
    if (type == "f16") e.bits.push_back(std::bit_cast<uint16_t>(static_cast<_Float16>(v)));
    else if (type == "bf16") e.bits.push_back(bfloat16_bits(v));
    else e.bits.push_back(std::bit_cast<uint32_t>(v) | std::uniform_int_distribution<uint32_t>(0, 0x1fff)(rng));
  }
  return e;
}

class MatrixMad : public CpuDriver, public ::testing::WithParamInterface<const char *> {
protected:
  void run_case(const Case &c) {
    SCOPED_TRACE(c.kernel);
    std::mt19937 rng(uint32_t(std::hash<std::string>{}(c.kernel)));
    const uint32_t n = c.sub_group, m_rows = c.rows, ebits = element_bits(c.a), k_count = 256 / ebits;
    const Elements a = random_elements(c.a, size_t(m_rows) * k_count, rng); // a[m * K + k]
    const Elements b = random_elements(c.b, size_t(k_count) * n, rng);      // b[k * N + col]
    const std::string acc_type = c.acc == "i32" ? "i8" : c.acc == "f32" ? "f16" : c.acc;
    const Elements acc = random_elements(acc_type, size_t(m_rows) * n, rng); // acc[m * N + col]

    // a: each lane's parts, vload'ed as `slots` values of a_bytes.
    const bool tf32 = c.a == "tf32";
    const uint32_t a_bytes = tf32 || n == 8 ? 4 : 2, slots = tf32 ? std::max(1u, m_rows / 2) : m_rows;
    auto *a_in = shared_array<uint8_t>(size_t(n) * slots * a_bytes);
    std::memset(a_in, 0, size_t(n) * slots * a_bytes);
    for (uint32_t lane = 0; lane < n; ++lane) {
      for (uint32_t slot = 0; slot < slots; ++slot) {
        uint32_t word = 0;
        if (tf32) {
          const uint32_t row = m_rows == 1 ? 0 : 2 * slot + lane / 8, k = m_rows == 1 ? lane : lane % 8;
          word = m_rows == 1 && lane >= 8 ? 0x7fc00000u : a.bits[row * k_count + k]; // lanes 8-15 ignored at M=1
        } else {
          const uint32_t per_lane = a_bytes * 8 / ebits;
          for (uint32_t e = 0; e < per_lane; ++e) word |= a.bits[slot * k_count + lane * per_lane + e] << (e * ebits);
        }
        std::memcpy(a_in + (size_t(lane) * slots + slot) * a_bytes, &word, a_bytes);
      }
    }
    // b: each lane's column, 8 words.
    auto *b_in = shared_array<uint32_t>(size_t(n) * 8);
    for (uint32_t lane = 0; lane < n; ++lane) {
      for (uint32_t w = 0; w < 8; ++w) {
        uint32_t word = 0;
        const uint32_t per_word = 32 / ebits;
        for (uint32_t e = 0; e < per_word; ++e) word |= b.bits[(w * per_word + e) * n + lane] << (e * ebits);
        b_in[lane * 8 + w] = word;
      }
    }
    // acc and out: each lane's column, vload'ed as m_rows values.
    const uint32_t acc_bytes = c.acc == "f16" || c.acc == "bf16" ? 2 : 4;
    auto *acc_in = shared_array<uint8_t>(size_t(n) * m_rows * acc_bytes);
    auto *out = shared_array<uint8_t>(size_t(n) * m_rows * acc_bytes);
    std::memset(out, 0xee, size_t(n) * m_rows * acc_bytes);
    for (uint32_t lane = 0; lane < n; ++lane) {
      for (uint32_t m = 0; m < m_rows; ++m) {
        uint32_t bits = acc.bits[m * n + lane];
        if (c.acc == "i32") bits = uint32_t(int32_t(acc.value[m * n + lane] * 1000));
        if (c.acc == "f32") bits = std::bit_cast<uint32_t>(float(acc.value[m * n + lane]));
        std::memcpy(acc_in + (size_t(lane) * m_rows + m) * acc_bytes, &bits, acc_bytes);
      }
    }

    ze_module_handle_t module = nullptr;
    std::string log;
    const std::vector<uint8_t> spirv = c.instruction
                                           ? zeal::test::with_intel_instructions(read_kernel("matrix_mad_spirv.spv"))
                                           : read_kernel("matrix_mad.spv");
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(spirv, module, &log, GetParam())) << log;
    ze_kernel_handle_t k = kernel(module, c.kernel);
    ASSERT_NE(nullptr, k);
    void *args[] = {a_in, b_in, acc_in, out};
    for (uint32_t i = 0; i < 4; ++i) ZE_ASSERT_OK(zeKernelSetArgumentValue(k, i, sizeof(void *), &args[i]));
    ZE_ASSERT_OK(zeKernelSetGroupSize(k, n, 1, 1));
    ZE_ASSERT_OK(launch_and_wait(k, {1, 1, 1}));

    for (uint32_t lane = 0; lane < n; ++lane) {
      for (uint32_t m = 0; m < m_rows; ++m) {
        uint32_t got = 0, want = 0;
        std::memcpy(&got, out + (size_t(lane) * m_rows + m) * acc_bytes, acc_bytes);
        std::memcpy(&want, acc_in + (size_t(lane) * m_rows + m) * acc_bytes, acc_bytes);
        if (c.acc == "i32") {
          int64_t sum = int32_t(want);
          for (uint32_t kk = 0; kk < k_count; ++kk)
            sum += int64_t(a.value[m * k_count + kk]) * int64_t(b.value[kk * n + lane]);
          want = uint32_t(int32_t(sum));
        } else {
          float sum = c.acc == "f32" ? std::bit_cast<float>(want)
                      : c.acc == "f16" ? float(std::bit_cast<_Float16>(uint16_t(want)))
                                       : std::bit_cast<float>(want << 16);
          for (uint32_t kk = 0; kk < k_count; ++kk) {
            float x = float(a.value[m * k_count + kk]), y = float(b.value[kk * n + lane]);
            if (tf32) { // what the product reads: the encoded value with its low bits dropped
              x = std::bit_cast<float>(a.bits[m * k_count + kk] & ~0x1fffu);
              y = std::bit_cast<float>(b.bits[kk * n + lane] & ~0x1fffu);
            }
            sum += x * y;
          }
          want = c.acc == "f32"   ? std::bit_cast<uint32_t>(sum)
                 : c.acc == "f16" ? std::bit_cast<uint16_t>(static_cast<_Float16>(sum))
                                  : bfloat16_bits(sum);
        }
        EXPECT_EQ(want, got) << "row " << m << ", column " << lane;
      }
    }
  }
};

TEST_P(MatrixMad, EightBitAndFourBitIntegersInSubGroupsOf8) {
  for (const char *t : {"i8_i8", "i8_u8", "u8_i8", "u8_u8", "i4_i4", "i4_u4", "u4_i4", "u4_u4"}) {
    const std::string name = std::string(t) + "_sg8", types = t;
    run_case({name.c_str(), 8, 8, types.substr(0, 2), types.substr(3, 2), "i32"});
  }
  run_case({"i8_i8_sg8_m4", 8, 4, "i8", "i8", "i32"});
}

TEST_P(MatrixMad, EightBitAndFourBitIntegersInSubGroupsOf16) {
  run_case({"i8_i8_sg16", 16, 8, "i8", "i8", "i32"});
  run_case({"u8_i8_sg16", 16, 8, "u8", "i8", "i32"});
  run_case({"i4_u4_sg16", 16, 8, "i4", "u4", "i32"});
  run_case({"u4_u4_sg16", 16, 8, "u4", "u4", "i32"});
}

TEST_P(MatrixMad, HalfAndBfloat16WithFloatAccumulators) {
  run_case({"f16_sg8", 8, 8, "f16", "f16", "f32"});
  run_case({"bf16_sg8", 8, 8, "bf16", "bf16", "f32"});
  run_case({"f16_sg8_m1", 8, 1, "f16", "f16", "f32"});
  run_case({"f16_sg8_m2", 8, 2, "f16", "f16", "f32"});
  run_case({"f16_sg16", 16, 8, "f16", "f16", "f32"});
  run_case({"bf16_sg16", 16, 8, "bf16", "bf16", "f32"});
  run_case({"bf16_sg16_m2", 16, 2, "bf16", "bf16", "f32"});
}

TEST_P(MatrixMad, HalfAndBfloat16AccumulatorsRoundTheSumOnce) {
  run_case({"f16_acc_f16_sg16", 16, 8, "f16", "f16", "f16"});
  run_case({"bf16_acc_bf16_sg16", 16, 8, "bf16", "bf16", "bf16"});
}

TEST_P(MatrixMad, Tf32ReadsTenMantissaBitsAndSpreadsRowsOverTwoHalvesOfTheSubGroup) {
  run_case({"tf32_m1", 16, 1, "tf32", "tf32", "f32"});
  run_case({"tf32_m2", 16, 2, "tf32", "tf32", "f32"});
  run_case({"tf32_m4", 16, 4, "tf32", "tf32", "f32"});
  run_case({"tf32_m8", 16, 8, "tf32", "tf32", "f32"});
}

// OpSubgroupMatrixMultiplyAccumulateINTEL, as Triton's XPU back end emits it: the same products, the operand types
// from the instruction's K and its Matrix Multiply Accumulate Operands.
TEST_P(MatrixMad, TheSpirvInstructionComputesTheSameProducts) {
  run_case({"spirv_bf16_sg16", 16, 8, "bf16", "bf16", "f32", true});
  run_case({"spirv_i8_u8_sg8", 8, 8, "i8", "u8", "i32", true});
  run_case({"spirv_f16_acc_f16_sg16", 16, 8, "f16", "f16", "f16", true});
  run_case({"spirv_tf32_m4", 16, 4, "tf32", "tf32", "f32", true});
}

INSTANTIATE_TEST_SUITE_P(Schemes, MatrixMad, ::testing::Values("", "-zeal-barriers=fibers"),
                         [](const auto &scheme) { return std::string(scheme.param[0] ? "fibers" : "regions"); });

} // namespace
} // namespace zeal::cpu::test
