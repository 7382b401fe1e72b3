// Kernel faults: a kernel that touches an unmapped address, divides an integer by zero or reaches a trap ends its
// device's work, not the process, as a GPU fault ends a GPU's. The device is then lost, as Level Zero means it:
// the fault is logged once with what happened, nothing more runs on the device, every command already queued
// completes without running (so no wait hangs), and the calls that report on its work return
// ZE_RESULT_ERROR_DEVICE_LOST from then on (zeDeviceGetStatus, zeCommandQueueSynchronize,
// zeCommandQueueExecuteCommandLists, zeEventHostSynchronize and zeEventQueryStatus of the events its
// commands signal, appends to its immediate lists). The process goes on; a new device cannot be had without a
// new process, as with a GPU whose driver needs a reset.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

namespace zeal::cpu {

// Whether a device is lost and why. Once lost, it stays lost.
class DeviceHealth {
public:
  // The device's name, for the log.
  void set_device_name(std::string name) { device_ = std::move(name); }
  bool lost() const { return lost_.load(std::memory_order_acquire); }
  // Marks the device lost because of `why` ("kernel 'k' faulted ..."); the first reason is kept and logged as an
  // error, later ones are logged at debug level.
  void lose(const std::string &why);
  std::string reason() const;

private:
  std::string device_;
  std::atomic<bool> lost_{false};
  mutable std::mutex mutex_;
  std::string reason_;
};

// Calls body(context) on this thread. A fault raised by an instruction it runs (SIGSEGV, SIGBUS, SIGFPE or
// SIGILL) ends it at once and comes back as a sentence ("it accessed address 0x10, which is not mapped"); the
// frames between are abandoned without unwinding, so the body must hold no lock and own nothing it needs freed
// (kernel code does not). Signals outside such a call, and the same signals sent by kill() or raise(), go to
// whatever handled them before the driver: the driver's handlers are installed at the first call and chain.
std::optional<std::string> run_catching_faults(void (*body)(void *context), void *context);

} // namespace zeal::cpu
