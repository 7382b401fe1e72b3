// Helpers of the compiler tests: loading the test kernels and running an ND-range work-group by work-group.
#pragma once

#include "common/log.hpp"
#include "cpu_driver/compiler/compiler.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace zeal::cpu::test {

// What the compiler logs at debug level while `compile` runs.
template <class F>
std::string debug_log(F compile) {
  std::ostringstream text;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(text);
  spdlog::logger &log = logger("zeal-cpu");
  const spdlog::level::level_enum level = log.level();
  log.sinks().push_back(sink);
  log.set_level(spdlog::level::debug);
  compile();
  log.sinks().pop_back();
  log.set_level(level);
  return text.str();
}

inline std::vector<uint8_t> load_kernel(const std::string &stem) {
  std::string path = std::string(ZEAL_TEST_KERNEL_DIR) + "/" + stem + ".spv";
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// The program of each kernel build() made (or a test added), so that tests can run a kernel from its KernelInfo.
class BuiltKernels {
public:
  static BuiltKernels &get() {
    static BuiltKernels kernels;
    return kernels;
  }
  void add(const Program &program) {
    std::lock_guard lock(mutex_);
    for (const KernelInfo &kernel : program.kernels()) owners_[&kernel] = &program;
  }
  // The kernel's work-group function, compiled on first use.
  WorkGroupFn entry(const KernelInfo &kernel) {
    const Program *owner = nullptr;
    {
      std::lock_guard lock(mutex_);
      auto found = owners_.find(&kernel);
      if (found != owners_.end()) owner = found->second;
    }
    if (owner == nullptr) {
      ADD_FAILURE() << "kernel " << kernel.name << " was not made by build()";
      return nullptr;
    }
    auto run = owner->entry(kernel);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    return run.ok() ? *run : nullptr;
  }

private:
  std::mutex mutex_;
  std::map<const KernelInfo *, const Program *> owners_;
};

inline std::unique_ptr<Program> build_binary(const std::vector<uint8_t> &spirv, const CompileOptions &options = {}) {
  auto program = compile_spirv(spirv, options);
  EXPECT_TRUE(program.ok()) << (program.ok() ? "" : program.error().log);
  if (!program.ok()) return nullptr;
  BuiltKernels::get().add(**program);
  return std::move(program).value();
}

inline std::unique_ptr<Program> build(const std::string &stem, const CompileOptions &options = {}) {
  return build_binary(load_kernel(stem), options);
}

struct Range {
  uint32_t work_dim = 1;
  std::array<uint32_t, 3> groups = {1, 1, 1};
  std::array<uint32_t, 3> local = {1, 1, 1};
  std::array<uint64_t, 3> offset = {0, 0, 0};
};

// The kernel's kernel-scope `local` variables, as the runtime provides them per work-group.
struct LocalMemory {
  explicit LocalMemory(const KernelInfo &kernel) : bytes(kernel.static_local_bytes + 128) {}
  void *get() { return reinterpret_cast<void *>((reinterpret_cast<uintptr_t>(bytes.data()) + 127) / 128 * 128); }
  std::vector<std::byte> bytes;
};

// A test suite whose tests share one program, built once from kernels/<Source::stem>.cl
// (with Source::options() when Source has them).
template <class Source>
class ProgramSuite : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    CompileOptions options;
    if constexpr (requires { Source::options(); }) options = Source::options();
    program = build(Source::stem, options).release();
  }
  static void TearDownTestSuite() {
    delete program;
    program = nullptr;
  }
  const KernelInfo &kernel(const char *name) {
    const KernelInfo *found = program ? program->find_kernel(name) : nullptr;
    EXPECT_NE(found, nullptr) << name;
    return *found;
  }
  static inline Program *program = nullptr;
};

inline GroupContext group_context(const Range &range) {
  GroupContext context;
  context.work_dim = range.work_dim;
  for (int d = 0; d < 3; ++d) {
    context.num_groups[d] = range.groups[d];
    context.local_size[d] = range.local[d];
    context.global_offset[d] = range.offset[d];
  }
  return context;
}

// Runs the work-groups whose linear id is `first`, `first + stride`, ... as one runtime worker would:
// with stride 1, in one call that counts the groups itself (as the runtime's chunks do), else a call each.
inline void run_groups(const KernelInfo &kernel, const void *const *args, const Range &range, uint32_t first,
                       uint32_t stride) {
  GroupContext context = group_context(range);
  LocalMemory local(kernel);
  context.local_memory = local.get();
  uint32_t total = range.groups[0] * range.groups[1] * range.groups[2];
  WorkGroupFn run = BuiltKernels::get().entry(kernel);
  if (run == nullptr || first >= total) return;
  for (uint32_t g = first; g < total; g += stride) {
    context.group_id[0] = g % range.groups[0];
    context.group_id[1] = g / range.groups[0] % range.groups[1];
    context.group_id[2] = g / (range.groups[0] * range.groups[1]);
    context.group_count = stride == 1 ? total - first : 1;
    run(args, &context);
    if (stride == 1) return;
  }
}

// Runs every work-group of `range` in order, as the runtime's workers would.
inline void run(const KernelInfo &kernel, const void *const *args, const Range &range) {
  run_groups(kernel, args, range, 0, 1);
}

// Spreads the work-groups over `threads` threads, each with its own context and local memory.
inline void run_on_threads(const KernelInfo &kernel, const void *const *args, const Range &range, uint32_t threads) {
  std::vector<std::thread> workers;
  for (uint32_t t = 1; t < threads; ++t) workers.emplace_back([&, t] { run_groups(kernel, args, range, t, threads); });
  run_groups(kernel, args, range, 0, threads);
  for (std::thread &worker : workers) worker.join();
}

} // namespace zeal::cpu::test
