// CUDA results as Level Zero results (cuda_call.hpp).
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/driver.hpp"

#include "common/log.hpp"

namespace zeal::cuda {

ze_result_t to_ze_result(CUresult result) {
  switch (result) {
  case CUDA_SUCCESS: return ZE_RESULT_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY: return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  case CUDA_ERROR_NOT_READY: return ZE_RESULT_NOT_READY;
  case CUDA_ERROR_INVALID_PTX: return ZE_RESULT_ERROR_INVALID_NATIVE_BINARY;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES: return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  case CUDA_ERROR_INVALID_VALUE: return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  default:
    // 700..719: the kernel faulted (illegal address, trap, misaligned access, launch failure); the CUDA context is
    // unusable from then on, which Level Zero calls a lost device.
    if (result >= CUDA_ERROR_ILLEGAL_ADDRESS && result <= CUDA_ERROR_LAUNCH_FAILED) return ZE_RESULT_ERROR_DEVICE_LOST;
    return ZE_RESULT_ERROR_UNKNOWN;
  }
}

ze_result_t checked(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS) return ZE_RESULT_SUCCESS;
  Driver *driver = Driver::instance();
  std::string words = driver != nullptr && !driver->devices().empty() ? driver->devices()[0]->cuda().describe(result)
                                                                      : std::to_string(result);
  zeal::logger("zeal-cuda").error("{} failed: {}", call, words);
  return to_ze_result(result);
}

} // namespace zeal::cuda
