// Work-items of kernels whose barriers or sub-group collectives cannot become regions run as fibers (Boost.Context), scheduled sub-group by sub-group.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <boost/context/fiber.hpp>
#include <sys/mman.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ZEAL_FIBERS_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(ZEAL_FIBERS_TSAN)
#define ZEAL_FIBERS_TSAN 1
#endif
#ifdef ZEAL_FIBERS_TSAN
#include <sanitizer/tsan_interface.h>
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

// TSan keeps a context per fiber: each work-item gets one for its life, and every
// switch names the context that runs next (flags 0: the switch orders the two, as
// fibers of one thread are). No-ops without TSan.
void *tsan_current() {
#ifdef ZEAL_FIBERS_TSAN
  return __tsan_get_current_fiber();
#else
  return nullptr;
#endif
}
void *tsan_create() {
#ifdef ZEAL_FIBERS_TSAN
  return __tsan_create_fiber(0);
#else
  return nullptr;
#endif
}
void tsan_destroy([[maybe_unused]] void *fiber) {
#ifdef ZEAL_FIBERS_TSAN
  __tsan_destroy_fiber(fiber);
#endif
}
void tsan_switch([[maybe_unused]] void *fiber) {
#ifdef ZEAL_FIBERS_TSAN
  __tsan_switch_to_fiber(fiber, 0);
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
      assert(clean(stack));
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
#ifdef ZEAL_FIBERS_ASAN
    // Nothing is live in a fresh mapping, whatever shadow an earlier mapping
    // at these addresses (a stack of this pool's, or anyone's) left behind.
    ASAN_UNPOISON_MEMORY_REGION(static_cast<char *>(stack.sp) - stack.size, stack.size);
#endif
    return stack;
  }

  // The fiber has ended, so nothing on its stack is live any more; but its
  // last frame, Boost's fiber_entry, left by switching to the scheduler and
  // never returned, so ASan still holds that frame's redzones poisoned.
  // Cleared here, no stack in the pool, nor one unmapped when its thread
  // ends, carries stale poison to its next user.
  void give(const bctx::stack_context &stack) {
#ifdef ZEAL_FIBERS_ASAN
    ASAN_UNPOISON_MEMORY_REGION(static_cast<char *>(stack.sp) - stack.size, stack.size);
#endif
    free_.push_back(stack);
  }

  // Whether ASan holds none of the stack poisoned. The JIT'd frames that will
  // use it are not instrumented, so they could not clear stale poison
  // themselves, and the runtime functions they call (zeal_cpu_subgroup's
  // copies of their operands) would report it.
  static bool clean([[maybe_unused]] const bctx::stack_context &stack) {
#ifdef ZEAL_FIBERS_ASAN
    return __asan_region_is_poisoned(static_cast<char *>(stack.sp) - stack.size, stack.size) == nullptr;
#else
    return true;
#endif
  }

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

// Where a suspended work-item waits.
enum class Wait : uint8_t { None, Barrier, Collective };

// What the lanes of one sub-group share during a collective: the posts of
// the lanes taking part, fixed by the scheduler before it resumes them.
struct SubGroupSync {
  const unsigned char *posts[sg_max_lanes];
  uint64_t active = 0;
  uint32_t size = 0, max_size = 0;
};

// One work-item. `work_item` comes first so that zeal_cpu_barrier, which
// receives its address, can get back to the whole record.
struct FiberItem {
  HostWorkItem work_item;
  bctx::fiber self;   // the work-item, suspended at a barrier; empty before it starts and after it ends
  bctx::fiber caller; // the scheduler, while the work-item runs
  const void *stack_bottom = nullptr, *caller_bottom = nullptr;
  size_t stack_size = 0, caller_size = 0;
  void *tsan_self = nullptr, *tsan_caller = nullptr; // TSan's contexts (ZEAL_FIBERS_TSAN), else null
  Wait wait = Wait::None;
  uint32_t lane = 0;
  uintptr_t site = 0;             // the collective's call site: lanes at the same one take part together
  SubGroupSync *sync = nullptr;
  const unsigned char *posted = nullptr;
  // Two buffers: a lane that has moved on to its next collective must not
  // overwrite the post that slower lanes of the previous one still read.
  alignas(16) unsigned char posts[2][sg_max_post_bytes];
  unsigned next_post = 0;
  bool running = false; // switched to and not back yet: after a fault, the work-item that faulted
};
static_assert(std::is_standard_layout_v<FiberItem>, "zeal_cpu_barrier casts the work-item back to its FiberItem");

