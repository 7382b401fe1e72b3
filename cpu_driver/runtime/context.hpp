// The context: the owner of allocations and virtual memory, and the parent of queues, lists, pools and modules.
#pragma once

#include "cpu_driver/runtime/handles.hpp"
#include "cpu_driver/runtime/memory.hpp"
#include "cpu_driver/runtime/virtual_memory.hpp"

#include <condition_variable>
#include <mutex>
#include <vector>

namespace zeal::cpu {

class Driver;
class Executor;

class Context : public _ze_context_handle_t {
public:
  explicit Context(Driver &driver);
  static Context *from(ze_context_handle_t h) { return static_cast<Context *>(h); }

  Driver &driver() { return driver_; }
  Allocations &allocations() { return allocations_; }
  VirtualMemory &virtual_memory() { return virtual_memory_; }

  // The submission streams of the context's queues and immediate lists, each added while it exists.
  void add_stream(Executor &stream);
  void remove_stream(Executor &stream);
  // Waits until every command submitted so far to the context's queues and immediate lists has run (what
  // zeMemFreeExt's policies wait for before freeing). A queue or list destroyed meanwhile waits for it, since
  // its stream is being waited on; one created meanwhile does not.
  void finish_submitted();

private:
  Driver &driver_;
  Allocations allocations_;
  VirtualMemory virtual_memory_;
  std::mutex streams_mutex_;
  std::condition_variable streams_cv_;
  std::vector<Executor *> streams_;
  unsigned finishing_ = 0; // finish_submitted() calls waiting on a copy of streams_
};

} // namespace zeal::cpu
