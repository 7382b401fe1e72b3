// The CUDA back end (cuda_driver/compiler): SPIR-V in, PTX out. No GPU here, so the PTX is checked as text: entries
// and parameters, address spaces of loads and stores, shared memory, barriers, warp shuffles, and refusals by name.
#include "cuda_driver/compiler/internal.hpp"
#include "cuda_driver/compiler/ptx_compiler.hpp"
#include "tests/support/host_access_spirv.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <iterator>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace {

using zeal::cuda::compile_ptx;
using zeal::cuda::PtxArgKind;
using zeal::cuda::PtxKernel;
using zeal::cuda::PtxOptions;
using zeal::cuda::PtxProgram;
using zeal::cuda::ptx_function_id_tag;
using zeal::cuda::ptx_function_table;
using zeal::cuda::rename_ptx_symbols;

std::vector<uint8_t> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<uint8_t> test_kernel(const std::string &stem) {
  std::vector<uint8_t> spirv = read_file(std::string(ZEAL_TEST_KERNEL_DIR) + "/" + stem + ".spv");
  EXPECT_FALSE(spirv.empty()) << stem << ".spv was not built";
  return spirv;
}

PtxProgram compiled(const std::string &stem, const PtxOptions &options = {}) {
  auto result = compile_ptx(test_kernel(stem), options);
  if (!result) ADD_FAILURE() << stem << ": " << result.error().message;
  return result ? std::move(result).value() : PtxProgram{};
}

const PtxKernel *kernel_named(const PtxProgram &program, const std::string &name) {
  auto found = std::find_if(program.kernels.begin(), program.kernels.end(),
                            [&](const PtxKernel &kernel) { return kernel.name == name; });
  return found == program.kernels.end() ? nullptr : &*found;
}

