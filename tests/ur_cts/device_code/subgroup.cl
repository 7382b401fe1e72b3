// Stand-in for UR's device_code/subgroup.cpp: parallel_for<class FixedSgSize> over an
// nd_range<1>(8, 2) of a functor holding a write accessor Acc to one size_t, with the property
// sub_group_size<8> (ExecutionMode SubgroupSize 8). The work-item whose global linear id is 0
// stores its sub-group's size (sub_group::get_local_linear_range(), SPIR-V's SubgroupSize).
// kernels: _ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11FixedSgSize
#include "sycl_device.h"

kernel void __attribute__((intel_reqd_sub_group_size(8)))
_ZTSZZ4mainENKUlRN4sycl3_V17handlerEE_clES2_E11FixedSgSize(global ulong *Acc, struct sycl_id1 Acc_offset) {
  if (sycl_global_linear_id(1) == 0) {
    Acc[Acc_offset.offset[0] + 0] = get_sub_group_size();
  }
}