void resume(FiberItem &item) {
  void *fake_stack = nullptr;
  item.wait = Wait::None;
  item.tsan_caller = tsan_current();
  tsan_switch(item.tsan_self);
  start_switch(&fake_stack, item.stack_bottom, item.stack_size);
  item.running = true;
  item.self = std::move(item.self).resume();
  item.running = false;
  finish_switch(fake_stack, nullptr, nullptr);
  if (!item.self && item.tsan_self != nullptr) { // the work-item has ended
    tsan_destroy(item.tsan_self);
    item.tsan_self = nullptr;
  }
}

// Starts a work-item on a pooled stack; it runs until its first barrier or its end.
void start(FiberItem &item, StackPool &pool, WorkItemFn function, const void *const *args) {
  bctx::stack_context stack = pool.take();
  item.stack_bottom = static_cast<char *>(stack.sp) - stack.size;
  item.stack_size = stack.size;
  // The fiber keeps its control record at the top of the stack it is given.
  bctx::preallocated place(stack.sp, stack.size, stack);
  item.tsan_self = tsan_create();
  item.self = bctx::fiber(std::allocator_arg, place, PoolAllocator{&pool}, [&item, function, args](bctx::fiber &&caller) {
    finish_switch(nullptr, &item.caller_bottom, &item.caller_size);
    item.caller = std::move(caller);
    function(args, &item.work_item);
    tsan_switch(item.tsan_caller);
    start_switch(nullptr, item.caller_bottom, item.caller_size);
    return std::move(item.caller);
  });
  resume(item);
}

// Suspends the running work-item until the scheduler resumes it.
void yield(FiberItem &item, Wait wait) {
  item.wait = wait;
  void *fake_stack = nullptr;
  tsan_switch(item.tsan_caller);
  start_switch(&fake_stack, item.caller_bottom, item.caller_size);
  item.caller = std::move(item.caller).resume();
  finish_switch(fake_stack, &item.caller_bottom, &item.caller_size);
}

// Runs the lanes of one sub-group until each has ended or waits at a
// work-group barrier. Lanes waiting at a collective go on together once none
// of the sub-group runs: those at the earliest call site (code order, which
// follows program order for structured code, so a loop's collectives come
// before those after it) take part, the others wait for a later round.
void run_sub_group(FiberItem *lanes, uint32_t count, SubGroupSync &sync) {
  for (;;) {
    uintptr_t site = UINTPTR_MAX;
    for (uint32_t j = 0; j < count; ++j) {
      if (lanes[j].wait == Wait::Collective && lanes[j].site < site) site = lanes[j].site;
    }
    if (site == UINTPTR_MAX) return;
    sync.active = 0;
    for (uint32_t j = 0; j < count; ++j) {
      if (lanes[j].wait != Wait::Collective || lanes[j].site != site) continue;
      sync.active |= uint64_t{1} << j;
      sync.posts[j] = lanes[j].posted;
    }
    const uint64_t active = sync.active;
    for (uint32_t j = 0; j < count; ++j) {
      if (active >> j & 1) resume(lanes[j]);
    }
  }
}

// Reused by every work-group this thread runs; never resized while a fiber lives.
thread_local std::vector<FiberItem> thread_items;
thread_local std::vector<SubGroupSync> thread_syncs;