// The text of one `.entry` (its parameters and body), up to the next entry or function.
std::string entry_text(const std::string &ptx, const std::string &name) {
  size_t at = ptx.find(".entry " + name + "(");
  if (at == std::string::npos) return {};
  size_t end = ptx.find("\n.visible", at + 1);
  size_t next_func = ptx.find("\n.func", at + 1);
  return ptx.substr(at, std::min(end, next_func) - at);
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TEST(PtxCompiler, AVectorAddBecomesAnEntryWithItsArgumentsAndTheFourHiddenParametersReadingAndWritingGlobalMemory) {
  PtxProgram program = compiled("ptx_basics");
  const PtxKernel *vadd = kernel_named(program, "vadd");
  ASSERT_NE(nullptr, vadd);
  ASSERT_EQ(3u, vadd->args.size());
  for (const auto &arg : vadd->args) {
    EXPECT_EQ(PtxArgKind::GlobalPointer, arg.kind);
    EXPECT_EQ(8u, arg.size);
  }
  EXPECT_EQ(32u, vadd->subgroup_size);
  std::string entry = entry_text(program.ptx, "vadd");
  ASSERT_FALSE(entry.empty()) << program.ptx;
  EXPECT_EQ(3u + zeal::cuda::ptx_hidden_params, count(entry, ".param ")) << entry;
  EXPECT_NE(std::string::npos, entry.find("ld.global")) << entry;
  EXPECT_NE(std::string::npos, entry.find("st.global")) << entry;
  EXPECT_NE(std::string::npos, program.ptx.find(".target sm_80")) << program.ptx.substr(0, 400);
}

TEST(PtxCompiler, ARequiredWorkGroupSizeBecomesReqntidAndIsReported) {
  PtxProgram program = compiled("ptx_basics");
  const PtxKernel *fixed = kernel_named(program, "fixed_size");
  ASSERT_NE(nullptr, fixed);
  EXPECT_EQ(64u, fixed->required_group_size[0]);
  EXPECT_EQ(2u, fixed->required_group_size[1]);
  EXPECT_EQ(1u, fixed->required_group_size[2]);
  EXPECT_EQ(64u, fixed->group_size_hint[0]);
  EXPECT_NE(std::string::npos, entry_text(program.ptx, "fixed_size").find(".reqntid 64, 2, 1")) << program.ptx;
}

TEST(PtxCompiler, ALocalPointerArgumentIsAU32OffsetIntoDynamicSharedMemoryAndKernelLocalsAreStatic) {
  PtxProgram program = compiled("ptx_basics");
  const PtxKernel *reverse = kernel_named(program, "local_reverse");
  ASSERT_NE(nullptr, reverse);
  ASSERT_EQ(4u, reverse->args.size());
  EXPECT_EQ(PtxArgKind::LocalPointer, reverse->args[2].kind);
  EXPECT_EQ(PtxArgKind::GlobalPointer, reverse->args[3].kind); // constant memory is global memory
  EXPECT_EQ(256u, reverse->static_local_bytes);
  std::string entry = entry_text(program.ptx, "local_reverse");
  EXPECT_NE(std::string::npos, entry.find(".param .u32 local_reverse_param_2")) << entry;
  EXPECT_NE(std::string::npos, program.ptx.find(".extern .shared .align 16 .b8 __zeal_dynamic_shared[]")) << program.ptx;
  EXPECT_NE(std::string::npos, entry.find("ld.shared")) << entry;
  EXPECT_NE(std::string::npos, entry.find("bar.sync")) << entry;
}

TEST(PtxCompiler, ABarrierIsBarSync) {
  std::string entry = entry_text(compiled("ptx_basics").ptx, "atomics");
  EXPECT_NE(std::string::npos, entry.find("bar.sync")) << entry;
  EXPECT_NE(std::string::npos, entry.find("atom.global.add.u32")) << entry;
  EXPECT_NE(std::string::npos, entry.find("atom.shared.add.u32")) << entry;
  EXPECT_NE(std::string::npos, entry.find("atom.global.add.u64")) << entry;
  EXPECT_NE(std::string::npos, entry.find("membar.gl")) << entry;
}

TEST(PtxCompiler, LibclcMathIsLinkedSoNothingStaysUnresolved) {
  PtxProgram program = compiled("ptx_basics");
  EXPECT_EQ(std::string::npos, program.ptx.find(".extern .func")) << program.ptx;
  std::string entry = entry_text(program.ptx, "math");
  // native_sin and native_exp are PTX's approximations; sin, exp and pow keep libclc's full precision, and sqrt is
  // correctly rounded.
  EXPECT_EQ(1u, count(entry, "sin.approx.f32")) << entry;
  EXPECT_EQ(1u, count(entry, "ex2.approx")) << entry;
  EXPECT_NE(std::string::npos, entry.find("sqrt.rn.f32")) << entry;
  EXPECT_NE(std::string::npos, entry.find("PIBITS_TBL")) << entry; // libclc's sin reduces its argument by table
}

TEST(PtxCompiler, AStructByValueIsOneParameterOfItsSize) {
  PtxProgram program = compiled("ptx_basics");
  const PtxKernel *by_value = kernel_named(program, "by_value");
  ASSERT_NE(nullptr, by_value);
  ASSERT_EQ(3u, by_value->args.size());
  EXPECT_EQ(PtxArgKind::Value, by_value->args[0].kind);
  EXPECT_EQ(32u, by_value->args[0].size);
  EXPECT_EQ(16u, by_value->args[2].size);
  std::string entry = entry_text(program.ptx, "by_value");
  EXPECT_NE(std::string::npos, entry.find(".b8 by_value_param_0[32]")) << entry;
}

TEST(PtxCompiler, SubGroupShufflesAndReductionsAreWarpShuffles) {
  PtxProgram program = compiled("ptx_subgroups");
  EXPECT_EQ(std::string::npos, program.ptx.find(".extern .func")) << program.ptx;
  std::string shuffles = entry_text(program.ptx, "sg_shuffles");
  EXPECT_NE(std::string::npos, shuffles.find("shfl.sync.idx.b32")) << shuffles;
  EXPECT_NE(std::string::npos, shuffles.find("shfl.sync.bfly.b32")) << shuffles;
  std::string reduce = entry_text(program.ptx, "sg_reduce");
  EXPECT_NE(std::string::npos, reduce.find("shfl.sync.down.b32")) << reduce;
  EXPECT_NE(std::string::npos, reduce.find("shfl.sync.up.b32")) << reduce;
  EXPECT_NE(std::string::npos, reduce.find("vote.sync.any.pred")) << reduce;
  std::string ballots = entry_text(program.ptx, "sg_ballots");
  EXPECT_NE(std::string::npos, ballots.find("vote.sync.ballot.b32")) << ballots;
  EXPECT_NE(std::string::npos, ballots.find("activemask.b32")) << ballots;
  EXPECT_NE(std::string::npos, ballots.find("popc.b32")) << ballots;
  std::string blocks = entry_text(program.ptx, "sg_blocks");
  EXPECT_EQ(2u, count(blocks, "ld.global.u32")) << blocks; // a block read of uint2: two coalesced loads per lane
  EXPECT_EQ(1u, count(blocks, "st.global.u16")) << blocks;
  // LLVMSPIRVLib 15 reads sub_group_barrier as barrier(flags); the back end's mark keeps it a warp's barrier.
  std::string ids = entry_text(program.ptx, "sg_ids");
  EXPECT_NE(std::string::npos, ids.find("bar.warp.sync")) << ids;
  EXPECT_EQ(std::string::npos, ids.find("bar.sync")) << ids;
}

TEST(PtxCompiler, WorkGroupCollectivesAreBuiltOfSubGroupShufflesAndSharedMemoryBetweenBarriers) {
  PtxProgram program = compiled("ptx_subgroups");
  std::string entry = entry_text(program.ptx, "wg_collectives");
  EXPECT_NE(std::string::npos, entry.find("shfl.sync")) << entry;
  EXPECT_NE(std::string::npos, entry.find("bar.sync")) << entry;
  EXPECT_NE(std::string::npos, entry.find("st.shared.u64")) << entry;
  EXPECT_NE(std::string::npos, program.ptx.find(".shared .align 8 .b8 __zeal_group_scratch[264]")) << program.ptx;
}

// The text of one `.func` (its body), up to the next function or entry.
std::string function_text(const std::string &ptx, const std::string &name) {
  size_t at = ptx.find(name + "(\n");
  if (at == std::string::npos) return {};
  size_t end = std::min(ptx.find("\n.visible", at + 1), ptx.find("\n.func", at + 1));
  return ptx.substr(at, end - at);
}

TEST(PtxCompiler, SubGroupsOfSixteenAndEightAreSegmentsOfAWarpNamedInEveryShufflesCOperand) {
  PtxProgram program = compiled("ptx_segments");
  ASSERT_NE(nullptr, kernel_named(program, "segments16"));
  EXPECT_EQ(16u, kernel_named(program, "segments16")->subgroup_size);
  EXPECT_EQ(8u, kernel_named(program, "segments8")->subgroup_size);
  EXPECT_EQ(32u, kernel_named(program, "segments32")->subgroup_size);
  // c = (32 - size) << 8 | clamp: 0x101f (4127) and 0x1000 (4096) for 16, 0x181f (6175) and 0x1800 (6144) for 8.
  std::string sixteen = entry_text(program.ptx, "segments16"), eight = entry_text(program.ptx, "segments8");
  std::string full = entry_text(program.ptx, "segments32");
  EXPECT_NE(std::string::npos, sixteen.find(", 4127, ")) << sixteen;
  EXPECT_NE(std::string::npos, sixteen.find(", 4096, ")) << sixteen;
  EXPECT_NE(std::string::npos, eight.find(", 6175, ")) << eight;
  EXPECT_NE(std::string::npos, eight.find(", 6144, ")) << eight;
  EXPECT_EQ(std::string::npos, full.find(", 4127, ")) << full;
  // No butterfly of 16 lanes in a sub-group of 16, nor of 8 in one of 8: the steps past the size fold away.
  EXPECT_EQ(std::string::npos, sixteen.find(", 16, 4127")) << sixteen;
  EXPECT_EQ(std::string::npos, eight.find(", 8, 6175")) << eight;
  EXPECT_NE(std::string::npos, full.find(", 16, 31")) << full;
  // The helper reached from kernels of sizes 16 and 32 reads the size the entry stored after the hidden values.
  std::string helper = function_text(program.ptx, "shared_helper");
  EXPECT_NE(std::string::npos, helper.find("[__zeal_dynamic_shared+28]")) << program.ptx;
  EXPECT_NE(std::string::npos, sixteen.find("[__zeal_dynamic_shared+24]")) << sixteen;
}

TEST(PtxCompiler, AFullSubGroupsReductionIsButterfliesAloneAndAShortOnesShufflesDown) {
  PtxProgram program = compiled("ptx_segments");
  std::string sum = entry_text(program.ptx, "sum16");
  EXPECT_EQ(4u, count(sum, "shfl.sync.bfly.b32")) << sum;
  EXPECT_EQ(4u, count(sum, "shfl.sync.down.b32")) << sum;
  // The butterflies' member mask is the segment's lanes (a constant only at 32); no select between them.
  size_t first = sum.find("shfl.sync.bfly.b32"), last = sum.rfind("shfl.sync.bfly.b32");
  EXPECT_EQ(std::string::npos, sum.substr(first, last - first).find("selp")) << sum;
  PtxProgram warps = compiled("ptx_subgroups");
  std::string reduce = entry_text(warps.ptx, "sg_reduce");
  EXPECT_NE(std::string::npos, reduce.find(", 1, 31, -1;")) << reduce;
}

TEST(PtxCompiler, AKernelRequiringASubGroupSizeTheDeviceDoesNotListIsRefusedByName) {
  PtxOptions warps_only;
  warps_only.subgroup_sizes = {32};
  auto result = compile_ptx(test_kernel("ptx_segments"), warps_only);
  ASSERT_FALSE(result);
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, result.error().code);
  EXPECT_EQ("kernel 'segments16' requires sub-group size 16 (intel_reqd_sub_group_size), which the CUDA back end "
            "does not support: its sub-groups are warps of 32 work-items or segments of 8 or 16 of one",
            result.error().message);
  EXPECT_NE(std::string::npos, result.error().log.find(result.error().message));
}

