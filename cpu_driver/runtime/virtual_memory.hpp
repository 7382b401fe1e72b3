// Level Zero's virtual memory on the CPU: reserved address ranges, physical memory as memory files, and mappings
// of one into the other with page access attributes (zeVirtualMem*, zePhysicalMem*).
#pragma once

#include "cpu_driver/runtime/handles.hpp"

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace zeal::cpu {

class Device;

// Pages the device can be given: a Linux memory file (memfd) of the asked size, which a mapping shows at any
// reserved address. Its mappings keep the file alive, but zePhysicalMemDestroy refuses while any exists.
class PhysicalMemory : public _ze_physical_mem_handle_t {
public:
  PhysicalMemory(int fd, size_t size, Device *device) : fd_(fd), size_(size), device_(device) {}
  PhysicalMemory(const PhysicalMemory &) = delete;
  PhysicalMemory &operator=(const PhysicalMemory &) = delete;
  ~PhysicalMemory();
  static PhysicalMemory *from(ze_physical_mem_handle_t h) { return static_cast<PhysicalMemory *>(h); }

  int fd() const { return fd_; }
  size_t size() const { return size_; }
  Device *device() const { return device_; }

private:
  int fd_;
  size_t size_;
  Device *device_;
};

// The address ranges one context reserved, as spans of pages that share a state: mapped or not, and the access
// attribute. A reserved page that is not mapped is PROT_NONE whatever its attribute says; the attribute applies
// when it is mapped. All calls are thread-safe; every failure says why in `why`.
class VirtualMemory {
public:
  VirtualMemory() = default;
  VirtualMemory(const VirtualMemory &) = delete;
  VirtualMemory &operator=(const VirtualMemory &) = delete;
  ~VirtualMemory(); // returns what the application did not free to the system

  static size_t page_size();

  ze_result_t reserve(const void *hint, size_t size, void **out, std::string &why);
  ze_result_t free(const void *ptr, size_t size, std::string &why);
  ze_result_t map(const void *ptr, size_t size, PhysicalMemory &memory, size_t offset,
                  ze_memory_access_attribute_t access, std::string &why);
  ze_result_t unmap(const void *ptr, size_t size, std::string &why);
  ze_result_t set_access(const void *ptr, size_t size, ze_memory_access_attribute_t access, std::string &why);
  // The attribute at ptr and how many bytes from ptr (at most `size`) share it.
  ze_result_t get_access(const void *ptr, size_t size, ze_memory_access_attribute_t &access, size_t &same,
                         std::string &why) const;

  // The physical memory mapped at ptr, the offset in it of ptr's page, and how many bytes from there are mapped
  // from it in one piece; false when ptr is not in mapped pages.
  bool mapped_at(const void *ptr, PhysicalMemory *&memory, size_t &offset, size_t &length) const;

  // Physical memory objects of this context, so that a handle of another context or a destroyed one is refused.
  ze_result_t create_physical(Device *device, size_t size, PhysicalMemory **out, std::string &why);
  ze_result_t destroy_physical(PhysicalMemory *memory, std::string &why);
  bool owns(const PhysicalMemory *memory) const;

private:
  struct Span {
    size_t size = 0;
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_NONE;
    PhysicalMemory *memory = nullptr; // null: reserved, not mapped
    size_t offset = 0;                // of the span's first page in `memory`
  };
  using Spans = std::map<uintptr_t, Span>;

  // The spans covering [ptr, ptr + size) exactly, split at both ends; false, with the sentence, if any page is
  // not reserved.
  bool cover(const void *ptr, size_t size, Spans::iterator &first, Spans::iterator &last, std::string &why);
  void split_at(uintptr_t address);
  void merge_around(uintptr_t start, uintptr_t end);
  ze_result_t check_range(const char *what, const void *ptr, size_t size, std::string &why) const;
  // A range being changed: the lock held and the spans covering the range split at both ends, [first, last).
  struct OpenRange {
    std::unique_lock<std::mutex> lock;
    Spans::iterator first, last;
  };
  // How free, map, unmap and set_access begin: the range checked (`what` names it in `why`), the lock taken,
  // the spans covering it split.
  ze_result_t open_range(const char *what, const void *ptr, size_t size, OpenRange &range, std::string &why);

  mutable std::mutex mutex_;
  Spans spans_;
  std::map<const PhysicalMemory *, std::unique_ptr<PhysicalMemory>> physical_;
  std::map<const PhysicalMemory *, size_t> mapped_spans_; // how many spans show each physical memory
};

} // namespace zeal::cpu
