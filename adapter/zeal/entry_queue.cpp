// C ABI entry points of queues, USM, copies, fills, barriers and events.
#include "adapter/zeal/entry_points.hpp"
#include "adapter/core/queue.hpp"


namespace zeal::adapter {

Status wait_list(uint32_t num_wait, const zeal_event_handle_t *wait, WaitList &out) {
  if (num_wait > 0 && wait == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("the wait list is null but num_wait is {}", num_wait));
  for (uint32_t i = 0; i < num_wait; ++i) {
    auto e = from_handle<Event>(wait[i], "wait-list event");
    if (!e.ok()) return std::move(e).error();
    out.push(e.value());
  }
  return {};
}

void return_event(Ref<Event> event, zeal_event_handle_t *out) {
  if (out != nullptr) *out = to_handle<Event, zeal_event_handle_t>(event.detach());
}

namespace {

zeal_result_t ZEAL_APICALL queue_create(zeal_context_handle_t context, zeal_device_handle_t device, uint32_t flags,
                                        zeal_queue_handle_t *queue) {
  return run_entry(
      "queueCreate",
      [&] { return fmt::format("context={}, device={}, flags={:#x}", fmt::ptr(context), fmt::ptr(device), flags); },
      [&]() -> Status {
        auto c = from_handle<Context>(context, "context");
        if (!c.ok()) return std::move(c).error();
        auto d = from_handle<Device>(device, "device");
        if (!d.ok()) return std::move(d).error();
        if (Status s = require(queue != nullptr, "queueCreate: the queue output pointer is null"); !s.ok()) return s;
        constexpr uint32_t known = ZEAL_QUEUE_FLAG_OUT_OF_ORDER | ZEAL_QUEUE_FLAG_PROFILING;
        if ((flags & ~known) != 0)
          return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                            fmt::format("queueCreate: flags {:#x} has bits the adapter does not know", flags));
        auto q = Queue::create(*c.value(), *d.value(), flags);
        if (!q.ok()) return std::move(q).error();
        *queue = to_handle<Queue, zeal_queue_handle_t>(q.value());
        return {};
      });
}

zeal_result_t ZEAL_APICALL queue_finish(zeal_queue_handle_t queue) {
  return run_entry(
      "queueFinish", [&] { return fmt::format("queue={}", fmt::ptr(queue)); },
      [&]() -> Status {
        auto q = from_handle<Queue>(queue, "queue");
        if (!q.ok()) return std::move(q).error();
        return q.value()->finish();
      });
}

// The kind is the zeal ABI's own enumeration; everything else Context::usm_alloc checks.
Status check_usm_kind(int32_t kind) {
  if (kind != ZEAL_USM_KIND_HOST && kind != ZEAL_USM_KIND_DEVICE && kind != ZEAL_USM_KIND_SHARED)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                      fmt::format("usmAlloc: kind {} is not a zeal_usm_kind_t (HOST {}, DEVICE {} or SHARED {})", kind,
                                  static_cast<int>(ZEAL_USM_KIND_HOST), static_cast<int>(ZEAL_USM_KIND_DEVICE),
                                  static_cast<int>(ZEAL_USM_KIND_SHARED)));
  return {};
}

zeal_result_t ZEAL_APICALL usm_alloc(zeal_context_handle_t context, zeal_device_handle_t device,
                                     zeal_usm_kind_t kind, size_t size, size_t alignment, void **ptr) {
  return run_entry(
      "usmAlloc",
      [&] {
        return fmt::format("context={}, device={}, kind={}, size={}, alignment={} -> {}", fmt::ptr(context),
                           fmt::ptr(device), abi_value(kind), size, alignment, ptr ? *ptr : nullptr);
      },
      [&]() -> Status {
        auto c = from_handle<Context>(context, "context");
        if (!c.ok()) return std::move(c).error();
        Device *d = nullptr;
        if (device != nullptr) {
          auto found = from_handle<Device>(device, "device");
          if (!found.ok()) return std::move(found).error();
          d = found.value();
        }
        // Read as the integer the caller passed: any number may arrive.
        const int32_t k = abi_value(kind);
        if (Status s = require(ptr != nullptr, "usmAlloc: the pointer output is null"); !s.ok()) return s;
        if (Status s = check_usm_kind(k); !s.ok()) return s;
        auto p = c.value()->usm_alloc(d, static_cast<zeal_usm_kind_t>(k), size, alignment);
        if (!p.ok()) return std::move(p).error();
        *ptr = p.value();
        return {};
      });
}