// LLVM's remarks (code generation's "N instructions in function", the optimiser's analyses) are not the build
// log's, even in a process where something asked LLVM for them.
TEST(PtxCompiler, TheBuildLogHoldsNoRemarksOfLlvmEvenWhereTheProcessAskedForThem) {
  const char *args[] = {"ptx_compiler_test", "-pass-remarks-analysis=.*", "-pass-remarks-missed=.*"};
  ASSERT_TRUE(llvm::cl::ParseCommandLineOptions(3, args, "", &llvm::errs()));
  for (unsigned level : {0u, 2u}) {
    PtxOptions options;
    options.opt_level = level;
    EXPECT_EQ("", compiled("ptx_segments", options).log) << "-O" << level;
    EXPECT_EQ("", compiled("ptx_subgroups", options).log) << "-O" << level;
  }
}

TEST(PtxCompiler, BytesThatAreNotSpirvAreAnInvalidArgument) {
  std::vector<uint8_t> junk(64, 0x5a);
  auto result = compile_ptx(junk, PtxOptions{});
  ASSERT_FALSE(result);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, result.error().code) << result.error().message;
}

TEST(PtxCompiler, AKernelOfIntelsImageBlockReadsIsRefusedNamingTheKernelAndTheCall) {
  auto result = compile_ptx(test_kernel("ptx_refused"), PtxOptions{});
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(1u, result->kernels.size());
  const std::string &refusal = result->kernels[0].refusal;
  EXPECT_EQ(0u, refusal.find("kernel 'reads_image' calls '_Z26intel_sub_group_block_read")) << refusal;
  EXPECT_NE(std::string::npos, refusal.find("Intel's sub-group block reads and writes of images are not supported by "
                                            "the CUDA back end")) << refusal;
  EXPECT_EQ(std::string::npos, result->ptx.find(".entry reads_image"));
  EXPECT_NE(std::string::npos, result->log.find("kernel 'reads_image' calls")) << result->log;
}

