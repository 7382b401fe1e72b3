// Replacement operator new / delete counting the calling thread's allocations, or failing one
// (allocation_counter.hpp).
#include "tests/support/allocation_counter.hpp"

#include <dlfcn.h>
#include <execinfo.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {
thread_local bool t_counting = false;
thread_local zeal::test::AllocationCounts t_counts;
thread_local long t_fail_countdown = 0; // > 0: the countdown-th allocation from now fails
thread_local bool t_failed = false;
std::atomic<long> g_live{0};

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

// Whether this allocation is the one fail_allocation asked to fail.
bool fails_now() {
  if (t_fail_countdown <= 0 || --t_fail_countdown > 0) return false;
  t_failed = true;
  return true;
}
void *live(void *p) {
  if (p == nullptr) throw std::bad_alloc();
  g_live.fetch_add(1, std::memory_order_relaxed);
  return p;
}
void *counted(size_t size) {
  if (t_counting) attribute();
  if (fails_now()) throw std::bad_alloc();
  return live(std::malloc(size == 0 ? 1 : size));
}
void *counted_aligned(size_t size, std::align_val_t align) {
  if (t_counting) attribute();
  if (fails_now()) throw std::bad_alloc();
  size_t a = static_cast<size_t>(align);
  return live(std::aligned_alloc(a, (size + a - 1) / a * a));
}
void release(void *p) noexcept {
  if (p == nullptr) return;
  g_live.fetch_sub(1, std::memory_order_relaxed);
  std::free(p);
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

void fail_allocation(long k) {
  t_failed = false;
  t_fail_countdown = k;
}

bool end_failing_allocation() {
  t_fail_countdown = 0;
  return t_failed;
}

long live_allocations() { return g_live.load(); }

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
void operator delete(void *p) noexcept { release(p); }
void operator delete[](void *p) noexcept { release(p); }
void operator delete(void *p, size_t) noexcept { release(p); }
void operator delete[](void *p, size_t) noexcept { release(p); }
void operator delete(void *p, std::align_val_t) noexcept { release(p); }
void operator delete[](void *p, std::align_val_t) noexcept { release(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void *p, size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { release(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { release(p); }
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept { release(p); }
void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept { release(p); }
