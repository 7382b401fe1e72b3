// An unknown ZEAL_CPU_PROFILE (ctest sets "quantum") makes zeInit fail, with the valid names in the log.
#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace {

// Runs `fn` with stderr (where zeal logs) going to a temporary file; returns what was written.
template <class Fn>
std::string capture_stderr(Fn fn) {
  char path[] = "/tmp/zeal_bad_profile_XXXXXX";
  int file = mkstemp(path);
  EXPECT_GE(file, 0);
  std::fflush(stderr);
  int saved = dup(2);
  dup2(file, 2);
  fn();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  unlink(path);
  return text;
}

TEST(BadProfile, ZeInitFailsAndLogsTheValidProfileNames) {
  ze_result_t result = ZE_RESULT_SUCCESS;
  std::string log = capture_stderr([&] { result = zeInit(0); });
  EXPECT_NE(ZE_RESULT_SUCCESS, result);
  EXPECT_NE(std::string::npos,
            log.find("ZEAL_CPU_PROFILE='quantum' is not a device profile; valid profiles: host, pvc, dg2"))
      << log;
}

} // namespace
