// The base of every object behind a zeal handle: a kind tag for handle checks and a reference count.
#pragma once

#include "common/result.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstdint>

namespace zeal::adapter {

enum class Kind : uint32_t {
  Dead = 0,
  Adapter = 0x7a410001, Platform, Device, Context, Queue, Program, Kernel, Event, Buffer,
  // The UR face's programs and kernels for several devices (adapter/ur/program_set.hpp).
  UrProgram, UrKernel,
  // Command buffers and their commands (adapter/core/command_buffer.hpp).
  CommandBuffer, BufferCommand,
  // USM pools and physical memory (adapter/core/usm_pool.hpp, adapter/core/physical_memory.hpp).
  UsmPool, PhysicalMemory,
  // Graphs captured from queues and their instances (adapter/core/graph.hpp).
  Graph, ExecutableGraph,
  // Images and samplers (adapter/core/image.hpp, adapter/core/sampler.hpp).
  Image, Sampler
};

const char *kind_name(Kind kind);

class Object;

// What a Unified Runtime handle points at. UR's loader dispatches through the
// table pointer in a handle's first word (shared/notes/ur-abi.md), and an
// Object's first word is its vtable, so the UR face hands out the address of
// this header, kept inside the object, instead of the object's own.
struct UrHandle {
  const void *dispatch; // the UR face's ur_dditable_t; null in the zeal plugin
  Object *object;
};

// Handles are pointers to Object; the kind tag lets the C ABI boundary refuse a
// handle of the wrong type (and, best effort, one already destroyed).
class Object {
public:
  explicit Object(Kind kind) noexcept : kind_(kind), ur_{ur_dispatch_table, this} {}

  // The UR face's dispatch table, set once when the UR plugin loads (before any
  // object exists); each shared object that links the adapter has its own.
  static inline const void *ur_dispatch_table = nullptr;
  UrHandle &ur_handle() noexcept { return ur_; }
  virtual ~Object() { kind_ = Kind::Dead; }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  Kind kind() const noexcept { return kind_; }
  void retain() noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; the last one deletes the object.
  void release() noexcept {
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }
  uint32_t ref_count() const noexcept { return refs_.load(std::memory_order_relaxed); }

private:
  Kind kind_;
  UrHandle ur_;
  std::atomic<uint32_t> refs_{1};
};

// Drops a reference when it goes out of scope; for objects shared by other objects.
template <class T>
class Ref {
public:
  Ref() = default;
  explicit Ref(T *p, bool add_ref = true) noexcept : p_(p) { if (p_ && add_ref) p_->retain(); }
  Ref(const Ref &o) noexcept : Ref(o.p_) {}
  Ref(Ref &&o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref &operator=(Ref o) noexcept { std::swap(p_, o.p_); return *this; }
  ~Ref() { if (p_) p_->release(); }
  T *get() const noexcept { return p_; }
  T *operator->() const noexcept { return p_; }
  T &operator*() const noexcept { return *p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  T *detach() noexcept { return std::exchange(p_, nullptr); }

private:
  T *p_ = nullptr;
};

template <class T, class Handle>
Handle to_handle(T *object) noexcept {
  return reinterpret_cast<Handle>(static_cast<Object *>(object));
}

// The object behind a handle, or INVALID_HANDLE naming what was expected.
template <class T, class Handle>
Result<T *> from_handle(Handle handle, const char *role) {
  if (handle == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE, fmt::format("the {} handle is null", role));
  auto *object = reinterpret_cast<Object *>(handle);
  if (object->kind() != T::kKind)
    return make_error(ZEAL_RESULT_ERROR_INVALID_HANDLE,
                      fmt::format("the {} handle {} is not a live zeal {}", role, static_cast<void *>(handle),
                                  kind_name(T::kKind)));
  return static_cast<T *>(object);
}

} // namespace zeal::adapter
