// Replacement operator new / delete counting the calling thread's allocations (allocation_counter.hpp).
#include "tests/support/allocation_counter.hpp"

#include <dlfcn.h>
#include <execinfo.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace {
thread_local bool t_counting = false;
thread_local zeal::test::AllocationCounts t_counts;

// Whose allocation is it: the nearest caller that is either the adapter or Level
// Zero (loader, layers, driver: "libze_*") decides. The driver allocates for its
// own commands; only the adapter's share is meant to be zero.
void attribute() {
  t_counting = false; // backtrace and dladdr must not count themselves
  ++t_counts.all;
  void *frames[24];
  int n = backtrace(frames, 24);
  for (int i = 1; i < n; ++i) {
    Dl_info info{};
    if (dladdr(frames[i], &info) == 0 || info.dli_fname == nullptr) continue;
    bool adapter = std::strcmp(info.dli_fname, ZEAL_ADAPTER_PATH) == 0;
#ifdef ZEAL_UR_ADAPTER_PATH
    adapter = adapter || std::strcmp(info.dli_fname, ZEAL_UR_ADAPTER_PATH) == 0; // the UR face's plugin
#endif
    if (adapter) {
      ++t_counts.adapter;
      break;
    }
    if (std::strstr(info.dli_fname, "libze_") != nullptr) break;
  }
  t_counting = true;
}

void *counted(size_t size) {
  if (t_counting) attribute();
  if (void *p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void *counted_aligned(size_t size, std::align_val_t align) {
  if (t_counting) attribute();
  size_t a = static_cast<size_t>(align);
  if (void *p = std::aligned_alloc(a, (size + a - 1) / a * a)) return p;
  throw std::bad_alloc();
}
} // namespace

namespace zeal::test {

void begin_counting_allocations() {
  void *warm[1];
  backtrace(warm, 1); // its first call loads libgcc_s, which allocates
  t_counts = {};
  t_counting = true;
}

AllocationCounts end_counting_allocations() {
  t_counting = false;
  return t_counts;
}

} // namespace zeal::test

// Every replaceable allocation function, so nothing escapes the count.
void *operator new(size_t size) { return counted(size); }
void *operator new[](size_t size) { return counted(size); }
void *operator new(size_t size, const std::nothrow_t &) noexcept {
  try { return counted(size); } catch (...) { return nullptr; }
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept {
  try { return counted(size); } catch (...) { return nullptr; }
}
void *operator new(size_t size, std::align_val_t a) { return counted_aligned(size, a); }
void *operator new[](size_t size, std::align_val_t a) { return counted_aligned(size, a); }
void *operator new(size_t size, std::align_val_t a, const std::nothrow_t &) noexcept {
  try { return counted_aligned(size, a); } catch (...) { return nullptr; }
}
void *operator new[](size_t size, std::align_val_t a, const std::nothrow_t &) noexcept {
  try { return counted_aligned(size, a); } catch (...) { return nullptr; }
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept { std::free(p); }
