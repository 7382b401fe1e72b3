// Helpers of the compiler tests: loading the test kernels and running an ND-range work-group by work-group.
#pragma once

#include "cpu_driver/compiler/compiler.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace zeal::cpu::test {

inline std::vector<uint8_t> load_kernel(const std::string &stem) {
  std::string path = std::string(ZEAL_TEST_KERNEL_DIR) + "/" + stem + ".spv";
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

inline std::unique_ptr<Program> build(const std::string &stem, const CompileOptions &options = {}) {
  auto program = compile_spirv(load_kernel(stem), options);
  EXPECT_TRUE(program.ok()) << (program.ok() ? "" : program.error().log);
  return program.ok() ? std::move(program).value() : nullptr;
}

struct Range {
  uint32_t work_dim = 1;
  std::array<uint32_t, 3> groups = {1, 1, 1};
  std::array<uint32_t, 3> local = {1, 1, 1};
  std::array<uint64_t, 3> offset = {0, 0, 0};
};

// Runs every work-group of `range` in order, as the runtime's workers would.
inline void run(const KernelInfo &kernel, const void *const *args, const Range &range) {
  GroupContext context;
  context.work_dim = range.work_dim;
  for (int d = 0; d < 3; ++d) {
    context.num_groups[d] = range.groups[d];
    context.local_size[d] = range.local[d];
    context.global_offset[d] = range.offset[d];
  }
  for (uint32_t z = 0; z < range.groups[2]; ++z) {
    for (uint32_t y = 0; y < range.groups[1]; ++y) {
      for (uint32_t x = 0; x < range.groups[0]; ++x) {
        context.group_id[0] = x;
        context.group_id[1] = y;
        context.group_id[2] = z;
        kernel.run(args, &context);
      }
    }
  }
}

} // namespace zeal::cpu::test
