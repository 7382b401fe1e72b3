// The UR face's dispatch tables: the generated "unsupported" fill, the entry points written by hand, the getters.
#pragma once

#include <unified-runtime/ur_ddi.h>

// Only the 26 table getters leave the plugin (exports.map); everything else is hidden.
#define ZEAL_UR_EXPORT extern "C" __attribute__((visibility("default")))

namespace zeal::adapter::ur {

// Every entry point the face does not implement ends here: UNSUPPORTED_FEATURE, which libsycl and UR's
// conformance tests read as "absent" (a null slot would answer UNINITIALIZED instead).
ur_result_t unsupported(const char *entry_point) noexcept;

// Entries written by hand, one overload per table, each in the file of its objects; they overwrite the
// generated "unsupported" entries (ur_ddi_generated.cpp).
void implement(ur_adapter_dditable_t &table);
void implement(ur_platform_dditable_t &table);
void implement(ur_device_dditable_t &table);
void implement(ur_context_dditable_t &table);
void implement(ur_queue_dditable_t &table);
void implement(ur_enqueue_dditable_t &table);
void implement_buffer_commands(ur_enqueue_dditable_t &table); // memory.cpp, called by the above
void implement_image_commands(ur_enqueue_dditable_t &table);  // image.cpp, likewise
void implement(ur_mem_dditable_t &table);
void implement_images(ur_mem_dditable_t &table); // image.cpp, called by the above
void implement(ur_sampler_dditable_t &table);
void implement(ur_event_dditable_t &table);
void implement(ur_event_exp_dditable_t &table); // event.cpp: urEventCreateExp (signalable events)
void implement(ur_ipc_exp_dditable_t &table);   // event.cpp: IPC events
void implement(ur_usm_dditable_t &table);
void implement(ur_usm_exp_dditable_t &table); // usm.cpp: urUSMContextMemcpyExp
void implement(ur_enqueue_exp_dditable_t &table);
void implement_queue_exp(ur_enqueue_exp_dditable_t &table);       // queue.cpp (host tasks, timestamps, native commands)
void implement_command_buffers(ur_enqueue_exp_dditable_t &table); // command_buffer.cpp, likewise
void implement(ur_command_buffer_exp_dditable_t &table);
void implement(ur_queue_exp_dditable_t &table);               // graph.cpp: graph capture
void implement(ur_graph_exp_dditable_t &table);               // graph.cpp
void implement_graphs(ur_enqueue_exp_dditable_t &table);      // graph.cpp: urEnqueueGraphExp
void implement(ur_virtual_mem_dditable_t &table);
void implement(ur_physical_mem_dditable_t &table);
void implement(ur_usm_p2p_exp_dditable_t &table); // device.cpp
void implement(ur_program_dditable_t &table);
void implement(ur_program_exp_dditable_t &table);
void implement(ur_kernel_dditable_t &table);
// Tables with nothing implemented yet keep only their generated entries.
template <class Table>
void implement(Table &) {}

// Generated: each table filled with "unsupported", then implement() over it, then (traced) every slot wrapped
// by trace_slot, for all 26 tables.
void fill_all(ur_dditable_t &table, bool traced);

// The face's whole table, filled once when the plugin loads; every UR handle starts with its address.
const ur_dditable_t &dispatch_table();

ur_result_t check_table_request(const char *getter, ur_api_version_t version, const void *table) noexcept;

// A urGet*ProcAddrTable getter: refuses any version but the SDK's (the ABI changes without version
// bumps, so only the headers the face was built with are known to match), then copies one table.
template <class Table>
ur_result_t copy_table(const char *getter, ur_api_version_t version, Table *out, Table ur_dditable_t::*member) {
  ur_result_t checked = check_table_request(getter, version, out);
  if (checked == UR_RESULT_SUCCESS) *out = dispatch_table().*member;
  return checked;
}

} // namespace zeal::adapter::ur
