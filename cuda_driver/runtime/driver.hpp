// The CUDA driver object (one per process) and its devices, one per CUDA device, with the properties they report.
#pragma once

#include "cuda_driver/cuda_api.hpp"
#include "ze_driver/handles.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cuda {

class JointModule;
class CodeLoader;
class StreamFeeder;

class Device : public _ze_device_handle_t {
public:
  Device(const CudaLibrary &cuda, const DeviceFacts &facts, CUdevice device, CUcontext context);
  ~Device();
  static Device *from(ze_device_handle_t h) { return static_cast<Device *>(h); }

  const DriverApi &api() const { return cuda_.api(); }
  const CudaLibrary &cuda() const { return cuda_; }
  const DeviceFacts &facts() const { return facts_; }
  CUdevice cu_device() const { return device_; }
  // Makes the device's primary context the calling thread's current one (every thread that calls CUDA for it).
  void make_current() const;
  // The PTX target its modules are compiled for: sm_80 at most (LLVM 15's newest the driver JITs upward).
  unsigned ptx_sm() const;

  // Whether a kernel faulted on the device: CUDA's context is then unusable for good, and every call answers with
  // the fault ("sticky" errors), which a query of the legacy stream shows without waiting for anything.
  bool lost() const;
  // Enqueues a write of the device's nanosecond clock (%globaltimer) to `at` (device-visible memory) on `stream`:
  // a one-thread kernel of the driver's own (load_timestamp_kernel).
  ze_result_t write_timestamp(CUstream stream, uint64_t *at) const;
  // Loads the device's timestamp kernel, once. Loading a module synchronises the CUDA context, so it must not happen
  // first inside a command while another stream waits for the host (that wait would never end): timestamp event
  // pools load it when they are made.
  void load_timestamp_kernel() const;
  // A stream of the driver's own on which an event that switches to its word has its word written after its
  // recorded signal (Event::use_word); made at the first switch and kept for the process, like the timestamp kernel.
  CUstream bridge_stream() const;
  // Whether a module that calls printf (CUDA's vprintf) was loaded: CUDA prints what kernels wrote only at its own
  // synchronisations, so host waits that end by polling then synchronise the stream or event they waited for.
  bool prints() const { return prints_.load(std::memory_order_relaxed); }
  void note_printing() { prints_.store(true, std::memory_order_relaxed); }

  const ze_device_properties_t &properties() const { return properties_; }
  const ze_device_compute_properties_t &compute_properties() const { return compute_; }
  const ze_device_module_properties_t &module_properties() const { return module_; }
  int attribute(Attribute which) const;
  // The CUDA module of the device's modules that call each other's functions through pointers (joint_module.hpp).
  JointModule &joint() const { return *joint_; }
  // How many hardware work queues CUDA feeds the device's streams through: CUDA_DEVICE_MAX_CONNECTIONS (CUDA's own
  // variable, 1 to 32, read when the device is made as CUDA reads it at its start), else CUDA's default of 8.
  uint32_t work_queues() const { return work_queues_; }
  // The copy engines that run beside kernels (CUDA's async engine count, at least 1).
  uint32_t copy_engines() const { return copy_engines_; }
  // Loads and unloads modules on a thread of its own while a stream may be stalled (code_loader.hpp).
  CodeLoader &loader() const { return *loader_; }
  // The feeders of the device's queues and immediate lists (stream_feeder.hpp), and whether one of their streams
  // may be stalled by a wait (then CUDA would not load code until it moves).
  void add_feeder(StreamFeeder *feeder) const;
  void remove_feeder(StreamFeeder *feeder) const;
  bool streams_may_stall() const;

private:
  const CudaLibrary &cuda_;
  DeviceFacts facts_;
  CUdevice device_;
  CUcontext context_;
  ze_device_properties_t properties_{};
  ze_device_compute_properties_t compute_{};
  ze_device_module_properties_t module_{};
  mutable std::once_flag stamp_once_;
  mutable CUfunction stamp_ = nullptr;
  mutable std::once_flag bridge_once_;
  mutable CUstream bridge_ = nullptr;
  std::atomic<bool> prints_{false};
  std::unique_ptr<JointModule> joint_;
  uint32_t work_queues_ = 8;
  uint32_t copy_engines_ = 1;
  mutable std::mutex feeders_mutex_;
  mutable std::vector<StreamFeeder *> feeders_;
  std::unique_ptr<CodeLoader> loader_; // last: its thread ends first
};

class Driver : public _ze_driver_handle_t {
public:
  // The process's driver, made by the first zeInit; null, with the reason logged, when CUDA or a device is missing.
  static Driver *instance();
  static Driver *from(ze_driver_handle_t h) { return static_cast<Driver *>(h); }
  const std::vector<Device *> &devices() const { return device_handles_; }
  const ze_driver_uuid_t &uuid() const { return uuid_; }
  int cuda_version() const { return cuda_version_; }
  bool has(const Device *device) const;

private:
  Driver() = default;
  std::unique_ptr<CudaLibrary> cuda_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<Device *> device_handles_;
  ze_driver_uuid_t uuid_{};
  int cuda_version_ = 0;
};

} // namespace zeal::cuda
