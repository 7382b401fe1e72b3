// What every UR entry point shares: handles to objects and back, zeal errors as UR results, the info protocol.
#pragma once

#include "adapter/core/error.hpp"
#include "adapter/core/event.hpp"
#include "adapter/core/info.hpp"
#include "adapter/core/object.hpp"
#include "adapter/ur/ddi.hpp"

#include <unified-runtime/ur_api.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

namespace zeal::adapter {
class Graph;
class Queue;
} // namespace zeal::adapter

namespace zeal::adapter::ur {

// A failure of the UR face: the code UR's spec gives for it, and the sentence urAdapterGetLastError returns.
struct Failure {
  ur_result_t code;
  std::string message;
};

// The UR result for a zeal error (a zeal code that UR has no exact match for becomes UR's nearest).
ur_result_t to_ur_result(zeal_result_t code) noexcept;

// What an entry point's body returns: nothing, or a Failure.
class [[nodiscard]] Outcome {
public:
  Outcome() = default;
  Outcome(Failure failure) : failure_(std::make_unique<Failure>(std::move(failure))) {}
  // A zeal error keeps its sentence and takes the UR code of its zeal code.
  Outcome(Error error)
      : failure_(std::make_unique<Failure>(Failure{to_ur_result(error.code), std::move(error.message)})) {}
  Outcome(Status status) {
    if (!status.ok()) *this = Outcome(std::move(status).error());
  }
  bool ok() const noexcept { return failure_ == nullptr; }
  Failure &&error() && { return std::move(*failure_); }
  // Where UR names a more specific code than the zeal code's usual match (e.g. INVALID_USM_SIZE for a size
  // the object model refused as INVALID_SIZE).
  Outcome &&remap(ur_result_t from, ur_result_t to) && {
    if (failure_ != nullptr && failure_->code == from) failure_->code = to;
    return std::move(*this);
  }

private:
  std::unique_ptr<Failure> failure_;
};

// Records a failure: the thread's last error (urAdapterGetLastError) and, when one is set, the logger callback.
ur_result_t record(Failure failure) noexcept;
// urAdapterSetLoggerCallback and urAdapterSetLoggerCallbackLevel: one callback for the process, as the adapter is.
void set_logger_callback(ur_logger_callback_t callback, void *user_data, ur_logger_level_t level) noexcept;
void set_logger_level(ur_logger_level_t level) noexcept;
// Keeps `code` as this thread's last failure code and returns it.
ur_result_t remember(ur_result_t code) noexcept;
// The UR code of this thread's last failure, for urAdapterGetLastError.
int32_t last_error_code() noexcept;

inline Failure fail(ur_result_t code, std::string message) { return Failure{code, std::move(message)}; }

// A check shared with the zeal ABI (one home, issue 23) failing here: its sentence, with the code UR's spec gives
// this entry point for it.
inline Outcome with_code(ur_result_t code, Status status) {
  if (status.ok()) return {};
  return fail(code, std::move(status).error().message);
}

// Runs an entry point's body: its failure is recorded as the thread's last error (the same one the zeal ABI
// keeps, so both faces give one sentence), logged at debug level, and returned as its UR code; exceptions
// never cross the ABI.
template <class Body>
ur_result_t run(Body &&body) noexcept {
  try {
    auto outcome = body();
    if (outcome.ok()) return UR_RESULT_SUCCESS;
    return record(std::move(outcome).error());
  } catch (...) {
    return remember(to_ur_result(report_exception())); // report_exception() kept the sentence
  }
}

// The handle UR sees for an object: the address of its UrHandle header.
template <class Handle>
Handle to_ur(Object *object) noexcept {
  return reinterpret_cast<Handle>(&object->ur_handle());
}

// The object behind a UR handle of kind T: UR's INVALID_NULL_HANDLE for null, `wrong` (UR's specific code,
// e.g. INVALID_DEVICE) for a handle of another kind or one already destroyed (best effort).
template <class T, class Handle>
Result<T *> from_ur(Handle handle, const char *role) {
  if (handle == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, fmt::format("the {} handle is null", role));
  auto *header = reinterpret_cast<UrHandle *>(handle);
  Object *object = header->object;
  if (object == nullptr || &object->ur_handle() != header || object->kind() != T::kKind)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE,
                      fmt::format("the {} handle {} is not a live zeal {}", role, static_cast<void *>(handle),
                                  kind_name(T::kKind)));
  return static_cast<T *>(object);
}

