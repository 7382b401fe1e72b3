// Physical memory over zePhysicalMemCreate.
#include "adapter/core/physical_memory.hpp"

namespace zeal::adapter {

Result<PhysicalMemory *> PhysicalMemory::create(Context &context, Device &device, size_t size, uint32_t flags) {
  if (!context.has_device(&device))
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("physical memory: device '{}' is not in the context", device.name()));
  ze_physical_mem_desc_t desc{};
  desc.stype = ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC;
  desc.size = size;
  ze_physical_mem_handle_t memory = nullptr;
  if (Status s = ze_check(zePhysicalMemCreate(context.ze(), device.ze(), &desc, &memory), "zePhysicalMemCreate",
                          fmt::format("{} bytes of device '{}'", size, device.name()));
      !s.ok())
    return std::move(s).error();
  try {
    return new PhysicalMemory(context, device, size, flags, memory);
  } catch (const std::bad_alloc &) {
    (void)zePhysicalMemDestroy(context.ze(), memory);
    throw;
  }
}

PhysicalMemory::~PhysicalMemory() { (void)zePhysicalMemDestroy(context_->ze(), memory_); }

} // namespace zeal::adapter
