// The driver object (one per process) and its one device, with the properties they report.
#pragma once

#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/host_cpu.hpp"
#include "cpu_driver/runtime/thread_pool.hpp"
#include "common/device_profiles.hpp"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cpu {

// Which device the CPU driver pretends to be (ZEAL_CPU_PROFILE), limits included.
using Profile = DeviceProfileRow;

class Device : public _ze_device_handle_t {
public:
  Device(HostCpu cpu, const Profile &profile);
  static Device *from(ze_device_handle_t h) { return static_cast<Device *>(h); }

  const HostCpu &cpu() const { return cpu_; }
  const Profile &profile() const { return profile_; }
  const ze_device_properties_t &properties() const { return properties_; }
  const ze_device_compute_properties_t &compute_properties() const { return compute_; }
  const ze_device_module_properties_t &module_properties() const { return module_; }
  uint64_t max_alloc_size() const { return properties_.maxMemAllocSize; }

private:
  HostCpu cpu_;
  const Profile &profile_;
  ze_device_properties_t properties_{};
  ze_device_compute_properties_t compute_{};
  ze_device_module_properties_t module_{};
};

class Driver : public _ze_driver_handle_t {
public:
  // The process-wide driver, created by the first zeInit and never destroyed
  // (queues' threads may still run during static destruction).
  static Driver &instance();
  static Driver *from(ze_driver_handle_t h) { return static_cast<Driver *>(h); }

  Device &device() { return device_; }
  const ze_driver_uuid_t &uuid() const { return uuid_; }
  // The work-group workers, started at the first launch.
  ThreadPool &pool();
  // How many threads pool() runs work-groups on (ZEAL_CPU_THREADS, else one per hardware thread), without starting it.
  unsigned threads() const;

private:
  Driver();
  Device device_;
  ze_driver_uuid_t uuid_{};
  std::once_flag pool_once_;
  std::unique_ptr<ThreadPool> pool_;
};

// Nanoseconds of the clock behind every device timestamp (timerResolution is 1 ns).
uint64_t device_timestamp();

} // namespace zeal::cpu
