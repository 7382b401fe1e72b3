// An adapter that speaks zeal ABI major version 99: it fills its table for that version only.
#include <zeal/zeal_adapter.h>

extern "C" ZEAL_EXPORT zeal_result_t zealGetAdapterDispatch(uint32_t, zeal_adapter_dispatch_t *out) {
  *out = zeal_adapter_dispatch_t{};
  out->abi_version = ZEAL_MAKE_VERSION(99, 0);
  out->size = sizeof(zeal_adapter_dispatch_t);
  return ZEAL_RESULT_SUCCESS;
}
