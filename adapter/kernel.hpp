// A zeal kernel: a Level Zero kernel of a built program, its stored arguments and its launch requirements.
#pragma once

#include "adapter/event.hpp"
#include "adapter/launch_checks.hpp"
#include "adapter/program.hpp"

#include <map>
#include <mutex>

namespace zeal::adapter {

class Queue;

class Kernel : public Object {
public:
  static constexpr Kind kKind = Kind::Kernel;

  // An unknown name is INVALID_KERNEL_NAME, listing the program's kernels.
  static Result<Kernel *> create(Program &program, const std::string &name);

  Program &program() const { return *program_; }
  const std::string &name() const { return name_; }
  const ze_kernel_properties_t &properties() const { return props_; }
  const KernelLimits &limits() const { return limits_; }

  Status set_arg(const zeal_kernel_arg_t &arg);
  Status check_arg(const zeal_kernel_arg_t &arg) const;
  Result<InfoValue> info(zeal_kernel_info_t key) const;
  Result<InfoValue> sub_group_info(zeal_kernel_sub_group_info_t key, const size_t *local_size) const;

  // Checks and appends one launch; see launch.cpp.
  Result<Ref<Event>> launch(Queue &queue, const zeal_launch_desc_t &desc, std::span<Event *const> wait);

private:
  Kernel(Program &program, std::string name, ZeKernel kernel)
      : Object(kKind), program_(&program), name_(std::move(name)), kernel_(std::move(kernel)) {}
  Status query();

  // An argument as the kernel keeps it: the bytes zeKernelSetArgumentValue gets.
  struct Arg {
    size_t size = 0;
    std::vector<uint8_t> bytes; // empty for local memory
  };
  static Arg to_arg(const zeal_kernel_arg_t &arg);
  Status choose_local_size(NdRange &range);
  Status set_ze_state(const std::map<uint32_t, Arg> &args, const NdRange &range);

  Ref<Program> program_;
  std::string name_;
  ZeKernel kernel_;
  ze_kernel_properties_t props_ = ze_desc<ze_kernel_properties_t>();
  KernelLimits limits_;

  // Level Zero kernel state (arguments, group size, offset) is shared by every
  // launch, so setting it and appending the launch happen under this mutex.
  std::mutex mutex_;
  std::map<uint32_t, Arg> args_;
  bool offset_set_ = false;
};

} // namespace zeal::adapter
