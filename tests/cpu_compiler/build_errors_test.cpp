// compile_spirv on input it must refuse: not SPIR-V, unsupported versions; kernels calling built-ins it does not provide.
#include "test_support.hpp"

#include <fmt/format.h>

#include <cstring>

namespace zeal::cpu::test {
namespace {

void set_word(std::vector<uint8_t> &binary, size_t index, uint32_t value) {
  std::memcpy(binary.data() + 4 * index, &value, 4);
}

void expect_failure(std::span<const uint8_t> binary, ze_result_t code, const std::string &log_part) {
  auto program = compile_spirv(binary, {});
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.error().code, code) << fmt::format("{:#x}", static_cast<uint32_t>(program.error().code));
  EXPECT_NE(program.error().log.find(log_part), std::string::npos) << program.error().log;
  EXPECT_FALSE(program.error().message.empty());
}

// vector_add with header word `index` (0: the magic number, 1: the version) replaced by `value`.
void expect_failure_with_header_word(size_t index, uint32_t value, ze_result_t code, const std::string &log_part) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  set_word(binary, index, value);
  expect_failure(binary, code, log_part);
}

TEST(CpuCompilerRejects, AnEmptyBinaryAsInvalidBinary) {
  expect_failure({}, ZE_RESULT_ERROR_INVALID_ARGUMENT, "the SPIR-V binary is empty");
}

TEST(CpuCompilerRejects, ABinaryWhoseSizeIsNotAMultipleOfFour) {
  std::vector<uint8_t> seven(7, 0x03);
  expect_failure(seven, ZE_RESULT_ERROR_INVALID_ARGUMENT,
                 "the SPIR-V binary is 7 bytes long, which is not a multiple of 4");
}

TEST(CpuCompilerRejects, ABinaryShorterThanTheHeader) {
  std::vector<uint8_t> twelve(12, 0);
  expect_failure(twelve, ZE_RESULT_ERROR_INVALID_ARGUMENT, "shorter than the 20-byte SPIR-V header");
}

TEST(CpuCompilerRejects, ABinaryWithTheWrongMagicNumber) {
  expect_failure_with_header_word(0, 0xdeadbeef, ZE_RESULT_ERROR_INVALID_ARGUMENT,
                                  "does not start with the SPIR-V magic number 0x07230203 (it starts with 0xdeadbeef)");
}

TEST(CpuCompilerRejects, ATruncatedRealModule) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  ASSERT_GT(binary.size(), 64u);
  binary.resize(binary.size() / 2 / 4 * 4 + 4);
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT, "the SPIR-V binary is truncated");
}

// A cut at an instruction boundary before the first entry point leaves a
// well-formed module without kernels; every other cut must fail.
TEST(CpuCompilerRejects, EveryTruncationOfARealModuleWithoutCrashing) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  for (size_t size = 0; size < binary.size(); size += 4) {
    auto program = compile_spirv(std::span(binary).first(size), {});
    if (program.ok()) {
      EXPECT_TRUE(program.value()->kernels().empty()) << "a module truncated to " << size << " bytes has kernels";
    } else {
      EXPECT_EQ(program.error().code, ZE_RESULT_ERROR_INVALID_ARGUMENT) << program.error().log;
    }
  }
}

TEST(CpuCompilerRejects, AnInstructionWithAWordCountOfZero) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  set_word(binary, 5, 0x00000011); // OpCapability with no length
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT, "has a word count of 0");
}

// Word index of the first instruction with `opcode`, or 0.
size_t find_instruction(const std::vector<uint8_t> &binary, uint32_t opcode) {
  for (size_t at = 5; at < binary.size() / 4;) {
    uint32_t word;
    std::memcpy(&word, binary.data() + 4 * at, 4);
    if ((word & 0xffff) == opcode) return at;
    at += word >> 16;
  }
  return 0;
}

TEST(CpuCompilerRejects, IdsBeyondTheDeclaredIdBound) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  set_word(binary, 3, 2);
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT, "id bound");
}

TEST(CpuCompilerRejects, AnIdDefinedTwice) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  size_t int_type = find_instruction(binary, 21), float_type = find_instruction(binary, 22); // OpTypeInt, OpTypeFloat
  ASSERT_NE(int_type, 0u);
  ASSERT_NE(float_type, 0u);
  uint32_t int_id;
  std::memcpy(&int_id, binary.data() + 4 * (int_type + 1), 4);
  set_word(binary, float_type + 1, int_id);
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("the SPIR-V binary could not be parsed: Id {} is defined more than once", int_id));
}

TEST(CpuCompilerRejects, SpirvVersion17AsBuildFailureNamingTheAcceptedVersions) {
  expect_failure_with_header_word(
      1, 0x00010700, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
      "the module is SPIR-V 1.7, which this driver cannot read: it accepts SPIR-V 1.0 to 1.6");
}

// SPIR-V 1.5 and 1.6 modules are read as 1.4 (real_world_spirv_test.cpp) unless they use what 1.4 lacks.
TEST(CpuCompilerRejects, SpirvVersion15WithTheVulkanMemoryModelNamingIt) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  set_word(binary, 1, 0x00010500);
  std::vector<uint32_t> words(binary.size() / 4);
  std::memcpy(words.data(), binary.data(), binary.size());
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xffff) == 14 /* OpMemoryModel */) set_word(binary, at + 2, 3 /* Vulkan */);
  }
  expect_failure(binary, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                 "the module is SPIR-V 1.5 and uses the Vulkan memory model, which this driver's SPIR-V reader");
}

