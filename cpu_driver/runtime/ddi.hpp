// The dispatch-table plumbing: which tables the runtime implements, and the one place that answers "unsupported".
#pragma once

#include "ze_driver/ddi.hpp"

namespace zeal::cpu {

using ze::check_table_request;
using ze::driver_api_version;
using ze::guarded;

// Every entry point the driver does not implement ends here (generate_ddi.cmake's fills).
inline ze_result_t unsupported(const char *entry_point) { return ze::unsupported("zeal CPU driver", entry_point); }

// Entries written by hand, one overload per table, each in the file of its object;
// they overwrite the generated "unsupported" entries.
void implement(ze_global_dditable_t &table);
void implement(ze_driver_dditable_t &table);
void implement(ze_device_dditable_t &table);
void implement(ze_context_dditable_t &table);
void implement(ze_mem_dditable_t &table);
void implement(ze_command_queue_dditable_t &table);
void implement(ze_command_list_dditable_t &table);
void implement(ze_event_pool_dditable_t &table);
void implement(ze_event_dditable_t &table);
void implement(ze_event_exp_dditable_t &table);
void implement(ze_fence_dditable_t &table);
void implement(ze_module_dditable_t &table);
void implement(ze_module_build_log_dditable_t &table);
void implement(ze_kernel_dditable_t &table);
void implement(ze_image_dditable_t &table);
void implement(ze_image_exp_dditable_t &table);
void implement(ze_sampler_dditable_t &table);
void implement(ze_kernel_exp_dditable_t &table);
void implement(ze_virtual_mem_dditable_t &table);
void implement(ze_physical_mem_dditable_t &table);
// Tables with nothing implemented yet keep only their generated entries.
template <class Table>
void implement(Table &) {}

} // namespace zeal::cpu
