// The runtime's objects behind the C++ API handles, and the adapter-call check.
#pragma once

#include "loader/loader.hpp"

#include <zeal/zeal.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace zeal::detail {

// Throws zeal::exception with the adapter's last error message unless r is success.
void check(const zeal_adapter_dispatch_t &d, zeal_result_t r);

struct ProgramImpl;

struct ContextImpl {
  DeviceImpl *device = nullptr;
  zeal_context_handle_t handle = nullptr;

  // Programs built in this context, by image id.
  std::mutex programs_mutex;
  std::map<uint64_t, std::shared_ptr<ProgramImpl>> programs;

  const zeal_adapter_dispatch_t &dispatch() const { return device->adapter->dispatch; }
  ~ContextImpl();
};

struct ProgramImpl {
  std::shared_ptr<ContextImpl> context;
  zeal_program_handle_t handle = nullptr;

  std::mutex kernels_mutex;
  std::map<std::string, std::shared_ptr<KernelImpl>, std::less<>> kernels;
  ~ProgramImpl();
};

struct KernelImpl {
  std::shared_ptr<ProgramImpl> program;
  zeal_kernel_handle_t handle = nullptr;
  std::string name;
  ~KernelImpl();
};

struct QueueImpl {
  std::shared_ptr<ContextImpl> context;
  DeviceImpl *device = nullptr;
  zeal_queue_handle_t handle = nullptr;
  const zeal_adapter_dispatch_t &dispatch() const { return device->adapter->dispatch; }
  ~QueueImpl();
};

struct EventImpl {
  const zeal_adapter_dispatch_t *dispatch = nullptr;
  zeal_event_handle_t handle = nullptr;
  std::shared_ptr<QueueImpl> queue; // keeps the queue alive while the event is
  ~EventImpl();
};

std::shared_ptr<ContextImpl> create_context(DeviceImpl *device);
std::shared_ptr<ContextImpl> default_context(DeviceImpl *device);

// The kernel `name` built for `context`, building its image on first use.
std::shared_ptr<KernelImpl> get_kernel(const std::shared_ptr<ContextImpl> &context, std::string_view name);

} // namespace zeal::detail
