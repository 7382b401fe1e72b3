// PoCL's platform among the OpenCL ICD loader's: the benchmarks that set zeal beside PoCL run on it.
#pragma once

#include <CL/cl.h>

#include <cstring>
#include <vector>

namespace bench {

// clGetPlatformIDs's failure, or success with `pocl` set to PoCL's platform (null when PoCL is not installed).
inline cl_int find_pocl_platform(cl_platform_id &pocl) {
  pocl = nullptr;
  cl_uint count = 0;
  if (cl_int r = clGetPlatformIDs(0, nullptr, &count); r != CL_SUCCESS) return r;
  std::vector<cl_platform_id> platforms(count);
  if (cl_int r = clGetPlatformIDs(count, platforms.data(), nullptr); r != CL_SUCCESS) return r;
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::strstr(name, "Portable Computing Language") != nullptr) {
      pocl = p;
      break;
    }
  }
  return CL_SUCCESS;
}

} // namespace bench
