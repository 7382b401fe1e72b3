// The exception getting a kernel throws, for tests of images that must not build.
#pragma once

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <string>

namespace zeal::test {

inline zeal::exception kernel_failure(const std::string &kernel) {
  zeal::queue q;
  try {
    (void)q.get_kernel(zeal::get_kernel_id(kernel));
  } catch (const zeal::exception &e) {
    return e;
  }
  ADD_FAILURE() << "building '" << kernel << "' did not fail";
  return zeal::exception(zeal::errc::success, "");
}

} // namespace zeal::test
