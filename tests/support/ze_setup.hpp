// Raw Level Zero setup shared by the tests and benchmarks that drive a driver by hand: driver, device, context,
// immediate list, host-visible events, modules and kernels. Each step returns its result for the caller to report
// in its own style (a benchmark's check() that exits, a test's ASSERT).
#pragma once

#include "common/ze.hpp"

#include <level_zero/ze_api.h>

#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

namespace zeal::test {

// The first call of a several-call step that failed (its result and name), or success.
struct ZeCall {
  ze_result_t result = ZE_RESULT_SUCCESS;
  const char *name = "";
};

// Whether the loader's ZE_ENABLE_ALT_DRIVERS is set to the given driver even when the environment already sets it.
enum class AltDrivers { unless_set, always };

// zeInit with the loader pointed at the driver library `driver_path`.
inline ze_result_t init_with_driver(const char *driver_path, AltDrivers when) {
  setenv("ZE_ENABLE_ALT_DRIVERS", driver_path, when == AltDrivers::always ? 1 : 0);
  return zeInit(0);
}

// The first driver, its first device, and a context on that driver.
inline ZeCall open_first_device(ze_driver_handle_t &driver, ze_device_handle_t &device,
                                ze_context_handle_t &context) {
  uint32_t count = 1;
  if (ze_result_t r = zeDriverGet(&count, &driver); r != ZE_RESULT_SUCCESS) return {r, "zeDriverGet"};
  count = 1;
  if (ze_result_t r = zeDeviceGet(driver, &count, &device); r != ZE_RESULT_SUCCESS) return {r, "zeDeviceGet"};
  auto desc = ze_desc<ze_context_desc_t>();
  if (ze_result_t r = zeContextCreate(driver, &desc, &context); r != ZE_RESULT_SUCCESS) return {r, "zeContextCreate"};
  return {};
}

// An immediate command list on the device's first queue group, asynchronous unless `mode` says otherwise.
inline ze_result_t create_immediate_list(ze_context_handle_t context, ze_device_handle_t device,
                                         ze_command_list_handle_t &list,
                                         ze_command_queue_mode_t mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS) {
  auto desc = ze_desc<ze_command_queue_desc_t>();
  desc.mode = mode;
  desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
  return zeCommandListCreateImmediate(context, device, &desc, &list);
}

// A host-visible pool of `count` events, for `device` alone when one is given (else every device of the context).
inline ze_result_t create_host_event_pool(ze_context_handle_t context, uint32_t count, ze_event_pool_handle_t &pool,
                                          ze_device_handle_t device = nullptr,
                                          ze_event_pool_flags_t more_flags = 0) {
  auto desc = ze_desc<ze_event_pool_desc_t>();
  desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE | more_flags;
  desc.count = count;
  return zeEventPoolCreate(context, &desc, device != nullptr ? 1 : 0, device != nullptr ? &device : nullptr, &pool);
}

// The event at `index` of `pool`, signalled and waited on with host scope.
inline ze_result_t create_host_event(ze_event_pool_handle_t pool, uint32_t index, ze_event_handle_t &event) {
  auto desc = ze_desc<ze_event_desc_t>();
  desc.index = index;
  desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
  desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
  return zeEventCreate(pool, &desc, &event);
}

// A host-visible pool exactly as large as `events`, and every event of it.
inline ZeCall create_host_events(ze_context_handle_t context, ze_event_pool_handle_t &pool,
                                 std::span<ze_event_handle_t> events, ze_device_handle_t device = nullptr) {
  auto count = static_cast<uint32_t>(events.size());
  if (ze_result_t r = create_host_event_pool(context, count, pool, device); r != ZE_RESULT_SUCCESS)
    return {r, "zeEventPoolCreate"};
  for (uint32_t i = 0; i < count; ++i)
    if (ze_result_t r = create_host_event(pool, i, events[i]); r != ZE_RESULT_SUCCESS) return {r, "zeEventCreate"};
  return {};
}

// A module built from `il` (SPIR-V unless `format` says otherwise) with the build options `flags`. With `log`,
// the build log is handed back whatever the result: read_build_log() reads and destroys it.
inline ze_result_t create_module(ze_context_handle_t context, ze_device_handle_t device, std::span<const uint8_t> il,
                                 ze_module_handle_t &module, const char *flags = nullptr,
                                 ze_module_format_t format = ZE_MODULE_FORMAT_IL_SPIRV,
                                 ze_module_build_log_handle_t *log = nullptr) {
  auto desc = ze_desc<ze_module_desc_t>();
  desc.format = format;
  desc.inputSize = il.size();
  desc.pInputModule = il.data();
  desc.pBuildFlags = flags;
  return zeModuleCreate(context, device, &desc, &module, log);
}

// The text of a build log (without its terminating NUL); the log is destroyed even when reading it failed.
inline ZeCall read_build_log(ze_module_build_log_handle_t log, std::string &text) {
  ZeCall first_failure;
  auto note = [&](ze_result_t r, const char *name) {
    if (r != ZE_RESULT_SUCCESS && first_failure.result == ZE_RESULT_SUCCESS) first_failure = {r, name};
  };
  size_t size = 0;
  note(zeModuleBuildLogGetString(log, &size, nullptr), "zeModuleBuildLogGetString");
  text.assign(size, '\0');
  note(zeModuleBuildLogGetString(log, &size, text.data()), "zeModuleBuildLogGetString");
  text.resize(size > 0 ? size - 1 : 0);
  note(zeModuleBuildLogDestroy(log), "zeModuleBuildLogDestroy");
  return first_failure;
}

// The kernel `name` of `module`.
inline ze_result_t create_kernel(ze_module_handle_t module, const char *name, ze_kernel_handle_t &kernel) {
  auto desc = ze_desc<ze_kernel_desc_t>();
  desc.pKernelName = name;
  return zeKernelCreate(module, &desc, &kernel);
}

// The first driver, its first device and a context on that driver: what every raw Level Zero set-up opens first
// (the CPU driver tests' fixture, and ZeLaunchObjects below).
struct ZeDeviceContext {
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;

