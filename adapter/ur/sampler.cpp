// UR entry points of samplers: create (also from a native handle), retain, release, info, native handles, and
// samplers as kernel arguments, over the Sampler object.
#include "adapter/core/sampler.hpp"
#include "adapter/ur/commands.hpp"

namespace zeal::adapter::ur {
namespace {

// UR's addressing modes are zeal's, one lower; so are its filter modes.
constexpr int32_t kAddressingOffset =
    int32_t{ZEAL_SAMPLER_ADDRESSING_MODE_NONE} - int32_t{UR_SAMPLER_ADDRESSING_MODE_NONE};
constexpr int32_t kFilterOffset = int32_t{ZEAL_SAMPLER_FILTER_MODE_NEAREST} - int32_t{UR_SAMPLER_FILTER_MODE_NEAREST};

ur_result_t sampler_create(ur_context_handle_t context_handle, const ur_sampler_desc_t *desc,
                           ur_sampler_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (desc == nullptr || out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER,
                  fmt::format("urSamplerCreate: {} is null", desc == nullptr ? "pDesc" : "phSampler"));
    const int32_t addressing = abi_value(desc->addressingMode), filter = abi_value(desc->filterMode);
    if (addressing < 0 || addressing > UR_SAMPLER_ADDRESSING_MODE_MIRRORED_REPEAT || filter < 0 ||
        filter > UR_SAMPLER_FILTER_MODE_LINEAR)
      return fail(UR_RESULT_ERROR_INVALID_ENUMERATION,
                  fmt::format("urSamplerCreate: addressing mode {} or filter mode {} is not UR's", addressing, filter));
    const zeal_sampler_desc_t zeal_desc{desc->normalizedCoords ? 1u : 0u,
                                        static_cast<zeal_sampler_addressing_mode_t>(addressing + kAddressingOffset),
                                        static_cast<zeal_sampler_filter_mode_t>(filter + kFilterOffset)};
    auto sampler = Sampler::create(*context, zeal_desc);
    if (!sampler.ok()) return std::move(sampler).error();
    *out = to_ur<ur_sampler_handle_t>(sampler.value());
    return {};
  });
}

// A native handle is a Level Zero sampler zeal made (Level Zero cannot describe any other).
ur_result_t sampler_from_native(ur_native_handle_t native, ur_context_handle_t context_handle,
                                const ur_sampler_native_properties_t *properties, ur_sampler_handle_t *out) {
  return run([&]() -> Outcome {
    Context *context = nullptr;
    if (Outcome o = check_handle(context_handle, context); !o.ok()) return o;
    if (out == nullptr)
      return fail(UR_RESULT_ERROR_INVALID_NULL_POINTER, "urSamplerCreateWithNativeHandle: phSampler is null");
    const bool owned = properties != nullptr && properties->isNativeHandleOwned;
    auto sampler = Sampler::adopt(*context, reinterpret_cast<ze_sampler_handle_t>(native), owned);
    if (!sampler.ok()) return std::move(sampler).error();
    *out = to_ur<ur_sampler_handle_t>(sampler.value());
    return {};
  });
}

using R = Result<InfoValue>;
const UrInfoRow<Sampler, ur_sampler_info_t> kSamplerInfo[] = {
    {UR_SAMPLER_INFO_REFERENCE_COUNT, "REFERENCE_COUNT",
     [](const Sampler &s) -> R { return info_of<uint32_t>(s.ref_count()); }},
    {UR_SAMPLER_INFO_CONTEXT, "CONTEXT",
     [](const Sampler &s) -> R { return info_of(to_ur<ur_context_handle_t>(&s.context())); }},
    {UR_SAMPLER_INFO_NORMALIZED_COORDS, "NORMALIZED_COORDS",
     [](const Sampler &s) -> R { return info_of<ur_bool_t>(s.desc().normalized_coords != 0); }},
    {UR_SAMPLER_INFO_ADDRESSING_MODE, "ADDRESSING_MODE",
     [](const Sampler &s) -> R {
       return info_of(static_cast<ur_sampler_addressing_mode_t>(s.desc().addressing_mode - kAddressingOffset));
     }},
    {UR_SAMPLER_INFO_FILTER_MODE, "FILTER_MODE",
     [](const Sampler &s) -> R {
       return info_of(static_cast<ur_sampler_filter_mode_t>(s.desc().filter_mode - kFilterOffset));
     }},
};

} // namespace

Outcome sampler_arg(ur_sampler_handle_t handle, uint32_t index, zeal_kernel_arg_t &out, const char *entry) {
  auto sampler = from_ur<Sampler>(handle, "sampler");
  if (!sampler.ok())
    return fail(handle == nullptr ? UR_RESULT_ERROR_INVALID_NULL_HANDLE : UR_RESULT_ERROR_INVALID_SAMPLER,
                fmt::format("{}: argument {}: {}", entry, index, std::move(sampler).error().message));
  out = zeal_kernel_arg_t{index, ZEAL_KERNEL_ARG_SAMPLER, sizeof(void *), to_handle<Sampler, void *>(sampler.value())};
  return {};
}

void implement(ur_sampler_dditable_t &t) {
  t.pfnCreate = sampler_create;
  implement_object<Sampler, kSamplerInfo, UR_SAMPLER_INFO_FILTER_MODE>(t);
  t.pfnGetNativeHandle = native_entry<Sampler, "urSamplerGetNativeHandle">;
  t.pfnCreateWithNativeHandle = sampler_from_native;
}

} // namespace zeal::adapter::ur
