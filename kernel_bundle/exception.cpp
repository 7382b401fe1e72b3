// errc names and the mapping from adapter results to errc.
#include <zeal/exception.hpp>

namespace zeal {

const char *errc_name(errc code) {
  switch (code) {
  case errc::success: return "success";
  case errc::runtime: return "runtime";
  case errc::kernel: return "kernel";
  case errc::kernel_not_supported: return "kernel_not_supported";
  case errc::nd_range: return "nd_range";
  case errc::build: return "build";
  case errc::invalid: return "invalid";
  case errc::memory_allocation: return "memory_allocation";
  case errc::platform: return "platform";
  case errc::feature_not_supported: return "feature_not_supported";
  }
  return "unknown";
}

errc to_errc(zeal_result_t result) {
  switch (result) {
  case ZEAL_RESULT_SUCCESS:
  case ZEAL_RESULT_NOT_READY: return errc::success;
  case ZEAL_RESULT_ERROR_INVALID_KERNEL_NAME:
  case ZEAL_RESULT_ERROR_INVALID_KERNEL_ARGUMENT: return errc::kernel;
  case ZEAL_RESULT_ERROR_KERNEL_NOT_SUPPORTED: return errc::kernel_not_supported;
  case ZEAL_RESULT_ERROR_INVALID_WORK_GROUP_SIZE:
  case ZEAL_RESULT_ERROR_INVALID_ND_RANGE: return errc::nd_range;
  case ZEAL_RESULT_ERROR_BUILD_FAILURE:
  case ZEAL_RESULT_ERROR_LINK_FAILURE: return errc::build;
  case ZEAL_RESULT_ERROR_INVALID_ARGUMENT:
  case ZEAL_RESULT_ERROR_INVALID_HANDLE:
  case ZEAL_RESULT_ERROR_INVALID_ENUMERATION:
  case ZEAL_RESULT_ERROR_INVALID_SIZE:
  case ZEAL_RESULT_ERROR_INVALID_IMAGE_SIZE:
  case ZEAL_RESULT_ERROR_INVALID_BINARY:
  case ZEAL_RESULT_ERROR_INVALID_PROGRAM_STATE:
  case ZEAL_RESULT_ERROR_INVALID_FUNCTION_NAME: return errc::invalid;
  case ZEAL_RESULT_ERROR_OUT_OF_HOST_MEMORY:
  case ZEAL_RESULT_ERROR_OUT_OF_DEVICE_MEMORY: return errc::memory_allocation;
  case ZEAL_RESULT_ERROR_UNSUPPORTED_FEATURE:
  case ZEAL_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT: return errc::feature_not_supported;
  case ZEAL_RESULT_ERROR_UNINITIALIZED: return errc::platform;
  default: return errc::runtime;
  }
}

} // namespace zeal
