// Finds adapter plugins, checks their ABI version and enumerates their devices.
#include "loader/loader.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

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

const std::vector<std::unique_ptr<LoadedAdapter>> &adapters() {
  // Leaked on purpose: adapters stay loaded until the process ends, so that
  // objects destroyed after the runtime's statics can still call them.
  static auto *loaded = [] {
    auto *out = new std::vector<std::unique_ptr<LoadedAdapter>>();
    auto &log = logger("zeal");
    std::set<std::string> seen;
    size_t excluded = 0;
    for (const std::string &candidate : adapter_candidates(settings(), runtime_directory())) {
      std::error_code ec;
      std::string key = std::filesystem::weakly_canonical(candidate, ec).string();
      bool bare_name = candidate.find('/') == std::string::npos;
      if (bare_name) key = candidate;
      if (!seen.insert(key).second) continue;
      const Result<DeviceSelector> &selector = device_selector();
      std::string backend = backend_of_adapter_file(candidate);
      if (selector.ok() && !backend.empty() && !selector.value().may_accept_backend(backend)) {
        log.info("not loading adapter '{}': ONEAPI_DEVICE_SELECTOR excludes backend '{}'", candidate, backend);
        ++excluded;
        continue;
      }
      // The first adapter found for a backend serves it; opening another copy of
      // the same library would only hand back the loaded one and initialise it twice.
      if (std::any_of(out->begin(), out->end(), [&](auto &a) { return a->backend == backend; })) {
        log.info("not loading adapter '{}': backend '{}' is already served", candidate, backend);
        continue;
      }
      log.info("loading adapter candidate '{}'", candidate);
      auto adapter = load_adapter(candidate);
      if (!adapter) {
        // A bare name not on the library path is the normal case, not a warning.
        if (bare_name) log.info("{}", adapter.error().message);
        else log.warn("{}; skipping it", adapter.error().message);
        continue;
      }
      if (std::any_of(out->begin(), out->end(), [&](auto &a) { return a->backend == adapter.value()->backend; })) {
        log.info("skipping adapter '{}': backend '{}' is already served", candidate, adapter.value()->backend);
        continue;
      }
      log.info("loaded adapter '{}' for backend '{}'", candidate, adapter.value()->backend);
      out->push_back(std::move(adapter).value());
    }
    if (out->empty() && excluded == 0) log.warn("no zeal adapter could be loaded; set ZEAL_LOG_LEVEL=info to see where zeal looked");
    return out;
  }();
  return *loaded;
}

const std::vector<DeviceImpl *> &all_devices() {
  static auto *all = [] {
    auto *out = new std::vector<DeviceImpl *>();
    auto &log = logger("zeal");
    for (const auto &adapter : adapters()) {
      const zeal_adapter_dispatch_t &d = adapter->dispatch;
      uint32_t num_platforms = 0;
      if (d.platformGet(adapter->handle, &num_platforms, nullptr) != ZEAL_RESULT_SUCCESS) {
        log.warn("adapter '{}' cannot list platforms: {}", adapter->path, d.getLastErrorMessage());
        continue;
      }
      std::vector<zeal_platform_handle_t> platforms(num_platforms);
      if (d.platformGet(adapter->handle, &num_platforms, platforms.data()) != ZEAL_RESULT_SUCCESS) continue;
      uint32_t index = 0;
      for (zeal_platform_handle_t platform : platforms) {
        uint32_t n = 0;
        if (d.deviceGet(platform, ZEAL_DEVICE_TYPE_ALL, &n, nullptr) != ZEAL_RESULT_SUCCESS) continue;
        std::vector<zeal_device_handle_t> handles(n);
        if (d.deviceGet(platform, ZEAL_DEVICE_TYPE_ALL, &n, handles.data()) != ZEAL_RESULT_SUCCESS) continue;
        for (zeal_device_handle_t handle : handles) {
          auto *dev = new DeviceImpl();
          dev->adapter = adapter.get();
          dev->platform = platform;
          dev->handle = handle;
          dev->index = index++;
          (void)d.deviceGetInfo(handle, ZEAL_DEVICE_INFO_TYPE, sizeof(dev->type), &dev->type, nullptr);
          size_t size = 0;
          if (d.deviceGetInfo(handle, ZEAL_DEVICE_INFO_NAME, 0, nullptr, &size) == ZEAL_RESULT_SUCCESS && size > 0) {
            dev->name.resize(size);
            (void)d.deviceGetInfo(handle, ZEAL_DEVICE_INFO_NAME, size, dev->name.data(), nullptr);
            dev->name.resize(size - 1);
          }
          log.info("found device [{}:{}] {}", adapter->backend, dev->index, dev->name);
          out->push_back(dev);
        }
      }
    }
    return out;
  }();
  return *all;
}

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
  for (DeviceImpl *dev : all_devices())
    if (selector.value().accepts(dev->adapter->backend, dev->index, dev->type)) out.push_back(dev);
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
