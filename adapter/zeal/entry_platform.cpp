// C ABI entry points of the adapter, platforms, devices and contexts.
#include "adapter/core/adapter.hpp"
#include "adapter/core/context.hpp"
#include "adapter/zeal/entry_points.hpp"

namespace zeal::adapter {
namespace {

const char *ZEAL_APICALL get_last_error_message() { return last_error_message(); }

const char *ZEAL_APICALL get_backend_name() { return "level_zero"; }

zeal_result_t ZEAL_APICALL adapter_init(zeal_adapter_handle_t *adapter) {
  return run_entry(
      "adapterInit", [&] { return fmt::format("adapter={}", fmt::ptr(adapter)); },
      [&]() -> Status {
        if (Status s = require(adapter != nullptr, "adapterInit: the adapter output pointer is null"); !s.ok())
          return s;
        auto a = Adapter::acquire();
        if (!a.ok()) return std::move(a).error();
        *adapter = to_handle<Adapter, zeal_adapter_handle_t>(a.value());
        return {};
      });
}

zeal_result_t ZEAL_APICALL adapter_release(zeal_adapter_handle_t adapter) {
  return run_entry(
      "adapterRelease", [&] { return fmt::format("adapter={}", fmt::ptr(adapter)); },
      [&]() -> Status {
        auto a = from_handle<Adapter>(adapter, "adapter");
        if (!a.ok()) return std::move(a).error();
        a.value()->release();
        return {};
      });
}

// Hands objects out the zeal way: without an array only *count is set (to how many there are); with one, the
// first *count objects, and *count lowered to how many there are when it asked for more.
template <class Object, class Handle, class Pointer>
void list_out(const std::vector<Pointer> &objects, uint32_t *count, Handle *out) {
  if (out != nullptr)
    for (uint32_t i = 0; i < std::min<size_t>(*count, objects.size()); ++i)
      out[i] = to_handle<Object, Handle>(&*objects[i]);
  if (out == nullptr || *count > objects.size()) *count = static_cast<uint32_t>(objects.size());
}

zeal_result_t ZEAL_APICALL platform_get(zeal_adapter_handle_t adapter, uint32_t *count,
                                        zeal_platform_handle_t *platforms) {
  return run_entry(
      "platformGet",
      [&] { return fmt::format("adapter={}, count={}", fmt::ptr(adapter), count ? *count : 0u); },
      [&]() -> Status {
        auto a = from_handle<Adapter>(adapter, "adapter");
        if (!a.ok()) return std::move(a).error();
        if (Status s = require(count != nullptr, "platformGet: count is null"); !s.ok()) return s;
        list_out<Platform>(a.value()->platforms(), count, platforms);
        return {};
      });
}

zeal_result_t ZEAL_APICALL platform_get_info(zeal_platform_handle_t platform, zeal_platform_info_t key, size_t size,
                                             void *value, size_t *size_ret) {
  return get_info<Platform>("platformGetInfo", "platform", platform, key, size, value, size_ret,
                            [](const Platform &) { return "platform info"; });
}

bool type_matches(const Device &device, int32_t type) {
  if (type == ZEAL_DEVICE_TYPE_ALL) return true;
  int32_t actual = -1;
  auto answer = device.info(ZEAL_DEVICE_INFO_TYPE);
  if (answer.ok()) std::memcpy(&actual, answer.value().bytes.data(), sizeof(actual));
  return actual == type;
}

zeal_result_t ZEAL_APICALL device_get(zeal_platform_handle_t platform, zeal_device_type_t type, uint32_t *count,
                                      zeal_device_handle_t *devices) {
  return run_entry(
      "deviceGet",
      [&] { return fmt::format("platform={}, type={}, count={}", fmt::ptr(platform), abi_value(type),
                               count ? *count : 0u); },
      [&]() -> Status {
        auto p = from_handle<Platform>(platform, "platform");
        if (!p.ok()) return std::move(p).error();
        if (Status s = require(count != nullptr, "deviceGet: count is null"); !s.ok()) return s;
        // Read as the integer the caller passed: any number may arrive.
        const int32_t t = abi_value(type);
        if (t < ZEAL_DEVICE_TYPE_ALL || t > ZEAL_DEVICE_TYPE_ACCELERATOR)
          return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                            fmt::format("deviceGet: type {} is not a zeal_device_type_t (ALL {} to ACCELERATOR {})", t,
                                        static_cast<int>(ZEAL_DEVICE_TYPE_ALL),
                                        static_cast<int>(ZEAL_DEVICE_TYPE_ACCELERATOR)));
        std::vector<Device *> matching;
        for (const auto &d : p.value()->devices())
          if (type_matches(*d, t)) matching.push_back(d.get());
        list_out<Device>(matching, count, devices);
        return {};
      });
}

zeal_result_t ZEAL_APICALL device_get_sub_devices(zeal_device_handle_t device, uint32_t *count,
                                                  zeal_device_handle_t *sub_devices) {
  return run_entry(
      "deviceGetSubDevices",
      [&] { return fmt::format("device={}, count={}", fmt::ptr(device), count ? *count : 0u); },
      [&]() -> Status {
        auto d = from_handle<Device>(device, "device");
        if (!d.ok()) return std::move(d).error();
        if (Status s = require(count != nullptr, "deviceGetSubDevices: count is null"); !s.ok()) return s;
        list_out<Device>(d.value()->sub_devices(), count, sub_devices);
        return {};
      });
}

zeal_result_t ZEAL_APICALL device_get_info(zeal_device_handle_t device, zeal_device_info_t key, size_t size,
                                           void *value, size_t *size_ret) {
  return get_info<Device>("deviceGetInfo", "device", device, key, size, value, size_ret,
                          [](const Device &d) { return "device '" + d.name() + "'"; });
}

zeal_result_t ZEAL_APICALL context_create(uint32_t num_devices, const zeal_device_handle_t *devices,
                                          zeal_context_handle_t *context) {
  return run_entry(
      "contextCreate", [&] { return fmt::format("num_devices={}, context={}", num_devices, fmt::ptr(context)); },
      [&]() -> Status {
        if (Status s = require(num_devices > 0 && devices != nullptr && context != nullptr,
                               "contextCreate needs at least one device and an output pointer");
            !s.ok())
          return s;
        std::vector<Device *> list;
        for (uint32_t i = 0; i < num_devices; ++i) {
          auto d = from_handle<Device>(devices[i], "device");
          if (!d.ok()) return std::move(d).error();
          if (!list.empty() && &d.value()->platform() != &list.front()->platform())
            return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                              "contextCreate: the devices belong to different platforms");
          list.push_back(d.value());
        }
        auto c = Context::create(std::move(list));
        if (!c.ok()) return std::move(c).error();
        *context = to_handle<Context, zeal_context_handle_t>(c.value());
        return {};
      });
}

} // namespace

void fill_platform_entries(zeal_adapter_dispatch_t &t) {
  t.getLastErrorMessage = get_last_error_message;
  t.adapterInit = adapter_init;
  t.adapterRelease = adapter_release;
  t.adapterGetBackendName = get_backend_name;
  t.platformGet = platform_get;
  t.platformGetInfo = platform_get_info;
  t.deviceGet = device_get;
  t.deviceGetInfo = device_get_info;
  t.deviceGetSubDevices = device_get_sub_devices;
  t.contextCreate = context_create;
  t.contextRetain = [](zeal_context_handle_t c) {
    return retain_or_release<Context>("contextRetain", "context", c, true);
  };
  t.contextRelease = [](zeal_context_handle_t c) {
    return retain_or_release<Context>("contextRelease", "context", c, false);
  };
}

} // namespace zeal::adapter
