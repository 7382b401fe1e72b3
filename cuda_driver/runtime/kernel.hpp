// Kernels on the CUDA driver: a CUDA function of a loaded module, its arguments as set, its group size; a launch
// is recorded as the parameter bytes cuLaunchKernel takes, so a command list can replay it.
#pragma once

#include "cuda_driver/runtime/module.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cuda {

// Everything one cuLaunchKernel needs, with the parameters copied: the kernel may change before it runs.
struct Launch {
  CUfunction function = nullptr;
  const Device *device = nullptr;
  std::array<uint32_t, 3> groups{}, group_size{};
  uint32_t shared_bytes = 0;
  std::vector<uint8_t> bytes;     // every parameter's value, each at its offset
  std::vector<size_t> offsets;    // where each parameter starts in `bytes`
  bool cooperative = false;       // all work-groups resident at once (cuLaunchCooperativeKernel)
  int dims_at = -1;               // the hidden work-dimensions parameter's index in `offsets`; -1 when none
  // A kernel of a member of the joint module: found again in the newest load when the joint module was loaded
  // again since it was recorded (a regular list replayed after another module joined).
  const Module *member = nullptr;
  const std::string *kernel_name = nullptr;
  uint64_t generation = 0;
  // A kernel whose module was still loading when it was recorded (code_loader.hpp): `function` is found when it
  // runs, on the thread that enqueues it (a stream's feeder, while the load is pending).
  const class Kernel *pending = nullptr;
  ze_result_t run(CUstream stream) const;
  // Another group count for the same launch (an indirect launch's, known when it runs): the work dimensions follow.
  void set_groups(const ze_group_count_t &count);
};

class Kernel : public _ze_kernel_handle_t {
public:
  Kernel(Module &module, const KernelFacts &facts, CUfunction function);
  static Kernel *from(ze_kernel_handle_t h) { return static_cast<Kernel *>(h); }
  Module &module() const { return module_; }
  const PtxKernel &facts() const { return facts_.kernel; }

  ze_result_t set_argument(uint32_t index, size_t size, const void *value);
  ze_result_t set_group_size(uint32_t x, uint32_t y, uint32_t z);
  void set_global_offset(uint32_t x, uint32_t y, uint32_t z) { offset_ = {x, y, z}; }
  const std::array<uint32_t, 3> &group_size() const { return group_size_; }
  // The launch of `groups` work-groups with the arguments as they are now; a sentence in `why` when an argument
  // was never set or the local memory asked for is more than the device has.
  ze_result_t record(const ze_group_count_t &groups, Launch &launch, std::string &why) const;
  int function_attribute(FunctionAttribute which) const;
  // Its CUDA function: a member's kernel is the current joint module's (found again after each load of it); a
  // kernel of a module the code loader still loads waits for the load (null when it failed).
  CUfunction function() const;
  // Whether function() answers without waiting for a load.
  bool function_ready() const { return module_.joined() || resolved_.load(std::memory_order_acquire); }
  // What zeKernelSetIndirectAccess set (every allocation is reachable under unified addressing, so nothing else
  // depends on it) and what zeKernelGetSourceAttributes answers.
  void set_indirect_access(ze_kernel_indirect_access_flags_t flags) { indirect_access_ = flags; }
  ze_kernel_indirect_access_flags_t indirect_access() const { return indirect_access_; }
  const std::string &source_attributes() const { return source_attributes_; }

private:
  Module &module_;
  const KernelFacts &facts_;
  mutable std::mutex function_mutex_; // a member's function_ and generation_
  mutable CUfunction function_;
  mutable std::atomic<bool> resolved_; // function_ is known (not a joint member's)
  mutable uint64_t generation_ = 0;   // the joint module's load function_ is of
  std::vector<std::vector<uint8_t>> values_; // per argument; a local pointer's holds nothing
  std::vector<size_t> local_sizes_;           // per argument; local pointers only
  std::vector<bool> set_;
  std::array<uint32_t, 3> group_size_{1, 1, 1};
  std::array<uint64_t, 3> offset_{0, 0, 0};
  ze_kernel_indirect_access_flags_t indirect_access_ = 0;
  std::string source_attributes_;
};

} // namespace zeal::cuda
