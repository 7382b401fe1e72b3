// Kernel launch: checks against kernel and device, then kernel state and the append under the kernel's mutex.
// The success path allocates nothing once warm: messages are only made on failure.
#include "adapter/core/kernel.hpp"
#include "adapter/core/queue.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace zeal::adapter {

Status Kernel::ze_failed(ze_result_t r, const char *call) const {
  return ze_check(r, call, "kernel '" + name_ + "'");
}

Status Kernel::argument_failed(ze_result_t r, uint32_t index, size_t size) const {
  return ze_check(r, "zeKernelSetArgumentValue", fmt::format("argument {} ({} bytes) of kernel '{}'", index, size, name_));
}

// The local size when the launch gives none: the kernel's required size, else
// the driver's suggestion (which honours a required sub-group size, the
// suggestion being a multiple of it), trimmed to a divisor of the global size
// in case a driver suggests one that does not divide it.
Status Kernel::choose_local_size(NdRange &range) {
  if (limits_.required_work_group_size[0] != 0) {
    for (uint32_t d = 0; d < range.work_dim; ++d) range.local[d] = limits_.required_work_group_size[d];
    return {};
  }
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  for (uint32_t d = 0; d < range.work_dim; ++d)
    if (range.global[d] > kMax)
      return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                        fmt::format("global size {} in dimension {} of kernel '{}' is over {}: give a local size",
                                    range.global[d], d, name_, kMax));
  if (range.global != suggested_for_) {
    uint32_t x = 1, y = 1, z = 1;
    ze_result_t r = zeKernelSuggestGroupSize(kernel_.get(), static_cast<uint32_t>(range.global[0]),
                                             static_cast<uint32_t>(range.global[1]),
                                             static_cast<uint32_t>(range.global[2]), &x, &y, &z);
    if (r != ZE_RESULT_SUCCESS) return ze_failed(r, "zeKernelSuggestGroupSize");
    suggested_ = {x, y, z};
    suggested_for_ = range.global;
  }
  const uint32_t sg = limits_.required_sub_group_size;
  for (uint32_t d = 0; d < range.work_dim; ++d) {
    range.local[d] = largest_divisor_up_to(range.global[d], suggested_[d]);
    // Trimming must not break a sub-group into pieces when a whole one still fits.
    if (d == 0 && sg != 0 && range.local[0] % sg != 0 && range.global[0] % sg == 0)
      range.local[0] = largest_divisor_up_to(range.global[0] / sg, std::max<size_t>(suggested_[0] / sg, 1)) * sg;
  }
  return {};
}

// sycl_ext_oneapi_range_type: "launched with more than this many work-items ... errc::nd_range".
Status Kernel::check_range_limit(const NdRange &range) const {
  if (range_limit_ == 0) return {};
  uint64_t total = 1;
  bool overflow = false;
  for (uint32_t d = 0; d < range.work_dim; ++d) overflow = overflow || __builtin_mul_overflow(total, range.global[d], &total);
  if (!overflow && total <= range_limit_) return {};
  std::string items = overflow ? std::string("more than 2^64") : std::to_string(total);
  return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                    fmt::format("kernel '{}' declares a range_type of at most {} work-items, but the launch has {} "
                                "(global size {{{}}})",
                                name_, range_limit_, items,
                                fmt::join(range.global.begin(), range.global.begin() + range.work_dim, ", ")));
}

namespace {
// Whether the bytes of a little-endian integer past its first `narrow` only extend it: zeros, or ones after a
// negative value. Such a value means the same number at the narrower width.
bool only_extends(const uint8_t *bytes, size_t narrow, size_t size) {
  const bool negative = (bytes[narrow - 1] & 0x80) != 0;
  const bool zeros = std::all_of(bytes + narrow, bytes + size, [](uint8_t b) { return b == 0x00; });
  const bool ones = negative && std::all_of(bytes + narrow, bytes + size, [](uint8_t b) { return b == 0xff; });
  return zeros || ones;
}
} // namespace

