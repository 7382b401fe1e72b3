// Adapter discovery (dlopen, ABI handshake) and the devices the adapters expose.
#pragma once

#include "common/result.hpp"
#include "loader/device_selector.hpp"
#include "common/settings.hpp"

#include <zeal/zeal_adapter.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::detail {

struct DeviceImpl;

// One adapter plugin that loaded and initialised. Never unloaded: device code
// and objects may outlive the runtime's statics at exit.
struct LoadedAdapter {
  std::string path;
  std::string backend;
  void *library = nullptr;
  zeal_adapter_dispatch_t dispatch{};
  zeal_adapter_handle_t handle = nullptr;
  // Its root devices, found once when it loaded, so that every list holding them
  // holds the same objects; and their sub-devices, which only a selector's N.M, N.* or *.* shows.
  std::vector<DeviceImpl *> devices;
  std::vector<DeviceImpl *> sub_devices;
};

struct DeviceImpl {
  const LoadedAdapter *adapter = nullptr;
  zeal_platform_handle_t platform = nullptr;
  zeal_device_handle_t handle = nullptr;
  zeal_device_type_t type = ZEAL_DEVICE_TYPE_ALL;
  std::string name;
  uint32_t index = 0;         // position among the root devices of its backend (a sub-device's: its root's)
  std::optional<uint32_t> sub; // a sub-device's position among its root's
};

// Which adapters a list draws on. ONEAPI_DEVICE_SELECTOR spares a process the
// adapters of backends it excludes; a caller asking for every device
// (zeal::selector_policy::ignore) needs them after all.
enum class AdapterScope {
  selected, // the backends the selector may accept; all when it is unset or malformed
  all,      // every adapter found, whatever the selector says
};

// Where adapters are looked for, in order (see README, "Finding adapters").
// Each entry is a file path or, for the system library path, a bare file name.
std::vector<std::string> adapter_candidates(const Settings &settings, std::string_view runtime_dir);

// Opens one adapter file and initialises it; the error says which file and why.
Result<std::unique_ptr<LoadedAdapter>> load_adapter(const std::string &path);

// The adapters that loaded for `scope`, in search order, found once on first
// use (thread-safe). `all` loads, once, the files `selected` left out, and never
// opens a file again; `selected` never loads them, whichever is asked first.
const std::vector<const LoadedAdapter *> &adapters(AdapterScope scope);

// Every device of those adapters, in adapter order.
const std::vector<DeviceImpl *> &devices(AdapterScope scope);

// The devices ONEAPI_DEVICE_SELECTOR lets through, or the selector's error.
Result<std::vector<DeviceImpl *>> visible_devices();

// ONEAPI_DEVICE_SELECTOR, parsed once; an unset variable accepts everything.
const Result<DeviceSelector> &device_selector();

// The backend an adapter file serves, from its name: libzeal_adapter_<backend>.so.
std::string backend_of_adapter_file(std::string_view path);

// The folder holding libzeal.so.
std::string runtime_directory();

} // namespace zeal::detail
