// The driver object (one per process) and its devices, with the properties they report.
#pragma once

#include "cpu_driver/runtime/fault.hpp"
#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/host_cpu.hpp"
#include "cpu_driver/runtime/thread_pool.hpp"
#include "common/device_profiles.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cpu {

// Which device the CPU driver pretends to be (ZEAL_CPU_PROFILE), limits included.
using Profile = DeviceProfileRow;

// Where a device sits among the driver's devices, and how many threads run its work-groups.
struct Placement {
  unsigned driver = 0;     // which of the library's drivers (ZEAL_CPU_DRIVERS) the device belongs to
  unsigned drivers = 1;
  unsigned root = 0;       // the root device's index (a sub-device's parent's)
  unsigned roots = 1;      // how many root devices the driver has
  int sub = -1;            // -1: a root device; else the sub-device's id within its root
  unsigned subs = 0;       // for a sub-device: how many its root splits into
  unsigned threads = 1;    // at least 1
};

// The whole CPU, or a share of its threads: ZEAL_CPU_DEVICES root devices, each
// with ZEAL_CPU_SUBDEVICES sub-devices. Every device runs its work-groups on a
// pool of its own; all of them see the same host memory.
class Device : public _ze_device_handle_t {
public:
  // `parent`: a sub-device's root device; null for a root device (also for a sub-device ZE_AFFINITY_MASK
  // shows as a root device of its own).
  Device(const HostCpu &cpu, const Profile &profile, const Placement &placement, Device *parent = nullptr);
  static Device *from(ze_device_handle_t h) { return static_cast<Device *>(h); }

  const HostCpu &cpu() const { return cpu_; }
  const Profile &profile() const { return profile_; }
  // Which of the library's drivers lists it (Driver::all()).
  unsigned driver_index() const { return placement_.driver; }
  const std::vector<Device *> &sub_devices() const { return sub_device_handles_; }
  const ze_device_properties_t &properties() const { return properties_; }
  const ze_device_compute_properties_t &compute_properties() const { return compute_; }
  const ze_device_module_properties_t &module_properties() const { return module_; }
  uint64_t max_alloc_size() const { return properties_.maxMemAllocSize; }
  // The threads this device's work-groups run on, and their pool, started at the first queue or list.
  unsigned threads() const { return placement_.threads; }
  ThreadPool &pool();
  // Lost or not (runtime/fault.hpp): one state for a root device and its sub-devices, as a GPU fault resets the
  // whole card.
  DeviceHealth &health() { return parent_ != nullptr ? parent_->health() : health_; }
  // Device memory (zeMemAllocDevice, exportable allocations) counted against the memory the device reports
  // (zeDeviceGetMemoryProperties' totalSize), for a root device and its sub-devices together, in every context
  // of the process. False, with a sentence in `why`, when `bytes` more would not fit.
  bool take_memory(uint64_t bytes, std::string &why);
  void give_back_memory(uint64_t bytes);

  // Adds the sub-devices `ids` of the `count` this root splits into, each with its share of the whole
  // root's `root_threads` (this device has fewer when only some sub-devices are visible).
  void partition(const std::vector<unsigned> &ids, unsigned count, unsigned root_threads);

private:
  const HostCpu &cpu_;
  const Profile &profile_;
  Placement placement_;
  Device *parent_;
  std::vector<std::unique_ptr<Device>> sub_devices_;
  std::vector<Device *> sub_device_handles_;
  ze_device_properties_t properties_{};
  ze_device_compute_properties_t compute_{};
  ze_device_module_properties_t module_{};
  std::once_flag pool_once_;
  std::unique_ptr<ThreadPool> pool_;
  DeviceHealth health_;
  std::atomic<uint64_t> memory_in_use_{0}; // root devices only
};

class Driver : public _ze_driver_handle_t {
public:
  // The library's drivers (ZEAL_CPU_DRIVERS, usually one), created by the first zeInit
  // and never destroyed (queues' threads may still run during static destruction).
  static const std::vector<Driver *> &all();
  static Driver *from(ze_driver_handle_t h) { return static_cast<Driver *>(h); }

  // The root devices, in the order zeDeviceGet lists them.
  const std::vector<Device *> &devices() const { return device_handles_; }
  const ze_driver_uuid_t &uuid() const { return uuid_; }
  // The machine, as read once (also when an affinity mask leaves no device).
  const HostCpu &cpu() const { return cpu_; }
  // How many threads this driver's devices together run work-groups on: its share of ZEAL_CPU_THREADS, else of one
  // per hardware thread.
  unsigned threads() const;
  unsigned index() const { return index_; }
  bool has(const Device *device) const;

private:
  Driver(const HostCpu &cpu, unsigned index, unsigned count);
  unsigned index_;
  unsigned count_;
  HostCpu cpu_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Device *> device_handles_;
  ze_driver_uuid_t uuid_{};
};

// The n-th of `parts` shares of `total` (threads, sub-slices): as even as they can be, never 0.
unsigned fair_share(unsigned total, unsigned parts, unsigned n);

// Nanoseconds of the clock behind every device timestamp (timerResolution is 1 ns).
uint64_t device_timestamp();

} // namespace zeal::cpu
