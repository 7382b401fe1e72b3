// UR entry points of USM: allocations over the Context's, which checks and records them for both faces.
#include "adapter/core/context.hpp"
#include "adapter/ur/entry.hpp"
#include "adapter/core/usm_pool.hpp"

namespace zeal::adapter::ur {
namespace {

// The descriptor's alignment and hints.
Outcome check_desc(const char *entry_point, const ur_usm_desc_t *desc, size_t &alignment) {
  alignment = 0;
  if (desc == nullptr) return {};
  if ((desc->hints & UR_USM_ADVICE_FLAGS_MASK) != 0)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("{}: hints {:#x} has bits UR does not define", entry_point, desc->hints));
  alignment = desc->align;
  return {};
}

ur_result_t allocate(const char *entry_point, ur_context_handle_t context, ur_device_handle_t device,
                     bool needs_device, zeal_usm_kind_t kind, const ur_usm_desc_t *desc, ur_usm_pool_handle_t pool,
                     size_t size, void **out) {
  return run([&]() -> Outcome {
    Context *c = nullptr;
    Device *d = nullptr;
    if (Outcome o = check_handle(context, c); !o.ok()) return o;
    if (needs_device || device != nullptr)
      if (Outcome o = check_handle(device, d); !o.ok()) return o;
    if (out == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: ppMem is null", entry_point));
    size_t alignment = 0;
    if (Outcome o = check_desc(entry_point, desc, alignment); !o.ok()) return o;
    UsmPool *p = nullptr;
    if (pool != nullptr) {
      if (Outcome o = check_handle(pool, p); !o.ok()) return o;
      if (&p->context() != c)
        return fail(UR_RESULT_ERROR_INVALID_VALUE, fmt::format("{}: the pool belongs to another context", entry_point));
    }
    auto ptr = p != nullptr ? p->allocate(d, kind, size, alignment) : c->usm_alloc(d, kind, size, alignment);
    if (!ptr.ok())
      return Outcome(std::move(ptr).error()).remap(UR_RESULT_ERROR_INVALID_SIZE, UR_RESULT_ERROR_INVALID_USM_SIZE);
    *out = ptr.value();
    return {};
  });
}

ur_result_t usm_free(ur_context_handle_t context, void *ptr) {
  return run([&]() -> Outcome {
    Context *c = nullptr;
    if (Outcome o = check_handle(context, c); !o.ok()) return o;
    if (ptr == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urUSMFree: pMem is null");
    return Outcome(c->usm_free(ptr)).remap(UR_RESULT_ERROR_INVALID_VALUE, UR_RESULT_ERROR_INVALID_MEM_OBJECT);
  });
}

ur_usm_type_t usm_type(zeal_usm_kind_t kind) {
  switch (kind) {
  case ZEAL_USM_KIND_HOST: return UR_USM_TYPE_HOST;
  case ZEAL_USM_KIND_DEVICE: return UR_USM_TYPE_DEVICE;
  case ZEAL_USM_KIND_SHARED: return UR_USM_TYPE_SHARED;
  }
  return UR_USM_TYPE_UNKNOWN;
}

// A pointer the context did not allocate is UR_USM_TYPE_UNKNOWN for TYPE, as UR specifies; the other keys have
// no answer for it.
ur_result_t usm_alloc_info(ur_context_handle_t context, const void *ptr, ur_usm_alloc_info_t key, size_t size,
                           void *value, size_t *size_ret) {
  return run([&]() -> Outcome {
    Context *c = nullptr;
    if (Outcome o = check_handle(context, c); !o.ok()) return o;
    if (ptr == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urUSMGetMemAllocInfo: pMem is null");
    const int32_t k = abi_value(key);
    if (k < UR_USM_ALLOC_INFO_TYPE || k > UR_USM_ALLOC_INFO_POOL)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urUSMGetMemAllocInfo: key {} is not a ur_usm_alloc_info_t", k));
    auto allocation = c->usm_allocation(ptr);
    const std::string what = fmt::format("USM pointer {}", ptr);
    if (k == UR_USM_ALLOC_INFO_TYPE)
      return write_ur_info(info_of(allocation ? usm_type(allocation->kind) : UR_USM_TYPE_UNKNOWN), size, value,
                           size_ret, what + " TYPE");
    if (!allocation)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("urUSMGetMemAllocInfo: {} was not allocated in this context", ptr));
    switch (k) {
    case UR_USM_ALLOC_INFO_BASE_PTR: return write_ur_info(info_of(allocation->base), size, value, size_ret, what + " BASE_PTR");
    case UR_USM_ALLOC_INFO_SIZE: return write_ur_info(info_of(allocation->size), size, value, size_ret, what + " SIZE");
    case UR_USM_ALLOC_INFO_POOL: { // null for memory of no pool
      ur_usm_pool_handle_t pool = allocation->pool ? to_ur<ur_usm_pool_handle_t>(allocation->pool) : nullptr;
      return write_ur_info(info_of(pool), size, value, size_ret, what + " POOL");
    }
    default: { // DEVICE: null for host memory
      ur_device_handle_t device = allocation->device ? to_ur<ur_device_handle_t>(allocation->device) : nullptr;
      return write_ur_info(info_of(device), size, value, size_ret, what + " DEVICE");
    }
    }
  });
}

ur_result_t pool_create(ur_context_handle_t context, ur_usm_pool_desc_t *desc, ur_usm_pool_handle_t *out) {
  return run([&]() -> Outcome {
    Context *c = nullptr;
    if (Outcome o = check_handle(context, c); !o.ok()) return o;
    if (desc == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urUSMPoolCreate: pPoolDesc or ppPool is null");
    if ((desc->flags & UR_USM_POOL_FLAGS_MASK) != 0)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urUSMPoolCreate: flags {:#x} has bits UR does not define", desc->flags));
    UsmPool::Options options;
    options.zero_initialize = (desc->flags & UR_USM_POOL_FLAG_ZERO_INITIALIZE_BLOCK) != 0;
    // Limits may follow in the chain; the driver's own pools (USE_NATIVE_MEMORY_POOL_EXP) and read-only pools
    // are hints a CPU's memory has no use for.
    for (const auto *next = static_cast<const ur_base_desc_t *>(desc->pNext); next != nullptr;
         next = static_cast<const ur_base_desc_t *>(next->pNext))
      if (next->stype == UR_STRUCTURE_TYPE_USM_POOL_LIMITS_DESC)
        options.max_poolable = reinterpret_cast<const ur_usm_pool_limits_desc_t *>(next)->maxPoolableSize;
    auto pool = UsmPool::create(*c, options);
    if (!pool.ok()) return std::move(pool).error();
    *out = to_ur<ur_usm_pool_handle_t>(pool.value());
    return {};
  });
}

using R = Result<InfoValue>;
const UrInfoRow<UsmPool, ur_usm_pool_info_t> kPoolInfo[] = {
    {UR_USM_POOL_INFO_REFERENCE_COUNT, "REFERENCE_COUNT", [](const UsmPool &p) -> R { return info_of<uint32_t>(p.ref_count()); }},
    {UR_USM_POOL_INFO_CONTEXT, "CONTEXT",
     [](const UsmPool &p) -> R { return info_of(to_ur<ur_context_handle_t>(&p.context())); }},
};

// urUSMContextMemcpyExp: a blocking copy with no queue (Context::copy).
ur_result_t context_memcpy(ur_context_handle_t handle, void *dst, const void *src, size_t size) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(handle, context); !o.ok()) return o;
    if (dst == nullptr || src == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urUSMContextMemcpyExp: pDst or pSrc is null");
    if (size == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urUSMContextMemcpyExp: size is 0");
    return context->copy(dst, src, size);
  });
}

} // namespace

void implement(ur_usm_exp_dditable_t &t) { t.pfnContextMemcpyExp = context_memcpy; }

void implement(ur_usm_dditable_t &t) {
  t.pfnHostAlloc = [](ur_context_handle_t c, const ur_usm_desc_t *desc, ur_usm_pool_handle_t pool, size_t size,
                      void **out) {
    return allocate("urUSMHostAlloc", c, nullptr, false, ZEAL_USM_KIND_HOST, desc, pool, size, out);
  };
  t.pfnDeviceAlloc = [](ur_context_handle_t c, ur_device_handle_t d, const ur_usm_desc_t *desc,
                        ur_usm_pool_handle_t pool, size_t size, void **out) {
    return allocate("urUSMDeviceAlloc", c, d, true, ZEAL_USM_KIND_DEVICE, desc, pool, size, out);
  };
  t.pfnSharedAlloc = [](ur_context_handle_t c, ur_device_handle_t d, const ur_usm_desc_t *desc,
                        ur_usm_pool_handle_t pool, size_t size, void **out) {
    return allocate("urUSMSharedAlloc", c, d, true, ZEAL_USM_KIND_SHARED, desc, pool, size, out);
  };
  t.pfnFree = usm_free;
  t.pfnGetMemAllocInfo = usm_alloc_info;
  t.pfnPoolCreate = pool_create;
  t.pfnPoolRetain = retain<UsmPool>;
  t.pfnPoolRelease = release<UsmPool>;
  t.pfnPoolGetInfo = [](ur_usm_pool_handle_t pool, ur_usm_pool_info_t key, size_t size, void *value, size_t *size_ret) {
    return get_info<UsmPool>(pool, kPoolInfo, UR_USM_POOL_INFO_USED_HIGH_EXP, key, size, value, size_ret);
  };
}

} // namespace zeal::adapter::ur
