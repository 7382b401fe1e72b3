// CPU targets: ZEAL_CPU_TARGET names, what a host can run, and code generation for CPUs other than the host's.
#include "test_support.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <regex>

namespace zeal::cpu::test {
namespace {

// The CPUs whose code generation every run checks, whatever CPU runs the suite:
// the x86-64 levels (SSE2; SSE4.2; AVX2; AVX-512), an AMD and an Intel AVX-512
// design, and a Zen 3, which lacks the AVX-512 that LLVM 15 gives a Zen 4 it also calls znver3.
const char *const cross_targets[] = {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "znver3", "skylake-avx512"};

CpuTarget target(const char *name) {
  auto found = find_cpu_target(name);
  EXPECT_TRUE(found.ok()) << (found.ok() ? "" : found.error().message);
  return found.ok() ? *found : CpuTarget{};
}

Result<std::vector<uint8_t>> compile_for(const std::vector<uint8_t> &spirv, const CpuTarget &cpu) {
  CompileInput input{spirv, {}};
  return compile_native_binary({&input, 1}, cpu);
}

TEST(CpuTargets, NativeIsTheHostCpuWithEveryFeatureItHas) {
  CpuTarget native = target("native");
  EXPECT_EQ("native", native.name);
  EXPECT_FALSE(native.cpu.empty());
  EXPECT_NE(native.features.find("+sse2"), std::string::npos) << native.features;
  EXPECT_TRUE(native.missing.empty());
  EXPECT_TRUE(check_runnable(native).ok());
}

TEST(CpuTargets, AnUnknownNameIsRefusedWithTheValidNames) {
  for (const char *name : {"pentium-9000", "", "armv8-a", "i686"}) {
    auto found = find_cpu_target(name);
    ASSERT_FALSE(found.ok()) << name;
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, found.error().code);
    EXPECT_NE(found.error().message.find(std::string("ZEAL_CPU_TARGET '") + name +
                                         "' is not an x86-64 CPU LLVM 15 knows; valid targets: native, "),
              std::string::npos)
        << found.error().message;
    EXPECT_NE(found.error().message.find("x86-64-v3"), std::string::npos) << found.error().message;
  }
}

// Knights Landing's AVX-512 ER and PF were never in any other CPU, so no host
// that runs this suite has them.
TEST(CpuTargets, ATargetNeedingInstructionsTheHostLacksIsNotRunnable) {
  CpuTarget knl = target("knl");
  EXPECT_NE(std::find(knl.missing.begin(), knl.missing.end(), "avx512er"), knl.missing.end());
  Status runnable = check_runnable(knl);
  ASSERT_FALSE(runnable.ok());
  EXPECT_EQ(ZE_RESULT_ERROR_INVALID_ARGUMENT, runnable.error().code);
  EXPECT_NE(runnable.error().message.find("ZEAL_CPU_TARGET 'knl' needs "), std::string::npos)
      << runnable.error().message;
  EXPECT_NE(runnable.error().message.find("avx512er"), std::string::npos) << runnable.error().message;
}

// Whatever the host, each x86-64 level needs at least what the one below it needs.
TEST(CpuTargets, EachLevelMissesAtLeastWhatTheLevelBelowMisses) {
  std::vector<std::string> below;
  for (const char *name : {"x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4"}) {
    std::vector<std::string> missing = target(name).missing;
    for (const std::string &feature : below) {
      EXPECT_NE(std::find(missing.begin(), missing.end(), feature), missing.end()) << name << " " << feature;
    }
    below = missing;
  }
  EXPECT_TRUE(target("x86-64").missing.empty()) << "every x86-64 CPU runs baseline x86-64 code";
}

TEST(CpuTargets, EachTargetHasItsOwnIdentity) {
  std::vector<std::string> ids = {target("native").id()};
  for (const char *name : cross_targets) ids.push_back(target(name).id());
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

class CrossCompile : public ::testing::TestWithParam<const char *> {};

// The streaming-store decision for the kernels of streaming.cl, for each
// target: the loops that fill contiguous global memory or write whole lines (block writes) without atomics are versioned
// however the target's vectoriser shaped them (one wide store per iteration,
// several register-wide ones, or an unrolled scalar loop storing whole
// float4s), the others are not.
TEST_P(CrossCompile, OnlyLoopsFillingContiguousMemoryWithoutAtomicsGetStreamingStores) {
  const CpuTarget cpu = target(GetParam());
  const std::vector<uint8_t> spirv = load_kernel("streaming");
  const std::string logged = debug_log([&] {
    auto blob = compile_for(spirv, cpu);
    EXPECT_TRUE(blob.ok()) << (blob.ok() ? "" : blob.error().log);
  });
  auto streams = [&](const char *kernel) {
    const std::regex line(std::string("zeal\\.wg\\.") + kernel + ": [1-9][0-9]* loop\\(s\\) can write with streaming stores");
    return std::regex_search(logged, line);
  };
  for (const char *name : {"stream_scale", "stream_rows", "stream_pairs", "stream_blocks"}) {
    EXPECT_TRUE(streams(name)) << name << " in\n" << logged;
  }
  EXPECT_FALSE(streams("stream_counted")) << logged;
  EXPECT_FALSE(streams("stream_strided")) << logged;
}

// Software prefetches for the same kernels: the loops that read a stream of
// global memory (scale, rows: vectorised on every target) prefetch ahead of it;
// a kernel reading scattered elements gets none. (How the others' loops are
// shaped, so whether they read 16 bytes or more per iteration, depends on the target.)
TEST_P(CrossCompile, LoopsReadingStreamsOfGlobalMemoryGetPrefetches) {
  const CpuTarget cpu = target(GetParam());
  const std::vector<uint8_t> spirv = load_kernel("streaming");
  const std::string logged = debug_log([&] {
    auto blob = compile_for(spirv, cpu);
    EXPECT_TRUE(blob.ok()) << (blob.ok() ? "" : blob.error().log);
  });
  auto prefetches = [&](const char *kernel) {
    const std::regex line(std::string("zeal\\.wg\\.") + kernel +
                          ": [1-9][0-9]* software prefetch\\(es\\) [0-9]+ bytes ahead of the streams its loops read");
    return std::regex_search(logged, line);
  };
  for (const char *name : {"stream_scale", "stream_rows"}) EXPECT_TRUE(prefetches(name)) << name << " in\n" << logged;
  EXPECT_FALSE(prefetches("stream_gathered")) << logged;
}

// With AVX-512, the vectorised lane loop after the sub-group benchmark's reduction stores
// lane 0's sum (`if (get_sub_group_local_id() == 0) sums[...] = s`) with a
// scatter whose mask has one lane set; it becomes a scalar store, and the
// masked load of the sum a scalar load. Whatever CPU runs the suite.
TEST(CrossCompileAvx512, TheLaneZeroStoreAfterAReductionIsAScalarStoreNotAScatter) {
  const std::string logged = debug_log([&] {
    auto blob = compile_for(load_kernel("bench_subgroups"), target("x86-64-v4"));
    EXPECT_TRUE(blob.ok()) << (blob.ok() ? "" : blob.error().log);
  });
  const std::regex line("zeal\\.wg\\.reduce_subgroup: [1-9][0-9]* gather\\(s\\) and scatter\\(s\\) with a constant mask became "
                        "scalar accesses");
  EXPECT_TRUE(std::regex_search(logged, line)) << logged;
}

// Every test kernel builds for the target exactly when it builds for the host: code generation for another CPU
// neither fails nor hides a failure. The kernels are checked in two halves, each its own test (so its own ctest
// entry, about half a minute to three minutes on one core depending on the target), alternate kernels in each.
void every_kernel_builds_as_for_the_host(const char *target_name, size_t half) {
  const CpuTarget cpu = target(target_name);
  std::vector<std::filesystem::path> kernels;
  for (const auto &entry : std::filesystem::directory_iterator(ZEAL_TEST_KERNEL_DIR)) {
    if (entry.path().extension() == ".spv") kernels.push_back(entry.path());
  }
  std::sort(kernels.begin(), kernels.end());
  ASSERT_GE(kernels.size(), 10u) << ZEAL_TEST_KERNEL_DIR;
  // Whether each kernel builds for the host, found once for all targets of the process.
  static std::map<std::filesystem::path, bool> builds_for_host;
  for (size_t i = half; i < kernels.size(); i += 2) {
    const std::filesystem::path &path = kernels[i];
    const std::vector<uint8_t> spirv = load_kernel(path.stem().string());
    auto for_target = compile_for(spirv, cpu);
    auto host = builds_for_host.find(path);
    if (host == builds_for_host.end()) host = builds_for_host.emplace(path, compile_spirv(spirv, {}).ok()).first;
    EXPECT_EQ(host->second, for_target.ok())
        << path.filename() << ": " << (for_target.ok() ? "" : for_target.error().log);
  }
}

TEST_P(CrossCompile, EveryTestKernelOfTheFirstHalfBuildsAsItDoesForTheHost) {
  every_kernel_builds_as_for_the_host(GetParam(), 0);
}

TEST_P(CrossCompile, EveryTestKernelOfTheSecondHalfBuildsAsItDoesForTheHost) {
  every_kernel_builds_as_for_the_host(GetParam(), 1);
}

// A binary carries its target: it loads only in a process compiling for the same one.
TEST_P(CrossCompile, TheBinaryLoadsOnlyWhereTheProcessTargetIsTheSame) {
  const CpuTarget cpu = target(GetParam());
  auto blob = compile_for(load_kernel("vector_add"), cpu);
  ASSERT_TRUE(blob.ok()) << blob.error().log;
  auto loaded = load_native_binary(*blob, {});
  const Result<CpuTarget> &process = process_cpu_target();
  ASSERT_TRUE(process.ok());
  if (process->id() == cpu.id()) {
    EXPECT_TRUE(loaded.ok()) << loaded.error().message;
  } else {
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, loaded.error().code);
    EXPECT_NE(loaded.error().log.find("the native binary was built for another CPU (" + cpu.id() + ")"),
              std::string::npos)
        << loaded.error().log;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, CrossCompile, ::testing::ValuesIn(cross_targets),
                         [](const ::testing::TestParamInfo<const char *> &param) {
                           std::string name = param.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The process's own target, compiled ahead of time, loads and runs.
TEST(CrossCompile, AheadOfTimeForTheProcessTargetRuns) {
  const Result<CpuTarget> &process = process_cpu_target();
  ASSERT_TRUE(process.ok()) << process.error().message;
  auto blob = compile_for(load_kernel("vector_add"), *process);
  ASSERT_TRUE(blob.ok()) << blob.error().log;
  auto loaded = load_native_binary(*blob, {});
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  const KernelInfo *add = (*loaded)->find_kernel("vector_add");
  ASSERT_NE(add, nullptr);
  BuiltKernels::get().add(**loaded);
  std::vector<float> a(64), b(64), c(64, -1.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float(i), b[i] = 0.5f * float(i);
  float *pa = a.data(), *pb = b.data(), *pc = c.data();
  const void *args[] = {&pa, &pb, &pc};
  run(*add, args, Range{1, {4, 1, 1}, {16, 1, 1}});
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(1.5f * float(i), c[i]) << i;
}

} // namespace
} // namespace zeal::cpu::test
