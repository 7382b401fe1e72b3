// Runs a function with stderr (fd 2, where zeal logs and traces) redirected to a temporary file, and
// returns what it wrote there.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace zeal::test {

template <class Fn>
std::string capture_stderr(Fn &&fn) {
  char path[] = "/tmp/zeal_stderr_XXXXXX";
  int file = mkstemp(path);
  EXPECT_GE(file, 0) << "no temporary file for stderr";
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

} // namespace zeal::test
