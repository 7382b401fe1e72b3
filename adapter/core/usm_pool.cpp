// USM pools: blocks by size class, kept on free, zeroed on request.
#include "adapter/core/usm_pool.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace zeal::adapter {

Result<UsmPool *> UsmPool::create(Context &context, Options options) { return new UsmPool(context, options); }

UsmPool::~UsmPool() {
  std::vector<void *> kept;
  for (auto &[cls, blocks] : kept_) kept.insert(kept.end(), blocks.begin(), blocks.end());
  context_->usm_forget_pool(*this, kept);
}

size_t UsmPool::block_size(size_t size) const {
  constexpr size_t kSmallest = 64;
  if (size > options_.max_poolable) return size;
  return std::max(kSmallest, std::bit_ceil(size));
}

Result<void *> UsmPool::allocate(Device *device, zeal_usm_kind_t kind, size_t size, size_t alignment) {
  if (size == 0) return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE, "USM pool allocation: size is 0");
  const size_t block = block_size(size);
  const Class cls{kind, kind == ZEAL_USM_KIND_HOST ? nullptr : device, block};
  void *ptr = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = kept_.find(cls);
    if (it != kept_.end()) {
      auto &blocks = it->second;
      // A kept block serves when its address has the alignment asked for.
      auto fits = std::find_if(blocks.begin(), blocks.end(), [&](void *p) {
        return alignment == 0 || reinterpret_cast<uintptr_t>(p) % alignment == 0;
      });
      if (fits != blocks.end()) {
        ptr = *fits;
        blocks.erase(fits);
      }
    }
  }
  if (ptr != nullptr) {
    context_->usm_reuse(ptr, size);
  } else {
    auto made = context_->usm_alloc(device, kind, size, alignment, this, block);
    if (!made.ok()) return made;
    ptr = made.value();
  }
  if (options_.zero_initialize)
    if (Status s = zero(ptr, size, kind, device); !s.ok()) {
      (void)context_->usm_free(ptr);
      return std::move(s).error();
    }
  return ptr;
}

void UsmPool::keep(void *ptr, zeal_usm_kind_t kind, Device *device, size_t block) {
  std::lock_guard lock(mutex_);
  kept_[Class{kind, device, block}].push_back(ptr);
}

// Host and shared memory the host writes; device memory a synchronous fill of the device's writes, as it would be
// on a GPU.
Status UsmPool::zero(void *ptr, size_t size, zeal_usm_kind_t kind, Device *device) {
  if (kind != ZEAL_USM_KIND_DEVICE) {
    std::memset(ptr, 0, size);
    return {};
  }
  auto desc = ze_desc<ze_command_queue_desc_t>();
  desc.ordinal = device->compute_queue_ordinal();
  desc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
  ze_command_list_handle_t list = nullptr;
  if (Status s = ze_check(zeCommandListCreateImmediate(context_->ze(), device->ze(), &desc, &list),
                          "zeCommandListCreateImmediate", "USM pool zeroing a block");
      !s.ok())
    return s;
  ZeCommandList owned(list);
  const uint8_t zero_byte = 0;
  return ze_check(zeCommandListAppendMemoryFill(list, ptr, &zero_byte, 1, size, nullptr, 0, nullptr),
                  "zeCommandListAppendMemoryFill", "USM pool zeroing a block");
}

} // namespace zeal::adapter
