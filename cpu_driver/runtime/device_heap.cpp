// DeviceHeap (device_heap.hpp): best-fit ranges of one shared memory file.
#include "cpu_driver/runtime/device_heap.hpp"

#include "ze_driver/shared_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace zeal::cpu {
namespace {

// A map node holding (key, value), made before a map changes: inserting it cannot fail, so a failed allocation
// (bad_alloc) leaves the free ranges as they were instead of losing one.
template <class Map>
typename Map::node_type make_node(size_t key, size_t value) {
  Map one;
  one.emplace(key, value);
  return one.extract(one.begin());
}

} // namespace

DeviceHeap::~DeviceHeap() {
  if (base_ != nullptr) munmap(base_, capacity_);
  if (fd_ >= 0) close(fd_);
}

bool DeviceHeap::open(std::string &why) {
  if (base_ != nullptr) return true;
  // MAP_NORESERVE and a sparse file: only touched pages cost memory.
  void *p = ze::map_new_memory_file("zeal-device-memory", capacity_, MAP_NORESERVE, fd_, why);
  if (p == nullptr) return false;
  base_ = static_cast<char *>(p);
  free_by_offset_.emplace(0, capacity_);
  free_by_size_.emplace(capacity_, 0);
  return true;
}

void *DeviceHeap::allocate(size_t size, size_t alignment, std::string &why) {
  alignment = std::max(alignment, ze::system_page_size());
  if (size > capacity_) {
    why = fmt::format("{} bytes of device memory exceed the context's device heap of {} bytes", size, capacity_);
    return nullptr;
  }
  size = ze::whole_pages(size);
  std::lock_guard lock(mutex_);
  if (!open(why)) return nullptr;
  // The smallest free range that holds `size` bytes once its start is aligned.
  for (auto it = free_by_size_.lower_bound(size); it != free_by_size_.end(); ++it) {
    const size_t range_size = it->first, range_offset = it->second;
    // Aligned as an address: the mapping itself is only page-aligned.
    const uintptr_t address = reinterpret_cast<uintptr_t>(base_) + range_offset;
    const size_t start = range_offset + ((address + alignment - 1) / alignment * alignment - address);
    if (start - range_offset > range_size - size) continue;
    const size_t end = start + size, range_end = range_offset + range_size;
    // The ranges left before and after, made first: if that fails, nothing has changed.
    using ByOffset = decltype(free_by_offset_);
    using BySize = decltype(free_by_size_);
    ByOffset::node_type before_at, after_at;
    BySize::node_type before_size, after_size;
    if (start > range_offset) {
      before_at = make_node<ByOffset>(range_offset, start - range_offset);
      before_size = make_node<BySize>(start - range_offset, range_offset);
    }
    if (end < range_end) {
      after_at = make_node<ByOffset>(end, range_end - end);
      after_size = make_node<BySize>(range_end - end, end);
    }
    free_by_size_.erase(it);
    free_by_offset_.erase(range_offset);
    for (auto *node : {&before_at, &after_at})
      if (!node->empty()) free_by_offset_.insert(std::move(*node));
    for (auto *node : {&before_size, &after_size})
      if (!node->empty()) free_by_size_.insert(std::move(*node));
    return base_ + start;
  }
  why = fmt::format("the context's device heap ({} bytes) has no free range of {} bytes", capacity_, size);
  return nullptr;
}

void DeviceHeap::release(void *p, size_t size) {
  size = ze::whole_pages(size);
  const size_t offset = offset_of(p);
  auto punch = [this](size_t at, size_t length) {
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(at), off_t(length));
  };
  // A large range's pages go back to the system now, not when the context ends; a small one's stay for reuse
  // (punching and faulting them in again cost 3-4 us a round trip, 30 times a malloc's), cleared: every free
  // range reads as zeros, so a new allocation starts as zeros whether its pages are fresh or kept, as fresh
  // GPU memory does (level-zero-tests' concurrent-atomics cases count on it).
  if (size >= punch_size) punch(offset, size);
  else std::memset(base_ + offset, 0, size);
  std::lock_guard lock(mutex_);
  give_back(offset, size);
  if (size >= punch_size) return;
  kept_ += size;
  if (kept_ < trim_after) return;
  kept_ = 0;
  for (const auto &[at, length] : free_by_offset_) punch(at, length);
}

void DeviceHeap::give_back(size_t offset, size_t size) {
  // The merged range's nodes, made before anything changes (see make_node); their contents are set below.
  auto at_node = make_node<decltype(free_by_offset_)>(0, 0);
  auto size_node = make_node<decltype(free_by_size_)>(0, 0);
  auto erase_free = [this](std::map<size_t, size_t>::iterator it) {
    auto [first, last] = free_by_size_.equal_range(it->second);
    for (auto s = first; s != last; ++s)
      if (s->second == it->first) {
        free_by_size_.erase(s);
        break;
      }
    return free_by_offset_.erase(it);
  };
  auto next = free_by_offset_.lower_bound(offset);
  if (next != free_by_offset_.end() && offset + size == next->first) {
    size += next->second;
    next = erase_free(next);
  }
  if (next != free_by_offset_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == offset) {
      offset = previous->first;
      size += previous->second;
      erase_free(previous);
    }
  }
  at_node.key() = offset;
  at_node.mapped() = size;
  size_node.key() = size;
  size_node.mapped() = offset;
  free_by_offset_.insert(std::move(at_node));
  free_by_size_.insert(std::move(size_node));
}

} // namespace zeal::cpu
