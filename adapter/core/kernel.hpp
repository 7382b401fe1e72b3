// A zeal kernel: a Level Zero kernel of an executable program, its stored arguments and its launch requirements.
#pragma once

#include "adapter/core/event.hpp"
#include "adapter/core/function_ref.hpp"
#include "adapter/core/launch_checks.hpp"
#include "adapter/core/program.hpp"

#include <mutex>
#include <optional>

namespace zeal::adapter {

class Queue;

class Kernel : public Object {
public:
  static constexpr Kind kKind = Kind::Kernel;

  // An unknown name is INVALID_KERNEL_NAME, listing the program's kernels. A
  // kernel the program left out (the device cannot honour it) is created too:
  // it answers its info and sub-group info, and refuses every launch.
  static Result<Kernel *> create(Program &program, const std::string &name);
  // A kernel over a Level Zero kernel made elsewhere (a native handle) from a module of `program`, which must
  // have a kernel of its name. `owned`: the kernel destroys it when it goes; otherwise its maker does.
  static Result<Kernel *> adopt(Program &program, ze_kernel_handle_t kernel, bool owned);
  ~Kernel() override;

  Program &program() const { return *program_; }
  const std::string &name() const { return name_; }
  const ze_kernel_properties_t &properties() const { return props_; }
  const KernelLimits &limits() const { return limits_; }
  const std::optional<Error> &refusal() const { return refusal_; }

  // The Level Zero kernel; null for a kernel the device cannot honour.
  ze_kernel_handle_t ze() const { return kernel_.get(); }

  Status set_arg(const zeal_kernel_arg_t &arg);
  Status check_arg(const zeal_kernel_arg_t &arg) const;
  Result<InfoValue> info(int32_t key) const;
  // Device-specific queries name a device: it must be the one the kernel was built for.
  Status check_device(const Device &device) const;
  // A zeal_kernel_sub_group_info_t key; MAX_SUB_GROUP_SIZE needs `local_size` (`entry` names the caller).
  Result<InfoValue> sub_group_info(int32_t key, const size_t *local_size, std::string_view entry) const;
  // The largest local range a launch may give: the required one, else the kernel's maximum in dimension 0.
  std::array<size_t, 3> widest_local_range() const;
  // Execution hints passed to the driver; a kernel the device cannot honour never runs, so takes them as they are.
  Status set_indirect_access(bool indirect);
  Status set_cache_config(ze_cache_config_flags_t flags);

  // The local size a launch over `global` without one would get (work_dim values are read).
  Result<std::array<size_t, 3>> suggest_local_size(uint32_t work_dim, const size_t *global);
  // Checks and appends one launch; see launch.cpp. Allocation-free once warm. `cooperative`: every work-group
  // resident at once (zeCommandListAppendLaunchCooperativeKernel; at most max_cooperative_groups of them).
  Result<Ref<Event>> launch(Queue &queue, const zeal_launch_desc_t &desc, std::span<Event *const> wait,
                            bool cooperative = false);
  // How many work-groups of `local` (work_dim values) may run at once in a cooperative launch, each with
  // `dynamic_local` bytes of local memory besides the kernel's own: the driver's answer, bounded by how many
  // such groups the device's compute units' local memory holds.
  Result<uint32_t> max_cooperative_groups(uint32_t work_dim, const size_t *local, size_t dynamic_local);
  // What launch() does before the append, for any command list on `device`: the checks, then the kernel's
  // arguments and group state set under its mutex, and `append(kernel, groups)` called still under it (Level Zero
  // captures the state at append).
  using AppendLaunch = FunctionRef<Status(ze_kernel_handle_t kernel, const ze_group_count_t &groups)>;
  Status append_launch(const Device &device, const zeal_launch_desc_t &desc, AppendLaunch append);

  // One argument as a command buffer keeps it, apart from what is set on the kernel later: its bytes (a USM
  // pointer's own), or the size of local memory.
  struct StoredArg {
    bool local = false;
    size_t size = 0;
    std::vector<uint8_t> bytes;
  };
  // Every argument a launch with `desc` would pass, in index order: the launch's own, else the one in `others`
  // when given (one per argument), else the one set with kernelSetArg. One never given is INVALID_KERNEL_ARGUMENT.
  Result<std::vector<StoredArg>> capture_args(const zeal_launch_desc_t &desc, std::span<const StoredArg> others = {});
  // A launch desc passing every one of `args` (the values point into them).
  static void describe_args(const std::vector<StoredArg> &args, std::vector<zeal_kernel_arg_t> &out);

private:
  Kernel(Program &program, std::string name, ZeKernel kernel)
      : Object(kKind), program_(&program), name_(std::move(name)), kernel_(std::move(kernel)) {}
  Status query();
  void read_requirements();

  // An argument set with kernelSetArg, stored where launches can reuse it
  // without allocating: small values inline, larger ones in a buffer that keeps
  // its capacity.
  // The bytes an argument passes (a USM pointer's own value; null for local memory or a null value, which is
  // `size` zero bytes) and how many.
  struct ArgBytes {
    const void *from;
    size_t size;
    bool local;
  };
  ArgBytes bytes_of(const zeal_kernel_arg_t &arg) const;
  Status check_image_arg(const zeal_kernel_arg_t &arg) const;
  struct Arg {
    bool set = false;
    bool ze_holds = false; // the Level Zero kernel holds this value now
    size_t size = 0;
    std::array<uint8_t, 32> small{};
    std::vector<uint8_t> large;
    bool local = false;
    bool value = false; // a VALUE argument (which an integer's narrowing may apply to)
    void assign(const zeal_kernel_arg_t &arg, const ArgBytes &given);
    const void *data() const { return local ? nullptr : (size <= small.size() ? small.data() : large.data()); }
  };
  Status choose_local_size(NdRange &range);
  Status check_range_limit(const NdRange &range) const;
  Status set_arguments(const zeal_launch_desc_t &desc);
  ze_result_t set_value(uint32_t index, size_t &size, const void *value);
  Status set_group_state(const NdRange &range);
  Status ze_failed(ze_result_t r, const char *call) const;
  Status argument_failed(ze_result_t r, uint32_t index, size_t size) const;

  Ref<Program> program_;
  std::string name_;
  ZeKernel kernel_; // null for a refused kernel
  bool owns_kernel_ = true;
  ze_kernel_properties_t props_ = ze_desc<ze_kernel_properties_t>();
  KernelLimits limits_;
  uint64_t range_limit_ = 0; // range_type: most work-items per launch, 0 for none
  std::optional<Error> refusal_;

  // Level Zero kernel state (arguments, group size, offset) is shared by every
  // launch, so setting it and appending the launch happen under this mutex.
  std::mutex mutex_;
  std::vector<Arg> args_;
  std::vector<uint64_t> given_; // the launch number that last gave each argument
  uint64_t launches_ = 0;
  std::array<uint32_t, 3> group_size_{0, 0, 0};
  bool offset_set_ = false;
  // The last suggestion for a global size, so repeated launches ask the driver once.
  std::array<size_t, 3> suggested_for_{0, 0, 0};
  std::array<uint32_t, 3> suggested_{0, 0, 0};
};

} // namespace zeal::adapter