  ZeCall open_device() { return open_first_device(driver, device, context); }
};

// Which devices a pool of events is for.
enum class EventPoolFor { every_device, the_device };

// The objects a hand-written launch needs, which the benchmarks and the allocation test otherwise each declared
// and made in turn: the first device, a context, an immediate list, a module built from `il` and a host-visible
// pool of `event_count` events. Kernels of the module are the caller's, destroyed before close().
struct ZeLaunchObjects : ZeDeviceContext {
  ze_command_list_handle_t list = nullptr;
  ze_module_handle_t module = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  std::vector<ze_event_handle_t> events;

  // Makes them in that order; the first call that failed, or success.
  ZeCall open(std::span<const uint8_t> il, uint32_t event_count, const char *build_flags = nullptr,
              EventPoolFor pool_for = EventPoolFor::every_device) {
    if (ZeCall opened = open_device(); opened.result != ZE_RESULT_SUCCESS) return opened;
    if (ze_result_t r = create_immediate_list(context, device, list); r != ZE_RESULT_SUCCESS)
      return {r, "zeCommandListCreateImmediate"};
    if (ze_result_t r = create_module(context, device, il, module, build_flags); r != ZE_RESULT_SUCCESS)
      return {r, "zeModuleCreate"};
    events.assign(event_count, nullptr);
    return create_host_events(context, pool, events, pool_for == EventPoolFor::the_device ? device : nullptr);
  }

  // Destroys whatever open() made, best effort (the callers are done measuring).
  void close() {
    for (ze_event_handle_t e : events)
      if (e != nullptr) zeEventDestroy(e);
    events.clear();
    if (pool != nullptr) zeEventPoolDestroy(pool);
    if (module != nullptr) zeModuleDestroy(module);
    if (list != nullptr) zeCommandListDestroy(list);
    if (context != nullptr) zeContextDestroy(context);
    pool = nullptr, module = nullptr, list = nullptr, context = nullptr;
  }
};

} // namespace zeal::test
