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
// it, found best-fit, and a freed range's pages go back to the system at once (a hole punched in the file, which
// also makes the range read as zeros when it is handed out again). One file descriptor per context, however
// many allocations: an application's descriptor budget is its own.
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

  const size_t capacity_;
  std::mutex mutex_;
  int fd_ = -1;
  char *base_ = nullptr;
  std::map<size_t, size_t> free_by_offset_;     // offset -> size
  std::multimap<size_t, size_t> free_by_size_;  // size -> offset
};

} // namespace zeal::cpu
