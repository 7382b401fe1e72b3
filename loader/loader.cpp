// Finds adapter plugins, checks their ABI version and enumerates their devices.
#include "loader/loader.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

namespace zeal::detail {
namespace {

constexpr const char *kAdapterPrefix = "libzeal_adapter_";
constexpr const char *kKnownAdapters[] = {"libzeal_adapter_level_zero.so"};

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in{std::string(text)};
  while (std::getline(in, part, sep))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

// Adapter files in one folder: libzeal_adapter_<backend>.so.
void add_folder(const std::filesystem::path &folder, std::vector<std::string> &out) {
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec)) return;
  std::vector<std::string> found;
  for (const auto &entry : std::filesystem::directory_iterator(folder, ec)) {
    std::string name = entry.path().filename().string();
    if (name.starts_with(kAdapterPrefix) && name.ends_with(".so")) found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

std::string dl_error() {
  const char *e = dlerror();
  return e != nullptr ? e : "unknown dlopen error";
}

} // namespace

std::vector<std::string> adapter_candidates(const Settings &settings, std::string_view runtime_dir) {
  std::vector<std::string> out;
  if (!settings.adapters_force_load.empty()) return split(settings.adapters_force_load, ',');
  for (const std::string &folder : split(settings.adapters_search_path, ':')) add_folder(folder, out);
  if (!runtime_dir.empty()) {
    add_folder(std::filesystem::path(runtime_dir), out);
    add_folder(std::filesystem::path(runtime_dir) / "zeal", out);
  }
  for (const char *name : kKnownAdapters) out.emplace_back(name); // the system library path
  return out;
}

namespace {

// The dispatch table a loaded library gives for our ABI version, checked.
Status handshake(LoadedAdapter &adapter) {
  const std::string &path = adapter.path;
  auto get = reinterpret_cast<zeal_pfn_get_adapter_dispatch_t>(dlsym(adapter.library, ZEAL_GET_ADAPTER_DISPATCH_SYMBOL));
  if (get == nullptr)
    return make_error(ZEAL_RESULT_ERROR_UNINITIALIZED, fmt::format("adapter '{}' has no entry point {}: {}", path,
                                                                   ZEAL_GET_ADAPTER_DISPATCH_SYMBOL, dl_error()));
  zeal_result_t r = get(ZEAL_ADAPTER_ABI_VERSION, &adapter.dispatch);
  if (r != ZEAL_RESULT_SUCCESS)
    return make_error(ZEAL_RESULT_ERROR_UNINITIALIZED,
                      fmt::format("adapter '{}' refused zeal ABI version {}.{} ({})", path,
                                  ZEAL_VERSION_MAJOR(ZEAL_ADAPTER_ABI_VERSION),
                                  ZEAL_VERSION_MINOR(ZEAL_ADAPTER_ABI_VERSION), zealResultName(r)));
  const zeal_adapter_dispatch_t &d = adapter.dispatch;
  if (ZEAL_VERSION_MAJOR(d.abi_version) != ZEAL_VERSION_MAJOR(ZEAL_ADAPTER_ABI_VERSION) ||
      d.size < sizeof(zeal_adapter_dispatch_t))
    return make_error(ZEAL_RESULT_ERROR_UNINITIALIZED,
                      fmt::format("adapter '{}' speaks zeal ABI version {}.{}, not {}.{}", path,
                                  ZEAL_VERSION_MAJOR(d.abi_version), ZEAL_VERSION_MINOR(d.abi_version),
                                  ZEAL_VERSION_MAJOR(ZEAL_ADAPTER_ABI_VERSION),
                                  ZEAL_VERSION_MINOR(ZEAL_ADAPTER_ABI_VERSION)));
  if (d.adapterInit == nullptr || d.getLastErrorMessage == nullptr)
    return make_error(ZEAL_RESULT_ERROR_UNINITIALIZED,
                      fmt::format("adapter '{}' gave a dispatch table without adapterInit or getLastErrorMessage", path));
  r = d.adapterInit(&adapter.handle);
  if (r != ZEAL_RESULT_SUCCESS)
    return make_error(ZEAL_RESULT_ERROR_UNINITIALIZED, fmt::format("adapter '{}' failed to initialise: {} ({})", path,
                                                                   d.getLastErrorMessage(), zealResultName(r)));
  adapter.backend = d.adapterGetBackendName != nullptr ? d.adapterGetBackendName() : "";
  return {};
}

} // namespace

Result<std::unique_ptr<LoadedAdapter>> load_adapter(const std::string &path) {
  auto adapter = std::make_unique<LoadedAdapter>();
  adapter->path = path;
  adapter->library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (adapter->library == nullptr)
    return make_error(ZEAL_RESULT_ERROR_UNINITIALIZED, fmt::format("cannot open adapter '{}': {}", path, dl_error()));
  Status status = handshake(*adapter);
  if (!status) {
    dlclose(adapter->library);
    return std::move(status).error();
  }
  return adapter;
}

namespace {

// A device's type and name, read from its adapter.
DeviceImpl *describe(const LoadedAdapter &adapter, zeal_platform_handle_t platform, zeal_device_handle_t handle,
                     uint32_t index, std::optional<uint32_t> sub) {
  const zeal_adapter_dispatch_t &d = adapter.dispatch;
  auto *dev = new DeviceImpl();
  dev->adapter = &adapter;
  dev->platform = platform;
  dev->handle = handle;
  dev->index = index;
  dev->sub = sub;
  (void)d.deviceGetInfo(handle, ZEAL_DEVICE_INFO_TYPE, sizeof(dev->type), &dev->type, nullptr);
  size_t size = 0;
  if (d.deviceGetInfo(handle, ZEAL_DEVICE_INFO_NAME, 0, nullptr, &size) == ZEAL_RESULT_SUCCESS && size > 0) {
    dev->name.resize(size);
    (void)d.deviceGetInfo(handle, ZEAL_DEVICE_INFO_NAME, size, dev->name.data(), nullptr);
    dev->name.resize(size - 1);
  }
  return dev;
}

// The sub-devices of root device `index`, into `out`.
void find_sub_devices(LoadedAdapter &adapter, zeal_platform_handle_t platform, zeal_device_handle_t root,
                      uint32_t index) {
  const zeal_adapter_dispatch_t &d = adapter.dispatch;
  uint32_t n = 0;
  if (d.deviceGetSubDevices(root, &n, nullptr) != ZEAL_RESULT_SUCCESS) {
    logger("zeal").warn("adapter '{}' cannot list the sub-devices of device {}: {}", adapter.path, index,
                        d.getLastErrorMessage());
    return;
  }
  std::vector<zeal_device_handle_t> handles(n);
  if (d.deviceGetSubDevices(root, &n, handles.data()) != ZEAL_RESULT_SUCCESS) return;
  for (uint32_t i = 0; i < n; ++i) {
    DeviceImpl *dev = describe(adapter, platform, handles[i], index, i);
    logger("zeal").info("found sub-device [{}:{}.{}] {}", adapter.backend, index, i, dev->name);
    adapter.sub_devices.push_back(dev);
  }
}

// The root devices of one adapter, each numbered among its backend's devices, and their sub-devices.
std::vector<DeviceImpl *> find_devices(LoadedAdapter &adapter) {
  std::vector<DeviceImpl *> out;
  auto &log = logger("zeal");
  const zeal_adapter_dispatch_t &d = adapter.dispatch;
  uint32_t num_platforms = 0;
  if (d.platformGet(adapter.handle, &num_platforms, nullptr) != ZEAL_RESULT_SUCCESS) {
    log.warn("adapter '{}' cannot list platforms: {}", adapter.path, d.getLastErrorMessage());
    return out;
  }
  std::vector<zeal_platform_handle_t> platforms(num_platforms);
  if (d.platformGet(adapter.handle, &num_platforms, platforms.data()) != ZEAL_RESULT_SUCCESS) return out;
  uint32_t index = 0;
  for (zeal_platform_handle_t platform : platforms) {
    uint32_t n = 0;
    if (d.deviceGet(platform, ZEAL_DEVICE_TYPE_ALL, &n, nullptr) != ZEAL_RESULT_SUCCESS) continue;
    std::vector<zeal_device_handle_t> handles(n);
    if (d.deviceGet(platform, ZEAL_DEVICE_TYPE_ALL, &n, handles.data()) != ZEAL_RESULT_SUCCESS) continue;
    for (zeal_device_handle_t handle : handles) {
      DeviceImpl *dev = describe(adapter, platform, handle, index++, std::nullopt);
      log.info("found device [{}:{}] {}", adapter.backend, dev->index, dev->name);
      out.push_back(dev);
      find_sub_devices(adapter, platform, handle, dev->index);
    }
  }
  return out;
}

bool serves(const std::vector<const LoadedAdapter *> &loaded, std::string_view backend) {
  return std::any_of(loaded.begin(), loaded.end(), [&](const LoadedAdapter *a) { return a->backend == backend; });
}

// Loads one candidate file unless an adapter in `loaded` already serves its backend: the
// first adapter found for a backend serves it. Null when it is skipped or fails to load.
const LoadedAdapter *load_candidate(const std::string &candidate, const std::vector<const LoadedAdapter *> &loaded) {
  auto &log = logger("zeal");
  std::string backend = backend_of_adapter_file(candidate);
  // Opening another copy of a served backend's library would only hand back the
  // loaded one and initialise it twice.
  if (serves(loaded, backend)) {
    log.info("not loading adapter '{}': backend '{}' is already served", candidate, backend);
    return nullptr;
  }
  log.info("loading adapter candidate '{}'", candidate);
  auto adapter = load_adapter(candidate);
  if (!adapter) {
    // A bare name not on the library path is the normal case, not a warning.
    if (candidate.find('/') == std::string::npos) log.info("{}", adapter.error().message);
    else log.warn("{}; skipping it", adapter.error().message);
    return nullptr;
  }
  if (serves(loaded, adapter.value()->backend)) {
    log.info("skipping adapter '{}': backend '{}' is already served", candidate, adapter.value()->backend);
    return nullptr;
  }
  log.info("loaded adapter '{}' for backend '{}'", candidate, adapter.value()->backend);
  // Leaked on purpose: adapters stay loaded until the process ends, so that
  // objects destroyed after the runtime's statics can still call them.
  LoadedAdapter *out = std::move(adapter).value().release();
  out->devices = find_devices(*out);
  return out;
}

// One candidate file as the selected scope left it.
struct Slot {
  std::string candidate;
  const LoadedAdapter *adapter = nullptr; // loaded for the selected scope
  bool deferred = false;                  // its backend excluded by the selector: the all scope loads it
};

// What one scope found: its adapters in search order, and their devices.
struct Discovery {
  std::vector<Slot> slots; // the selected scope's, for the all scope to finish
  std::vector<const LoadedAdapter *> adapters;
  std::vector<DeviceImpl *> devices;
};

void collect_devices(Discovery &d) {
  for (const LoadedAdapter *adapter : d.adapters)
    d.devices.insert(d.devices.end(), adapter->devices.begin(), adapter->devices.end());
}

bool any_deferred(const Discovery &d) {
  return std::any_of(d.slots.begin(), d.slots.end(), [](const Slot &s) { return s.deferred; });
}

// Both scopes are built once, by magic statics, and immutable afterwards: a reader
// of one never sees the other being built, and no file is opened twice because the
// all scope opens only the files the selected scope deferred.
const Discovery &selected_discovery() {
  static const auto *found = [] {
    auto *out = new Discovery();
    auto &log = logger("zeal");
    std::set<std::string> seen;
    const Result<DeviceSelector> &selector = device_selector();
    for (const std::string &candidate : adapter_candidates(settings(), runtime_directory())) {
      std::error_code ec;
      std::string key = candidate.find('/') == std::string::npos
                            ? candidate
                            : std::filesystem::weakly_canonical(candidate, ec).string();
      if (!seen.insert(key).second) continue;
      std::string backend = backend_of_adapter_file(candidate);
      if (selector.ok() && !backend.empty() && !selector.value().may_accept_backend(backend)) {
        log.info("not loading adapter '{}' unless every device is asked for: ONEAPI_DEVICE_SELECTOR excludes "
                 "backend '{}'", candidate, backend);
        out->slots.push_back({candidate, nullptr, true});
        continue;
      }
      const LoadedAdapter *adapter = load_candidate(candidate, out->adapters);
      if (adapter != nullptr) out->adapters.push_back(adapter);
      out->slots.push_back({candidate, adapter, false});
    }
    if (out->adapters.empty() && !any_deferred(*out))
      log.warn("no zeal adapter could be loaded; set ZEAL_LOG_LEVEL=info to see where zeal looked");
    collect_devices(*out);
    return out;
  }();
  return *found;
}

const Discovery &complete_discovery() {
  static const auto *found = [] {
    const Discovery &selected = selected_discovery();
    auto *out = new Discovery();
    for (const Slot &slot : selected.slots) {
      if (!slot.deferred) {
        if (slot.adapter != nullptr) out->adapters.push_back(slot.adapter);
        continue;
      }
      // The selected scope's adapters keep serving their backends, wherever they come in the order.
      std::vector<const LoadedAdapter *> serving = selected.adapters;
      serving.insert(serving.end(), out->adapters.begin(), out->adapters.end());
      if (const LoadedAdapter *adapter = load_candidate(slot.candidate, serving)) out->adapters.push_back(adapter);
    }
    // The selected scope warned already unless it deferred something.
    if (out->adapters.empty() && any_deferred(selected))
      logger("zeal").warn("no zeal adapter could be loaded; set ZEAL_LOG_LEVEL=info to see where zeal looked");
    collect_devices(*out);
    return out;
  }();
  return *found;
}

const Discovery &discovery(AdapterScope scope) {
  return scope == AdapterScope::all ? complete_discovery() : selected_discovery();
}

} // namespace

const std::vector<const LoadedAdapter *> &adapters(AdapterScope scope) { return discovery(scope).adapters; }

const std::vector<DeviceImpl *> &devices(AdapterScope scope) { return discovery(scope).devices; }

const Result<DeviceSelector> &device_selector() {
  static const Result<DeviceSelector> selector = []() -> Result<DeviceSelector> {
    if (!settings().device_selector_set) return DeviceSelector();
    return parse_device_selector(settings().device_selector);
  }();
  return selector;
}

Result<std::vector<DeviceImpl *>> visible_devices() {
  const Result<DeviceSelector> &selector = device_selector();
  if (!selector) return selector.error();
  std::vector<DeviceImpl *> out;
  const DeviceSelector &s = selector.value();
  for (DeviceImpl *dev : devices(AdapterScope::selected)) {
    if (s.accepts(dev->adapter->backend, dev->index, dev->type)) out.push_back(dev);
    // Sub-devices follow their root, each where a term selects it (never without one).
    for (DeviceImpl *sub : dev->adapter->sub_devices)
      if (sub->index == dev->index && s.accepts_sub_device(dev->adapter->backend, sub->index, *sub->sub))
        out.push_back(sub);
  }
  return out;
}

std::string backend_of_adapter_file(std::string_view path) {
  std::string name = std::filesystem::path(path).filename().string();
  std::string_view prefix = kAdapterPrefix;
  if (!name.starts_with(prefix) || !name.ends_with(".so")) return {};
  return name.substr(prefix.size(), name.size() - prefix.size() - 3);
}

std::string runtime_directory() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void *>(&runtime_directory), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  std::filesystem::path path = std::filesystem::weakly_canonical(info.dli_fname, ec);
  if (ec) path = std::filesystem::path(info.dli_fname).lexically_normal();
  return path.parent_path().string();
}

} // namespace zeal::detail
