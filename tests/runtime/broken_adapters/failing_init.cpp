// An adapter whose initialisation fails, with a message saying why.
#include <zeal/zeal_adapter.h>

namespace {
const char *last_error() { return "the test adapter has no devices to offer"; }
zeal_result_t init(zeal_adapter_handle_t *) { return ZEAL_RESULT_ERROR_UNINITIALIZED; }
} // namespace

extern "C" ZEAL_EXPORT zeal_result_t zealGetAdapterDispatch(uint32_t version, zeal_adapter_dispatch_t *out) {
  if (ZEAL_VERSION_MAJOR(version) != ZEAL_VERSION_MAJOR(ZEAL_ADAPTER_ABI_VERSION))
    return ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE;
  *out = zeal_adapter_dispatch_t{};
  out->abi_version = ZEAL_ADAPTER_ABI_VERSION;
  out->size = sizeof(zeal_adapter_dispatch_t);
  out->getLastErrorMessage = last_error;
  out->adapterInit = init;
  return ZEAL_RESULT_SUCCESS;
}
