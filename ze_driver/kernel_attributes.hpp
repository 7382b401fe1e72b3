// What both zeal drivers answer alike for kernels: zeKernelGetSourceAttributes's text and its char** readings, the
// indirect-access flags, and which argument sizes zeKernelSetArgumentValue takes.
#pragma once

#include "ze_driver/handles.hpp"

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zeal::ze {

// "reqd_work_group_size(8,1,1) work_group_size_hint(...) vec_type_hint(float4) intel_reqd_sub_group_size(16)",
// each only when the kernel has it (zeros: none); empty for a kernel without attributes.
std::string source_attributes(const uint32_t required_group_size[3], const uint32_t group_size_hint[3],
                              std::string_view vec_type_hint, uint32_t required_subgroup_size);

// The two calls of Intel's driver and of the later spec text, which read the 1.4 char** as "a pointer to the caller's
// buffer": a null `string` asks for the size (with the terminator), then `*string` of `*size` bytes receives the
// text, cut to fit and terminated. Loader 1.8's validation layer refuses a null `string` (the 1.4 text marks it
// required), so a zero `*size` asks for the size as well. A null `*string` receives `text` itself, which must live as
// long as the kernel (the 1.4 text's reading).
ze_result_t copy_source_attributes(const std::string &text, uint32_t *size, char **string);

// zeKernelSetIndirectAccess and zeKernelGetIndirectAccess over a driver's Kernel, which keeps the flags
// (set_indirect_access, indirect_access); flags Level Zero does not define are refused.
template <class Kernel>
ze_result_t set_indirect_access(HandleOf<Kernel> handle, ze_kernel_indirect_access_flags_t flags) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  constexpr ze_kernel_indirect_access_flags_t known = ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                                                      ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                                                      ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED;
  if ((flags & ~known) != 0) return ZE_RESULT_ERROR_INVALID_ENUMERATION;
  Kernel::from(handle)->set_indirect_access(flags);
  return ZE_RESULT_SUCCESS;
}

template <class Kernel>
ze_result_t get_indirect_access(HandleOf<Kernel> handle, ze_kernel_indirect_access_flags_t *flags) {
  if (handle == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
  if (flags == nullptr) return ZE_RESULT_ERROR_INVALID_NULL_POINTER;
  *flags = Kernel::from(handle)->indirect_access();
  return ZE_RESULT_SUCCESS;
}

// Whether zeKernelSetArgumentValue's `size` is taken for a parameter of `expected` bytes: the same size, or, for a
// value (not a pointer), fewer bytes, zero-extended, as Intel's driver copies what it is given (level-zero-tests pass
// an int for a size_t). A longer value, or a pointer of another size, is refused.
inline bool argument_size_accepted(bool by_value, size_t size, size_t expected) {
  return size == expected || (by_value && size > 0 && size < expected);
}

} // namespace zeal::ze
