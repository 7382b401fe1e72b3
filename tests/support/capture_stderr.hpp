// Runs a function with stderr (fd 2, where zeal logs and traces) or stdout (fd 1, where kernels' printf writes)
// redirected to a temporary file, and returns what it wrote there.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

namespace zeal::test {

template <class Fn>
std::string capture_output(int fd, Fn &&fn) {
  char path[] = "/tmp/zeal_output_XXXXXX";
  int file = mkstemp(path);
  EXPECT_GE(file, 0) << "no temporary file for fd " << fd;
  std::fflush(stdout);
  std::fflush(stderr);
  int saved = dup(fd);
  dup2(file, fd);
  fn();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved, fd);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  unlink(path);
  return text;
}

template <class Fn>
std::string capture_stderr(Fn &&fn) {
  return capture_output(STDERR_FILENO, std::forward<Fn>(fn));
}

template <class Fn>
std::string capture_stdout(Fn &&fn) {
  return capture_output(STDOUT_FILENO, std::forward<Fn>(fn));
}

} // namespace zeal::test
