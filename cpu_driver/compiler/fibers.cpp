// Work-items of kernels with barriers run as fibers (Boost.Context): the host side of zeal_cpu_run_fibers and zeal_cpu_barrier.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <boost/context/fiber.hpp>
#include <sys/mman.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZEAL_FIBERS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(ZEAL_FIBERS_ASAN)
#define ZEAL_FIBERS_ASAN 1
#endif
#ifdef ZEAL_FIBERS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace zeal::cpu::detail {
namespace {

namespace bctx = boost::context;

#ifdef ZEAL_FIBERS_ASAN
constexpr size_t stack_bytes = size_t{1} << 20; // instrumented frames are several times larger
#else
constexpr size_t stack_bytes = size_t{256} << 10; // only touched pages cost memory
#endif
constexpr size_t guard_bytes = 4096;

// ASan keeps a shadow of each stack: tell it which stack runs after a switch.
// A null `fake_stack` on start means the fiber being left has ended.
void start_switch([[maybe_unused]] void **fake_stack, [[maybe_unused]] const void *bottom,
                  [[maybe_unused]] size_t size) {
#ifdef ZEAL_FIBERS_ASAN
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

void finish_switch([[maybe_unused]] void *fake_stack, [[maybe_unused]] const void **old_bottom,
                   [[maybe_unused]] size_t *old_size) {
#ifdef ZEAL_FIBERS_ASAN
  __sanitizer_finish_switch_fiber(fake_stack, old_bottom, old_size);
#endif
}

// This thread's fiber stacks, reused across work-groups and launches: first
// touching fresh stacks costs far more than switching between them.
class StackPool {
public:
  StackPool() = default;
  StackPool(const StackPool &) = delete;
  StackPool &operator=(const StackPool &) = delete;
  ~StackPool() {
    for (bctx::stack_context &stack : free_) ::munmap(lowest(stack), stack_bytes + guard_bytes);
  }

  bctx::stack_context take() {
    if (!free_.empty()) {
      bctx::stack_context stack = free_.back();
      free_.pop_back();
      return stack;
    }
    void *base = ::mmap(nullptr, stack_bytes + guard_bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
      std::fputs("zeal-cpu: out of memory for the fiber stacks of a work-group\n", stderr);
      std::abort(); // JIT'd code has no way to fail a launch
    }
    ::mprotect(base, guard_bytes, PROT_NONE); // an overflowing kernel faults instead of corrupting a neighbour
    // Stacks of equal size start at the same offset within a page, so their
    // hot tops would all fall into the same cache sets; starting each a few
    // cache lines further down spreads them.
    size_t colour = (created_++ * 832) % 16384; // 832 = 13 cache lines
    bctx::stack_context stack;
    stack.size = stack_bytes - colour;
    stack.sp = static_cast<char *>(base) + guard_bytes + stack_bytes - colour;
    return stack;
  }

  void give(const bctx::stack_context &stack) { free_.push_back(stack); }

  static void *lowest(const bctx::stack_context &stack) {
    return static_cast<char *>(stack.sp) - stack.size - guard_bytes; // the colour is outside `size`
  }

private:
  std::vector<bctx::stack_context> free_;
  size_t created_ = 0;
};

thread_local StackPool stack_pool;

// Hands a finished fiber's stack back to this thread's pool.
struct PoolAllocator {
  StackPool *pool;
  bctx::stack_context allocate() { return pool->take(); }
  void deallocate(bctx::stack_context &stack) noexcept { pool->give(stack); }
};

// One work-item. `work_item` comes first so that zeal_cpu_barrier, which
// receives its address, can get back to the whole record.
struct FiberItem {
  HostWorkItem work_item;
  bctx::fiber self;   // the work-item, suspended at a barrier; empty before it starts and after it ends
  bctx::fiber caller; // the scheduler, while the work-item runs
  const void *stack_bottom = nullptr, *caller_bottom = nullptr;
  size_t stack_size = 0, caller_size = 0;
};
static_assert(std::is_standard_layout_v<FiberItem>, "zeal_cpu_barrier casts the work-item back to its FiberItem");

void resume(FiberItem &item) {
  void *fake_stack = nullptr;
  start_switch(&fake_stack, item.stack_bottom, item.stack_size);
  item.self = std::move(item.self).resume();
  finish_switch(fake_stack, nullptr, nullptr);
}

// Starts a work-item on a pooled stack; it runs until its first barrier or its end.
void start(FiberItem &item, StackPool &pool, WorkItemFn function, const void *const *args) {
  bctx::stack_context stack = pool.take();
  item.stack_bottom = static_cast<char *>(stack.sp) - stack.size;
  item.stack_size = stack.size;
  // The fiber keeps its control record at the top of the stack it is given.
  bctx::preallocated place(stack.sp, stack.size, stack);
  item.self = bctx::fiber(std::allocator_arg, place, PoolAllocator{&pool}, [&item, function, args](bctx::fiber &&caller) {
    finish_switch(nullptr, &item.caller_bottom, &item.caller_size);
    item.caller = std::move(caller);
    function(args, &item.work_item);
    start_switch(nullptr, item.caller_bottom, item.caller_size);
    return std::move(item.caller);
  });
  resume(item);
}

// Reused by every work-group this thread runs; never resized while a fiber lives.
thread_local std::vector<FiberItem> thread_items;

extern "C" void zeal_cpu_run_fibers(WorkItemFn function, const void *const *args, const HostWorkItem *group) {
  std::vector<FiberItem> &items = thread_items; // one TLS lookup, not one per switch
  StackPool &pool = stack_pool;
  const uint64_t nx = group->local_size[0], ny = group->local_size[1];
  const uint64_t total = nx * ny * group->local_size[2];
  if (items.size() < total) items.resize(total);
  for (uint64_t i = 0; i < total; ++i) {
    HostWorkItem &work_item = items[i].work_item;
    work_item = *group;
    work_item.local_id[0] = i % nx;
    work_item.local_id[1] = i / nx % ny;
    work_item.local_id[2] = i / (nx * ny);
  }
  // Stacks are taken lazily: a work-item that ends without reaching a barrier
  // hands its stack to the next, so barrier-free paths need one stack.
  uint64_t waiting = 0;
  for (uint64_t i = 0; i < total; ++i) {
    start(items[i], pool, function, args);
    waiting += items[i].self ? 1 : 0;
  }
  // Each round takes every work-item from one barrier to the next, so none
  // passes a barrier before all have reached it.
  while (waiting > 0) {
    waiting = 0;
    for (uint64_t i = 0; i < total; ++i) {
      if (!items[i].self) continue;
      resume(items[i]);
      waiting += items[i].self ? 1 : 0;
    }
  }
}

extern "C" void zeal_cpu_barrier(HostWorkItem *work_item) {
  FiberItem &item = *reinterpret_cast<FiberItem *>(work_item);
  void *fake_stack = nullptr;
  start_switch(&fake_stack, item.caller_bottom, item.caller_size);
  item.caller = std::move(item.caller).resume();
  finish_switch(fake_stack, &item.caller_bottom, &item.caller_size);
}

template <class F>
void *address(F *function) {
  return reinterpret_cast<void *>(function);
}

} // namespace

std::span<const RuntimeSymbol> fiber_symbols() {
  static const RuntimeSymbol symbols[] = {
      {run_fibers_symbol, address(&zeal_cpu_run_fibers)},
      {barrier_symbol, address(&zeal_cpu_barrier)},
  };
  return symbols;
}

} // namespace zeal::cpu::detail
