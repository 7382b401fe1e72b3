// CUDA results as Level Zero results: the one checked-call helper of the CUDA driver's runtime. A failure is logged
// with the call's name and CUDA's words, and answered with the Level Zero code that means the same.
#pragma once

#include "cuda_driver/cuda_api.hpp"

#include <level_zero/ze_api.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace zeal::cuda {

// The Level Zero code for a CUDA result: out of memory, a lost device (a kernel that faulted: CUDA's context is
// unusable from then on), an invalid PTX image, or ZE_RESULT_ERROR_UNKNOWN for what has no better match.
ze_result_t to_ze_result(CUresult result);

// ZE_RESULT_SUCCESS, or the failure of `call` logged ("cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY (2): out of
// memory") and translated.
ze_result_t checked(CUresult result, const char *call);

// The driver's host waits (events, fences, streams): `probe(attempt)` until it answers anything but
// ZE_RESULT_NOT_READY, or until `timeout` ns have passed (UINT64_MAX: no limit), then ZE_RESULT_NOT_READY. The first
// thousand probes spin (a kernel's end is often microseconds away); later ones give the core back for 20 us.
template <class Probe>
ze_result_t poll_until(uint64_t timeout, Probe probe) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  for (unsigned attempt = 0;; ++attempt) {
    if (ze_result_t r = probe(attempt); r != ZE_RESULT_NOT_READY) return r;
    if (timeout != UINT64_MAX && uint64_t(std::chrono::nanoseconds(clock::now() - start).count()) >= timeout)
      return ZE_RESULT_NOT_READY;
    if (attempt > 1000) std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

} // namespace zeal::cuda
