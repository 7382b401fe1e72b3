// Samplers: OpenCL's addressing and filter modes as Level Zero samplers, one per device of the context.
#include "adapter/core/sampler.hpp"

#include "adapter/core/info.hpp"

#include <map>
#include <mutex>

namespace zeal::adapter {

namespace {

// The description of every Level Zero sampler zeal made and has not destroyed, for adopting one: Level Zero has no
// query that answers it.
struct Made {
  std::mutex mutex;
  std::map<ze_sampler_handle_t, zeal_sampler_desc_t> descs;
};
Made &made() {
  static Made registry;
  return registry;
}

// Modes arrive as the numbers callers passed (abi_value): reading any number as the enum would be undefined.
Result<ze_sampler_address_mode_t> address_mode(int32_t mode) {
  switch (mode) {
  case ZEAL_SAMPLER_ADDRESSING_MODE_NONE: return ZE_SAMPLER_ADDRESS_MODE_NONE;
  // Level Zero's CLAMP is OpenCL's clamp-to-edge, its CLAMP_TO_BORDER OpenCL's clamp.
  case ZEAL_SAMPLER_ADDRESSING_MODE_CLAMP_TO_EDGE: return ZE_SAMPLER_ADDRESS_MODE_CLAMP;
  case ZEAL_SAMPLER_ADDRESSING_MODE_CLAMP: return ZE_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  case ZEAL_SAMPLER_ADDRESSING_MODE_REPEAT: return ZE_SAMPLER_ADDRESS_MODE_REPEAT;
  case ZEAL_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT: return ZE_SAMPLER_ADDRESS_MODE_MIRROR;
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("sampler create: addressing mode {} is not a zeal_sampler_addressing_mode_t", mode));
}

Result<ze_sampler_filter_mode_t> filter_mode(int32_t mode) {
  switch (mode) {
  case ZEAL_SAMPLER_FILTER_MODE_NEAREST: return ZE_SAMPLER_FILTER_MODE_NEAREST;
  case ZEAL_SAMPLER_FILTER_MODE_LINEAR: return ZE_SAMPLER_FILTER_MODE_LINEAR;
  }
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("sampler create: filter mode {} is not a zeal_sampler_filter_mode_t", mode));
}

} // namespace

Result<Sampler *> Sampler::create(Context &context, const zeal_sampler_desc_t &desc) {
  auto ze_sampler_desc = ze_desc<ze_sampler_desc_t>();
  auto address = address_mode(abi_value(desc.addressing_mode));
  if (!address.ok()) return std::move(address).error();
  auto filter = filter_mode(abi_value(desc.filter_mode));
  if (!filter.ok()) return std::move(filter).error();
  ze_sampler_desc.addressMode = address.value();
  ze_sampler_desc.filterMode = filter.value();
  ze_sampler_desc.isNormalized = desc.normalized_coords != 0;
  Ref<Sampler> sampler(new Sampler(context, desc), false);
  for (const Device *device : context.devices()) {
    if (!device->has_images())
      return make_error(ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE,
                        fmt::format("sampler create: device '{}' has no image support", device->name()));
    ze_sampler_handle_t handle = nullptr;
    if (Status s = ze_check(zeSamplerCreate(context.ze(), device->ze(), &ze_sampler_desc, &handle), "zeSamplerCreate",
                            "a sampler on device '" + device->name() + "'");
        !s.ok())
      return std::move(s).error();
    sampler->samplers_.emplace_back(handle);
    sampler->handles_.push_back(handle);
  }
  {
    std::lock_guard lock(made().mutex);
    for (ze_sampler_handle_t handle : sampler->handles_) made().descs[handle] = desc;
  }
  return sampler.detach();
}

Result<Sampler *> Sampler::adopt(Context &context, ze_sampler_handle_t handle, bool owned) {
  if (handle == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, "sampler from a native handle: the Level Zero sampler is null");
  zeal_sampler_desc_t desc{};
  {
    std::lock_guard lock(made().mutex);
    auto it = made().descs.find(handle);
    if (it == made().descs.end())
      return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                        fmt::format("sampler from a native handle: {} is not a live sampler zeal made, and Level Zero "
                                    "cannot say how a sampler made elsewhere samples",
                                    static_cast<void *>(handle)));
    desc = it->second;
  }
  auto *sampler = new Sampler(context, desc);
  sampler->samplers_.emplace_back(handle);
  sampler->handles_.push_back(handle);
  sampler->owns_samplers_ = owned;
  sampler->adopted_ = true;
  return sampler;
}

Sampler::~Sampler() {
  // A launch may still sample with it.
  context_->finish_queues();
  if (!owns_samplers_) {
    for (auto &s : samplers_) (void)s.release();
    return;
  }
  std::lock_guard lock(made().mutex);
  for (ze_sampler_handle_t handle : handles_) made().descs.erase(handle);
}

const ze_sampler_handle_t *Sampler::ze_address(const Device &device) const {
  const auto &devices = context_->devices();
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i] == &device) return adopted_ ? &handles_.front() : &handles_[i];
  return nullptr;
}

} // namespace zeal::adapter
