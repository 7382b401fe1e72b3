// Kernels: creation (also of kernels the program left out), requirements, arguments, info and sub-group info.
#include "adapter/core/kernel.hpp"
#include "adapter/core/image.hpp"
#include "adapter/core/sampler.hpp"

#include <fmt/ranges.h>

#include <algorithm>
#include <cstring>

namespace zeal::adapter {
namespace {

// What a kernel of an unlinked module waits for: the imports it reaches, else every import.
std::string unresolved_imports(const Program &program, const std::string &kernel) {
  const ImageMetadata &meta = program.metadata();
  std::span<const std::string> names = meta.imports;
  for (const module_linker::ReachedImports &reached : meta.kernel_calls)
    if (reached.name == kernel && !reached.imports.empty()) names = reached.imports;
  if (names.empty()) return "symbols its metadata does not name";
  return fmt::format("'{}'", fmt::join(names, "', '"));
}

// A driver refusing a kernel it cannot run says why in its build or link log ("kernel refused: kernel 'k' calls
// ..."), which the program keeps: the sentence after "kernel refused: ", or empty when the log has none.
std::string refusal_in_log(const Program &program, const std::string &name) {
  auto log = program.info(ZEAL_PROGRAM_INFO_BUILD_LOG);
  if (!log.ok()) return {};
  const auto &bytes = log.value().bytes;
  std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  constexpr std::string_view refused = "kernel refused: ";
  const size_t at = text.find(fmt::format("{}kernel '{}'", refused, name));
  if (at == std::string_view::npos) return {};
  std::string_view why = text.substr(at + refused.size());
  why = why.substr(0, why.find_first_of(std::string_view("\n\0", 2)));
  return std::string(why);
}

} // namespace

Result<Kernel *> Kernel::create(Program &program, const std::string &name) {
  const Program::RefusedKernel *refused =
      program.state() == ZEAL_PROGRAM_STATE_EXECUTABLE ? program.refused(name) : nullptr;
  if (refused != nullptr) {
    std::unique_ptr<Kernel> k(new Kernel(program, name, ZeKernel()));
    k->refusal_ = refused->reason;
    k->read_requirements();
    return k.release();
  }
  auto module = program.module_of(name);
  if (!module.ok()) return std::move(module).error();
  auto desc = ze_desc<ze_kernel_desc_t>();
  desc.pKernelName = name.c_str();
  ze_kernel_handle_t kernel = nullptr;
  ze_result_t r = zeKernelCreate(module.value(), &desc, &kernel);
  if (r == ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
    return make_error(to_zeal_result(r), fmt::format("kernel '{}' of {} cannot be created: its module imports {}, "
                                                     "which no link has resolved",
                                                     name, program.describe(), unresolved_imports(program, name)));
  if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
    if (std::string why = refusal_in_log(program, name); !why.empty())
      return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                        fmt::format("kernel '{}' of {} cannot run: {}", name, program.describe(), why));
  if (Status s = ze_check(r, "zeKernelCreate", "kernel '" + name + "'"); !s.ok()) return std::move(s).error();
  ZeKernel owned(kernel); // owned before the next allocation, which may fail
  std::unique_ptr<Kernel> k(new Kernel(program, name, std::move(owned)));
  if (Status s = k->query(); !s.ok()) return std::move(s).error();
  return k.release();
}

Result<Kernel *> Kernel::adopt(Program &program, ze_kernel_handle_t kernel, bool owned) {
  if (kernel == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "kernel adopt: the native Level Zero kernel is null");
  size_t length = 0;
  if (Status s = ze_check(zeKernelGetName(kernel, &length, nullptr), "zeKernelGetName"); !s.ok())
    return std::move(s).error();
  std::string name(length, '\0');
  if (Status s = ze_check(zeKernelGetName(kernel, &length, name.data()), "zeKernelGetName"); !s.ok())
    return std::move(s).error();
  name.resize(std::strlen(name.c_str()));
  // The program must know the name (INVALID_KERNEL_NAME listing its kernels otherwise).
  if (auto module = program.module_of(name); !module.ok()) return std::move(module).error();
  std::unique_ptr<Kernel> k(new Kernel(program, name, ZeKernel(kernel)));
  k->owns_kernel_ = owned;
  if (Status s = k->query(); !s.ok()) {
    (void)k->kernel_.release(); // a failure leaves the kernel with its maker
    return std::move(s).error();
  }
  return k.release();
}

Kernel::~Kernel() {
  if (!owns_kernel_) (void)kernel_.release();
}

// Requirements the driver does not report are still enforced: SPIR-V execution
// modes and device-image metadata, merged by the program.
void Kernel::read_requirements() {
  const DeviceLimits &device = program_->device().limits();
  limits_.name = name_;
  if (limits_.max_work_group_size == 0) limits_.max_work_group_size = device.max_work_group_size;
  if (const KernelRequirements *req = program_->metadata().kernel(name_)) {
    if (limits_.required_sub_group_size == 0) limits_.required_sub_group_size = req->sub_group_size;
    if (limits_.required_work_group_size[0] == 0 && req->work_group_size[0] != 0)
      std::copy_n(req->work_group_size.begin(), 3, limits_.required_work_group_size.begin());
    range_limit_ = req->range_limit;
  }
}

Status Kernel::query() {
  if (Status s = ze_check(zeKernelGetProperties(kernel_.get(), &props_), "zeKernelGetProperties",
                          "kernel '" + name_ + "'");
      !s.ok())
    return s;
  const DeviceLimits &device = program_->device().limits();
  // A kernel compiled for wide sub-groups or with many registers may fit fewer
  // work-items than the device maximum: its sub-group count times width bounds it.
  uint64_t by_sub_groups = uint64_t{props_.maxNumSubgroups} * props_.maxSubgroupSize;
  limits_.max_work_group_size =
      by_sub_groups != 0 ? std::min<uint64_t>(by_sub_groups, device.max_work_group_size) : device.max_work_group_size;
  limits_.required_work_group_size = {props_.requiredGroupSizeX, props_.requiredGroupSizeY, props_.requiredGroupSizeZ};
  limits_.required_sub_group_size = props_.requiredSubgroupSize;
  read_requirements();
  args_.resize(props_.numKernelArgs);
  given_.assign(props_.numKernelArgs, 0);
  return {};
}

Status Kernel::check_arg(const zeal_kernel_arg_t &arg) const {
  if (arg.index >= props_.numKernelArgs)
    return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                      fmt::format("kernel '{}' has {} arguments, so index {} is out of range", name_,
                                  props_.numKernelArgs, arg.index));
  // The kind is read as the integer the caller wrote: any number may arrive.
  const int32_t kind = abi_value(arg.kind);
  switch (kind) {
  case ZEAL_KERNEL_ARG_VALUE:
    // A null value is `size` zero bytes, as Level Zero reads a null pArgValue.
    if (arg.size == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("value argument {} of kernel '{}' has size 0", arg.index, name_));
    return {};
  case ZEAL_KERNEL_ARG_USM_POINTER: return {};
  case ZEAL_KERNEL_ARG_IMAGE:
  case ZEAL_KERNEL_ARG_SAMPLER: return check_image_arg(arg);
  case ZEAL_KERNEL_ARG_LOCAL:
    if (arg.size == 0)
      return make_error(ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT,
                        fmt::format("local-memory argument {} of kernel '{}' has size 0", arg.index, name_));
    return {};
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("argument {} of kernel '{}' has kind {}, which is not a zeal_kernel_arg_kind_t "
                                "(VALUE {}, USM_POINTER {}, LOCAL {}, IMAGE {} or SAMPLER {})",
                                arg.index, name_, kind, static_cast<int>(ZEAL_KERNEL_ARG_VALUE),
                                static_cast<int>(ZEAL_KERNEL_ARG_USM_POINTER), static_cast<int>(ZEAL_KERNEL_ARG_LOCAL),
                                static_cast<int>(ZEAL_KERNEL_ARG_IMAGE), static_cast<int>(ZEAL_KERNEL_ARG_SAMPLER)));
}

