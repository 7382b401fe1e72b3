// The one result type of zeal: a value, or an error carrying code, message, place and native code.
#pragma once

#include "common/basic_result.hpp"

#include <zeal/zeal_adapter.h>

namespace zeal {

using Error = BasicError<zeal_result_t, ZEAL_RESULT_ERROR_UNKNOWN>;
template <> std::string Error::describe() const;

Error make_error(zeal_result_t code, std::string message,
                 std::source_location where = std::source_location::current());

// A value, or an Error in zeal's codes unless another is named.
template <class T, class E = Error>
class Result;

using Status = Result<void>;

} // namespace zeal
