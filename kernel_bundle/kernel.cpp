// Kernel ids, and building registered images into programs and kernels (cached per context).
#include "kernel_bundle/detail.hpp"
#include "kernel_bundle/image_registry.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

namespace zeal {
namespace detail {

ProgramImpl::~ProgramImpl() {
  kernels.clear();
  if (handle != nullptr) (void)context->dispatch().programRelease(handle);
}

KernelImpl::~KernelImpl() {
  if (handle != nullptr) (void)program->context->dispatch().kernelRelease(handle);
}

namespace {

std::string program_log(const zeal_adapter_dispatch_t &d, zeal_program_handle_t program) {
  size_t size = 0;
  if (d.programGetInfo(program, ZEAL_PROGRAM_INFO_BUILD_LOG, 0, nullptr, &size) != ZEAL_RESULT_SUCCESS || size == 0)
    return {};
  std::string log(size, '\0');
  if (d.programGetInfo(program, ZEAL_PROGRAM_INFO_BUILD_LOG, size, log.data(), nullptr) != ZEAL_RESULT_SUCCESS)
    return {};
  log.pop_back();
  return log;
}

std::shared_ptr<ProgramImpl> build_program(const std::shared_ptr<ContextImpl> &ctx, const RegisteredImage &image) {
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  const zeal_device_image_t &img = *image.image;
  zeal_program_desc_t desc{img.format, img.bytes, img.size, img.num_metadata, img.metadata};
  auto program = std::make_shared<ProgramImpl>();
  program->context = ctx;
  zeal_result_t r = d.programCreate(ctx->handle, ctx->device->handle, &desc, &program->handle);
  if (r != ZEAL_RESULT_SUCCESS)
    throw exception(to_errc(r), fmt::format("device image '{}' of {}: {}", img.name, image.origin,
                                            d.getLastErrorMessage()), r);
  r = d.programBuild(program->handle, nullptr);
  if (r != ZEAL_RESULT_SUCCESS) {
    std::string message = fmt::format("building device image '{}' of {} for device '{}' failed: {}", img.name,
                                      image.origin, ctx->device->name, d.getLastErrorMessage());
    std::string log = program_log(d, program->handle);
    if (!log.empty()) message += "\nbuild log:\n" + log;
    throw exception(to_errc(r), message, r);
  }
  logger("zeal").debug("built device image '{}' of {} for '{}'", img.name, image.origin, ctx->device->name);
  return program;
}

} // namespace

std::shared_ptr<KernelImpl> get_kernel(const std::shared_ptr<ContextImpl> &ctx, std::string_view name) {
  auto image = ImageRegistry::instance().find_kernel(name);
  if (!image)
    throw exception(errc::invalid, fmt::format("no registered device image has a kernel named '{}' ({})", name,
                                               ImageRegistry::instance().describe()),
                    ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME);
  std::shared_ptr<ProgramImpl> program;
  {
    // Building under the lock makes concurrent first uses wait for one build.
    std::lock_guard lock(ctx->programs_mutex);
    auto &slot = ctx->programs[image->id];
    if (!slot) slot = build_program(ctx, *image);
    program = slot;
  }
  std::lock_guard lock(program->kernels_mutex);
  auto it = program->kernels.find(name);
  if (it != program->kernels.end()) return it->second;
  auto k = std::make_shared<KernelImpl>();
  k->program = program;
  k->name = name;
  const zeal_adapter_dispatch_t &d = ctx->dispatch();
  check(d, d.kernelCreate(program->handle, k->name.c_str(), &k->handle));
  program->kernels.emplace(k->name, k);
  return k;
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
  const zeal_adapter_dispatch_t &d = impl_->program->context->dispatch();
  uint32_t n = 0;
  detail::check(d, d.kernelGetInfo(impl_->handle, ZEAL_KERNEL_INFO_NUM_ARGS, sizeof(n), &n, nullptr));
  return n;
}

} // namespace zeal