zeal_result_t ZEAL_APICALL usm_free(zeal_context_handle_t context, void *ptr) {
  return run_entry(
      "usmFree", [&] { return fmt::format("context={}, ptr={}", fmt::ptr(context), ptr); },
      [&]() -> Status {
        auto c = from_handle<Context>(context, "context");
        if (!c.ok()) return std::move(c).error();
        if (Status s = require(ptr != nullptr, "usmFree: the pointer is null"); !s.ok()) return s;
        return c.value()->usm_free(ptr);
      });
}

zeal_result_t ZEAL_APICALL enqueue_memcpy(zeal_queue_handle_t queue, void *dst, const void *src, size_t size,
                                          uint32_t num_wait, const zeal_event_handle_t *wait,
                                          zeal_event_handle_t *event) {
  return run_entry(
      "enqueueMemcpy",
      [&] { return fmt::format("queue={}, dst={}, src={}, size={}, num_wait={}", fmt::ptr(queue), dst, src, size,
                               num_wait); },
      [&]() -> Status {
        return enqueue(queue, num_wait, wait, event,
                       [&](Queue &q, std::span<Event *const> w) { return q.copy(dst, src, size, w); });
      });
}

zeal_result_t ZEAL_APICALL enqueue_fill(zeal_queue_handle_t queue, void *ptr, const void *pattern,
                                        size_t pattern_size, size_t size, uint32_t num_wait,
                                        const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
  return run_entry(
      "enqueueFill",
      [&] { return fmt::format("queue={}, ptr={}, pattern_size={}, size={}, num_wait={}", fmt::ptr(queue), ptr,
                               pattern_size, size, num_wait); },
      [&]() -> Status {
        return enqueue(queue, num_wait, wait, event, [&](Queue &q, std::span<Event *const> w) {
          return q.fill(ptr, pattern, pattern_size, size, w);
        });
      });
}

zeal_result_t ZEAL_APICALL enqueue_barrier(zeal_queue_handle_t queue, uint32_t num_wait,
                                           const zeal_event_handle_t *wait, zeal_event_handle_t *event) {
  return run_entry(
      "enqueueBarrier", [&] { return fmt::format("queue={}, num_wait={}", fmt::ptr(queue), num_wait); },
      [&]() -> Status {
        return enqueue(queue, num_wait, wait, event,
                       [&](Queue &q, std::span<Event *const> w) { return q.barrier(Command::Barrier, w); });
      });
}

zeal_result_t ZEAL_APICALL event_wait(uint32_t num_events, const zeal_event_handle_t *events) {
  return run_entry(
      "eventWait", [&] { return fmt::format("num_events={}", num_events); },
      [&]() -> Status {
        WaitList list;
        if (Status s = wait_list(num_events, events, list); !s.ok()) return s;
        for (Event *e : list.events())
          if (Status s = e->wait(); !s.ok()) return s;
        return {};
      });
}

zeal_result_t ZEAL_APICALL event_get_info(zeal_event_handle_t event, zeal_event_info_t key, size_t size,
                                          void *value, size_t *size_ret) {
  return get_info<Event>("eventGetInfo", "event", event, key, size, value, size_ret,
                         [](const Event &) { return "event info"; });
}

} // namespace

void fill_queue_entries(zeal_adapter_dispatch_t &t) {
  t.queueCreate = queue_create;
  t.queueRetain = [](zeal_queue_handle_t q) { return retain_or_release<Queue>("queueRetain", "queue", q, true); };
  t.queueRelease = [](zeal_queue_handle_t q) { return retain_or_release<Queue>("queueRelease", "queue", q, false); };
  t.queueFinish = queue_finish;
  t.usmAlloc = usm_alloc;
  t.usmFree = usm_free;
  t.enqueueMemcpy = enqueue_memcpy;
  t.enqueueFill = enqueue_fill;
  t.enqueueBarrier = enqueue_barrier;
  t.eventWait = event_wait;
  t.eventGetInfo = event_get_info;
  t.eventRetain = [](zeal_event_handle_t e) { return retain_or_release<Event>("eventRetain", "event", e, true); };
  t.eventRelease = [](zeal_event_handle_t e) { return retain_or_release<Event>("eventRelease", "event", e, false); };
}

} // namespace zeal::adapter