// A value argument as the driver takes it. An integer given wider than the kernel declares it (a size_t for a
// uint32_t, as UR's own tests pass) is narrowed when the bytes past the declared width only extend it, so that
// it means the same number; `size` becomes the width the driver took. Intel's driver reads the leading bytes of
// any wider value; zeal narrows only what loses nothing, and any other mismatch stays the driver's error.
ze_result_t Kernel::set_value(uint32_t index, size_t &size, const void *value) {
  ze_result_t r = zeKernelSetArgumentValue(kernel_.get(), index, size, value);
  if (r != ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE || value == nullptr || (size != 2 && size != 4 && size != 8))
    return r;
  const auto *bytes = static_cast<const uint8_t *>(value);
  for (size_t narrow = size / 2; narrow >= 1; narrow /= 2) {
    if (!only_extends(bytes, narrow, size)) continue;
    if (zeKernelSetArgumentValue(kernel_.get(), index, narrow, value) == ZE_RESULT_SUCCESS) {
      size = narrow;
      return ZE_RESULT_SUCCESS;
    }
  }
  return r;
}

// Every argument: the launch's own, else the one set with kernelSetArg (only
// given to Level Zero again when a launch replaced it in between).
Status Kernel::set_arguments(const zeal_launch_desc_t &desc) {
  const uint64_t now = ++launches_;
  for (uint32_t i = 0; i < desc.num_args; ++i) given_[desc.args[i].index] = now;
  for (uint32_t i = 0; i < args_.size(); ++i) {
    Arg &a = args_[i];
    if (given_[i] == now) {
      a.ze_holds = false;
      continue;
    }
    if (!a.set)
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("argument {} of kernel '{}' was not set", i, name_));
    if (a.ze_holds) continue;
    ze_result_t r =
        a.value ? set_value(i, a.size, a.data()) : zeKernelSetArgumentValue(kernel_.get(), i, a.size, a.data());
    if (r != ZE_RESULT_SUCCESS) return argument_failed(r, i, a.size);
    a.ze_holds = true;
  }
  for (uint32_t i = 0; i < desc.num_args; ++i) {
    const zeal_kernel_arg_t &arg = desc.args[i];
    ze_result_t r = ZE_RESULT_SUCCESS;
    switch (arg.kind) {
    case ZEAL_KERNEL_ARG_VALUE: {
      size_t size = arg.size;
      r = set_value(arg.index, size, arg.value);
      break;
    }
    case ZEAL_KERNEL_ARG_USM_POINTER:
      r = zeKernelSetArgumentValue(kernel_.get(), arg.index, sizeof(void *), &arg.value);
      break;
    case ZEAL_KERNEL_ARG_LOCAL: r = zeKernelSetArgumentValue(kernel_.get(), arg.index, arg.size, nullptr); break;
    case ZEAL_KERNEL_ARG_IMAGE:
    case ZEAL_KERNEL_ARG_SAMPLER: {
      const ArgBytes handle = bytes_of(arg);
      r = zeKernelSetArgumentValue(kernel_.get(), arg.index, handle.size, handle.from);
      break;
    }
    }
    if (r != ZE_RESULT_SUCCESS)
      return argument_failed(r, arg.index, arg.kind == ZEAL_KERNEL_ARG_USM_POINTER ? sizeof(void *) : arg.size);
  }
  return {};
}

Status Kernel::set_group_state(const NdRange &range) {
  const std::array<uint32_t, 3> local{static_cast<uint32_t>(range.local[0]), static_cast<uint32_t>(range.local[1]),
                                      static_cast<uint32_t>(range.local[2])};
  if (local != group_size_) {
    ze_result_t r = zeKernelSetGroupSize(kernel_.get(), local[0], local[1], local[2]);
    if (r != ZE_RESULT_SUCCESS) return ze_failed(r, "zeKernelSetGroupSize");
    group_size_ = local;
  }
  bool offset = range.offset[0] != 0 || range.offset[1] != 0 || range.offset[2] != 0;
  // The offset is kernel state too: a launch without one must undo an earlier one.
  if (!offset && !offset_set_) return {};
  for (size_t o : range.offset)
    if (o > std::numeric_limits<uint32_t>::max())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                        fmt::format("global offset {} of kernel '{}' does not fit in 32 bits", o, name_));
  ze_result_t r = zeKernelSetGlobalOffsetExp(kernel_.get(), static_cast<uint32_t>(range.offset[0]),
                                             static_cast<uint32_t>(range.offset[1]),
                                             static_cast<uint32_t>(range.offset[2]));
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                      fmt::format("the driver of device '{}' does not support global offsets "
                                  "(zeKernelSetGlobalOffsetExp), needed by the launch of kernel '{}'",
                                  program_->device().name(), name_));
  if (r != ZE_RESULT_SUCCESS) return ze_failed(r, "zeKernelSetGlobalOffsetExp");
  offset_set_ = offset;
  return {};
}