// The code UR's spec gives where a handle of `kind` belongs but another kind's, or a destroyed object's, is given.
// UR has no such code for adapters: theirs is INVALID_NULL_HANDLE.
constexpr ur_result_t wrong_handle_code(Kind kind) {
  switch (kind) {
  case Kind::Platform: return UR_RESULT_ERROR_INVALID_PLATFORM;
  case Kind::Device: return UR_RESULT_ERROR_INVALID_DEVICE;
  case Kind::Context: return UR_RESULT_ERROR_INVALID_CONTEXT;
  case Kind::Queue: return UR_RESULT_ERROR_INVALID_QUEUE;
  case Kind::Program:
  case Kind::UrProgram: return UR_RESULT_ERROR_INVALID_PROGRAM;
  case Kind::Kernel:
  case Kind::UrKernel: return UR_RESULT_ERROR_INVALID_KERNEL;
  case Kind::Event: return UR_RESULT_ERROR_INVALID_EVENT;
  case Kind::Buffer:
  case Kind::Image: return UR_RESULT_ERROR_INVALID_MEM_OBJECT;
  case Kind::Sampler: return UR_RESULT_ERROR_INVALID_SAMPLER;
  case Kind::CommandBuffer: return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_EXP;
  case Kind::BufferCommand: return UR_RESULT_ERROR_INVALID_COMMAND_BUFFER_COMMAND_HANDLE_EXP;
  case Kind::Graph:
  case Kind::ExecutableGraph: return UR_RESULT_ERROR_INVALID_GRAPH;
  case Kind::UsmPool: // UR has no code of its own for these
  case Kind::PhysicalMemory: break;
  case Kind::Adapter:
  case Kind::Dead: break;
  }
  return UR_RESULT_ERROR_INVALID_NULL_HANDLE;
}

// A handle check as an Outcome: a null handle is UR's INVALID_NULL_HANDLE, one of another kind T's
// wrong_handle_code; sentences name the handle by its kind.
template <class T, class Handle>
Outcome check_handle(Handle handle, T *&out) {
  auto object = from_ur<T>(handle, kind_name(T::kKind));
  if (!object.ok()) {
    Error e = std::move(object).error();
    return fail(handle == nullptr ? UR_RESULT_ERROR_INVALID_NULL_HANDLE : wrong_handle_code(T::kKind),
                std::move(e.message));
  }
  out = object.value();
  return {};
}

// UR's count protocol: NumEntries handles written when the array is given, the total when asked.
template <class Handle, class Source>
Outcome list_handles(const Source &objects, uint32_t entries, Handle *out, uint32_t *total, const char *what) {
  if (out == nullptr && total == nullptr)
    return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: both the array and the count are null", what));
  if (out != nullptr && entries == 0)
    return fail(UR_RESULT_ERROR_INVALID_SIZE, fmt::format("{}: NumEntries is 0 but an array is given", what));
  if (out != nullptr)
    for (uint32_t i = 0; i < std::min<size_t>(entries, objects.size()); ++i) out[i] = to_ur<Handle>(objects[i]);
  if (total != nullptr) *total = static_cast<uint32_t>(objects.size());
  return {};
}

// urXRetain and urXRelease of a reference-counted object of kind T.
template <class T, class Handle>
ur_result_t retain_or_release(Handle handle, bool retain) noexcept {
  return run([&]() -> Outcome {
    T *object = nullptr;
    if (Outcome o = check_handle(handle, object); !o.ok()) return o;
    if (retain) object->retain();
    else object->release();
    return {};
  });
}
// For the dispatch tables: t.pfnRetain = retain<T>, t.pfnRelease = release<T>.
template <class T, class Handle>
ur_result_t retain(Handle handle) noexcept { return retain_or_release<T>(handle, true); }
template <class T, class Handle>
ur_result_t release(Handle handle) noexcept { return retain_or_release<T>(handle, false); }

// urXGetNativeHandle: the Level Zero handle behind the object (ze()).
template <class T, class Handle>
ur_result_t native_handle(Handle handle, ur_native_handle_t *out, const char *entry_point) noexcept {
  return run([&]() -> Outcome {
    T *object = nullptr;
    if (Outcome o = check_handle(handle, object); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, fmt::format("{}: the native handle pointer is null", entry_point));
    *out = reinterpret_cast<ur_native_handle_t>(object->ze());
    return {};
  });
}

// An entry point's name as a template argument, so that a slot can take a function that names itself in its
// messages: t.pfnGetNativeHandle = native_entry<Context, "urContextGetNativeHandle">.
template <size_t N>
struct EntryName {
  char text[N];
  constexpr EntryName(const char (&name)[N]) { std::copy_n(name, N, text); }
};

// urXGetNativeHandle as a slot's function.
template <class T, EntryName entry, class Handle>
ur_result_t native_entry(Handle handle, ur_native_handle_t *out) noexcept {
  return native_handle<T>(handle, out, entry.text);
}

// The zeal ABI's answer to one of its info keys of an object, decoded as T: one home for each fact both faces
// report.
template <class T, class Object>
Result<T> zeal_fact(const Object &object, int32_t key) {
  auto answer = object.info(key);
  if (!answer.ok()) return std::move(answer).error();
  T value{};
  std::memcpy(&value, answer.value().bytes.data(), std::min(sizeof(T), answer.value().bytes.size()));
  return value;
}

// Several handles checked in order, each with the object it must name: the first that fails is the answer.
template <class T, class Handle, class... Rest>
Outcome check_handles(Handle handle, T *&out, Rest &&...rest) {
  if (Outcome o = check_handle(handle, out); !o.ok()) return o;
  if constexpr (sizeof...(rest) > 0) return check_handles(std::forward<Rest>(rest)...);
  else return {};
}