// An image or a sampler of the kernel's context; a sampler has a Level Zero sampler on the kernel's device.
Status Kernel::check_image_arg(const zeal_kernel_arg_t &arg) const {
  const bool image = arg.kind == ZEAL_KERNEL_ARG_IMAGE;
  const std::string role = fmt::format("{} argument {} of kernel '{}'", image ? "image" : "sampler", arg.index, name_);
  const Context *context = nullptr;
  if (image) {
    auto i = from_handle<Image>(const_cast<void *>(arg.value), role.c_str());
    if (!i.ok()) return std::move(i).error();
    context = &i.value()->context();
  } else {
    auto s = from_handle<Sampler>(const_cast<void *>(arg.value), role.c_str());
    if (!s.ok()) return std::move(s).error();
    context = &s.value()->context();
  }
  if (context == &program_->context()) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                    fmt::format("{} belongs to another context than the kernel's program", role));
}

Kernel::ArgBytes Kernel::bytes_of(const zeal_kernel_arg_t &arg) const {
  // An image or a sampler (checked by check_arg) passes its Level Zero handle, as zeKernelSetArgumentValue takes it.
  auto *object = const_cast<Object *>(static_cast<const Object *>(arg.value));
  if (arg.kind == ZEAL_KERNEL_ARG_IMAGE) return ArgBytes{static_cast<Image *>(object)->ze_address(), sizeof(void *), false};
  if (arg.kind == ZEAL_KERNEL_ARG_SAMPLER)
    return ArgBytes{static_cast<Sampler *>(object)->ze_address(program_->device()), sizeof(void *), false};
  const bool pointer = arg.kind == ZEAL_KERNEL_ARG_USM_POINTER;
  const bool local = arg.kind == ZEAL_KERNEL_ARG_LOCAL;
  return ArgBytes{local ? nullptr : pointer ? static_cast<const void *>(&arg.value) : arg.value,
                  pointer ? sizeof(void *) : arg.size, local};
}

