// Stand-in for UR's device_code/mean.cpp: parallel_for_work_group<class mean> over 16 groups of
// 4 work-items, capturing [=] (in order of first use) a local accessor local_mem of 4 uint32_t,
// a read accessor in_acc and a write accessor out_acc (uint32_t). Each work-item copies its
// group's input element into local memory; after the group barrier the group stores the mean
// of the 4 elements at its group id. DPC++ lowers the work-group scope code (the sum, the
// division, the store) to run once per group, on its first work-item; this stand-in does the
// same. No UR test uses this program.
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E4mean
#include "sycl_device.h"

kernel void _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E4mean(local uint *local_mem, global const uint *in_acc,
                      struct sycl_id1 in_acc_offset, global uint *out_acc,
                      struct sycl_id1 out_acc_offset) {
  const int wg_size = 4;
  size_t group_id = get_group_id(0);

  // group::parallel_for_work_item: every work-item of the group.
  size_t local_id = sycl_local_id(1, 0);
  size_t in_index = (group_id * wg_size) + local_id;
  local_mem[local_id] = in_acc[in_acc_offset.offset[0] + in_index];

  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE); // sycl::group_barrier(group)

  // Work-group scope: once per group.
  if (sycl_local_linear_id(1) == 0) {
    uint total = 0;
    for (int i = 0; i < wg_size; i++) {
      total += local_mem[i];
    }
    total /= wg_size;
    out_acc[out_acc_offset.offset[0] + group_id] = total;
  }
}
