// SPIR-V forms real compilers emit that LLVMSPIRVLib 15 aborts on or misreads (issue 19): each assembled with
// spirv-as from kernels/real_world, built and run, its results checked.
#include "test_support.hpp"

#include <algorithm>
#include <cstring>

namespace zeal::cpu::test {
namespace {

std::unique_ptr<Program> build_real_world(const std::string &stem) { return build("real_world/" + stem); }

TEST(RealWorldSpirv, BuiltInElementsReadThroughCastsAndPointerChainsRun) {
  auto program = build_real_world("builtin_elements");
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("builtin_elements");
  ASSERT_NE(kernel, nullptr);
  std::vector<uint64_t> out(64, ~0ull);
  uint64_t *p = out.data();
  const void *args[] = {&p};
  run(*kernel, args, Range{3, {2, 2, 2}, {2, 2, 2}});
  for (uint64_t z = 0; z < 4; ++z)
    for (uint64_t y = 0; y < 4; ++y)
      for (uint64_t x = 0; x < 4; ++x)
        EXPECT_EQ(x + 1000 * y + 1000000 * z, out[x + 4 * y + 16 * z]) << "work-item " << x << "," << y << "," << z;
}

TEST(RealWorldSpirv, BuiltInElementsAtLanesTheKernelIsGivenRun) {
  auto program = build_real_world("builtin_dynamic_lanes");
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("builtin_dynamic_lanes");
  ASSERT_NE(kernel, nullptr);
  for (uint32_t a = 0; a < 3; ++a) {
    const uint64_t b = (a + 1) % 3;
    std::vector<uint64_t> out(64, ~0ull);
    uint64_t *p = out.data();
    const void *args[] = {&p, &a, &b};
    run(*kernel, args, Range{3, {2, 2, 2}, {2, 2, 2}});
    for (uint64_t z = 0; z < 4; ++z)
      for (uint64_t y = 0; y < 4; ++y)
        for (uint64_t x = 0; x < 4; ++x) {
          const uint64_t id[3] = {x, y, z};
          EXPECT_EQ(1000 * id[a] + id[b], out[x + 4 * y + 16 * z]) << "lanes " << a << "," << b << ", work-item " << x
                                                                    << "," << y << "," << z;
        }
  }
}

TEST(RealWorldSpirv, CompositesOfComputedValuesAreBuiltPartByPart) {
  auto program = build_real_world("composite_of_values");
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> in(48), out(48, 0);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 3 * i + 1;
  uint32_t *pi = in.data(), *po = out.data();
  const void *args[] = {&pi, &po};
  run(*program->find_kernel("composite_of_values"), args, Range{1, {3, 1, 1}, {16, 1, 1}});
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(1221 * in[i], out[i]) << "element " << i;
}

TEST(RealWorldSpirv, VectorsOfAnyLengthRunWhereTheModuleDeclaresVectorAnyIntel) {
  auto program = build_real_world("long_vectors");
  ASSERT_NE(program, nullptr);
  std::vector<uint32_t> in(32), out(32, 0);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = 5 * i;
  uint32_t *pi = in.data(), *po = out.data();
  const void *args[] = {&pi, &po};
  run(*program->find_kernel("long_vectors"), args, Range{1, {2, 1, 1}, {16, 1, 1}});
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(32 * in[i] + 496, out[i]) << "element " << i;
}

TEST(RealWorldSpirv, AVectorPastWhatCodeGenerationTakesIsRefusedByLength) {
  std::vector<uint8_t> spirv = load_kernel("real_world/long_vectors");
  bool patched = false;
  for (size_t at = 20; at + 16 <= spirv.size();) { // the 32-lane OpTypeVector made 4096 lanes
    uint32_t w[4];
    std::memcpy(w, &spirv[at], 16);
    if (w[0] == (4u << 16 | 23u) && w[3] == 32) {
      w[3] = 4096;
      std::memcpy(&spirv[at + 12], &w[3], 4);
      patched = true;
      break;
    }
    at += std::max<size_t>(4, size_t(w[0] >> 16) * 4);
  }
  ASSERT_TRUE(patched);
  auto program = compile_spirv(spirv, {});
  ASSERT_FALSE(program.ok());
  EXPECT_NE(std::string::npos,
            program.error().log.find("declares a vector of 4096 components, not between 2 and 1024 (VectorAnyINTEL)"))
      << program.error().log;
}

TEST(RealWorldSpirv, ScalarNullsNoReadWriteAndOneComponentVectorsRun) {
  auto program = build_real_world("scalar_forms");
  ASSERT_NE(program, nullptr);
  const KernelInfo *kernel = program->find_kernel("scalar_forms");
  ASSERT_NE(kernel, nullptr);
  constexpr size_t n = 48;
  std::vector<uint32_t> in(n), out(n, 0), unused(1);
  for (size_t i = 0; i < n; ++i) in[i] = uint32_t(i * 5);
  uint32_t *pi = in.data(), *po = out.data(), *pu = unused.data();
  const void *args[] = {&pi, &po, &pu};
  run(*kernel, args, Range{1, {3, 1, 1}, {16, 1, 1}});
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(in[i] + 7, out[i]) << "element " << i;
}

TEST(RealWorldSpirv, DebugInformationTheReaderCannotTakeIsDroppedAndSaidSo) {
  auto program = build_real_world("debug_source_without_text");
  ASSERT_NE(program, nullptr);
  EXPECT_NE(std::string::npos, program->build_log().find("debug information was dropped: its DebugSource"))
      << program->build_log();
  std::vector<uint64_t> out(32, 0);
  uint64_t *p = out.data();
  const void *args[] = {&p};
  run(*program->find_kernel("debug_source_without_text"), args, Range{1, {2, 1, 1}, {16, 1, 1}});
  for (uint64_t i = 0; i < out.size(); ++i) EXPECT_EQ(2 * i, out[i]);
}

// The module with its OpExtInstImport of `from` naming `to` instead (the rest of the words unchanged).
std::vector<uint8_t> with_set_renamed(const std::vector<uint8_t> &spirv, std::string_view from, std::string_view to) {
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), words.size() * 4);
  auto encoded = [](std::string_view name) {
    std::vector<uint32_t> out(name.size() / 4 + 1, 0); // the terminator included
    std::memcpy(out.data(), name.data(), name.size());
    return out;
  };
  const std::vector<uint32_t> old_name = encoded(from), new_name = encoded(to);
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (size_t at = 5; at < words.size();) {
    const uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
    std::vector<uint32_t> inst(words.begin() + at, words.begin() + at + count);
    if (opcode == 11 /* OpExtInstImport */ && std::equal(inst.begin() + 2, inst.end(), old_name.begin(), old_name.end())) {
      inst.resize(2);
      inst.insert(inst.end(), new_name.begin(), new_name.end());
      inst[0] = uint32_t(inst.size()) << 16 | opcode;
    }
    out.insert(out.end(), inst.begin(), inst.end());
    at += count;
  }
  std::vector<uint8_t> bytes(out.size() * 4);
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

TEST(RealWorldSpirv, LegacySpirvDebugInformationIsDroppedAndSaidSo) {
  auto program = build_binary(with_set_renamed(load_kernel("real_world/legacy_debug_info"), "OpenCL.DebugInfo.100",
                                               "SPIRV.debug"));
  ASSERT_NE(program, nullptr);
  EXPECT_NE(std::string::npos, program->build_log().find("debug information was dropped: it is written in 'SPIRV.debug'"))
      << program->build_log();
  std::vector<uint64_t> out(48, 0);
  uint64_t *p = out.data();
  const void *args[] = {&p};
  run(*program->find_kernel("legacy_debug_info"), args, Range{1, {3, 1, 1}, {16, 1, 1}});
  for (uint64_t i = 0; i < out.size(); ++i) EXPECT_EQ(3 * i + 1, out[i]) << "element " << i;
}

TEST(RealWorldSpirv, ASpirv16ModuleUsingNothingNewerIsReadAs14) {
  auto program = build_real_world("spirv_1_6");
  ASSERT_NE(program, nullptr);
  EXPECT_NE(std::string::npos, program->build_log().find("SPIR-V 1.6; it is read as SPIR-V 1.4"))
      << program->build_log();
  std::vector<uint32_t> in(16), out(16, 0);
  for (uint32_t i = 0; i < 16; ++i) in[i] = i + 1;
  uint32_t *pi = in.data(), *po = out.data();
  const void *args[] = {&pi, &po};
  run(*program->find_kernel("spirv_1_6"), args, Range{1, {1, 1, 1}, {16, 1, 1}});
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(3 * (i + 1), out[i]);
}

TEST(RealWorldSpirv, BlocksListedBeforeTheirDominatorsAreReadInDominanceOrder) {
  auto program = build_real_world("blocks_out_of_order");
  ASSERT_NE(program, nullptr);
  EXPECT_NE(std::string::npos, program->build_log().find("their blocks are read in dominance order"))
      << program->build_log();
  std::vector<uint32_t> io(48);
  for (uint32_t i = 0; i < io.size(); ++i) io[i] = 7 * i;
  uint32_t *p = io.data();
  const void *args[] = {&p};
  run(*program->find_kernel("blocks_out_of_order"), args, Range{1, {3, 1, 1}, {16, 1, 1}});
  for (uint32_t i = 0; i < io.size(); ++i) EXPECT_EQ(10 * 7 * i + 45 + 100 * (i % 3 + 1), io[i]) << "work-item " << i;
}

// The words of a module with its first OpCapability Int64 replaced by `capability`.
std::vector<uint8_t> with_capability(std::vector<uint8_t> bytes, uint32_t capability) {
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), bytes.size());
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if (words[at] == ((2u << 16) | 17u /* OpCapability */) && words[at + 1] == 11 /* Int64 */) {
      words[at + 1] = capability;
      break;
    }
  }
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