// Images and samplers (issue 49): the arguments' kinds say how the runtime passes them (the descriptor's device
// address, the sampler's bits), and the image library is linked in: the PTX calls nothing outside the module.
TEST(PtxCompiler, ImageKernelsBuildWithTheirImageAndSamplerArgumentsAndTheLibraryLinkedIn) {
  for (unsigned level : {0u, 2u}) {
    PtxOptions options;
    options.opt_level = level;
    auto result = compile_ptx(test_kernel("ptx_images"), options);
    ASSERT_TRUE(result) << result.error().message;
    ASSERT_EQ(3u, result->kernels.size());
    for (const PtxKernel &kernel : result->kernels) {
      EXPECT_EQ("", kernel.refusal) << kernel.name;
      EXPECT_NE(std::string::npos, result->ptx.find(".entry " + kernel.name)) << kernel.name;
      ASSERT_FALSE(kernel.args.empty());
      EXPECT_EQ(PtxArgKind::Image, kernel.args[0].kind) << kernel.name;
      EXPECT_EQ(8u, kernel.args[0].size) << kernel.name;
    }
    const PtxKernel &sample = result->kernels[0].name == "sample" ? result->kernels[0]
                              : result->kernels[1].name == "sample" ? result->kernels[1]
                                                                    : result->kernels[2];
    ASSERT_EQ("sample", sample.name);
    ASSERT_EQ(3u, sample.args.size());
    EXPECT_EQ(PtxArgKind::Sampler, sample.args[1].kind);
    EXPECT_EQ(PtxArgKind::GlobalPointer, sample.args[2].kind);
    EXPECT_EQ(std::string::npos, result->ptx.find(".extern .func")) << "-O" << level << "\n" << result->ptx;
  }
}

