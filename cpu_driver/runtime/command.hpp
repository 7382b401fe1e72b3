// The commands a command list records, and how one is executed on the host.
#pragma once

#include "cpu_driver/compiler/compiler.hpp"
#include "cpu_driver/runtime/thread_pool.hpp"

#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace zeal::cpu {

class DeviceHealth;
class Event;

// A kernel launch with everything captured at append time, so that later
// zeKernelSetArgumentValue / SetGroupSize calls do not change it.
struct KernelLaunch {
  std::shared_ptr<const Program> program; // keeps the code alive while queued
  const KernelInfo *kernel = nullptr;
  WorkGroupFn run = nullptr; // the kernel's compiled work-group function
  std::shared_ptr<const std::byte[]> values; // argument bytes, each suitably aligned
  std::vector<uint32_t> offsets;             // argument i's bytes start at values + offsets[i]
  std::vector<uint64_t> local_sizes;         // bytes of local argument i; 0 for other kinds
  uint32_t group_size[3] = {1, 1, 1};
  uint32_t group_count[3] = {1, 1, 1};
  uint64_t global_offset[3] = {0, 0, 0}; // zeKernelSetGlobalOffsetExp's
  bool cooperative = false; // each group on a thread of its own (zeCommandListAppendLaunchCooperativeKernel)
};

struct MemoryCopy {
  void *dst;
  const void *src;
  size_t size;
};

// A 2-D or 3-D region copy: `depth` slices of `height` rows of `width` bytes,
// each side with its own pitches; checked (rows fit their pitch, slices theirs,
// no overlap) when appended.
struct MemoryCopyRegion {
  struct Side {
    std::byte *first;   // the region's first byte (origins applied)
    size_t row_pitch;
    size_t slice_pitch; // unused when depth is 1
  };
  Side dst, src; // src.first is only read
  uint32_t width = 0, height = 0, depth = 1;
};

struct MemoryFill {
  void *dst;
  std::vector<std::byte> pattern;
  size_t size;
};

// Writes the device timestamp (device_timestamp()) when the command runs.
struct TimestampWrite {
  uint64_t *dst;
};

// Copies each event's kernel timestamps, as they are when the command runs, to
// dst + offsets[i] (offsets read at append time).
struct KernelTimestampQuery {
  std::vector<Event *> events;
  std::byte *dst;
  std::vector<size_t> offsets;
};

// Resets an event when the command list reaches it.
struct EventReset {
  Event *event;
};

// Barriers, signals and waits need no operation of their own: execution is in
// order, and every command carries its waits and its signal.
struct NoOp {};

// Launches whose group counts (and, for several kernels, how many run) are read from memory when the command
// runs, not when it is appended: zeCommandListAppendLaunchKernelIndirect and ...MultipleKernelsIndirect.
struct IndirectLaunches {
  std::vector<KernelLaunch> launches;     // arguments captured at append time; group counts filled at run time
  const ze_group_count_t *group_counts;   // one per launch
  const uint32_t *count = nullptr;        // null: every launch; else how many of the first run
};

using Operation = std::variant<NoOp, KernelLaunch, IndirectLaunches, MemoryCopy, MemoryCopyRegion, MemoryFill,
                               TimestampWrite, KernelTimestampQuery, EventReset>;

struct Command {
  Operation op;
  Event *signal = nullptr;    // signalled (with timestamps) once the operation has run
  std::vector<Event *> waits; // waited on before it runs
};

// Runs one command on the calling thread (a queue's submission thread); kernel
// work-groups go to the pool, ranked by the queue's priority. A kernel's fault (runtime/fault.hpp) marks
// `health` lost, and only then is the command's event signalled, as completed on a lost device.
void execute(const Command &command, ThreadPool &pool, ThreadPool::Priority priority, DeviceHealth &health);
// Ends a command that faulted, or was queued on a device lost meanwhile and is not run: its event is signalled,
// so that no one waits for it forever, and reports the device lost.
void complete_on_lost_device(const Command &command);

} // namespace zeal::cpu