Result<std::array<size_t, 3>> Kernel::suggest_local_size(uint32_t work_dim, const size_t *global) {
  if (refusal_) return Error(*refusal_);
  size_t sizes[3] = {1, 1, 1}, zeros[3] = {0, 0, 0};
  for (uint32_t d = 0; d < std::min<uint32_t>(work_dim, 3); ++d) sizes[d] = global[d];
  auto range = normalise_nd_range(work_dim, sizes, zeros, zeros);
  if (!range.ok()) return std::move(range).error();
  std::lock_guard lock(mutex_);
  if (Status s = choose_local_size(range.value()); !s.ok()) return std::move(s).error();
  return range->local;
}

Result<Ref<Event>> Kernel::launch(Queue &queue, const zeal_launch_desc_t &desc, std::span<Event *const> wait,
                                  bool cooperative) {
  Ref<Event> event;
  Status s = append_launch(queue.device(), desc, [&](ze_kernel_handle_t kernel, const ze_group_count_t &groups) -> Status {
    if (cooperative) {
      // The driver refuses too many groups with a bare INVALID_ARGUMENT; the sentence says how many fit.
      uint32_t most = 0;
      if (ze_result_t r = zeKernelSuggestMaxCooperativeGroupCount(kernel, &most); r != ZE_RESULT_SUCCESS)
        return ze_failed(r, "zeKernelSuggestMaxCooperativeGroupCount");
      const uint64_t count = uint64_t{groups.groupCountX} * groups.groupCountY * groups.groupCountZ;
      if (count > most)
        return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                          fmt::format("a cooperative launch of kernel '{}' has {} work-groups, but at most {} of its "
                                      "group size run at once on device '{}'",
                                      name_, count, most, queue.device().name()));
    }
    const char *call = cooperative ? "zeCommandListAppendLaunchCooperativeKernel" : "zeCommandListAppendLaunchKernel";
    auto e = queue.submit(Command::Launch, wait, call,
                          [kernel, &groups, cooperative](ze_command_list_handle_t list, ze_event_handle_t signal,
                                                         uint32_t n, ze_event_handle_t *w) {
                            return cooperative ? zeCommandListAppendLaunchCooperativeKernel(list, kernel, &groups,
                                                                                            signal, n, w)
                                               : zeCommandListAppendLaunchKernel(list, kernel, &groups, signal, n, w);
                          });
    if (!e.ok()) return std::move(e).error();
    event = std::move(e).value();
    return {};
  });
  if (!s.ok()) return std::move(s).error();
  return event;
}

Status Kernel::append_launch(const Device &device, const zeal_launch_desc_t &desc, AppendLaunch append) {
  if (refusal_) return Error(*refusal_);
  const Device &own = program_->device();
  if (&device != &own)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("kernel '{}' was built for device '{}' but the queue is on device '{}'", name_,
                                  own.name(), device.name()));
  for (uint32_t i = 0; i < desc.num_args; ++i)
    if (Status s = check_arg(desc.args[i]); !s.ok()) return s;
  if (Status s = check_sub_group_size(limits_, own.limits()); !s.ok()) return s;
  auto range = normalise_nd_range(desc.work_dim, desc.global_size, desc.local_size, desc.global_offset);
  if (!range.ok()) return std::move(range).error();
  if (Status s = check_range_limit(range.value()); !s.ok()) return s;

  std::lock_guard lock(mutex_);
  if (!range->has_local()) {
    if (Status s = choose_local_size(range.value()); !s.ok()) return s;
  }
  if (Status s = check_local_size(range.value(), limits_, own.limits()); !s.ok()) return s;
  auto counts = group_counts(range.value(), own.limits());
  if (!counts.ok()) return std::move(counts).error();
  if (Status s = set_arguments(desc); !s.ok()) return s;
  if (Status s = set_group_state(range.value()); !s.ok()) return s;
  const ze_group_count_t groups{counts.value()[0], counts.value()[1], counts.value()[2]};
  // Level Zero captures arguments and group size at append, so the next launch
  // may change them as soon as this one has been appended.
  return append(kernel_.get(), groups);
}

