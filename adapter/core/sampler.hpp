// A zeal sampler: OpenCL's sampler state as a Level Zero sampler on each device of its context.
#pragma once

#include "adapter/core/context.hpp"

#include <vector>

namespace zeal::adapter {

class Sampler : public Object {
public:
  static constexpr Kind kKind = Kind::Sampler;

  // INVALID_ENUMERATION for modes outside zeal's enumerations; UNSUPPORTED_FEATURE when a device of the context has
  // no images.
  static Result<Sampler *> create(Context &context, const zeal_sampler_desc_t &desc);
  // A sampler over a Level Zero sampler made elsewhere (a native handle), used on every device of the context.
  // Level Zero cannot describe a sampler, so only one zeal made (and has not destroyed) is taken: its description
  // is looked up. `owned`: the sampler destroys it when it goes.
  static Result<Sampler *> adopt(Context &context, ze_sampler_handle_t sampler, bool owned);
  ~Sampler() override;

  Context &context() const { return *context_; }
  const zeal_sampler_desc_t &desc() const { return desc_; }
  // The sampler of the context's first device (its native handle).
  ze_sampler_handle_t ze() const { return handles_.front(); }
  // Where the handle for `device` lives as long as the sampler: the bytes a kernel argument passes. Null for a
  // device outside the context.
  const ze_sampler_handle_t *ze_address(const Device &device) const;

private:
  Sampler(Context &context, const zeal_sampler_desc_t &desc) : Object(kKind), context_(&context), desc_(desc) {}

  Ref<Context> context_;
  zeal_sampler_desc_t desc_;
  std::vector<ZeSampler> samplers_;          // one per device of the context; one for all when adopted
  std::vector<ze_sampler_handle_t> handles_; // their handles, where kernel arguments read them
  bool owns_samplers_ = true;
  bool adopted_ = false; // one Level Zero sampler for every device
};

} // namespace zeal::adapter
