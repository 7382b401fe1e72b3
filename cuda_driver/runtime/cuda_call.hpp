// CUDA results as Level Zero results: the one checked-call helper of the CUDA driver's runtime. A failure is logged
// with the call's name and CUDA's words, and answered with the Level Zero code that means the same.
#pragma once

#include "cuda_driver/cuda_api.hpp"

#include <level_zero/ze_api.h>

namespace zeal::cuda {

// The Level Zero code for a CUDA result: out of memory, a lost device (a kernel that faulted: CUDA's context is
// unusable from then on), an invalid PTX image, or ZE_RESULT_ERROR_UNKNOWN for what has no better match.
ze_result_t to_ze_result(CUresult result);

// ZE_RESULT_SUCCESS, or the failure of `call` logged ("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2): out of
// memory") and translated.
ze_result_t checked(CUresult result, const char *call);

} // namespace zeal::cuda
