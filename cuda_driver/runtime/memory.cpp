// Unified shared memory on CUDA: device memory from cuMemAlloc, host memory pinned and mapped for the device,
// shared memory managed by CUDA; the zeMem* entry points.
#include "cuda_driver/runtime/context.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/ddi.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace zeal::cuda {

namespace {

// IPC handles of device memory are CUDA's (CUipcMemHandle, the 64 bytes of Level Zero's handle). CUDA does not open
// a handle in the process that made it, so this process's own handles are remembered and open as the allocation.
struct OwnHandles {
  std::mutex mutex;
  std::map<std::string, uintptr_t> pointers; // the handle's bytes → the allocation's start
  static OwnHandles &instance() {
    static auto *own = new OwnHandles; // never destroyed: handles may be used while the process exits
    return *own;
  }
  // Whether a handle of the allocation starting at `start` was made here.
  bool made_for(uintptr_t start) {
    std::lock_guard lock(mutex);
    return std::any_of(pointers.begin(), pointers.end(), [&](const auto &entry) { return entry.second == start; });
  }
};

} // namespace

void release(const Driver &driver, const Allocation &a) {
  if (a.type == ZE_MEMORY_TYPE_DEVICE && !a.opened_ipc) {
    // Its IPC handles name nothing from now on (zeMemFree, or the context going with it).
    OwnHandles &own = OwnHandles::instance();
    std::lock_guard lock(own.mutex);
    std::erase_if(own.pointers, [&](const auto &entry) { return entry.second == a.start; });
  }
  const Device *device = a.device != nullptr ? a.device : driver.devices().front();
  device->make_current();
  if (a.opened_ipc) {
    checked(device->api().cuIpcCloseMemHandle(CUdeviceptr(a.base)), "cuIpcCloseMemHandle");
  } else if (a.type == ZE_MEMORY_TYPE_HOST) {
    checked(device->api().cuMemFreeHost(reinterpret_cast<void *>(a.base)), "cuMemFreeHost");
  } else {
    checked(device->api().cuMemFree_v2(CUdeviceptr(a.base)), "cuMemFree_v2");
  }
}

