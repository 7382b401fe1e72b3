// UR entry points of the adapter and its platforms, over the same Adapter and Platform the zeal ABI serves.
#include "adapter/core/adapter.hpp"
#include "adapter/ur/entry.hpp"

#include <algorithm>

namespace zeal::adapter::ur {
namespace {

ur_result_t adapter_get(uint32_t entries, ur_adapter_handle_t *adapters, uint32_t *total) {
  return run([&]() -> Outcome {
    if (adapters == nullptr && total == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urAdapterGet: both phAdapters and pNumAdapters are null");
    if (adapters != nullptr && entries == 0)
      return fail(UR_RESULT_ERROR_INVALID_SIZE, "urAdapterGet: NumEntries is 0 but phAdapters is given");
    if (total != nullptr) *total = 1;
    if (adapters == nullptr) return {};
    // Each adapter handed out holds a reference, as urAdapterRelease expects.
    auto adapter = Adapter::acquire();
    if (!adapter.ok()) return std::move(adapter).error();
    adapters[0] = to_ur<ur_adapter_handle_t>(adapter.value());
    return {};
  });
}

// The sentence of this thread's last failure, whichever face it came through; the code is that failure's.
ur_result_t adapter_get_last_error(ur_adapter_handle_t handle, const char **message, int32_t *error) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(handle, adapter); !o.ok()) return o;
    if (message == nullptr || error == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urAdapterGetLastError: ppMessage or pError is null");
    *message = last_error_message();
    *error = last_error_code();
    return {};
  });
}

// Reported as Level Zero: libsycl accepts only the backends it knows (shared/notes/ur-abi.md), and zeal is a
// Level Zero adapter; its native handles are Level Zero handles.
constexpr ur_backend_t kBackend = UR_BACKEND_LEVEL_ZERO;
constexpr uint32_t kAdapterVersion = 1;

const UrInfoRow<Adapter, ur_adapter_info_t> kAdapterInfo[] = {
    {UR_ADAPTER_INFO_BACKEND, "BACKEND", [](const Adapter &) -> Result<InfoValue> { return info_of(kBackend); }},
    {UR_ADAPTER_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const Adapter &a) -> Result<InfoValue> { return info_of<uint32_t>(a.ref_count()); }},
    {UR_ADAPTER_INFO_VERSION, "VERSION",
     [](const Adapter &) -> Result<InfoValue> { return info_of<uint32_t>(kAdapterVersion); }},
};

ur_result_t platform_get(ur_adapter_handle_t handle, uint32_t entries, ur_platform_handle_t *platforms,
                         uint32_t *total) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(handle, adapter); !o.ok()) return o;
    std::vector<Object *> all;
    for (const auto &p : adapter->platforms()) all.push_back(p.get());
    return list_handles(all, entries, platforms, total, "urPlatformGet");
  });
}

// Platforms are made once per adapter: the one over that Level Zero driver is found, not made.
ur_result_t platform_from_native(ur_native_handle_t native, ur_adapter_handle_t handle,
                                 const ur_platform_native_properties_t *, ur_platform_handle_t *out) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(handle, adapter); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urPlatformCreateWithNativeHandle: phPlatform is null");
    for (const auto &p : adapter->platforms()) {
      if (reinterpret_cast<ur_native_handle_t>(p->ze()) != native) continue;
      *out = to_ur<ur_platform_handle_t>(p.get());
      return {};
    }
    return fail(UR_RESULT_ERROR_INVALID_VALUE,
                fmt::format("urPlatformCreateWithNativeHandle: {:#x} is not the Level Zero driver of any of zeal's "
                            "{} platforms",
                            native, adapter->platforms().size()));
  });
}

// The platform's name says zeal, so that a SYCL user tells it from Intel's own Level Zero adapter.
std::string platform_name(const Platform &p) {
  std::string name = p.name();
  return name.find("zeal") != std::string::npos ? name : name + " (zeal)";
}

