// The context: the owner of allocations and virtual memory, and the parent of queues, lists, pools and modules.
#pragma once

#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/memory.hpp"
#include "cpu_driver/runtime/virtual_memory.hpp"

namespace zeal::cpu {

class Driver;

class Context : public _ze_context_handle_t {
public:
  explicit Context(Driver &driver);
  static Context *from(ze_context_handle_t h) { return static_cast<Context *>(h); }

  Driver &driver() { return driver_; }
  Allocations &allocations() { return allocations_; }
  VirtualMemory &virtual_memory() { return virtual_memory_; }

private:
  Driver &driver_;
  Allocations allocations_;
  VirtualMemory virtual_memory_;
};

} // namespace zeal::cpu
