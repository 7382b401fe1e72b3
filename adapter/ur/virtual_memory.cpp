// UR entry points of virtual and physical memory over Level Zero's zeVirtualMem* and zePhysicalMem*: reservations
// are address ranges of the context, physical memory a PhysicalMemory object, and the driver keeps the mappings
// (the CPU driver's are mmap'd ranges of a memory file).
#include "adapter/core/physical_memory.hpp"
#include "adapter/ur/entry.hpp"

namespace zeal::adapter::ur {
namespace {

// The page size the driver maps in, for `device` (null: the context's first).
Outcome page_size(Context &context, Device *device, size_t size, const char *entry, size_t &out) {
  Device &d = device != nullptr ? *device : *context.devices().front();
  return Outcome(ze_check(zeVirtualMemQueryPageSize(context.ze(), d.ze(), size, &out), "zeVirtualMemQueryPageSize",
                          entry));
}

ur_result_t granularity(ur_context_handle_t context_handle, ur_device_handle_t device_handle, size_t size,
                        ur_virtual_mem_granularity_info_t key, size_t prop_size, void *value, size_t *size_ret) {
  constexpr const char *entry = "urVirtualMemGranularityGetInfo";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    Device *device = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (device_handle != nullptr)
      if (Outcome o = check_handle(device_handle, device); !o.ok()) return o;
    if (key != UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM && key != UR_VIRTUAL_MEM_GRANULARITY_INFO_RECOMMENDED)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("{}: key {:#x} is not a ur_virtual_mem_granularity_info_t", entry, abi_value(key)));
    size_t page = 0;
    if (Outcome o = page_size(*context, device, size, entry, page); !o.ok()) return o;
    // The driver maps whole pages: that is both the least and the best granularity.
    return write_ur_info(info_of(page), prop_size, value, size_ret,
                         key == UR_VIRTUAL_MEM_GRANULARITY_INFO_MINIMUM ? "granularity MINIMUM" : "granularity RECOMMENDED");
  });
}

ur_result_t reserve(ur_context_handle_t context_handle, const void *start, size_t size, void **out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urVirtualMemReserve: ppStart is null");
    return Outcome(ze_check(zeVirtualMemReserve(context->ze(), start, size, out), "zeVirtualMemReserve",
                            fmt::format("{} bytes", size)));
  });
}

// urVirtualMemFree and urVirtualMemUnmap: a range of the context.
template <ze_result_t (*kCall)(ze_context_handle_t, const void *, size_t)>
ur_result_t on_range(ur_context_handle_t context_handle, const void *start, size_t size, const char *entry,
                     const char *call) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (start == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: pStart is null", entry));
    return Outcome(ze_check(kCall(context->ze(), start, size), call, fmt::format("{} bytes at {}", size, start)));
  });
}

Outcome access_of(ur_virtual_mem_access_flags_t flags, const char *entry, ze_memory_access_attribute_t &out) {
  if ((flags & UR_VIRTUAL_MEM_ACCESS_FLAGS_MASK) != 0)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("{}: access flags {:#x} have bits UR does not define", entry, flags));
  out = (flags & UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE) != 0  ? ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE
        : (flags & UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY) != 0 ? ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY
                                                              : ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
  return {};
}

ur_result_t map(ur_context_handle_t context_handle, const void *start, size_t size, ur_physical_mem_handle_t physical,
                size_t offset, ur_virtual_mem_access_flags_t flags) {
  constexpr const char *entry = "urVirtualMemMap";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    PhysicalMemory *memory = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (Outcome o = check_handle(physical, memory); !o.ok()) return o;
    if (start == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urVirtualMemMap: pStart is null");
    ze_memory_access_attribute_t access{};
    if (Outcome o = access_of(flags, entry, access); !o.ok()) return o;
    return Outcome(ze_check(zeVirtualMemMap(context->ze(), start, size, memory->ze(), offset, access),
                            "zeVirtualMemMap", fmt::format("{} bytes at {}", size, start)));
  });
}

ur_result_t set_access(ur_context_handle_t context_handle, const void *start, size_t size,
                       ur_virtual_mem_access_flags_t flags) {
  constexpr const char *entry = "urVirtualMemSetAccess";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (start == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urVirtualMemSetAccess: pStart is null");
    ze_memory_access_attribute_t access{};
    if (Outcome o = access_of(flags, entry, access); !o.ok()) return o;
    return Outcome(ze_check(zeVirtualMemSetAccessAttribute(context->ze(), start, size, access),
                            "zeVirtualMemSetAccessAttribute", fmt::format("{} bytes at {}", size, start)));
  });
}