namespace {

// CUDA aligns device and managed memory to 256 bytes and host memory to a page; a larger alignment takes more.
constexpr size_t natural_alignment = 256;

ze_result_t allocate(Context &context, Device *device, ze_memory_type_t type, size_t size, size_t alignment,
                     void **out) {
  if (alignment != 0 && !std::has_single_bit(alignment)) return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
  const size_t extra = alignment > natural_alignment ? alignment : 0;
  const size_t bytes = std::max<size_t>(size, 1) + extra;
  const Device *any = device != nullptr ? device : context.driver().devices().front();
  if (device != nullptr && size > device->properties().maxMemAllocSize) {
    zeal::logger("zeal-cuda").error("an allocation of {} bytes is larger than {} has ({} bytes)", size,
                                    device->properties().name, device->properties().maxMemAllocSize);
    return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
  }
  any->make_current();
  const DriverApi &api = any->api();
  uintptr_t base = 0;
  ze_result_t result = ZE_RESULT_SUCCESS;
  if (type == ZE_MEMORY_TYPE_HOST) {
    void *host = nullptr;
    result = checked(api.cuMemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
                     "cuMemHostAlloc");
    if (result == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY) result = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
    base = reinterpret_cast<uintptr_t>(host);
  } else {
    CUdeviceptr pointer = 0;
    result = type == ZE_MEMORY_TYPE_DEVICE
                 ? checked(api.cuMemAlloc_v2(&pointer, bytes), "cuMemAlloc_v2")
                 : checked(api.cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged");
    base = uintptr_t(pointer);
  }
  if (result != ZE_RESULT_SUCCESS) return result;
  Allocation allocation{base, extra != 0 ? (base + alignment - 1) & ~(alignment - 1) : base, size, type, device};
  context.add(allocation);
  *out = reinterpret_cast<void *>(allocation.start);
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_alloc_device(ze_context_handle_t context, const ze_device_mem_alloc_desc_t *desc, size_t size,
                             size_t alignment, ze_device_handle_t device, void **out) {
  if (context == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(*Context::from(context), Device::from(device), ZE_MEMORY_TYPE_DEVICE, size, alignment, out);
}

ze_result_t mem_alloc_host(ze_context_handle_t context, const ze_host_mem_alloc_desc_t *desc, size_t size,
                           size_t alignment, void **out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  return allocate(*Context::from(context), nullptr, ZE_MEMORY_TYPE_HOST, size, alignment, out);
}

ze_result_t mem_alloc_shared(ze_context_handle_t context, const ze_device_mem_alloc_desc_t *device_desc,
                             const ze_host_mem_alloc_desc_t *host_desc, size_t size, size_t alignment,
                             ze_device_handle_t device, void **out) {
  if (context == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (device_desc == nullptr || host_desc == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Device *owner = device != nullptr ? Device::from(device) : nullptr;
  return allocate(*Context::from(context), owner, ZE_MEMORY_TYPE_SHARED, size, alignment, out);
}

ze_result_t mem_free(ze_context_handle_t handle, void *pointer) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pointer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Context *context = Context::from(handle);
  std::optional<Allocation> found = context->find(pointer);
  if (found && found->opened_ipc) {
    zeal::logger("zeal-cuda").error("zeMemFree: {} is another process's memory, opened from an IPC handle: "
                                    "zeMemCloseIpcHandle closes it", pointer);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  std::optional<Allocation> allocation = context->take(pointer);
  if (!allocation) {
    zeal::logger("zeal-cuda").error("zeMemFree: {} is not the start of an allocation of this context", pointer);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  release(context->driver(), *allocation);
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_get_ipc_handle(ze_context_handle_t handle, const void *pointer, ze_ipc_mem_handle_t *out) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pointer == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::optional<Allocation> allocation = Context::from(handle)->find(pointer);
  auto refuse = [&](ze_result_t code, const std::string &why) {
    zeal::logger("zeal-cuda").error("zeMemGetIpcHandle: {}", why);
    return code;
  };
  if (!allocation || allocation->start != reinterpret_cast<uintptr_t>(pointer))
    return refuse(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                  fmt::format("{} is not the start of an allocation of this context", pointer));
  if (allocation->type != ZE_MEMORY_TYPE_DEVICE || allocation->opened_ipc)
    return refuse(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
                  fmt::format("{} is {} memory; CUDA shares only device memory this process allocated between "
                              "processes", pointer, allocation->opened_ipc ? "another process's" :
                              allocation->type == ZE_MEMORY_TYPE_HOST ? "host" : "shared"));
  if (allocation->start != allocation->base)
    return refuse(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
                  fmt::format("{} was allocated with an alignment above 256 bytes; CUDA's handle names only the start "
                              "of what it allocated", pointer));
  allocation->device->make_current();
  CUipcMemHandle cuda{};
  if (ze_result_t r = checked(allocation->device->api().cuIpcGetMemHandle(&cuda, CUdeviceptr(allocation->base)),
                              "cuIpcGetMemHandle");
      r != ZE_RESULT_SUCCESS)
    return r;
  static_assert(sizeof cuda.reserved == sizeof out->data);
  std::memcpy(out->data, cuda.reserved, sizeof out->data);
  OwnHandles &own = OwnHandles::instance();
  std::lock_guard lock(own.mutex);
  own.pointers[std::string(out->data, sizeof out->data)] = allocation->start;
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_open_ipc_handle(ze_context_handle_t handle, ze_device_handle_t device, ze_ipc_mem_handle_t ipc,
                                ze_ipc_memory_flags_t flags, void **out) {
  if (handle == nullptr || device == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  if (flags > (ZE_IPC_MEMORY_FLAG_BIAS_CACHED | ZE_IPC_MEMORY_FLAG_BIAS_UNCACHED))
    return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  {
    OwnHandles &own = OwnHandles::instance();
    std::lock_guard lock(own.mutex);
    auto found = own.pointers.find(std::string(ipc.data, sizeof ipc.data));
    if (found != own.pointers.end()) {
      *out = reinterpret_cast<void *>(found->second);
      return ZE_RESULT_SUCCESS;
    }
  }
  Device &d = *Device::from(device);
  d.make_current();
  CUipcMemHandle cuda{};
  std::memcpy(cuda.reserved, ipc.data, sizeof cuda.reserved);
  CUdeviceptr pointer = 0;
  CUresult r = d.api().cuIpcOpenMemHandle_v2(&pointer, cuda, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
  if (r != CUDA_SUCCESS) {
    zeal::logger("zeal-cuda").error("zeMemOpenIpcHandle: CUDA did not open the handle on {}: {} (a handle of device "
                                    "memory another process allocated, and has not freed, opens)",
                                    d.properties().name, d.cuda().describe(r));
    return r == CUDA_ERROR_OUT_OF_MEMORY ? ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY : ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  CUdeviceptr base = 0;
  size_t size = 0;
  if (d.api().cuMemGetAddressRange_v2(&base, &size, pointer) != CUDA_SUCCESS) base = pointer, size = 1;
  Allocation allocation{uintptr_t(pointer), uintptr_t(pointer), size, ZE_MEMORY_TYPE_DEVICE, &d, true};
  Context::from(handle)->add(allocation);
  *out = reinterpret_cast<void *>(pointer);
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_close_ipc_handle(ze_context_handle_t handle, const void *pointer) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pointer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  Context *context = Context::from(handle);
  std::optional<Allocation> found = context->find(pointer);
  if (found && found->start == reinterpret_cast<uintptr_t>(pointer)) {
    if (found->opened_ipc) {
      if (std::optional<Allocation> allocation = context->take(pointer)) release(context->driver(), *allocation);
      return ZE_RESULT_SUCCESS;
    }
    if (OwnHandles::instance().made_for(found->start)) return ZE_RESULT_SUCCESS; // this process's own, opened as it is
  }
  zeal::logger("zeal-cuda").error("zeMemCloseIpcHandle: {} was not opened from an IPC handle in this context",
                                  pointer);
  return ZE_RESULT_ERROR_INVALID_ARGUMENT;
}

ze_result_t mem_get_alloc_properties(ze_context_handle_t handle, const void *pointer,
                                     ze_memory_allocation_properties_t *out, ze_device_handle_t *device) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pointer == nullptr || out == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::optional<Allocation> allocation = Context::from(handle)->find(pointer);
  out->type = allocation ? allocation->type : ZE_MEMORY_TYPE_UNKNOWN;
  out->id = allocation ? allocation->start : 0;
  out->pageSize = allocation ? (allocation->type == ZE_MEMORY_TYPE_DEVICE ? 2u << 20 : 4096u) : 0;
  if (device != nullptr) *device = allocation ? allocation->device : nullptr;
  return ZE_RESULT_SUCCESS;
}

ze_result_t mem_get_address_range(ze_context_handle_t handle, const void *pointer, void **base, size_t *size) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (pointer == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  std::optional<Allocation> allocation = Context::from(handle)->find(pointer);
  if (!allocation) return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  if (base != nullptr) *base = reinterpret_cast<void *>(allocation->start);
  if (size != nullptr) *size = allocation->size;
  return ZE_RESULT_SUCCESS;
}

} // namespace

void implement(ze_mem_dditable_t &t) {
  t.pfnAllocDevice = guarded<mem_alloc_device>;
  t.pfnAllocHost = guarded<mem_alloc_host>;
  t.pfnAllocShared = guarded<mem_alloc_shared>;
  t.pfnFree = guarded<mem_free>;
  t.pfnGetAllocProperties = guarded<mem_get_alloc_properties>;
  t.pfnGetAddressRange = guarded<mem_get_address_range>;
  t.pfnGetIpcHandle = guarded<mem_get_ipc_handle>;
  t.pfnOpenIpcHandle = guarded<mem_open_ipc_handle>;
  t.pfnCloseIpcHandle = guarded<mem_close_ipc_handle>;
}

} // namespace zeal::cuda
