// zeal's error type for the C++ API: an errc and the adapter's sentence.
#pragma once

#include <zeal/zeal_adapter.h>

#include <exception>
#include <string>

namespace zeal {

enum class errc {
  success = 0,
  runtime,              // anything without a more precise code
  kernel,               // bad kernel arguments or an unknown kernel
  kernel_not_supported, // the device cannot honour a requirement of the kernel
  nd_range,             // work-group or global sizes that cannot be launched
  build,                // building or linking device code failed
  invalid,              // an invalid argument or handle, malformed input
  memory_allocation,    // out of host or device memory
  platform,             // no adapter, or no device
  feature_not_supported,
};

const char *errc_name(errc code);

// The errc a C ABI result maps to.
errc to_errc(zeal_result_t result);

class exception : public std::exception {
public:
  exception(errc code, std::string message, zeal_result_t result = ZEAL_RESULT_ERROR_UNKNOWN)
      : code_(code), message_(std::move(message)), result_(result) {}
  errc code() const noexcept { return code_; }
  zeal_result_t result() const noexcept { return result_; }
  const char *what() const noexcept override { return message_.c_str(); }

private:
  errc code_;
  std::string message_;
  zeal_result_t result_;
};

} // namespace zeal
