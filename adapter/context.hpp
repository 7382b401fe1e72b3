// A zeal context: a Level Zero context over some devices of one platform, its USM allocations and event pools.
#pragma once

#include "adapter/event_pool.hpp"
#include "adapter/platform.hpp"

#include <map>
#include <mutex>
#include <vector>

namespace zeal::adapter {

class Context : public Object {
public:
  static constexpr Kind kKind = Kind::Context;

  static Result<Context *> create(std::vector<Device *> devices);
  ~Context() override;

  ze_context_handle_t ze() const { return context_.get(); }
  bool has_device(const Device *device) const;
  const std::vector<Device *> &devices() const { return devices_; }
  EventPools &event_pools(bool profiling) { return profiling ? timestamp_pools_ : plain_pools_; }

  Result<void *> usm_alloc(Device *device, zeal_usm_kind_t kind, size_t size, size_t alignment);
  Status usm_free(void *ptr);

private:
  Context(std::vector<Device *> devices, ZeContext context);

  std::vector<Device *> devices_;
  ZeContext context_;
  // Declared after context_, so they are destroyed before it.
  EventPools plain_pools_;
  EventPools timestamp_pools_;

  struct Allocation {
    zeal_usm_kind_t kind;
    size_t size;
  };
  std::mutex usm_mutex_;
  std::map<void *, Allocation> allocations_;
};

} // namespace zeal::adapter
