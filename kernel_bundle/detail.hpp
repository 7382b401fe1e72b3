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
#include <vector>

namespace zeal::detail {

// Throws zeal::exception with the adapter's last error message unless r is success.
void check(const zeal_adapter_dispatch_t &d, zeal_result_t r);

struct ProgramImpl;
struct RegisteredImage;
using ProgramFuture = std::shared_future<std::shared_ptr<ProgramImpl>>;

struct ContextImpl {
  std::vector<DeviceImpl *> devices; // at least one, all of one platform, no repeats
  zeal_context_handle_t handle = nullptr;

  bool has(const DeviceImpl *device) const;
  // Throws errc::invalid, naming `device` and the context's devices, unless the context holds it; `use` says
  // what needed it ("the queue", "the kernel bundle").
  void expect(const DeviceImpl *device, std::string_view use) const;

  // Programs built in this context, each for one of its devices: objects by (device,
  // image, options, specialization constants), executables by (objects, options).
  // Entries are futures so that concurrent requests for one build wait for it
  // instead of building twice.
  // Entries built from images of unloaded libraries are dropped at the first request after the registry
  // changes (swept_generation is the registry generation last swept for).
  std::mutex programs_mutex;
  std::map<std::string, ProgramFuture> objects;
  std::map<std::string, ProgramFuture> executables;
  uint64_t swept_generation = 0;

  // The warm launch path: device, kernel name -> the executable its imports resolved
  // to, and the registry generation that resolution saw. Loading or unloading a
  // library changes the generation, and the next launch resolves again.
  struct Resolved {
    uint64_t generation = 0;
    std::shared_ptr<ProgramImpl> program;
  };
  std::mutex resolved_mutex;
  std::map<const DeviceImpl *, std::map<std::string, Resolved, std::less<>>> resolved;

  const zeal_adapter_dispatch_t &dispatch() const { return devices.front()->adapter->dispatch; }
  ~ContextImpl();
};

// Programs belong to their context's cache, so they point to it without owning
// it; whatever hands a program to users (kernels, bundles) also owns the context.
struct ProgramImpl {
  ContextImpl *context = nullptr;
  DeviceImpl *device = nullptr;                     // the one it was built for
  zeal_program_handle_t handle = nullptr;
  std::shared_ptr<const RegisteredImage> image;     // an object's image
  std::vector<std::shared_ptr<ProgramImpl>> parts;  // an executable's objects, kept alive with it

  // Adapter kernels created from this program, released with it. Handles, not
  // KernelImpl: a KernelImpl owns its program, and the program must not own it back.
  std::mutex kernels_mutex;
  std::map<std::string, zeal_kernel_handle_t, std::less<>> kernels;
  ~ProgramImpl();
};

// A kernel as users see it: one name, built for one or several devices of its
// context (a kernel bundle's devices), each build its own program and handle.
struct KernelImpl {
  std::shared_ptr<ContextImpl> context;   // declared first: destroyed after the programs
  struct Build {
    std::shared_ptr<ProgramImpl> program;  // program->device is the device
    zeal_kernel_handle_t handle = nullptr; // one reference of its own (kernelRetain)
  };
  std::vector<Build> builds;              // at least one
  std::string name;

  // The build for `device`; errc::invalid naming the kernel and its devices when there is none.
  const Build &for_device(const DeviceImpl *device) const;
  ~KernelImpl();
};

struct QueueImpl {
  std::shared_ptr<ContextImpl> context;
  DeviceImpl *device = nullptr;
  zeal_queue_handle_t handle = nullptr;
  const zeal_adapter_dispatch_t &dispatch() const { return device->adapter->dispatch; }
  ~QueueImpl();
};

// An image or a sampler of the adapter, released with the last C++ handle.
struct ImageImpl {
  std::shared_ptr<ContextImpl> context;
  zeal_image_handle_t handle = nullptr;
  zeal_image_desc_t desc{};
  ~ImageImpl();
};
struct SamplerImpl {
  std::shared_ptr<ContextImpl> context;
  zeal_sampler_handle_t handle = nullptr;
  ~SamplerImpl();
};

struct EventImpl {
  const zeal_adapter_dispatch_t *dispatch = nullptr;
  zeal_event_handle_t handle = nullptr;
  std::shared_ptr<QueueImpl> queue; // keeps the queue alive while the event is
  ~EventImpl();
};

// The C++ event of an adapter event the queue's command gave.
event wrap_event(const std::shared_ptr<QueueImpl> &q, zeal_event_handle_t handle);

// The C++ API's devices of `impls`, in order.
std::vector<device> to_devices(const std::vector<DeviceImpl *> &impls);

// "'name', 'name'": the devices, for messages.
std::string describe_devices(const std::vector<DeviceImpl *> &devices);

// A context over `devices` (one platform's; repeats are dropped); errc::invalid when empty or mixed.
std::shared_ptr<ContextImpl> create_context(const std::vector<DeviceImpl *> &devices);
std::shared_ptr<ContextImpl> default_context(DeviceImpl *device);

// The kernel `name` built for `device` of `context`, building its image (and the images it imports from) on
// first use.
std::shared_ptr<KernelImpl> get_kernel(const std::shared_ptr<ContextImpl> &context, DeviceImpl *device,
                                       std::string_view name);
// The kernel `name` of executable programs (one per device), created once per program.
std::shared_ptr<KernelImpl> kernel_of(const std::shared_ptr<ContextImpl> &context,
                                      const std::vector<std::shared_ptr<ProgramImpl>> &programs,
                                      std::string_view name);

} // namespace zeal::detail