ur_result_t get_info(ur_context_handle_t context_handle, const void *start, size_t size, ur_virtual_mem_info_t key,
                     size_t prop_size, void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (start == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urVirtualMemGetInfo: pStart is null");
    if (key != UR_VIRTUAL_MEM_INFO_ACCESS_MODE)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urVirtualMemGetInfo: key {:#x} is not a ur_virtual_mem_info_t", abi_value(key)));
    ze_memory_access_attribute_t access{};
    size_t out_size = 0;
    if (Status s = ze_check(zeVirtualMemGetAccessAttribute(context->ze(), start, size, &access, &out_size),
                            "zeVirtualMemGetAccessAttribute", fmt::format("{} bytes at {}", size, start));
        !s.ok())
      return s;
    const ur_virtual_mem_access_flags_t flags = access == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE ? UR_VIRTUAL_MEM_ACCESS_FLAG_READ_WRITE
                                                : access == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY ? UR_VIRTUAL_MEM_ACCESS_FLAG_READ_ONLY
                                                                                                : UR_VIRTUAL_MEM_ACCESS_FLAG_NONE;
    return write_ur_info(info_of(flags), prop_size, value, size_ret, "virtual memory ACCESS_MODE");
  });
}

// Physical memory is made in whole pages of the device; IPC (ENABLE_IPC) asks that it may be shared, which the
// CPU driver's memory files allow, though zeal has no IPC entry points yet.
ur_result_t physical_create(ur_context_handle_t context_handle, ur_device_handle_t device_handle, size_t size,
                            const ur_physical_mem_properties_t *properties, ur_physical_mem_handle_t *out) {
  constexpr const char *entry = "urPhysicalMemCreate";
  return run([&]() -> Outcome {
    Context *context = nullptr;
    Device *device = nullptr;
    if (Outcome o = check_handles(context_handle, context, device_handle, device); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urPhysicalMemCreate: phPhysicalMem is null");
    const uint32_t flags = properties != nullptr ? properties->flags : 0;
    if ((flags & UR_PHYSICAL_MEM_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urPhysicalMemCreate: flags {:#x} have bits UR does not define", flags));
    size_t page = 0;
    if (Outcome o = page_size(*context, device, size, entry, page); !o.ok()) return o;
    if (size == 0 || size % page != 0)
      return fail(UR_RESULT_ERROR_INVALID_SIZE,
                  fmt::format("urPhysicalMemCreate: {} bytes is not a whole number of the device's {}-byte pages "
                              "(urVirtualMemGranularityGetInfo)",
                              size, page));
    auto memory = PhysicalMemory::create(*context, *device, size, flags);
    if (!memory.ok()) return std::move(memory).error();
    *out = to_ur<ur_physical_mem_handle_t>(memory.value());
    return {};
  });
}

using R = Result<InfoValue>;
const UrInfoRow<PhysicalMemory, ur_physical_mem_info_t> kPhysicalInfo[] = {
    {UR_PHYSICAL_MEM_INFO_CONTEXT, "CONTEXT",
     [](const PhysicalMemory &m) -> R { return info_of(to_ur<ur_context_handle_t>(&m.context())); }},
    {UR_PHYSICAL_MEM_INFO_DEVICE, "DEVICE",
     [](const PhysicalMemory &m) -> R { return info_of(to_ur<ur_device_handle_t>(&m.device())); }},
    {UR_PHYSICAL_MEM_INFO_SIZE, "SIZE", [](const PhysicalMemory &m) -> R { return info_of(m.size()); }},
    {UR_PHYSICAL_MEM_INFO_PROPERTIES, "PROPERTIES",
     [](const PhysicalMemory &m) -> R {
       return info_of(ur_physical_mem_properties_t{UR_STRUCTURE_TYPE_PHYSICAL_MEM_PROPERTIES, nullptr, m.flags()});
     }},
    {UR_PHYSICAL_MEM_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const PhysicalMemory &m) -> R { return info_of<uint32_t>(m.ref_count()); }},
};

} // namespace

void implement(ur_virtual_mem_dditable_t &t) {
  t.pfnGranularityGetInfo = granularity;
  t.pfnReserve = reserve;
  t.pfnFree = [](ur_context_handle_t c, const void *start, size_t size) {
    return on_range<zeVirtualMemFree>(c, start, size, "urVirtualMemFree", "zeVirtualMemFree");
  };
  t.pfnMap = map;
  t.pfnUnmap = [](ur_context_handle_t c, const void *start, size_t size) {
    return on_range<zeVirtualMemUnmap>(c, start, size, "urVirtualMemUnmap", "zeVirtualMemUnmap");
  };
  t.pfnSetAccess = set_access;
  t.pfnGetInfo = get_info;
}

void implement(ur_physical_mem_dditable_t &t) {
  t.pfnCreate = physical_create;
  implement_object<PhysicalMemory, kPhysicalInfo, UR_PHYSICAL_MEM_INFO_REFERENCE_COUNT>(t);
}

} // namespace zeal::adapter::ur