// As the CPU driver does: the module builds without the kernel it cannot run (zeKernelCreate names why), and its
// other kernels run.
TEST(PtxCompiler, AKernelReachingAnUnsupportedCallIsRefusedNamingItAndTheOthersBuild) {
  std::vector<uint8_t> spirv = read_file(std::string(ZEAL_TEST_KERNEL_DIR) + "/ptx_partly_refused.spv");
  auto result = compile_ptx(spirv, PtxOptions{});
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(2u, result->kernels.size());
  const PtxKernel &refused = result->kernels[0].name == "multiplies" ? result->kernels[0] : result->kernels[1];
  const PtxKernel &stores = result->kernels[0].name == "multiplies" ? result->kernels[1] : result->kernels[0];
  EXPECT_EQ("kernel 'multiplies' calls 'intel_sub_group_i8_i8_matrix_mad_k32': Intel's sub-group matrix "
            "products are not supported by the CUDA back end",
            refused.refusal);
  EXPECT_EQ("", stores.refusal);
  EXPECT_EQ(std::string::npos, result->ptx.find(".entry multiplies"));
  EXPECT_NE(std::string::npos, result->ptx.find(".entry stores"));
  EXPECT_EQ(std::string::npos, result->ptx.find("matrix")) << "nothing of the refused kernel is left";
}

// printf becomes CUDA's vprintf with a C format: the vector conversion one per lane, integers read as 64-bit, the
// constant string inside the format, in global memory where the host reads it.
TEST(PtxCompiler, PrintfCallsVprintfWithTheFormatRewrittenForC) {
  std::vector<uint8_t> spirv = read_file(std::string(ZEAL_TEST_KERNEL_DIR) + "/ptx_printf.spv");
  auto result = compile_ptx(spirv, PtxOptions{});
  ASSERT_TRUE(result) << result.error().message;
  ASSERT_EQ(1u, result->kernels.size());
  EXPECT_EQ("", result->kernels[0].refusal);
  EXPECT_NE(std::string::npos, result->ptx.find(".extern .func  (.param .b32 func_retval0) vprintf")) << result->ptx;
  EXPECT_NE(std::string::npos, result->ptx.find("call.uni (retval0), \n\tvprintf, ")) << result->ptx;
  // "%lld:%f,%f:%llx:ok:%5.1f%%\n" as PTX writes a .global byte array.
  std::string expected;
  for (char c : std::string("%lld:%f,%f:%llx:ok:%5.1f%%\n")) expected += std::to_string(int(c)) + ", ";
  EXPECT_NE(std::string::npos, result->ptx.find(".global .align 1 .b8 __zeal_printf_format")) << result->ptx;
  EXPECT_NE(std::string::npos, result->ptx.find(expected + "0}")) << result->ptx;
}

std::vector<uint8_t> cpu_test_kernel(const std::string &stem) {
  std::vector<uint8_t> spirv = read_file(std::string(ZEAL_PTX_CPU_KERNEL_DIR) + "/" + stem + ".spv");
  EXPECT_FALSE(spirv.empty()) << stem << ".spv was not built";
  return spirv;
}

TEST(PtxCompiler, TheHiddenValuesAreAtTheStartOfDynamicSharedMemoryAndStoredOnlyWhereSomethingMayReadThem) {
  PtxProgram program = compiled("ptx_basics");
  EXPECT_EQ(std::string::npos, program.ptx.find("__zeal_global_offset")) << program.ptx;
  std::string callee = entry_text(program.ptx, "hidden_in_callee");
  EXPECT_NE(std::string::npos, callee.find("[__zeal_dynamic_shared]")) << callee;
  EXPECT_NE(std::string::npos, callee.find("[__zeal_dynamic_shared+24]")) << callee;
  // A vector add reads none of them and calls nothing another module defines.
  std::string vadd = entry_text(program.ptx, "vadd");
  EXPECT_EQ(std::string::npos, vadd.find("st.shared")) << vadd;
  // A kernel calling an import stores them, for the function that cuLink joins.
  auto user = compile_ptx(cpu_test_kernel("link_user"), PtxOptions{});
  ASSERT_TRUE(user) << user.error().message;
  EXPECT_NE(std::string::npos, user->ptx.find("[__zeal_dynamic_shared+24]")) << user->ptx;
}

TEST(PtxCompiler, ImportsStayExternForTheRuntimesLinkAndNothingElseIsUnresolved) {
  auto result = compile_ptx(cpu_test_kernel("link_user"), PtxOptions{});
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_NE(std::string::npos, result->ptx.find(".extern .func  (.param .b32 func_retval0) link_helper")) << result->ptx;
  EXPECT_NE(std::string::npos, result->ptx.find(".extern .global .align 4 .u32 link_offset")) << result->ptx;
  EXPECT_EQ(1u, count(result->ptx, ".extern .func")) << result->ptx;
}

