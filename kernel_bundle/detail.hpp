// The runtime's objects behind the C++ API handles, and the adapter-call check.
#pragma once

#include "loader/loader.hpp"

#include <zeal/zeal.hpp>

#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace zeal::detail {

// Throws zeal::exception with the adapter's last error message unless r is success.
void check(const zeal_adapter_dispatch_t &d, zeal_result_t r);

struct ProgramImpl;
struct RegisteredImage;
using ProgramFuture = std::shared_future<std::shared_ptr<ProgramImpl>>;

struct ContextImpl {
  DeviceImpl *device = nullptr;
  zeal_context_handle_t handle = nullptr;

  // Programs built in this context: objects by (image, options, specialization
  // constants), executables by (objects, options). Entries are futures so that
  // concurrent requests for one build wait for it instead of building twice.
  std::mutex programs_mutex;
  std::map<std::string, ProgramFuture> objects;
  std::map<std::string, ProgramFuture> executables;

  // The warm launch path: kernel name -> the executable its imports resolved to, and
  // the registry generation that resolution saw. Loading or unloading a library
  // changes the generation, and the next launch resolves again.
  struct Resolved {
    uint64_t generation = 0;
    std::shared_ptr<ProgramImpl> program;
  };
  std::mutex resolved_mutex;
  std::map<std::string, Resolved, std::less<>> resolved;

  const zeal_adapter_dispatch_t &dispatch() const { return device->adapter->dispatch; }
  ~ContextImpl();
};

// Programs belong to their context's cache, so they point to it without owning
// it; whatever hands a program to users (kernels, bundles) also owns the context.
struct ProgramImpl {
  ContextImpl *context = nullptr;
  zeal_program_handle_t handle = nullptr;
  std::shared_ptr<const RegisteredImage> image;     // an object's image
  std::vector<std::shared_ptr<ProgramImpl>> parts;  // an executable's objects, kept alive with it

  // Adapter kernels created from this program, released with it. Handles, not
  // KernelImpl: a KernelImpl owns its program, and the program must not own it back.
  std::mutex kernels_mutex;
  std::map<std::string, zeal_kernel_handle_t, std::less<>> kernels;
  ~ProgramImpl();
};

struct KernelImpl {
  std::shared_ptr<ContextImpl> context;   // declared first: destroyed after the program
  std::shared_ptr<ProgramImpl> program;
  zeal_kernel_handle_t handle = nullptr;  // one reference of its own (kernelRetain)
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

// The kernel `name` built for `context`, building its image (and the images it imports from) on first use.
std::shared_ptr<KernelImpl> get_kernel(const std::shared_ptr<ContextImpl> &context, std::string_view name);
// The kernel `name` of an executable program, created once per program.
std::shared_ptr<KernelImpl> kernel_of(const std::shared_ptr<ContextImpl> &context,
                                      const std::shared_ptr<ProgramImpl> &program, std::string_view name);

} // namespace zeal::detail
