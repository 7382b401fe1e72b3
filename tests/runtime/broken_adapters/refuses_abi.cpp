// An adapter that refuses every ABI version it is asked for.
#include <zeal/zeal_adapter.h>

extern "C" ZEAL_EXPORT zeal_result_t zealGetAdapterDispatch(uint32_t, zeal_adapter_dispatch_t *) {
  return ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE;
}