TEST(PtxCompiler, LibraryCompilationKeepsExportedFunctionsVisibleAndExportedVariablesAreAlwaysVisible) {
  PtxOptions library;
  library.library_compilation = true;
  auto exported = compile_ptx(cpu_test_kernel("link_library"), library);
  ASSERT_TRUE(exported) << exported.error().message;
  EXPECT_NE(std::string::npos, exported->ptx.find(".visible .func  (.param .b32 func_retval0) link_helper")) << exported->ptx;
  EXPECT_NE(std::string::npos, exported->ptx.find(".visible .global .align 4 .u32 link_offset = 1000")) << exported->ptx;
  auto plain = compile_ptx(cpu_test_kernel("link_library"), PtxOptions{});
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(std::string::npos, plain->ptx.find("link_helper")) << plain->ptx;
  EXPECT_NE(std::string::npos, plain->ptx.find(".visible .global .align 4 .u32 link_offset")) << plain->ptx;
}

// DPC++'s device_global (SPV_INTEL_global_variable_host_access): a variable without linkage is exported under its
// host name; one exported under another name keeps that name, and the program lists the host name as its alias
// (which the runtime's zeModuleGetGlobalPointer resolves, as on the CPU driver).
TEST(PtxCompiler, HostAccessVariablesAreVisibleByTheirHostNamesOrListedAsAliases) {
  auto program = compile_ptx(zeal::test::with_host_access(cpu_test_kernel("host_access")), PtxOptions{});
  ASSERT_TRUE(program) << program.error().message;
  EXPECT_NE(std::string::npos, program->ptx.find(".visible .global .align 4 .u32 counter_host_name = 5")) << program->ptx;
  EXPECT_NE(std::string::npos, program->ptx.find(".visible .global .align 4 .u32 exported_table = 100")) << program->ptx;
  using Alias = std::pair<std::string, std::string>;
  EXPECT_EQ((std::vector<Alias>{{"table_host_name", "exported_table"}}), program->aliases);
}

// A module made for function pointers: each exported function's address in a visible global the runtime reads for
// zeModuleGetFunctionPointer; kernels have none.
TEST(PtxCompiler, ExportedFunctionsOfAFunctionPointerModuleHaveTheirAddressesInGlobals) {
  auto program = compile_ptx(cpu_test_kernel("function_pointer_self"), PtxOptions{});
  ASSERT_TRUE(program) << program.error().message;
  EXPECT_NE(std::string::npos, program->ptx.find(".visible .global .align 8 .u64 __zeal_fp_add_int = add_int;"))
      << program->ptx;
  EXPECT_NE(std::string::npos, program->ptx.find(".visible .global .align 8 .u64 __zeal_fp_times_three = times_three;"))
      << program->ptx;
  EXPECT_EQ(std::string::npos, program->ptx.find("__zeal_fp_call_fptr")) << program->ptx;
  auto plain = compile_ptx(cpu_test_kernel("link_user"), PtxOptions{});
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(std::string::npos, plain->ptx.find("__zeal_fp_")) << "a module not made for function pointers has none";
}

// A call through a pointer first looks an id zeModuleGetFunctionPointer handed out up in the joint module's table
// (CUDA's function addresses mean something only inside one CUDA module); a module without such calls has no table.
TEST(PtxCompiler, ACallThroughAPointerLooksItsIdUpInTheJointModulesTable) {
  auto program = compile_ptx(cpu_test_kernel("function_pointer_self"), PtxOptions{});
  ASSERT_TRUE(program) << program.error().message;
  const std::string &ptx = program->ptx;
  EXPECT_NE(std::string::npos, ptx.find(".extern .global .align 8 .b8 __zeal_function_table[];")) << ptx;
  // The tag is compared in the pointer's top twelve bits; a pointer without it reads entry 0 and is called as it is.
  EXPECT_NE(std::string::npos, ptx.find(fmt::format("{}", ptx_function_id_tag))) << ptx;
  EXPECT_NE(std::string::npos, ptx.find("ld.global.u64")) << ptx;
  EXPECT_NE(std::string::npos, ptx.find("selp.b64")) << ptx;
  auto plain = compile_ptx(cpu_test_kernel("vector_add"), PtxOptions{});
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_EQ(std::string::npos, plain->ptx.find(ptx_function_table)) << plain->ptx;
}

