// Kernels: a compiled kernel of a module plus the arguments and group size set on it.
#pragma once

#include "cpu_driver/runtime/command.hpp"
#include "cpu_driver/runtime/handles.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cpu {

class Device;

class Kernel : public _ze_kernel_handle_t {
public:
  Kernel(std::shared_ptr<const Program> program, const KernelInfo &info, const Device &device);
  static Kernel *from(ze_kernel_handle_t h) { return static_cast<Kernel *>(h); }

  const KernelInfo &info() const { return info_; }
  const Device &device() const { return device_; }
  ze_result_t set_argument(uint32_t index, size_t size, const void *value);
  ze_result_t set_group_size(uint32_t x, uint32_t y, uint32_t z);
  // ZE_experimental_global_offset: added to every global id of the launches appended afterwards.
  void set_global_offset(uint32_t x, uint32_t y, uint32_t z);
  void suggest_group_size(const uint32_t global[3], uint32_t out[3]) const;
  // How many groups of the current group size a cooperative launch may have: each group runs on a thread of its
  // own, so that all are resident at once (zeKernelSuggestMaxCooperativeGroupCount).
  uint32_t max_cooperative_groups() const;
  static constexpr uint64_t max_cooperative_groups_per_thread = 64;
  static constexpr uint64_t max_cooperative_items_per_thread = 1024;
  void properties(ze_kernel_properties_t &out) const;
  // The attributes of the kernel's source as Intel's driver lists them, space-separated:
  // "reqd_work_group_size(8,1,1) intel_reqd_sub_group_size(16)"; empty without any.
  const std::string &source_attributes() const { return source_attributes_; }
  // Recorded for zeKernelGetIndirectAccess: every allocation is host memory, reachable anyway.
  void set_indirect_access(ze_kernel_indirect_access_flags_t flags) { indirect_access_.store(flags); }
  ze_kernel_indirect_access_flags_t indirect_access() const { return indirect_access_.load(); }
  // A copy of the arguments and group size as they are now; INVALID_ARGUMENT if an argument was never set.
  ze_result_t capture_launch(const ze_group_count_t &groups, KernelLaunch &out) const;

private:
  struct Argument {
    std::vector<std::byte> value; // value or pointer bytes; empty for local arguments
    uint64_t local_size = 0;
    bool set = false;
  };

  std::shared_ptr<const Program> program_;
  const KernelInfo &info_;
  const Device &device_;
  mutable std::mutex mutex_; // appends from other threads may capture while arguments change
  std::vector<Argument> arguments_;
  uint32_t group_size_[3] = {1, 1, 1};
  uint32_t global_offset_[3] = {0, 0, 0};
  std::string source_attributes_;
  std::atomic<ze_kernel_indirect_access_flags_t> indirect_access_{0};
};

} // namespace zeal::cpu
