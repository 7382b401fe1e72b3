// One kernel argument of urEnqueueKernelLaunchWithArgsExp, for the UR tests and the stress program.
#pragma once

#include <unified-runtime/ur_api.h>

#include <cstddef>
#include <cstdint>

namespace zeal::test {

// `value` is the pointer itself for UR_EXP_KERNEL_ARG_TYPE_POINTER, else where the value's bytes are.
inline ur_exp_kernel_arg_properties_t ur_kernel_arg(ur_exp_kernel_arg_type_t type, uint32_t index, size_t size,
                                                    const void *value) {
  ur_exp_kernel_arg_properties_t a{};
  a.stype = UR_STRUCTURE_TYPE_EXP_KERNEL_ARG_PROPERTIES;
  a.type = type;
  a.index = index;
  a.size = size;
  a.value.value = value;
  return a;
}

} // namespace zeal::test
