// An unknown ZEAL_CPU_PROFILE (ctest sets "quantum") makes zeInit fail, with the valid names in the log.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include "tests/support/capture_stderr.hpp"

#include <string>

namespace {

using zeal::test::capture_stderr;

TEST(BadProfile, ZeInitFailsAndLogsTheValidProfileNames) {
  ze_result_t result = ZE_RESULT_SUCCESS;
  std::string log = capture_stderr([&] { result = zeInit(0); });
  EXPECT_NE(ZE_RESULT_SUCCESS, result);
  EXPECT_NE(std::string::npos,
            log.find("ZEAL_CPU_PROFILE='quantum' is not a device profile; valid profiles: host, pvc, dg2"))
      << log;
}

} // namespace
