// Kernel launch: checks against kernel and device, then kernel state and the append under the kernel's mutex.
#include "adapter/kernel.hpp"
#include "adapter/queue.hpp"

#include <limits>

namespace zeal::adapter {

// The local size when the launch gives none: the kernel's required size, else
// the driver's suggestion, trimmed to a divisor of the global size in case a
// driver suggests one that does not divide it.
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
  uint32_t x = 1, y = 1, z = 1;
  if (Status s = ze_check(zeKernelSuggestGroupSize(kernel_.get(), static_cast<uint32_t>(range.global[0]),
                                                   static_cast<uint32_t>(range.global[1]),
                                                   static_cast<uint32_t>(range.global[2]), &x, &y, &z),
                          "zeKernelSuggestGroupSize", "kernel '" + name_ + "'");
      !s.ok())
    return s;
  const uint32_t suggested[3] = {x, y, z};
  for (uint32_t d = 0; d < range.work_dim; ++d) range.local[d] = largest_divisor_up_to(range.global[d], suggested[d]);
  return {};
}

Status Kernel::set_ze_state(const std::map<uint32_t, Arg> &args, const NdRange &range) {
  const std::string what = "kernel '" + name_ + "'";
  for (const auto &[index, arg] : args) {
    const void *value = arg.bytes.empty() ? nullptr : arg.bytes.data();
    if (Status s = ze_check(zeKernelSetArgumentValue(kernel_.get(), index, arg.size, value),
                            "zeKernelSetArgumentValue", fmt::format("argument {} of {}", index, what));
        !s.ok())
      return s;
  }
  if (Status s = ze_check(zeKernelSetGroupSize(kernel_.get(), static_cast<uint32_t>(range.local[0]),
                                               static_cast<uint32_t>(range.local[1]),
                                               static_cast<uint32_t>(range.local[2])),
                          "zeKernelSetGroupSize", what);
      !s.ok())
    return s;
  bool offset = range.offset[0] != 0 || range.offset[1] != 0 || range.offset[2] != 0;
  // The offset is kernel state too: a launch without one must undo an earlier one.
  if (!offset && !offset_set_) return {};
  for (size_t o : range.offset)
    if (o > std::numeric_limits<uint32_t>::max())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ND_RANGE,
                        fmt::format("global offset {} of {} does not fit in 32 bits", o, what));
  ze_result_t r = zeKernelSetGlobalOffsetExp(kernel_.get(), static_cast<uint32_t>(range.offset[0]),
                                             static_cast<uint32_t>(range.offset[1]),
                                             static_cast<uint32_t>(range.offset[2]));
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                      fmt::format("the driver of device '{}' does not support global offsets "
                                  "(zeKernelSetGlobalOffsetExp), needed by the launch of {}",
                                  program_->device().name(), what));
  if (Status s = ze_check(r, "zeKernelSetGlobalOffsetExp", what); !s.ok()) return s;
  offset_set_ = offset;
  return {};
}

Result<Ref<Event>> Kernel::launch(Queue &queue, const zeal_launch_desc_t &desc, std::span<Event *const> wait) {
  Device &device = program_->device();
  if (&queue.device() != &device)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("kernel '{}' was built for device '{}' but the queue is on device '{}'", name_,
                                  device.name(), queue.device().name()));
  for (uint32_t i = 0; i < desc.num_args; ++i)
    if (Status s = check_arg(desc.args[i]); !s.ok()) return std::move(s).error();
  if (Status s = check_sub_group_size(limits_, device.limits()); !s.ok()) return std::move(s).error();
  auto range = normalise_nd_range(desc.work_dim, desc.global_size, desc.local_size, desc.global_offset);
  if (!range.ok()) return std::move(range).error();

  std::lock_guard lock(mutex_);
  std::map<uint32_t, Arg> args = args_;
  for (uint32_t i = 0; i < desc.num_args; ++i) args[desc.args[i].index] = to_arg(desc.args[i]);
  for (uint32_t i = 0; i < props_.numKernelArgs; ++i)
    if (args.find(i) == args.end())
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("argument {} of kernel '{}' was not set", i, name_));
  if (!range->has_local()) {
    if (Status s = choose_local_size(range.value()); !s.ok()) return std::move(s).error();
  }
  if (Status s = check_local_size(range.value(), limits_, device.limits()); !s.ok()) return std::move(s).error();
  auto counts = group_counts(range.value(), device.limits());
  if (!counts.ok()) return std::move(counts).error();
  if (Status s = set_ze_state(args, range.value()); !s.ok()) return std::move(s).error();
  const ze_group_count_t groups{counts.value()[0], counts.value()[1], counts.value()[2]};
  // Level Zero captures arguments and group size at append, so the next launch
  // may change them as soon as this one has been appended.
  return queue.submit(wait, "zeCommandListAppendLaunchKernel",
                      [&](ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t n, ze_event_handle_t *w) {
                        return zeCommandListAppendLaunchKernel(list, kernel_.get(), &groups, signal, n, w);
                      });
}

} // namespace zeal::adapter
