// UR entry points of contexts, over the same Context the zeal ABI creates.
#include "adapter/core/adapter.hpp"
#include "adapter/core/context.hpp"
#include "adapter/core/platform.hpp"
#include "adapter/ur/entry.hpp"

namespace zeal::adapter::ur {
namespace {

ur_result_t context_create(uint32_t count, const ur_device_handle_t *handles, const ur_context_properties_t *,
                           ur_context_handle_t *out) {
  return run([&]() -> Outcome {
    if (handles == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urContextCreate: phDevices or phContext is null");
    if (count == 0) return fail(UR_RESULT_ERROR_INVALID_SIZE, "urContextCreate: DeviceCount is 0");
    std::vector<Device *> devices;
    for (uint32_t i = 0; i < count; ++i) {
      Device *device = nullptr;
      if (Outcome o = check_handle(handles[i], device); !o.ok()) return o;
      if (!devices.empty() && &device->platform() != &devices.front()->platform())
        return fail(UR_RESULT_ERROR_INVALID_DEVICE,
                    fmt::format("urContextCreate: devices '{}' and '{}' belong to different platforms",
                                devices.front()->name(), device->name()));
      devices.push_back(device);
    }
    auto context = Context::create(std::move(devices));
    if (!context.ok()) return std::move(context).error();
    *out = to_ur<ur_context_handle_t>(context.value());
    return {};
  });
}

// The devices of a context made from a native handle must be given: a Level Zero context does not tell its own.
// Not owned unless the properties say so.
ur_result_t context_from_native(ur_native_handle_t native, ur_adapter_handle_t adapter_handle, uint32_t count,
                                const ur_device_handle_t *handles, const ur_context_native_properties_t *properties,
                                ur_context_handle_t *out) {
  return run([&]() -> Outcome {
    Adapter *adapter = nullptr;
    if (Outcome o = check_handle(adapter_handle, adapter); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urContextCreateWithNativeHandle: phContext is null");
    if (count == 0 || handles == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_VALUE,
                  "urContextCreateWithNativeHandle: no devices are given, and zeal cannot ask a Level Zero context "
                  "for its devices");
    std::vector<Device *> devices;
    for (uint32_t i = 0; i < count; ++i) {
      Device *device = nullptr;
      if (Outcome o = check_handle(handles[i], device); !o.ok()) return o;
      devices.push_back(device);
    }
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto context = Context::adopt(std::move(devices), reinterpret_cast<ze_context_handle_t>(native), owned);
    if (!context.ok()) return std::move(context).error();
    *out = to_ur<ur_context_handle_t>(context.value());
    return {};
  });
}

using R = Result<InfoValue>;
const UrInfoRow<Context, ur_context_info_t> kContextInfo[] = {
    {UR_CONTEXT_INFO_NUM_DEVICES, "NUM_DEVICES",
     [](const Context &c) -> R { return info_of<uint32_t>(static_cast<uint32_t>(c.devices().size())); }},
    {UR_CONTEXT_INFO_DEVICES, "DEVICES",
     [](const Context &c) -> R {
       std::vector<ur_device_handle_t> handles;
       for (Device *d : c.devices()) handles.push_back(to_ur<ur_device_handle_t>(d));
       return info_array<ur_device_handle_t>(handles);
     }},
    {UR_CONTEXT_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const Context &c) -> R { return info_of<uint32_t>(c.ref_count()); }},
    {UR_CONTEXT_INFO_USM_MEMCPY2D_SUPPORT, "USM_MEMCPY2D_SUPPORT", [](const Context &) -> R { return info_of<ur_bool_t>(true); }},
    {UR_CONTEXT_INFO_USM_FILL2D_SUPPORT, "USM_FILL2D_SUPPORT", [](const Context &) -> R { return info_of<ur_bool_t>(true); }},
};

} // namespace

void implement(ur_context_dditable_t &t) {
  t.pfnCreate = context_create;
  implement_object<Context, kContextInfo, UR_CONTEXT_INFO_USM_FILL2D_SUPPORT>(t);
  t.pfnCreateWithNativeHandle = context_from_native;
  t.pfnGetNativeHandle = native_entry<Context, "urContextGetNativeHandle">;
}

} // namespace zeal::adapter::ur
