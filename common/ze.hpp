// Level Zero helpers for zeal's code that calls Level Zero: checked calls, RAII owners, descriptors.
#pragma once

#include "common/result.hpp"

#include <level_zero/ze_api.h>

#include <string>
#include <utility>

namespace zeal {

// The name of a Level Zero result code, e.g. "ZE_RESULT_ERROR_INVALID_KERNEL_NAME".
const char *ze_result_name(ze_result_t r);

// The zeal code that best says what a Level Zero code means.
zeal_result_t to_zeal_result(ze_result_t r);

// Turns the result of a Level Zero call into a Status; `call` names the call
// ("zeModuleCreate") and `what` the object it acted on, for the message.
Status ze_check(ze_result_t r, const char *call, const std::string &what = {},
                std::source_location where = std::source_location::current());

// Owns one Level Zero handle and destroys it with Destroy.
template <class Handle, ze_result_t (*Destroy)(Handle)>
class ZeOwner {
public:
  ZeOwner() = default;
  explicit ZeOwner(Handle h) noexcept : handle_(h) {}
  ZeOwner(ZeOwner &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  ZeOwner &operator=(ZeOwner &&other) noexcept {
    if (this != &other) reset(std::exchange(other.handle_, nullptr));
    return *this;
  }
  ZeOwner(const ZeOwner &) = delete;
  ZeOwner &operator=(const ZeOwner &) = delete;
  ~ZeOwner() { reset(); }

  Handle get() const noexcept { return handle_; }
  explicit operator bool() const noexcept { return handle_ != nullptr; }
  void reset(Handle h = nullptr) noexcept {
    if (handle_ != nullptr) (void)Destroy(handle_);
    handle_ = h;
  }
  Handle release() noexcept { return std::exchange(handle_, nullptr); }

private:
  Handle handle_ = nullptr;
};

using ZeContext = ZeOwner<ze_context_handle_t, zeContextDestroy>;
using ZeCommandList = ZeOwner<ze_command_list_handle_t, zeCommandListDestroy>;
using ZeCommandQueue = ZeOwner<ze_command_queue_handle_t, zeCommandQueueDestroy>;
using ZeModule = ZeOwner<ze_module_handle_t, zeModuleDestroy>;
using ZeModuleBuildLog = ZeOwner<ze_module_build_log_handle_t, zeModuleBuildLogDestroy>;
using ZeKernel = ZeOwner<ze_kernel_handle_t, zeKernelDestroy>;
using ZeEventPool = ZeOwner<ze_event_pool_handle_t, zeEventPoolDestroy>;
using ZeEvent = ZeOwner<ze_event_handle_t, zeEventDestroy>;
using ZeFence = ZeOwner<ze_fence_handle_t, zeFenceDestroy>;
using ZeImage = ZeOwner<ze_image_handle_t, zeImageDestroy>;
using ZeSampler = ZeOwner<ze_sampler_handle_t, zeSamplerDestroy>;

// The stype of each descriptor and properties struct zeal uses.
template <class T> struct ZeStype;
#define ZEAL_ZE_STYPE(T, S) \
  template <> struct ZeStype<T> { static constexpr ze_structure_type_t value = S; }
ZEAL_ZE_STYPE(ze_driver_properties_t, ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES);
ZEAL_ZE_STYPE(ze_device_properties_t, ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES);
ZEAL_ZE_STYPE(ze_device_compute_properties_t, ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES);
ZEAL_ZE_STYPE(ze_device_module_properties_t, ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES);
ZEAL_ZE_STYPE(ze_device_memory_properties_t, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES);
ZEAL_ZE_STYPE(ze_device_memory_access_properties_t, ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES);
ZEAL_ZE_STYPE(ze_context_desc_t, ZE_STRUCTURE_TYPE_CONTEXT_DESC);
ZEAL_ZE_STYPE(ze_command_queue_desc_t, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
ZEAL_ZE_STYPE(ze_command_list_desc_t, ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC);
ZEAL_ZE_STYPE(ze_device_mem_alloc_desc_t, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
ZEAL_ZE_STYPE(ze_host_mem_alloc_desc_t, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
ZEAL_ZE_STYPE(ze_module_desc_t, ZE_STRUCTURE_TYPE_MODULE_DESC);
ZEAL_ZE_STYPE(ze_kernel_desc_t, ZE_STRUCTURE_TYPE_KERNEL_DESC);
ZEAL_ZE_STYPE(ze_kernel_properties_t, ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES);
ZEAL_ZE_STYPE(ze_event_pool_desc_t, ZE_STRUCTURE_TYPE_EVENT_POOL_DESC);
ZEAL_ZE_STYPE(ze_event_desc_t, ZE_STRUCTURE_TYPE_EVENT_DESC);
ZEAL_ZE_STYPE(ze_fence_desc_t, ZE_STRUCTURE_TYPE_FENCE_DESC);
ZEAL_ZE_STYPE(ze_memory_allocation_properties_t, ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES);
ZEAL_ZE_STYPE(ze_module_program_exp_desc_t, ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC);
ZEAL_ZE_STYPE(ze_device_image_properties_t, ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES);
ZEAL_ZE_STYPE(ze_image_desc_t, ZE_STRUCTURE_TYPE_IMAGE_DESC);
ZEAL_ZE_STYPE(ze_sampler_desc_t, ZE_STRUCTURE_TYPE_SAMPLER_DESC);
#undef ZEAL_ZE_STYPE

// A descriptor or properties struct with its stype set and everything else zero.
template <class T>
T ze_desc() {
  T desc{};
  desc.stype = ZeStype<T>::value;
  return desc;
}

} // namespace zeal
