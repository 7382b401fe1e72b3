// What every zeal Level Zero driver (libze_zeal_cpu, libze_zeal_cuda) shares about handles: the opaque Level Zero
// handle types, defined as empty bases of a driver's objects, and the Level Zero ways of listing and naming.
#pragma once

#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

// The loader only ever passes back what the driver handed out (with several
// drivers it unwraps its own objects first), so a handle is a pointer to a base
// of the object, and the way back is a static_cast in each object's from().
struct _ze_driver_handle_t {};
struct _ze_device_handle_t {};
struct _ze_context_handle_t {};
struct _ze_command_queue_handle_t {};
struct _ze_command_list_handle_t {};
struct _ze_event_pool_handle_t {};
struct _ze_event_handle_t {};
struct _ze_fence_handle_t {};
struct _ze_module_handle_t {};
struct _ze_module_build_log_handle_t {};
struct _ze_kernel_handle_t {};
struct _ze_physical_mem_handle_t {};
struct _ze_image_handle_t {};
struct _ze_sampler_handle_t {};

namespace zeal::ze {

// The first structure of type `stype` in a Level Zero pNext chain, or null.
template <class T>
const T *find_in_chain(const void *next, ze_structure_type_t stype) {
  for (auto *at = static_cast<const ze_base_desc_t *>(next); at != nullptr;
       at = static_cast<const ze_base_desc_t *>(at->pNext))
    if (at->stype == stype) return reinterpret_cast<const T *>(at);
  return nullptr;
}

// Lists `available` handles the Level Zero way: a zero count (or no array) asks how many there are; otherwise at
// most `*count` are written and `*count` says how many.
template <class Object, class Handle>
ze_result_t list_out(const std::vector<Object *> &available, uint32_t *count, Handle *out) {
  const auto n = static_cast<uint32_t>(available.size());
  if (*count == 0 || out == nullptr) {
    *count = n;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, n);
  std::copy_n(available.begin(), *count, out);
  return ZE_RESULT_SUCCESS;
}

// The handle type an object is handed out as: the parameter of its from().
template <class Object, class Handle>
Handle handle_type(Object *(*)(Handle));
template <class Object>
using HandleOf = decltype(handle_type(&Object::from));

// zeXDestroy: the object's destructor finishes what it must first (an immediate list its work, a queue what was
// submitted to it).
template <class Object>
ze_result_t destroy(HandleOf<Object> handle) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  delete Object::from(handle);
  return ZE_RESULT_SUCCESS;
}

// Overwrites a caller's properties struct but keeps the caller's stype and pNext.
template <class T>
void copy_keeping_header(T *out, const T &in) {
  ze_structure_type_t stype = out->stype;
  void *next = out->pNext;
  *out = in;
  out->stype = stype;
  out->pNext = next;
}

// Lists property structs the Level Zero way (a zero count or no array asks how many; otherwise at most `*count`
// are written, each under the caller's own stype and pNext).
template <class T>
ze_result_t list_properties(std::span<const T> available, uint32_t *count, T *out) {
  const auto n = static_cast<uint32_t>(available.size());
  if (*count == 0 || out == nullptr) {
    *count = n;
    return ZE_RESULT_SUCCESS;
  }
  *count = std::min(*count, n);
  for (uint32_t i = 0; i < *count; ++i) copy_keeping_header(&out[i], available[i]);
  return ZE_RESULT_SUCCESS;
}
template <class T>
ze_result_t list_properties(const T &only, uint32_t *count, T *out) {
  return list_properties(std::span<const T>(&only, 1), count, out);
}

// zeDriverGetExtensionProperties: the driver's extensions (name, version), listed the Level Zero way.
ze_result_t list_extensions(std::span<const std::pair<const char *, uint32_t>> listed, uint32_t *count,
                            ze_driver_extension_properties_t *out);

// A module's build or link log, as both drivers hand it out (zeModuleBuildLog*: fill_build_log_table).
class BuildLog : public _ze_module_build_log_handle_t {
public:
  explicit BuildLog(std::string text) : text_(std::move(text)) {}
  static BuildLog *from(ze_module_build_log_handle_t h) { return static_cast<BuildLog *>(h); }
  const std::string &text() const { return text_; }

private:
  std::string text_;
};

// Copies a name into a caller's buffer the Level Zero way: a null buffer (or a
// zero size) asks for the size including the terminator.
ze_result_t copy_string_out(const char *text, size_t length, size_t *size, char *out);

} // namespace zeal::ze
