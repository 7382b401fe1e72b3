// The C ABI's info size protocol.
#include "adapter/core/info.hpp"

namespace zeal::adapter {

Status write_info(const InfoValue &answer, size_t size, void *value, size_t *size_ret, std::string_view what) {
  if (value == nullptr && size_ret == nullptr)
    return make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT,
                      fmt::format("querying {}: both value and size_ret are null", what));
  if (value != nullptr) {
    if (size < answer.bytes.size())
      return make_error(ZEAL_RESULT_ERROR_INVALID_SIZE,
                        fmt::format("querying {}: the answer needs {} bytes but size is {}", what,
                                    answer.bytes.size(), size));
    if (!answer.bytes.empty()) std::memcpy(value, answer.bytes.data(), answer.bytes.size()); // an empty array
  }
  if (size_ret != nullptr) *size_ret = answer.bytes.size();
  return {};
}

} // namespace zeal::adapter