const UrInfoRow<Platform, ur_platform_info_t> kPlatformInfo[] = {
    {UR_PLATFORM_INFO_NAME, "NAME", [](const Platform &p) -> Result<InfoValue> { return info_string(platform_name(p)); }},
    {UR_PLATFORM_INFO_VENDOR_NAME, "VENDOR_NAME",
     [](const Platform &p) -> Result<InfoValue> { return info_string(p.vendor()); }},
    {UR_PLATFORM_INFO_VERSION, "VERSION",
     [](const Platform &p) -> Result<InfoValue> { return info_string(p.driver_version()); }},
    {UR_PLATFORM_INFO_EXTENSIONS, "EXTENSIONS", [](const Platform &) -> Result<InfoValue> { return info_string(""); }},
    {UR_PLATFORM_INFO_PROFILE, "PROFILE",
     [](const Platform &) -> Result<InfoValue> { return info_string("FULL_PROFILE"); }},
    {UR_PLATFORM_INFO_BACKEND, "BACKEND", [](const Platform &) -> Result<InfoValue> { return info_of(kBackend); }},
    {UR_PLATFORM_INFO_ADAPTER, "ADAPTER",
     [](const Platform &) -> Result<InfoValue> {
       auto adapter = Adapter::acquire(); // exists: the platform came from it
       if (!adapter.ok()) return std::move(adapter).error();
       Adapter *a = adapter.value();
       a->release(); // an info answer holds no reference
       return info_of(to_ur<ur_adapter_handle_t>(a));
     }},
};

ur_result_t platform_get_api_version(ur_platform_handle_t handle, ur_api_version_t *version) {
  return run([&]() -> Outcome {
    Platform *platform = nullptr;
    if (Outcome o = check_handle(handle, platform); !o.ok()) return o;
    if (version == nullptr) return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urPlatformGetApiVersion: pVersion is null");
    *version = UR_API_VERSION_CURRENT;
    return {};
  });
}

// libsycl passes each image's -O<n> here before every JIT build: Level Zero's spelling of it, and "" for
// options that need none (ur-abi.md: failing here fails the build).
ur_result_t platform_get_backend_option(ur_platform_handle_t handle, const char *frontend, const char **backend) {
  return run([&]() -> Outcome {
    Platform *platform = nullptr;
    if (Outcome o = check_handle(handle, platform); !o.ok()) return o;
    if (frontend == nullptr || backend == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  "urPlatformGetBackendOption: pFrontendOption or ppPlatformOption is null");
    const std::string_view option = frontend;
    if (option == "-O0") *backend = "-ze-opt-disable";
    else if (option == "-O1" || option == "-O2") *backend = "-ze-opt-level=1";
    else if (option == "-O3") *backend = "-ze-opt-level=2";
    else if (option.empty() || option == "-ftarget-compile-fast" || option == "-foffload-fp32-prec-div" ||
             option == "-foffload-fp32-prec-sqrt")
      *backend = "";
    else
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  fmt::format("urPlatformGetBackendOption: '{}' is not a front-end option zeal knows", option));
    return {};
  });
}

Outcome check_level(ur_logger_level_t level, const char *entry_point) {
  const int32_t l = abi_value(level);
  if (l < UR_LOGGER_LEVEL_DEBUG || l > UR_LOGGER_LEVEL_QUIET)
    return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                fmt::format("{}: level {} is not a ur_logger_level_t", entry_point, l));
  return {};
}

ur_result_t adapter_set_logger_callback(ur_adapter_handle_t handle, ur_logger_callback_t callback, void *user_data,
                                        ur_logger_level_t level) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(handle, adapter); !o.ok()) return o;
    if (callback == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urAdapterSetLoggerCallback: pfnLoggerCallback is null");
    if (Outcome o = check_level(level, "urAdapterSetLoggerCallback"); !o.ok()) return o;
    set_logger_callback(callback, user_data, level);
    return {};
  });
}

ur_result_t adapter_set_logger_level(ur_adapter_handle_t handle, ur_logger_level_t level) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(handle, adapter); !o.ok()) return o;
    if (Outcome o = check_level(level, "urAdapterSetLoggerCallbackLevel"); !o.ok()) return o;
    set_logger_level(level);
    return {};
  });
}

} // namespace

void implement(ur_adapter_dditable_t &t) {
  t.pfnGet = adapter_get;
  implement_object<Adapter, kAdapterInfo, UR_ADAPTER_INFO_VERSION>(t);
  t.pfnGetLastError = adapter_get_last_error;
  t.pfnSetLoggerCallback = adapter_set_logger_callback;
  t.pfnSetLoggerCallbackLevel = adapter_set_logger_level;
}

void implement(ur_platform_dditable_t &t) {
  t.pfnGet = platform_get;
  t.pfnGetInfo = info_entry<Platform, kPlatformInfo, UR_PLATFORM_INFO_ADAPTER>;
  t.pfnGetApiVersion = platform_get_api_version;
  t.pfnCreateWithNativeHandle = platform_from_native;
  t.pfnGetNativeHandle = native_entry<Platform, "urPlatformGetNativeHandle">;
  t.pfnGetBackendOption = platform_get_backend_option;
}

} // namespace zeal::adapter::ur