void Kernel::Arg::assign(const zeal_kernel_arg_t &arg, const ArgBytes &given) {
  set = true;
  ze_holds = false;
  const void *from = given.from;
  local = given.local;
  value = arg.kind == ZEAL_KERNEL_ARG_VALUE;
  size = given.size;
  if (local) return;
  uint8_t *to = small.data();
  if (size > small.size()) {
    large.resize(size);
    to = large.data();
  }
  if (from != nullptr)
    std::memcpy(to, from, size);
  else
    std::memset(to, 0, size); // a null value: zero bytes
}

Status Kernel::set_arg(const zeal_kernel_arg_t &arg) {
  if (refusal_) return Error(*refusal_);
  if (Status s = check_arg(arg); !s.ok()) return s;
  std::lock_guard lock(mutex_);
  args_[arg.index].assign(arg, bytes_of(arg));
  return {};
}

namespace {
using Row = InfoRow<Kernel, zeal_kernel_info_t>;

// A kernel the device cannot honour has no Level Zero kernel to ask.
template <class Answer>
Result<InfoValue> needs_driver(const Kernel &k, Answer &&answer) {
  if (k.refusal()) return Error(*k.refusal());
  return answer();
}

const Row kKernelInfo[] = {
    {ZEAL_KERNEL_INFO_NAME, "NAME", [](const Kernel &k) -> Result<InfoValue> { return info_string(k.name()); }},
    {ZEAL_KERNEL_INFO_NUM_ARGS, "NUM_ARGS",
     [](const Kernel &k) -> Result<InfoValue> {
       return needs_driver(k, [&] { return info_of<uint32_t>(k.properties().numKernelArgs); });
     }},
    {ZEAL_KERNEL_INFO_COMPILE_WORK_GROUP_SIZE, "COMPILE_WORK_GROUP_SIZE",
     [](const Kernel &k) -> Result<InfoValue> { return info_of(k.limits().required_work_group_size); }},
    {ZEAL_KERNEL_INFO_MAX_WORK_GROUP_SIZE, "MAX_WORK_GROUP_SIZE",
     [](const Kernel &k) -> Result<InfoValue> { return info_of<size_t>(k.limits().max_work_group_size); }},
    {ZEAL_KERNEL_INFO_PRIVATE_MEM_SIZE, "PRIVATE_MEM_SIZE",
     [](const Kernel &k) -> Result<InfoValue> {
       return needs_driver(k, [&] { return info_of<uint64_t>(k.properties().privateMemSize); });
     }},
    {ZEAL_KERNEL_INFO_LOCAL_MEM_SIZE, "LOCAL_MEM_SIZE",
     [](const Kernel &k) -> Result<InfoValue> {
       return needs_driver(k, [&] { return info_of<uint64_t>(k.properties().localMemSize); });
     }},
    {ZEAL_KERNEL_INFO_PROGRAM, "PROGRAM",
     [](const Kernel &k) -> Result<InfoValue> {
       return info_of(to_handle<Program, zeal_program_handle_t>(&k.program()));
     }},
};
} // namespace