TEST(CpuCompilerRejects, AMalformedVersionWordAsInvalidBinary) {
  expect_failure_with_header_word(1, 0x12345678, ZE_RESULT_ERROR_INVALID_ARGUMENT, "is not a valid version number");
}

// A kernel calling what the driver lacks is refused on its own: the module builds, as on Intel's driver, and the
// kernel carries the sentence zeKernelCreate reports, also noted in the build log.
void expect_refused_kernel(const std::string &stem, const std::string &refusal) {
  auto program = compile_spirv(load_kernel(stem), {});
  ASSERT_TRUE(program.ok()) << program.error().log;
  const KernelInfo *kernel = program.value()->find_kernel(stem);
  ASSERT_NE(nullptr, kernel);
  EXPECT_EQ(refusal, kernel->refusal);
  EXPECT_NE(program.value()->build_log().find("info: kernel refused: " + refusal), std::string::npos)
      << program.value()->build_log();
  // Its body is a trap: asking for its code is refused too.
  auto entry = program.value()->entry(*kernel);
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, entry.error().code);
  EXPECT_EQ(refusal, entry.error().message);
}

TEST(CpuCompilerRefuses, AKernelCallingAnUnknownBuiltinNamingIt) {
  expect_refused_kernel("unknown_builtin", "kernel 'unknown_builtin' calls 'prefetch(float vector[4] const AS1*, "
                                           "unsigned long)' (_Z8prefetchPU3AS1KDv4_fm), which is neither defined in "
                                           "the module nor provided by this driver");
}

// Its only kernel refused, the module still builds (Intel's does).
TEST(CpuCompilerRefuses, ImageBlockReadsSayingTheDriverReadsBlocksOfGlobalMemoryOnly) {
  expect_refused_kernel("image_block_read",
                        "kernel 'image_block_read' calls 'intel_sub_group_block_read(ocl_image2d_ro, int vector[2])' "
                        "(_Z26intel_sub_group_block_read14ocl_image2d_roDv2_i), which reads or writes an image in "
                        "sub-group blocks: this driver does so on global memory only");
}

uint32_t get_word(const std::vector<uint8_t> &binary, size_t index) {
  uint32_t value;
  std::memcpy(&value, binary.data() + 4 * index, 4);
  return value;
}

// vector_add and the word offset of its first instruction with `opcode` (0: it has none).
struct Found {
  std::vector<uint8_t> binary;
  size_t at;
};
Found vector_add_with(uint32_t opcode) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  size_t at = find_instruction(binary, opcode);
  return {std::move(binary), at};
}

// Corruptions SPIRV-Tools' parser accepts but LLVMSPIRVLib would abort on: the
// message names the instruction's word offset, its opcode and what is wrong.
std::string instruction_error(size_t at, uint32_t opcode, const std::string &what) {
  return fmt::format("the SPIR-V instruction at word {} (opcode {}) {}", at, opcode, what);
}

TEST(CpuCompilerRejects, ALoadWhoseResultTypeIsNotATypeNamingTheInstruction) {
  auto [binary, load] = vector_add_with(61); // OpLoad: result type, result, pointer
  ASSERT_NE(load, 0u);
  uint32_t pointer = get_word(binary, load + 3);
  set_word(binary, load + 1, pointer);
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT,
                 instruction_error(load, 61, fmt::format("names %{} as operand 1, which is not a type", pointer)));
}

TEST(CpuCompilerRejects, APointerTypeInAStorageClassTheTranslatorCannotMap) {
  auto [binary, pointer] = vector_add_with(32); // OpTypePointer: result, storage class, pointee
  ASSERT_NE(pointer, 0u);
  set_word(binary, pointer + 2, 6); // Private
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT,
                 instruction_error(pointer, 32, "uses storage class 6, which the translator maps to no address space"));
}

TEST(CpuCompilerRejects, AnAlignedLoadWhoseAlignmentIsNotAPowerOfTwo) {
  auto [binary, load] = vector_add_with(61);
  ASSERT_NE(load, 0u);
  ASSERT_EQ(get_word(binary, load) >> 16, 6u) << "expected OpLoad ... Aligned N";
  set_word(binary, load + 5, 3);
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT,
                 instruction_error(load, 61, "has a memory alignment of 3, which is not a power of 2"));
}

TEST(CpuCompilerRejects, AValueUsedBeforeItsDefinition) {
  std::vector<uint8_t> binary = load_kernel("vector_add");
  size_t load = find_instruction(binary, 61);
  size_t add = find_instruction(binary, 129); // OpFAdd, computed from the loads
  ASSERT_NE(load, 0u);
  ASSERT_NE(add, 0u);
  uint32_t sum = get_word(binary, add + 2);
  set_word(binary, load + 3, sum); // the first load now reads through the later sum
  expect_failure(binary, ZE_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("(opcode 61) uses %{} outside the function or "
                                                                       "before the instruction that defines it", sum));
}

} // namespace
} // namespace zeal::cpu::test
