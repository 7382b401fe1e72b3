// Kernels: creation, requirements from Level Zero (and SPIR-V where the driver is silent), arguments, info.
#include "adapter/kernel.hpp"

#include <fmt/ranges.h>

#include <algorithm>

namespace zeal::adapter {

Result<Kernel *> Kernel::create(Program &program, const std::string &name) {
  auto module = program.module();
  if (!module.ok()) return std::move(module).error();
  auto names = program.kernel_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME,
                      fmt::format("{} has no kernel named '{}' (its kernels: {})", program.describe(), name,
                                  names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  auto desc = ze_desc<ze_kernel_desc_t>();
  desc.pKernelName = name.c_str();
  ze_kernel_handle_t kernel = nullptr;
  if (Status s = ze_check(zeKernelCreate(module.value(), &desc, &kernel), "zeKernelCreate", "kernel '" + name + "'");
      !s.ok())
    return std::move(s).error();
  std::unique_ptr<Kernel> k(new Kernel(program, name, ZeKernel(kernel)));
  if (Status s = k->query(); !s.ok()) return std::move(s).error();
  return k.release();
}

Status Kernel::query() {
  if (Status s = ze_check(zeKernelGetProperties(kernel_.get(), &props_), "zeKernelGetProperties",
                          "kernel '" + name_ + "'");
      !s.ok())
    return s;
  const DeviceLimits &device = program_->device().limits();
  limits_.name = name_;
  // A kernel compiled for wide sub-groups or with many registers may fit fewer
  // work-items than the device maximum: its sub-group count times width bounds it.
  uint64_t by_sub_groups = uint64_t{props_.maxNumSubgroups} * props_.maxSubgroupSize;
  limits_.max_work_group_size =
      by_sub_groups != 0 ? std::min<uint64_t>(by_sub_groups, device.max_work_group_size) : device.max_work_group_size;
  limits_.required_work_group_size = {props_.requiredGroupSizeX, props_.requiredGroupSizeY, props_.requiredGroupSizeZ};
  limits_.required_sub_group_size = props_.requiredSubgroupSize;
  // A driver that does not report the SPIR-V execution modes still gets them enforced.
  const module_linker::EntryPoint *ep =
      program_->spirv() ? program_->spirv()->find_entry_point(name_) : nullptr;
  if (ep != nullptr) {
    if (limits_.required_sub_group_size == 0 && ep->required_sub_group_size)
      limits_.required_sub_group_size = *ep->required_sub_group_size;
    if (limits_.required_work_group_size[0] == 0 && ep->required_work_group_size[0] != 0)
      std::copy_n(ep->required_work_group_size.begin(), 3, limits_.required_work_group_size.begin());
  }
  return {};
}

Status Kernel::check_arg(const zeal_kernel_arg_t &arg) const {
  if (arg.index >= props_.numKernelArgs)
    return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                      fmt::format("kernel '{}' has {} arguments, so index {} is out of range", name_,
                                  props_.numKernelArgs, arg.index));
  switch (arg.kind) {
  case ZEAL_KERNEL_ARG_VALUE:
    if (arg.value == nullptr || arg.size == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("value argument {} of kernel '{}' needs a value and a non-zero size", arg.index,
                                    name_));
    return {};
  case ZEAL_KERNEL_ARG_USM_POINTER: return {};
  case ZEAL_KERNEL_ARG_LOCAL:
    if (arg.size == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("local-memory argument {} of kernel '{}' has size 0", arg.index, name_));
    return {};
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                    fmt::format("argument {} of kernel '{}' has unknown kind {}", arg.index, name_,
                                static_cast<int>(arg.kind)));
}

Kernel::Arg Kernel::to_arg(const zeal_kernel_arg_t &arg) {
  Arg out;
  switch (arg.kind) {
  case ZEAL_KERNEL_ARG_VALUE:
    out.size = arg.size;
    out.bytes.assign(static_cast<const uint8_t *>(arg.value), static_cast<const uint8_t *>(arg.value) + arg.size);
    break;
  case ZEAL_KERNEL_ARG_USM_POINTER:
    out.size = sizeof(void *);
    out.bytes.resize(sizeof(void *));
    std::memcpy(out.bytes.data(), &arg.value, sizeof(void *));
    break;
  case ZEAL_KERNEL_ARG_LOCAL: out.size = arg.size; break;
  }
  return out;
}

Status Kernel::set_arg(const zeal_kernel_arg_t &arg) {
  if (Status s = check_arg(arg); !s.ok()) return s;
  std::lock_guard lock(mutex_);
  args_[arg.index] = to_arg(arg);
  return {};
}

namespace {
using Row = InfoRow<Kernel, zeal_kernel_info_t>;
const Row kKernelInfo[] = {
    {ZEAL_KERNEL_INFO_NAME, "NAME", [](const Kernel &k) -> Result<InfoValue> { return info_string(k.name()); }},
    {ZEAL_KERNEL_INFO_NUM_ARGS, "NUM_ARGS",
     [](const Kernel &k) -> Result<InfoValue> { return info_of<uint32_t>(k.properties().numKernelArgs); }},
    {ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE, "COMPILE_WORK_GROUP_SIZE",
     [](const Kernel &k) -> Result<InfoValue> { return info_of(k.limits().required_work_group_size); }},
    {ZEAL_KERNEL_INFO_MAX_WORK_GROUP_SIZE, "MAX_WORK_GROUP_SIZE",
     [](const Kernel &k) -> Result<InfoValue> { return info_of<size_t>(k.limits().max_work_group_size); }},
    {ZEAL_KERNEL_INFO_PRIVATE_MEM_SIZE, "PRIVATE_MEM_SIZE",
     [](const Kernel &k) -> Result<InfoValue> { return info_of<uint64_t>(k.properties().privateMemSize); }},
    {ZEAL_KERNEL_INFO_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE",
     [](const Kernel &k) -> Result<InfoValue> { return info_of<uint64_t>(k.properties().localMemSize); }},
    {ZEAL_KERNEL_INFO_PROGRAM, "PROGRAM",
     [](const Kernel &k) -> Result<InfoValue> {
       return info_of(to_handle<Program, zeal_program_handle_t>(&k.program()));
     }},
};
} // namespace

Result<InfoValue> Kernel::info(zeal_kernel_info_t key) const {
  return answer_info<Kernel, zeal_kernel_info_t>(kKernelInfo, *this, key, "kernel '" + name_ + "'");
}

Result<InfoValue> Kernel::sub_group_info(zeal_kernel_sub_group_info_t key, const size_t *local_size) const {
  switch (key) {
  case ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE: {
    // A work-group smaller than the kernel's widest sub-group holds one, smaller, sub-group.
    uint64_t items = uint64_t{local_size[0]} * local_size[1] * local_size[2];
    return info_of<uint32_t>(static_cast<uint32_t>(std::min<uint64_t>(props_.maxSubgroupSize, items)));
  }
  case ZEAL_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS: return info_of<uint32_t>(props_.maxNumSubgroups);
  case ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS: return info_of<uint32_t>(props_.requiredNumSubGroups);
  case ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE: return info_of<uint32_t>(limits_.required_sub_group_size);
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("kernel sub-group info key {} is not known to the adapter", static_cast<int>(key)));
}

} // namespace zeal::adapter