// The joint module's renaming: whole symbols only, never registers, directives, types, numbers, parameters that
// start with the name, or comments.
TEST(PtxRename, WholeSymbolsAreRenamedAndNothingThatMerelyLooksLikeThem) {
  const std::string ptx = ".visible .func (.param .b32 func_retval0) f(.param .b32 f_param_0);\n"
                          ".visible .global .align 8 .u64 __zeal_fp_f = f;\n"
                          ".extern .func (.param .b32 func_retval0) g(.param .b32 g_param_0);\n"
                          "// f calls g\n"
                          ".visible .entry k(.param .u64 k_param_0) {\n"
                          "  .reg .f32 %f<3>;\n"
                          "  mov.f32 %f1, 0f3F800000;\n"
                          "  mov.u64 %rd1, f;\n"
                          "  call.uni (retval0), g, (param0);\n"
                          "$L__f: ret; /* f */\n"
                          "}\n";
  const std::map<std::string, std::string> names{
      {"f", "f__zm1"}, {"__zeal_fp_f", "__zeal_fp_f__zm1"}, {"g", "g__zm2"}, {"k", "k__zm1"}, {"f32", "x"}};
  const std::string expected = ".visible .func (.param .b32 func_retval0) f__zm1(.param .b32 f_param_0);\n"
                               ".visible .global .align 8 .u64 __zeal_fp_f__zm1 = f__zm1;\n"
                               ".extern .func (.param .b32 func_retval0) g__zm2(.param .b32 g_param_0);\n"
                               "// f calls g\n"
                               ".visible .entry k__zm1(.param .u64 k_param_0) {\n"
                               "  .reg .f32 %f<3>;\n"
                               "  mov.f32 %f1, 0f3F800000;\n"
                               "  mov.u64 %rd1, f__zm1;\n"
                               "  call.uni (retval0), g__zm2, (param0);\n"
                               "$L__f: ret; /* f */\n"
                               "}\n";
  EXPECT_EQ(expected, rename_ptx_symbols(ptx, names));
  EXPECT_EQ(ptx, rename_ptx_symbols(ptx, {}));
}

// The renaming on the back end's own PTX, as the joint module does it: every visible symbol of a library built for
// function pointers and of a module importing from it takes its new name wherever it stands (definitions,
// declarations, calls, the address globals' initialisers), and every other word of the text stays as it was.
TEST(PtxRename, ALibraryAndItsImportersPtxTakeTheirNewNamesEverywhereAndNothingElseChanges) {
  PtxOptions library;
  library.library_compilation = true;
  auto exporter = compile_ptx(cpu_test_kernel("link_library"), library);
  auto importer = compile_ptx(cpu_test_kernel("link_user"), PtxOptions{});
  ASSERT_TRUE(exporter) << exporter.error().message;
  ASSERT_TRUE(importer) << importer.error().message;
  const std::map<std::string, std::string> names{{"link_helper", "link_helper__zm1"},
                                                 {"link_twice", "link_twice__zm1"},
                                                 {"link_offset", "link_offset__zm1"},
                                                 {"__zeal_fp_link_helper", "__zeal_fp_link_helper__zm1"},
                                                 {"__zeal_fp_link_twice", "__zeal_fp_link_twice__zm1"},
                                                 {"use_helper", "use_helper__zm2"}};
  // The words of a text outside its comments (which the renaming leaves as they are), split where PTX splits
  // identifiers.
  auto words = [](const std::string &text) {
    std::vector<std::string> out;
    std::string word;
    bool comment = false;
    for (size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      if (!comment && c == '/' && i + 1 < text.size() && text[i + 1] == '/') comment = true;
      if (comment) {
        comment = c != '\n';
        continue;
      }
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.') {
        word += c;
      } else if (!word.empty()) {
        out.push_back(word);
        word.clear();
      }
    }
    if (!word.empty()) out.push_back(word);
    return out;
  };
  for (const std::string *ptx : {&exporter->ptx, &importer->ptx}) {
    const std::string renamed = rename_ptx_symbols(*ptx, names);
    std::vector<std::string> before = words(*ptx), after = words(renamed);
    ASSERT_EQ(before.size(), after.size());
    size_t changed = 0;
    for (size_t i = 0; i < before.size(); ++i) {
      auto found = names.find(before[i]);
      if (found == names.end()) {
        EXPECT_EQ(before[i], after[i]) << "word " << i;
      } else {
        EXPECT_EQ(found->second, after[i]) << "word " << i;
        ++changed;
      }
    }
    EXPECT_GT(changed, 0u);
  }
  const std::string user = rename_ptx_symbols(importer->ptx, names);
  EXPECT_NE(std::string::npos, user.find(".visible .entry use_helper__zm2(")) << user;
  EXPECT_NE(std::string::npos, user.find("link_helper__zm1")) << user;
  EXPECT_NE(std::string::npos, user.find("link_offset__zm1")) << user;
  const std::string lib = rename_ptx_symbols(exporter->ptx, names);
  EXPECT_NE(std::string::npos, lib.find("__zeal_fp_link_helper__zm1 = link_helper__zm1;")) << lib;
}

