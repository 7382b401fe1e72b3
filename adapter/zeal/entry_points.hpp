// The C ABI entry points, filled into the dispatch table by group; helpers shared by every group.
#pragma once

#include "adapter/core/event.hpp"
#include "adapter/core/queue.hpp"
#include "adapter/core/object.hpp"
#include "adapter/core/trace.hpp"

#include <zeal/zeal_adapter.h>

#include <vector>

namespace zeal::adapter {

void fill_platform_entries(zeal_adapter_dispatch_t &table); // adapter, platform, device, context
void fill_queue_entries(zeal_adapter_dispatch_t &table);    // queue, USM, copies, events
void fill_program_entries(zeal_adapter_dispatch_t &table);  // programs
void fill_kernel_entries(zeal_adapter_dispatch_t &table);   // kernels, launch
void fill_image_entries(zeal_adapter_dispatch_t &table);    // images and samplers

// The events of a wait list, each checked.
Status wait_list(uint32_t num_wait, const zeal_event_handle_t *wait, WaitList &out);

// Hands an event to the caller when it asked for one; otherwise the reference is dropped.
void return_event(Ref<Event> event, zeal_event_handle_t *out);

// An enqueue entry point's body: the queue and wait list checked, `command(queue, waits)` enqueued, its event
// handed out when asked for.
template <class Enqueue>
Status enqueue(zeal_queue_handle_t queue, uint32_t num_wait, const zeal_event_handle_t *wait,
               zeal_event_handle_t *event, Enqueue &&command) {
  auto q = from_handle<Queue>(queue, "queue");
  if (!q.ok()) return std::move(q).error();
  WaitList waits;
  if (Status s = wait_list(num_wait, wait, waits); !s.ok()) return s;
  Result<Ref<Event>> e = command(*q.value(), waits.events());
  if (!e.ok()) return std::move(e).error();
  return_event(std::move(e).value(), event);
  return {};
}

// An info answer copied out per the size protocol.
template <class Answer>
Status write_answer(Answer &&answer, size_t size, void *value, size_t *size_ret, std::string_view what) {
  if (!answer.ok()) return std::move(answer).error();
  return write_info(answer.value(), size, value, size_ret, what);
}

// getInfo entry points of every handle type with a plain info(key): the handle checked, then
// the answer copied out; `what(object)` names the object in size errors.
template <class T, class Handle, class Key, class What>
zeal_result_t get_info(const char *name, const char *role, Handle handle, Key key, size_t size, void *value,
                       size_t *size_ret, What &&what) {
  return run_entry(
      name, [&] { return fmt::format("{}={}, key={}, size={}", role, fmt::ptr(handle), abi_value(key), size); },
      [&]() -> Status {
        auto object = from_handle<T>(handle, role);
        if (!object.ok()) return std::move(object).error();
        return write_answer(object.value()->info(abi_value(key)), size, value, size_ret, what(*object.value()));
      });
}

// retain / release entry points of every ref-counted handle type.
template <class T, class Handle>
zeal_result_t retain_or_release(const char *name, const char *role, Handle handle, bool retain) {
  return run_entry(
      name, [&] { return fmt::format("{}={}", role, fmt::ptr(handle)); },
      [&]() -> Status {
        auto object = from_handle<T>(handle, role);
        if (!object.ok()) return std::move(object).error();
        if (retain)
          object.value()->retain();
        else
          object.value()->release();
        return {};
      });
}

} // namespace zeal::adapter
