// A ZEAL_CPU_TARGET the driver cannot compile for makes zeInit fail, with the reason in the log (ctest sets the value).
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include "tests/support/capture_stderr.hpp"

#include <string>

namespace {

using zeal::test::capture_stderr;

std::string failed_init_log() {
  ze_result_t result = ZE_RESULT_SUCCESS;
  std::string log = capture_stderr([&] { result = zeInit(0); });
  EXPECT_NE(ZE_RESULT_SUCCESS, result);
  return log;
}

// ZEAL_CPU_TARGET=pentium-9000
TEST(BadTarget, AnUnknownTargetFailsZeInitAndLogsTheValidTargets) {
  std::string log = failed_init_log();
  EXPECT_NE(std::string::npos,
            log.find("ZEAL_CPU_TARGET 'pentium-9000' is not an x86-64 CPU LLVM 15 knows; valid targets: native, "))
      << log;
  EXPECT_NE(std::string::npos, log.find("x86-64-v3")) << log;
}

// ZEAL_CPU_TARGET=knl: Knights Landing's AVX-512 ER and PF are in no CPU that runs this suite.
TEST(BadTarget, ATargetThisCpuCannotRunFailsZeInitAndSaysWhatIsMissing) {
  std::string log = failed_init_log();
  EXPECT_NE(std::string::npos, log.find("ZEAL_CPU_TARGET 'knl' needs ")) << log;
  EXPECT_NE(std::string::npos, log.find("avx512er")) << log;
  EXPECT_NE(std::string::npos, log.find("its code would stop on an illegal instruction")) << log;
}

} // namespace
