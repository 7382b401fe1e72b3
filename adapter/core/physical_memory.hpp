// Physical memory of a device (UR's urPhysicalMem*, Level Zero's zePhysicalMem*), which virtual memory
// reservations map (adapter/ur/virtual_memory.cpp).
#pragma once

#include "adapter/core/context.hpp"

namespace zeal::adapter {

class PhysicalMemory : public Object {
public:
  static constexpr Kind kKind = Kind::PhysicalMemory;

  // `size` bytes of `device`'s memory in `context`; `flags` are the face's, kept to answer with.
  static Result<PhysicalMemory *> create(Context &context, Device &device, size_t size, uint32_t flags);
  ~PhysicalMemory() override;

  ze_physical_mem_handle_t ze() const { return memory_; }
  Context &context() const { return *context_; }
  Device &device() const { return device_; }
  size_t size() const { return size_; }
  uint32_t flags() const { return flags_; }

private:
  PhysicalMemory(Context &context, Device &device, size_t size, uint32_t flags, ze_physical_mem_handle_t memory)
      : Object(kKind), context_(&context), device_(device), size_(size), flags_(flags), memory_(memory) {}

  Ref<Context> context_;
  Device &device_;
  size_t size_;
  uint32_t flags_;
  ze_physical_mem_handle_t memory_;
};

} // namespace zeal::adapter
