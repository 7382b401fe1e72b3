// Executing commands: copies, fills, timestamps, event resets and kernel launches split over the worker pool.
#include "cpu_driver/runtime/command.hpp"

#include "common/own_thread.hpp"
#include "cpu_driver/runtime/copy_region.hpp"
#include "cpu_driver/runtime/driver.hpp"
#include "cpu_driver/runtime/event.hpp"
#include "cpu_driver/runtime/fault.hpp"
#include "cpu_driver/runtime/thread_pool.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <immintrin.h>
#include <cassert>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>

namespace zeal::cpu {
namespace {

// Local memory of one worker: kernel-scope `local` variables first, then each
// local argument, each at a 128-byte boundary (the widest vector type).
constexpr size_t local_alignment = 128;

struct LocalLayout {
  std::vector<uint64_t> offsets; // per argument; unused for non-local ones
  uint64_t total = 0;
};

uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

LocalLayout layout_local_memory(const KernelLaunch &launch) {
  LocalLayout layout;
  layout.offsets.resize(launch.local_sizes.size());
  layout.total = align_up(launch.kernel->static_local_bytes, local_alignment);
  for (size_t i = 0; i < launch.local_sizes.size(); ++i) {
    if (launch.local_sizes[i] == 0) continue;
    layout.offsets[i] = layout.total;
    layout.total += align_up(launch.local_sizes[i], local_alignment);
  }
  return layout;
}

struct AlignedFree {
  void operator()(std::byte *p) const { ::operator delete(p, std::align_val_t{local_alignment}); }
};

// The number of dimensions a kernel sees in get_work_dim(): Level Zero has no
// such notion, so it is the highest dimension that is more than one wide.
uint32_t work_dim(const KernelLaunch &l) {
  if (l.group_count[2] > 1 || l.group_size[2] > 1) return 3;
  if (l.group_count[1] > 1 || l.group_size[1] > 1) return 2;
  return 1;
}

// What the guarded part of run_groups needs: it owns nothing, so a fault may abandon it.
struct GroupRange {
  const KernelLaunch *launch;
  const void *const *args;
  GroupContext *ctx;
  uint64_t begin, end;
  uint64_t running = 0; // the first group of the call of the compiled code under way
};

void run_group_range(void *context) {
  GroupRange &r = *static_cast<GroupRange *>(context);
  const KernelLaunch &l = *r.launch;
  // One call runs many groups (the compiled code counts their ids, x fastest),
  // so what they share is loaded once, not per group.
  const uint64_t nx = l.group_count[0], ny = l.group_count[1];
  for (uint64_t g = r.begin; g < r.end;) {
    r.ctx->group_id[0] = uint32_t(g % nx);
    r.ctx->group_id[1] = uint32_t(g / nx % ny);
    r.ctx->group_id[2] = uint32_t(g / (nx * ny));
    r.ctx->group_count = uint32_t(std::min<uint64_t>(r.end - g, UINT32_MAX));
    r.running = g;
    l.run(r.args, r.ctx);
    g += r.ctx->group_count;
  }
  // Image writes may be non-temporal (ImageDescriptor::stream_writes), and those are weakly ordered: they are
  // visible before whatever tells that this range is done.
  _mm_sfence();
}

// The first fault of a launch's work-groups; once one faulted, the launch's other chunks do not run.
class LaunchFault {
public:
  bool seen() const { return seen_.load(std::memory_order_relaxed); }
  void record(std::string what) {
    std::lock_guard lock(mutex_);
    if (!seen_.exchange(true)) what_ = std::move(what);
  }
  std::optional<std::string> first() {
    if (!seen()) return std::nullopt;
    std::lock_guard lock(mutex_);
    return what_;
  }

private:
  std::atomic<bool> seen_{false};
  std::mutex mutex_;
  std::string what_;
};

// Runs work-groups [begin, end) (linear ids, x fastest) with this worker's own context and local memory.
void run_groups(const KernelLaunch &l, const LocalLayout &layout, uint64_t begin, uint64_t end, LaunchFault &fault) {
  if (fault.seen()) return;
  GroupContext ctx;
  ctx.work_dim = work_dim(l);
  for (int d = 0; d < 3; ++d) {
    ctx.num_groups[d] = l.group_count[d];
    ctx.local_size[d] = l.group_size[d];
    ctx.global_offset[d] = l.global_offset[d];
  }
  std::unique_ptr<std::byte, AlignedFree> local;
  if (layout.total > 0)
    local.reset(static_cast<std::byte *>(::operator new(layout.total, std::align_val_t{local_alignment})));
  ctx.local_memory = local.get();

  size_t n = l.offsets.size();
  std::vector<void *> local_pointers(n, nullptr);
  std::vector<const void *> args(n);
  for (size_t i = 0; i < n; ++i) {
    if (l.local_sizes[i] != 0) {
      local_pointers[i] = local.get() + layout.offsets[i];
      args[i] = &local_pointers[i]; // like a global pointer: args[i] points to the pointer
    } else {
      args[i] = l.values.get() + l.offsets[i];
    }
  }
  GroupRange range{&l, args.data(), &ctx, begin, end};
  if (std::optional<std::string> what = run_catching_faults(run_group_range, &range)) {
    abandon_work_items_after_fault();
    // One call of the compiled code runs several groups, so the fault is known to be in a range of them.
    const uint64_t last = range.running + ctx.group_count - 1;
    const std::string groups = last == range.running ? fmt::format("work-group {}", last)
                                                     : fmt::format("one of work-groups {} to {}", range.running, last);
    fault.record(fmt::format("kernel '{}' faulted in {} (linear ids, x fastest): {}", l.kernel->name, groups, *what));
  }
}

void fill(const MemoryFill &f) {
  auto *dst = static_cast<std::byte *>(f.dst);
  size_t p = f.pattern.size();
  if (p == 1) {
    std::memset(dst, std::to_integer<int>(f.pattern[0]), f.size);
    return;
  }
  size_t i = 0;
  for (; i + p <= f.size; i += p) std::memcpy(dst + i, f.pattern.data(), p);
  std::memcpy(dst + i, f.pattern.data(), f.size - i); // a partial pattern at the end
}

// Each event's timestamps as zeEventQueryKernelTimestamp reports them, where the query says.
void copy_timestamps(const KernelTimestampQuery &q) {
  for (size_t i = 0; i < q.events.size(); ++i) {
    ze_kernel_timestamp_result_t result = q.events[i]->timestamps();
    size_t offset = q.offsets.empty() ? i * sizeof(result) : q.offsets[i];
    std::memcpy(q.dst + offset, &result, sizeof(result));
  }
}

// A cooperative launch: every group on a thread of its own (this one runs the first), so that each is resident
// while others wait for it, whatever the pool is busy with. Appending checked the count
// (Kernel::max_cooperative_groups). No group starts before every thread exists: if the system refuses one, none
// runs (a group could wait forever for one that never starts) and that is the launch's fault.
std::optional<std::string> run_cooperative(const KernelLaunch &launch, const LocalLayout &layout, uint64_t groups) {
  LaunchFault fault;
  std::mutex mutex;
  std::condition_variable started;
  enum class Gate { closed, open, cancelled } gate = Gate::closed;
  auto group = [&](uint64_t g) {
    {
      std::unique_lock lock(mutex);
      started.wait(lock, [&] { return gate != Gate::closed; });
      if (gate == Gate::cancelled) return;
    }
    run_groups(launch, layout, g, g + 1, fault);
  };
  std::vector<std::thread> threads;
  std::string refused;
  try {
    threads.reserve(groups - 1);
    for (uint64_t g = 1; g < groups; ++g) threads.push_back(start_own_thread([&group, g] { group(g); }));
  } catch (const std::system_error &e) {
    refused = e.what();
  }
  {
    std::lock_guard lock(mutex);
    gate = refused.empty() ? Gate::open : Gate::cancelled;
  }
  started.notify_all();
  if (refused.empty()) run_groups(launch, layout, 0, 1, fault);
  for (std::thread &t : threads) t.join();
  if (!refused.empty())
    return fmt::format("kernel '{}' did not run: the system started only {} of the {} threads its cooperative launch "
                       "needs ({})",
                       launch.kernel->name, threads.size() + 1, groups, refused);
  return fault.first();
}

// Splits the launch's work-groups over the pool; each chunk of groups gets its own context and local memory.
// Returns the first fault of its code, if one faulted.
std::optional<std::string> run_kernel(const KernelLaunch &launch, ThreadPool &pool, ThreadPool::Priority priority) {
  assert(launch.kernel != nullptr && launch.run != nullptr);
  uint64_t groups = uint64_t{launch.group_count[0]} * launch.group_count[1] * launch.group_count[2];
  LocalLayout layout = layout_local_memory(launch);
  if (launch.cooperative) return run_cooperative(launch, layout, groups);
  LaunchFault fault;
  pool.parallel_for(
      groups, [&](uint64_t begin, uint64_t end) { run_groups(launch, layout, begin, end, fault); }, priority);
  return fault.first();
}

// Each launch with the group counts memory holds now; launches of no groups run nothing.
std::optional<std::string> run_indirect(const IndirectLaunches &indirect, ThreadPool &pool,
                                        ThreadPool::Priority priority) {
  size_t count = indirect.launches.size();
  if (indirect.count != nullptr) count = std::min<size_t>(count, *indirect.count);
  for (size_t i = 0; i < count; ++i) {
    KernelLaunch launch = indirect.launches[i];
    const ze_group_count_t groups = indirect.group_counts[i];
    launch.group_count[0] = groups.groupCountX;
    launch.group_count[1] = groups.groupCountY;
    launch.group_count[2] = groups.groupCountZ;
    if (uint64_t{groups.groupCountX} * groups.groupCountY * groups.groupCountZ == 0) continue;
    if (std::optional<std::string> fault = run_kernel(launch, pool, priority)) return fault;
  }
  return std::nullopt;
}

} // namespace

void execute(const Command &command, ThreadPool &pool, ThreadPool::Priority priority, DeviceHealth &health) {
  for (Event *e : command.waits) e->wait(UINT64_MAX);
  uint64_t start = device_timestamp();
  std::optional<std::string> fault;
  std::visit(
      [&](const auto &op) {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, KernelLaunch>) fault = run_kernel(op, pool, priority);
        else if constexpr (std::is_same_v<Op, IndirectLaunches>) fault = run_indirect(op, pool, priority);
        else if constexpr (std::is_same_v<Op, MemoryCopy>) std::memmove(op.dst, op.src, op.size);
        else if constexpr (std::is_same_v<Op, MemoryCopyRegion>) copy_region(op);
        else if constexpr (std::is_same_v<Op, MemoryFill>) fill(op);
        else if constexpr (std::is_same_v<Op, TimestampWrite>) *op.dst = device_timestamp();
        else if constexpr (std::is_same_v<Op, KernelTimestampQuery>) copy_timestamps(op);
        else if constexpr (std::is_same_v<Op, EventReset>) op.event->reset();
      },
      command.op);
  if (fault) {
    health.lose(*fault); // first: whoever sees the event must find the device lost
    complete_on_lost_device(command);
  } else if (command.signal != nullptr) {
    command.signal->complete(start, device_timestamp());
  }
}

void complete_on_lost_device(const Command &command) {
  if (command.signal != nullptr) command.signal->complete_on_lost_device();
}

} // namespace zeal::cpu
