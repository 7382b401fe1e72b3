// zealGetAdapterDispatch, the adapter's one exported symbol.
#include "adapter/zeal/entry_points.hpp"

extern "C" ZEAL_EXPORT zeal_result_t ZEAL_APICALL zealGetAdapterDispatch(uint32_t abi_version,
                                                                         zeal_adapter_dispatch_t *dispatch) {
  using namespace zeal::adapter;
  if (dispatch == nullptr) return ZEAL_RESULT_ERROR_INVALID_ARGUMENT;
  // A minor version only appends entries, so any minor of our major is served
  // with the table we have; another major is a different ABI.
  if (ZEAL_VERSION_MAJOR(abi_version) != ZEAL_VERSION_MAJOR(ZEAL_ADAPTER_ABI_VERSION))
    return ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE;
  zeal_adapter_dispatch_t table{};
  table.abi_version = ZEAL_ADAPTER_ABI_VERSION;
  table.size = sizeof(zeal_adapter_dispatch_t);
  fill_platform_entries(table);
  fill_queue_entries(table);
  fill_program_entries(table);
  fill_kernel_entries(table);
  fill_image_entries(table);
  *dispatch = table;
  return ZEAL_RESULT_SUCCESS;
}
