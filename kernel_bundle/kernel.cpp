// Kernel ids, and building registered images into programs and kernels (cached per context).
#include "kernel_bundle/detail.hpp"
#include "kernel_bundle/image_registry.hpp"
#include "kernel_bundle/program_builder.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

namespace zeal {
namespace detail {

ProgramImpl::~ProgramImpl() {
  for (auto &[name, k] : kernels) (void)context->dispatch().kernelRelease(k);
  if (handle != nullptr) (void)context->dispatch().programRelease(handle);
}

KernelImpl::~KernelImpl() {
  for (const Build &b : builds)
    if (b.handle != nullptr) (void)context->dispatch().kernelRelease(b.handle);
}

const KernelImpl::Build &KernelImpl::for_device(const DeviceImpl *device) const {
  for (const Build &b : builds)
    if (b.program->device == device) return b;
  std::vector<DeviceImpl *> built;
  for (const Build &b : builds) built.push_back(b.program->device);
  throw exception(errc::invalid, fmt::format("kernel '{}' was not built for device '{}' (its kernel bundle was built "
                                             "for {})",
                                             name, device->name, describe_devices(built)),
                  ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
}

std::shared_ptr<KernelImpl> kernel_of(const std::shared_ptr<ContextImpl> &ctx,
                                      const std::vector<std::shared_ptr<ProgramImpl>> &programs,
                                      std::string_view name) {
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  auto k = std::make_shared<KernelImpl>();
  k->context = ctx;
  k->name = name;
  for (const auto &program : programs) {
    std::lock_guard lock(program->kernels_mutex);
    auto it = program->kernels.find(name);
    if (it == program->kernels.end()) {
      zeal_kernel_handle_t handle = nullptr;
      check(d, d.kernelCreate(program->handle, k->name.c_str(), &handle));
      it = program->kernels.emplace(k->name, handle).first;
    }
    check(d, d.kernelRetain(it->second));
    k->builds.push_back({program, it->second});
  }
  return k;
}

std::shared_ptr<KernelImpl> get_kernel(const std::shared_ptr<ContextImpl> &ctx, DeviceImpl *device,
                                       std::string_view name) {
  // The generation is read before resolving: if the registry changes meanwhile, the
  // entry is stored as already stale and the next call resolves again.
  uint64_t generation = ImageRegistry::instance().generation();
  std::shared_ptr<ProgramImpl> program;
  {
    std::lock_guard lock(ctx->resolved_mutex);
    auto &of_device = ctx->resolved[device];
    auto it = of_device.find(name);
    if (it != of_device.end() && it->second.generation == generation) program = it->second.program;
  }
  if (program) return kernel_of(ctx, {program}, name);
  program = executable_for_kernel(ctx, device, name);
  {
    std::lock_guard lock(ctx->resolved_mutex);
    auto &of_device = ctx->resolved[device];
    // Entries of older generations would be resolved again anyway; dropped now, they do not keep the programs
    // of unloaded libraries alive.
    std::erase_if(of_device, [&](const auto &entry) { return entry.second.generation != generation; });
    of_device.insert_or_assign(std::string(name), ContextImpl::Resolved{generation, program});
  }
  return kernel_of(ctx, {program}, name);
}

} // namespace detail

kernel_id get_kernel_id(std::string_view name) {
  if (!detail::ImageRegistry::instance().find_kernel(name))
    throw exception(errc::invalid, fmt::format("no registered device image has a kernel named '{}' ({})", name,
                                               detail::ImageRegistry::instance().describe()));
  return kernel_id(std::string(name));
}

std::vector<kernel_id> get_kernel_ids() {
  std::vector<kernel_id> ids;
  for (std::string &name : detail::ImageRegistry::instance().kernel_names()) ids.emplace_back(std::move(name));
  return ids;
}

std::string kernel::name() const { return impl_->name; }

uint32_t kernel::num_args() const {
  const zeal_adapter_dispatch_t &d = impl_->context->dispatch();
  uint32_t n = 0;
  detail::check(d, d.kernelGetInfo(impl_->builds.front().handle, ZEAL_KERNEL_INFO_NUM_ARGS, sizeof(n), &n, nullptr));
  return n;
}

uint32_t kernel::compile_sub_group_size() const {
  const zeal_adapter_dispatch_t &d = impl_->context->dispatch();
  uint32_t size = 0;
  const detail::KernelImpl::Build &build = impl_->builds.front();
  detail::check(d, d.kernelGetSubGroupInfo(build.handle, build.program->device->handle,
                                           ZEAL_KERNEL_SUB_GROUP_INFO_COMPILE_SUB_GROUP_SIZE, nullptr, sizeof(size),
                                           &size, nullptr));
  return size;
}

} // namespace zeal
