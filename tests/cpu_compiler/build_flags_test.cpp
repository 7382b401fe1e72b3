// The Level Zero build flags the CPU compiler understands, accepts or reports (ze_driver/build_flags.hpp reads them).
#include "cpu_driver/compiler/compiler.hpp"

#include <gtest/gtest.h>

namespace zeal::cpu {
namespace {

TEST(CpuCompilerBuildFlags, NullAndEmptyFlagsGiveTheDefaults) {
  std::string log;
  EXPECT_EQ(compile_options_of(nullptr, log).opt_level, 2u);
  CompileOptions options = compile_options_of("", log);
  EXPECT_EQ(options.opt_level, 2u);
  EXPECT_FALSE(options.library_compilation);
  EXPECT_TRUE(log.empty());
}

TEST(CpuCompilerBuildFlags, OptLevelAndLibraryCompilationAreRead) {
  std::string log;
  CompileOptions options = compile_options_of("-ze-opt-level=1  -library-compilation", log);
  EXPECT_EQ(options.opt_level, 1u);
  EXPECT_TRUE(options.library_compilation);
  EXPECT_TRUE(compile_options_of("-ze-library-compilation", log).library_compilation);
  EXPECT_TRUE(log.empty()) << log;
}

TEST(CpuCompilerBuildFlags, OptDisableWinsOverAnOptLevel) {
  std::string log;
  EXPECT_EQ(compile_options_of("-ze-opt-disable -ze-opt-level=3", log).opt_level, 0u);
}

TEST(CpuCompilerBuildFlags, GpuOnlyAndClFlagsAreAcceptedSilently) {
  std::string log;
  CompileOptions options =
      compile_options_of("-ze-opt-greater-than-4GB-buffer-required -cl-fast-relaxed-math -cl-mad-enable "
                        "-ze-opt-large-register-file -ze-intel-enable-auto-large-GRF-mode -ze-gtpin-rera -g "
                        "-s /tmp/kernel.cl -ze-kernel-debug-enable -library-compilation",
                        log);
  EXPECT_EQ(options.opt_level, 2u);
  EXPECT_TRUE(options.library_compilation) << "-s takes the next word only";
  EXPECT_TRUE(log.empty()) << log;
}

TEST(CpuCompilerBuildFlags, TheRecordNamesTheLevelAsIntelsCompilerDoes) {
  std::string log;
  EXPECT_EQ("-ze-opt-level=O2", build_options_record(compile_options_of("", log)));
  EXPECT_EQ("-ze-opt-level=O0 -library-compilation",
            build_options_record(compile_options_of("-ze-opt-disable -library-compilation", log)));
  EXPECT_EQ("-ze-opt-level=O1 -zeal-barriers=fibers",
            build_options_record(compile_options_of("-ze-opt-level=1 -zeal-barriers=fibers", log)));
}

TEST(CpuCompilerBuildFlags, UnknownFlagsAndBadLevelsAreReportedInTheLog) {
  std::string log;
  CompileOptions options = compile_options_of("-x -ze-opt-level=9", log);
  EXPECT_EQ(options.opt_level, 2u);
  EXPECT_NE(log.find("unknown build flag '-x' ignored"), std::string::npos) << log;
  EXPECT_NE(log.find("'-ze-opt-level=9' ignored"), std::string::npos) << log;
}

} // namespace
} // namespace zeal::cpu