Result<uint32_t> Kernel::max_cooperative_groups(uint32_t work_dim, const size_t *local, size_t dynamic_local) {
  if (refusal_) return Error(*refusal_);
  size_t sizes[3] = {1, 1, 1}, zeros[3] = {0, 0, 0};
  for (uint32_t d = 0; d < std::min<uint32_t>(work_dim, 3); ++d) sizes[d] = local[d];
  // The local size as a launch's, checked the same way (a global size of one group).
  auto range = normalise_nd_range(work_dim, sizes, sizes, zeros);
  if (!range.ok()) return std::move(range).error();
  const Device &device = program_->device();
  if (Status s = check_local_size(range.value(), limits_, device.limits()); !s.ok()) return std::move(s).error();
  std::lock_guard lock(mutex_);
  if (Status s = set_group_state(range.value()); !s.ok()) return std::move(s).error();
  uint32_t count = 0;
  if (ze_result_t r = zeKernelSuggestMaxCooperativeGroupCount(kernel_.get(), &count); r != ZE_RESULT_SUCCESS)
    return ze_failed(r, "zeKernelSuggestMaxCooperativeGroupCount").error();
  if (dynamic_local > 0) {
    const auto &p = device.properties();
    const uint64_t units = uint64_t{p.numSlices} * p.numSubslicesPerSlice * p.numEUsPerSubslice;
    const uint64_t per_unit = device.compute().maxSharedLocalMemory / (props_.localMemSize + dynamic_local);
    count = static_cast<uint32_t>(std::min<uint64_t>(count, units * per_unit));
  }
  return count;
}

Result<std::vector<Kernel::StoredArg>> Kernel::capture_args(const zeal_launch_desc_t &desc,
                                                             std::span<const StoredArg> others) {
  if (refusal_) return Error(*refusal_);
  for (uint32_t i = 0; i < desc.num_args; ++i)
    if (Status s = check_arg(desc.args[i]); !s.ok()) return std::move(s).error();
  std::lock_guard lock(mutex_);
  if (!others.empty() && others.size() != args_.size())
    return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                      fmt::format("kernel '{}' takes {} arguments, not {}", name_, args_.size(), others.size()));
  std::vector<StoredArg> stored(args_.size());
  std::vector<bool> given(args_.size(), false);
  for (uint32_t i = 0; i < desc.num_args; ++i) {
    const zeal_kernel_arg_t &arg = desc.args[i];
    StoredArg &to = stored[arg.index];
    given[arg.index] = true;
    const ArgBytes bytes = bytes_of(arg);
    to.local = bytes.local;
    to.size = bytes.size;
    if (to.local) continue;
    to.bytes.assign(to.size, 0); // a null value: zero bytes
    if (bytes.from != nullptr) std::memcpy(to.bytes.data(), bytes.from, to.size);
  }
  for (size_t i = 0; i < args_.size(); ++i) {
    if (given[i]) continue;
    if (!others.empty()) {
      stored[i] = others[i];
      continue;
    }
    const Arg &a = args_[i];
    if (!a.set)
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("argument {} of kernel '{}' was not set", i, name_));
    stored[i].local = a.local;
    stored[i].size = a.size;
    if (!a.local) {
      const auto *bytes = static_cast<const uint8_t *>(a.data());
      stored[i].bytes.assign(bytes, bytes + a.size);
    }
  }
  return stored;
}

void Kernel::describe_args(const std::vector<StoredArg> &args, std::vector<zeal_kernel_arg_t> &out) {
  out.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i)
    out[i] = zeal_kernel_arg_t{static_cast<uint32_t>(i), args[i].local ? ZEAL_KERNEL_ARG_LOCAL : ZEAL_KERNEL_ARG_VALUE,
                               args[i].size, args[i].local ? nullptr : args[i].bytes.data()};
}

} // namespace zeal::adapter