// UR's info protocol: pPropSizeRet gets the size; pPropValue, when given, must hold propSize >= that size.
Outcome write_ur_info(const InfoValue &answer, size_t size, void *value, size_t *size_ret, std::string_view what);

// One row of a UR info table: the zeal tables' row type, keyed by UR's enumeration.
template <class T, class Key>
using UrInfoRow = InfoRow<T, Key>;

// Looks a key up: a key outside UR's enumeration is INVALID_ENUMERATION, a key UR knows that the table does not
// answer is UNSUPPORTED_ENUMERATION (the device cannot truthfully answer it).
template <class T, class Key>
Outcome answer_ur_info(std::span<const UrInfoRow<T, Key>> table, const T &object, Key key, int32_t last_key,
                       size_t size, void *value, size_t *size_ret, std::string_view what) {
  const int32_t k = abi_value(key);
  for (const auto &row : table) {
    if (abi_value(row.key) != k) continue;
    auto answer = row.answer(object);
    if (!answer.ok()) return std::move(answer).error();
    return write_ur_info(answer.value(), size, value, size_ret, fmt::format("{} {}", what, row.name));
  }
  if (k < 0 || k > last_key)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION, fmt::format("{} info key {} is not a UR info key", what, k));
  return fail(UR_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
              fmt::format("{} info key {} is not answered by zeal's UR adapter", what, k));
}

// urXGetInfo over an info table: the handle checked, then the key answered; `what(object)` names the object in
// messages.
template <class T, class Handle, class Key, size_t N, class What>
ur_result_t get_info(Handle handle, const UrInfoRow<T, Key> (&table)[N], int32_t last_key, Key key, size_t size,
                     void *value, size_t *size_ret, What &&what) noexcept {
  return run([&]() -> Outcome {
    T *object = nullptr;
    if (Outcome o = check_handle(handle, object); !o.ok()) return o;
    return answer_ur_info<T, Key>(table, *object, key, last_key, size, value, size_ret, what(*object));
  });
}

// The same, naming the object by its kind ("context", "queue", ...).
template <class T, class Handle, class Key, size_t N>
ur_result_t get_info(Handle handle, const UrInfoRow<T, Key> (&table)[N], int32_t last_key, Key key, size_t size,
                     void *value, size_t *size_ret) noexcept {
  return get_info<T>(handle, table, last_key, key, size, value, size_ret,
                     [](const T &) { return std::string(kind_name(T::kKind)); });
}

// urXGetInfo over one info table as a slot's function: t.pfnGetInfo = info_entry<Context, kContextInfo, LAST_KEY>.
template <class T, const auto &table, auto last_key, class Handle, class Key>
ur_result_t info_entry(Handle handle, Key key, size_t size, void *value, size_t *size_ret) noexcept {
  return get_info<T>(handle, table, last_key, key, size, value, size_ret);
}

// The slots a reference-counted object with one info table fills alike: pfnRetain, pfnRelease, pfnGetInfo.
template <class T, const auto &table, auto last_key, class Table>
void implement_object(Table &t) {
  t.pfnRetain = retain<T>;
  t.pfnRelease = release<T>;
  t.pfnGetInfo = info_entry<T, table, last_key>;
}

// UR's wait-list rules: a null list with a count, or a list with count 0, is INVALID_EVENT_WAIT_LIST; each
// event must be a live zeal event.
Outcome wait_list(uint32_t count, const ur_event_handle_t *events, WaitList &out);
// Hands the command's event to the caller when asked for one; otherwise the reference is dropped.
void return_event(Ref<Event> event, ur_event_handle_t *out);
// An enqueued command's outcome: its failure, or its event waited for when `blocking` and then handed out.
Outcome hand_out(Result<Ref<Event>> made, bool blocking, ur_event_handle_t *out);

// The graph a command of `queue` goes into instead of running (adapter/core/graph.hpp): the queue's capture, or the
// capture the queue joins by waiting for one of its events (with `join`; without, the graph is only named).
// Null when the command runs. (graph.cpp)
Result<Graph *> capture_target(Queue &queue, std::span<Event *const> waits, bool join = true);
// INVALID_OPERATION for a command of a kind a graph does not capture, on a queue that captures into `graph`.
Failure cannot_capture(const Graph &graph);

// What every UR enqueue shares once its queue (and any memory object) is checked: the wait list checked, the
// command enqueued, its event handed out and, for a blocking call, waited for. `command(queue, waits)` returns
// the command's event. These commands are not captured into graphs (capture.hpp's enqueue_or_capture are).
template <class Command>
Outcome enqueue_command(Queue &queue, uint32_t num_wait, const ur_event_handle_t *wait, ur_event_handle_t *event,
                        bool blocking, Command &&command) {
  WaitList waits;
  if (Outcome o = wait_list(num_wait, wait, waits); !o.ok()) return o;
  Result<Graph *> graph = capture_target(queue, waits.events(), false);
  if (!graph.ok()) return std::move(graph).error();
  if (graph.value() != nullptr) return cannot_capture(*graph.value());
  return hand_out(command(queue, waits.events()), blocking, event);
}

} // namespace zeal::adapter::ur
