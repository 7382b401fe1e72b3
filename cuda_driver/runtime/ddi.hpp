// The CUDA driver's dispatch tables: which tables it implements (each in the file of its object); the rest answer
// "unsupported" from ze_driver/generate_ddi.cmake's code.
#pragma once

#include "ze_driver/ddi.hpp"
#include "ze_driver/handles.hpp"

namespace zeal::cuda {

using ze::check_table_request;
using ze::copy_keeping_header;
using ze::copy_string_out;
using ze::destroy;
using ze::find_in_chain;
using ze::guarded;
using ze::list_out;

inline ze_result_t unsupported(const char *entry_point) { return ze::unsupported("zeal CUDA driver", entry_point); }

void implement(ze_global_dditable_t &table);
void implement(ze_driver_dditable_t &table);
void implement(ze_device_dditable_t &table);
void implement(ze_context_dditable_t &table);
void implement(ze_mem_dditable_t &table);
void implement(ze_command_queue_dditable_t &table);
void implement(ze_command_list_dditable_t &table);
void implement(ze_event_pool_dditable_t &table);
void implement(ze_event_dditable_t &table);
void implement(ze_fence_dditable_t &table);
void implement(ze_module_dditable_t &table);
void implement(ze_module_build_log_dditable_t &table);
void implement(ze_kernel_dditable_t &table);
void implement(ze_kernel_exp_dditable_t &table);
void implement(ze_virtual_mem_dditable_t &table);
void implement(ze_physical_mem_dditable_t &table);
void implement(ze_image_dditable_t &table);
void implement(ze_image_exp_dditable_t &table);
void implement(ze_sampler_dditable_t &table);
template <class Table>
void implement(Table &) {}

} // namespace zeal::cuda