extern "C" void zeal_cpu_run_fibers(WorkItemFn function, const void *const *args, const HostWorkItem *group) {
  std::vector<FiberItem> &items = thread_items; // one TLS lookup, not one per switch
  StackPool &pool = stack_pool;
  const uint64_t nx = group->local_size[0], ny = group->local_size[1];
  const uint64_t total = nx * ny * group->local_size[2];
  const uint64_t s = group->subgroup_size, groups = (total + s - 1) / s;
  if (items.size() < total) items.resize(total);
  if (thread_syncs.size() < groups) thread_syncs.resize(groups);
  for (uint64_t i = 0; i < total; ++i) {
    FiberItem &item = items[i];
    item.work_item = *group;
    item.work_item.local_id[0] = i % nx;
    item.work_item.local_id[1] = i / nx % ny;
    item.work_item.local_id[2] = i / (nx * ny);
    item.work_item.subgroup_id = i / s;
    item.work_item.subgroup_local_id = i % s;
    item.lane = uint32_t(i % s);
    item.sync = &thread_syncs[i / s];
    item.wait = Wait::None;
  }
  // Sub-group by sub-group: a kernel without work-group barriers then needs
  // only one sub-group's stacks at a time. Stacks are taken lazily: a
  // work-item that ends without waiting hands its stack to the next.
  bool waiting = false;
  for (uint64_t g = 0; g < groups; ++g) {
    const uint32_t count = uint32_t(std::min(s, total - g * s));
    SubGroupSync &sync = thread_syncs[g];
    sync.size = count;
    sync.max_size = uint32_t(s);
    for (uint32_t j = 0; j < count; ++j) start(items[g * s + j], pool, function, args);
    run_sub_group(&items[g * s], count, sync);
    for (uint32_t j = 0; j < count; ++j) waiting = waiting || items[g * s + j].self;
  }
  // Each round takes every work-item from one work-group barrier to the
  // next, so none passes a barrier before all have reached it.
  while (waiting) {
    waiting = false;
    for (uint64_t g = 0; g < groups; ++g) {
      const uint32_t count = uint32_t(std::min(s, total - g * s));
      for (uint32_t j = 0; j < count; ++j) {
        if (items[g * s + j].self) resume(items[g * s + j]);
      }
      run_sub_group(&items[g * s], count, thread_syncs[g]);
      for (uint32_t j = 0; j < count; ++j) waiting = waiting || items[g * s + j].self;
    }
  }
}

extern "C" void zeal_cpu_barrier(HostWorkItem *work_item) {
  yield(*reinterpret_cast<FiberItem *>(work_item), Wait::Barrier);
}

// A sub-group collective: post this lane's value, wait until the lanes of the
// sub-group taking part have posted theirs, then compute this lane's result.
extern "C" void zeal_cpu_subgroup(HostWorkItem *work_item, uint32_t code, const void *in, uint32_t arg, void *out) {
  FiberItem &item = *reinterpret_cast<FiberItem *>(work_item);
  unsigned char *post = item.posts[item.next_post];
  item.next_post ^= 1;
  std::memcpy(post, in, sg_post_bytes(code));
  item.posted = post;
  item.site = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
  yield(item, Wait::Collective);
  const SubGroupSync &sync = *item.sync;
  CollectiveView view{sync.posts, sync.active, item.lane, sync.size, sync.max_size};
  combine_collective(code, view, arg, out);
}


} // namespace

// The kernel faulted on one of this thread's work-items (runtime/fault.cpp jumped back to the thread's own
// stack): the work-group's fibers are never resumed again. Destroying a suspended fiber would unwind it, running
// the kernel's frames once more, so each is forgotten instead and its stack handed back to the pool directly;
// the sanitizers are told the thread is back on its own stack.
static void abandon_fibers_after_fault() {
  StackPool &pool = stack_pool;
  FiberItem *faulted = nullptr;
  for (FiberItem &item : thread_items) {
    const bool alive = item.running || static_cast<bool>(item.self);
    if (item.running) faulted = &item;
    if (alive) {
      bctx::stack_context stack;
      stack.size = item.stack_size;
      stack.sp = static_cast<char *>(const_cast<void *>(item.stack_bottom)) + item.stack_size;
      if (item.tsan_self != nullptr) {
        if (item.running) tsan_switch(item.tsan_caller);
        tsan_destroy(item.tsan_self);
      }
      new (&item.self) bctx::fiber(); // forgets the suspended context without resuming it
      pool.give(stack);
    }
    new (&item.caller) bctx::fiber();
    item.tsan_self = nullptr;
    item.running = false;
    item.wait = Wait::None;
  }
  if (faulted != nullptr) {
    start_switch(nullptr, faulted->caller_bottom, faulted->caller_size);
    finish_switch(nullptr, nullptr, nullptr);
  }
}

std::span<const RuntimeSymbol> fiber_symbols() {
  static const std::vector<RuntimeSymbol> symbols = [] {
    std::vector<RuntimeSymbol> all = {
        {run_fibers_symbol, address(&zeal_cpu_run_fibers)},
        {barrier_symbol, address(&zeal_cpu_barrier)},
        {subgroup_symbol, address(&zeal_cpu_subgroup)},
    };
    for (const RuntimeSymbol &symbol : subgroup_op_symbols()) all.push_back(symbol);
    return all;
  }();
  return symbols;
}

} // namespace zeal::cpu::detail

namespace zeal::cpu {

void abandon_work_items_after_fault() { detail::abandon_fibers_after_fault(); }

} // namespace zeal::cpu