Result<InfoValue> Kernel::info(int32_t key) const {
  return answer_info<Kernel, zeal_kernel_info_t>(kKernelInfo, *this, key, "kernel '" + name_ + "'");
}

// SYCL_INTEL_sub_group's kernel queries. A required size is what the kernel
// runs with; otherwise the driver's widest size for it (the CPU driver: its
// vector width; Intel: the SIMD width the compiler chose). A work-group smaller
// than the size holds one, smaller, sub-group.
Result<InfoValue> Kernel::sub_group_info(int32_t key, const size_t *local_size, std::string_view entry) const {
  if (key == ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE && local_size == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("{}: MAX_SUB_GROUP_SIZE needs a local size", entry));
  const uint32_t required = limits_.required_sub_group_size;
  const uint32_t widest = required != 0 ? required : props_.maxSubgroupSize;
  switch (key) {
  case ZEAL_KERNEL_SUB_GROUP_INFO_MAX_SUB_GROUP_SIZE: {
    uint64_t items = uint64_t{local_size[0]} * local_size[1] * local_size[2];
    return info_of<uint32_t>(static_cast<uint32_t>(std::min<uint64_t>(widest, items)));
  }
  case ZEAL_KERNEL_SUB_GROUP_INFO_MAX_NUM_SUB_GROUPS: {
    // The driver's count when it has one; else a full work-group of the kernel's sub-groups.
    if (!refusal_ && props_.maxNumSubgroups != 0) return info_of<uint32_t>(props_.maxNumSubgroups);
    uint64_t groups = widest == 0 ? 0 : (limits_.max_work_group_size + widest - 1) / widest;
    return info_of<uint32_t>(static_cast<uint32_t>(std::max<uint64_t>(groups, 1)));
  }
  case ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_NUM_SUB_GROUPS:
    return info_of<uint32_t>(refusal_ ? 0u : props_.requiredNumSubGroups);
  case ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE: return info_of<uint32_t>(required);
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("kernel sub-group info key {} is not known to the adapter", key));
}

Status Kernel::check_device(const Device &device) const {
  if (&device == &program_->device()) return {};
  return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, fmt::format("kernel '{}' was built for device '{}', not '{}'",
                                                                    name_, program_->device().name(), device.name()));
}

std::array<size_t, 3> Kernel::widest_local_range() const {
  if (limits_.required_work_group_size[0] != 0) return limits_.required_work_group_size;
  return {limits_.max_work_group_size, 1, 1};
}

Status Kernel::set_indirect_access(bool indirect) {
  if (refusal_) return {};
  const ze_kernel_indirect_access_flags_t flags =
      indirect ? ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST | ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                     ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED
               : 0;
  std::lock_guard lock(mutex_);
  return ze_check(zeKernelSetIndirectAccess(kernel_.get(), flags), "zeKernelSetIndirectAccess",
                  "kernel '" + name_ + "'");
}

Status Kernel::set_cache_config(ze_cache_config_flags_t flags) {
  if (refusal_) return {};
  std::lock_guard lock(mutex_);
  return ze_check(zeKernelSetCacheConfig(kernel_.get(), flags), "zeKernelSetCacheConfig", "kernel '" + name_ + "'");
}

} // namespace zeal::adapter
