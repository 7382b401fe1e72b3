// Device memory of one context, carved from one memory file, so that any device allocation can be handed to
// another process (zeMemGetIpcHandle) or exported as a file descriptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace zeal::cpu {

// A sparse memory file of `capacity` bytes, mapped whole on first use; allocations are page-aligned ranges of
// it, found best-fit. A freed range of at least `punch_size` bytes gives its pages back to the system at once (a
// hole punched in the file); smaller ones keep theirs for the next allocation, as malloc keeps small blocks,
// until `trim_after` bytes of them pile up and every free range is punched. One file descriptor per context,
// however many allocations: an application's descriptor budget is its own.
//
// A range handed to another process shows that process this file, and so the context's other device memory
// too: the processes are the same user's, trusted with each other, as with Level Zero IPC on a GPU.
class DeviceHeap {
public:
  explicit DeviceHeap(size_t capacity) : capacity_(capacity) {}
  DeviceHeap(const DeviceHeap &) = delete;
  DeviceHeap &operator=(const DeviceHeap &) = delete;
  // Unmaps and closes the file without clearing anything: other processes holding it keep what they mapped.
  ~DeviceHeap();

  // `size` bytes aligned to `alignment` (a power of two; at least a page is given); null, with the sentence, if
  // the heap has no room or its file cannot be made.
  void *allocate(size_t size, size_t alignment, std::string &why);
  // Gives back what allocate() returned for `size` bytes.
  void release(void *p, size_t size);

  int fd() const { return fd_; }
  size_t offset_of(const void *p) const { return size_t(static_cast<const char *>(p) - base_); }

private:
  bool open(std::string &why); // under mutex_
  void give_back(size_t offset, size_t size); // under mutex_; joins neighbours

  static constexpr size_t punch_size = size_t(1) << 20;
  static constexpr size_t trim_after = size_t(64) << 20;

  const size_t capacity_;
  size_t kept_ = 0; // bytes freed since the last trim whose pages were kept
  std::mutex mutex_;
  int fd_ = -1;
  char *base_ = nullptr;
  std::map<size_t, size_t> free_by_offset_;     // offset -> size
  std::multimap<size_t, size_t> free_by_size_;  // size -> offset
};

} // namespace zeal::cpu