TEST(RealWorldSpirv, ACapabilityNewerThanSpirvToolsIsRefusedByName) {
  auto program = compile_spirv(with_capability(load_kernel("real_world/spirv_1_6"), 6460), {});
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, program.error().code);
  EXPECT_NE(std::string::npos, program.error().log.find("RegisterLimitsINTEL (SPV_INTEL_maximum_registers), capability 6460"))
      << program.error().log;
}

// OpenCL C++'s cl::spec_constant (no SpecId: the id is in the struct's name) specialises as on Intel's driver; a
// real SpecId keeps working beside it, and a name repeating a SpecId the module uses is left a plain constant.
TEST(RealWorldSpirv, OpenClCppSpecConstantsWithoutSpecIdAreSpecialisedByTheIdInTheirName) {
  auto values_of = [](const CompileOptions &options, std::string *log = nullptr) {
    std::vector<uint64_t> out(5, ~0ull);
    auto program = build("real_world/cpp_spec_constants", options);
    if (program == nullptr) return out;
    if (log != nullptr) *log = program->build_log();
    uint64_t *p = out.data();
    const void *args[] = {&p};
    run(*program->find_kernel("cpp_spec_constants"), args, Range{1, {1, 1, 1}, {1, 1, 1}});
    return out;
  };
  std::string log;
  EXPECT_EQ((std::vector<uint64_t>{10, 7, 1, 100, 33}), values_of({}, &log));
  EXPECT_NE(std::string::npos, log.find("cl::spec_constant variables (ids 0, 5, 2) are read as specialisation "
                                        "constants"))
      << log;
  const uint64_t id0 = 20;
  const uint32_t id5 = 70, id9 = 900;
  const uint8_t id2 = 3;
  CompileOptions options;
  options.spec_constants = {{0, &id0}, {5, &id5}, {2, &id2}, {9, &id9}};
  EXPECT_EQ((std::vector<uint64_t>{20, 70, 3, 900, 33}), values_of(options));
}

} // namespace
} // namespace zeal::cpu::test