TEST(PtxCompiler, AnArchitectureNewerThanLlvm15KnowsGetsPtxForSm86AndANote) {
  PtxOptions hopper;
  hopper.sm = 90;
  PtxProgram program = compiled("ptx_basics", hopper);
  EXPECT_NE(std::string::npos, program.ptx.find(".version 7.1\n.target sm_86")) << program.ptx.substr(0, 200);
  EXPECT_NE(std::string::npos, program.log.find("LLVM 15 knows architectures up to sm_86")) << program.log;
}

TEST(PtxCompiler, AnArchitectureBetweenTwoLlvmKnowsGetsTheOlderAndOneBeforeSm30IsRefused) {
  PtxOptions between;
  between.sm = 84;
  EXPECT_NE(std::string::npos, compiled("ptx_basics", between).ptx.find(".target sm_80"));
  PtxOptions ancient;
  ancient.sm = 20;
  auto result = compile_ptx(test_kernel("ptx_basics"), ancient);
  ASSERT_FALSE(result);
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, result.error().code);
  EXPECT_EQ("sm_20 is older than the CUDA back end supports (sm_30, the first with warp shuffles)",
            result.error().message);
}

TEST(PtxCompiler, WithoutOptimisationTheBuiltInsAreStillInlinedAndResolved) {
  PtxOptions unoptimised;
  unoptimised.opt_level = 0;
  PtxProgram program = compiled("ptx_basics", unoptimised);
  EXPECT_EQ(std::string::npos, program.ptx.find(".extern .func")) << program.ptx;
  EXPECT_NE(std::string::npos, entry_text(program.ptx, "vadd").find("ld.global.f32")) << program.ptx;
}

// A module NVPTX 15 cannot select (an acquire atomic load, which compile_ptx would have made monotonic between
// membars), given to code generation directly: LLVM's fatal error becomes a build failure, and the process lives.
TEST(PtxCompiler, AFatalErrorOfLlvmsCodeGenerationIsABuildFailureNotTheEndOfTheProcess) {
  auto machine = zeal::cuda::nvptx_target_machine(80, 2);
  ASSERT_TRUE(machine) << machine.error().message;
  llvm::LLVMContext context;
  llvm::Module module("unselectable", context);
  module.setTargetTriple((*machine)->getTargetTriple().str());
  module.setDataLayout((*machine)->createDataLayout());
  llvm::IRBuilder<> b(context);
  auto *type = llvm::FunctionType::get(b.getInt32Ty(), {llvm::PointerType::get(context, 1)}, false);
  auto *function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, "acquire", module);
  b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", function));
  llvm::LoadInst *load = b.CreateAlignedLoad(b.getInt32Ty(), function->getArg(0), llvm::Align(4));
  load->setAtomic(llvm::AtomicOrdering::Acquire);
  b.CreateRet(load);
  auto ptx = zeal::cuda::emit_ptx(module, **machine);
  ASSERT_FALSE(ptx);
  EXPECT_EQ(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, ptx.error().code);
  EXPECT_TRUE(ptx.error().message.starts_with(
      "LLVM's NVPTX back end stopped generating code for the module (functions 'acquire'): Cannot select"))
      << ptx.error().message;
  // Code generation still works afterwards.
  EXPECT_FALSE(compiled("ptx_basics").ptx.empty());
}

// NVPTX numbers call sites with a counter of the process (`callseq N` comments, `prototype_N` labels): the numbers
// are not part of the comparison.
std::string without_call_numbers(const std::string &ptx) {
  return std::regex_replace(ptx, std::regex("(callseq|prototype_) ?[0-9]+"), "$1 N");
}

TEST(PtxCompiler, FourThreadsCompilingAtOnceGetTheSamePtx) {
  std::vector<uint8_t> spirv = test_kernel("ptx_basics");
  std::string alone = compiled("ptx_basics").ptx;
  std::vector<std::string> ptx(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < ptx.size(); ++i) {
    threads.emplace_back([&, i] {
      auto result = compile_ptx(spirv, PtxOptions{});
      ptx[i] = result ? result->ptx : result.error().message;
    });
  }
  for (std::thread &thread : threads) thread.join();
  for (const std::string &text : ptx) EXPECT_EQ(without_call_numbers(alone), without_call_numbers(text));
}

} // namespace
