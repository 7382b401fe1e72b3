// Info queries answered from tables: key -> name and how to answer; one writer for the C ABI's size protocol.
#pragma once

#include "common/result.hpp"

#include <fmt/format.h>

#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace zeal::adapter {

// The bytes of one info answer, laid out as the C ABI documents for its key.
struct InfoValue {
  std::vector<uint8_t> bytes;
};

template <class T>
InfoValue info_of(const T &value) {
  static_assert(std::is_trivially_copyable_v<T>);
  InfoValue v;
  v.bytes.resize(sizeof(T));
  std::memcpy(v.bytes.data(), &value, sizeof(T));
  return v;
}

template <class T>
InfoValue info_array(std::span<const T> values) {
  InfoValue v;
  v.bytes.resize(values.size_bytes());
  if (!values.empty()) std::memcpy(v.bytes.data(), values.data(), values.size_bytes());
  return v;
}

// A NUL-terminated string; the size includes the NUL.
inline InfoValue info_string(std::string_view text) {
  InfoValue v;
  v.bytes.assign(text.begin(), text.end());
  v.bytes.push_back(0);
  return v;
}

// Copies an answer out: size_ret gets the size; value, when given, must hold it.
Status write_info(const InfoValue &answer, size_t size, void *value, size_t *size_ret, std::string_view what);

// One row of an info table.
template <class Object, class Key>
struct InfoRow {
  Key key;
  const char *name;
  Result<InfoValue> (*answer)(const Object &);
};

// The number a caller passed for an enum over the C ABI. Any number may arrive,
// and reading one outside the enum's range as the enum is undefined behaviour
// (UBSan's -fsanitize=enum), so keys travel inward as plain integers.
template <class E>
int32_t abi_value(const E &e) noexcept {
  static_assert(sizeof(E) == sizeof(int32_t));
  int32_t v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// Looks the key up and answers it; an unknown key is INVALID_ENUMERATION.
template <class Object, class Key>
Result<InfoValue> answer_info(std::span<const InfoRow<Object, Key>> table, const Object &object, int32_t key,
                              std::string_view what) {
  for (const auto &row : table)
    if (static_cast<int32_t>(row.key) == key) return row.answer(object);
  return make_error(ZEAL_RESULT_ERROR_INVALID_ENUMERATION,
                    fmt::format("{} info key {} is not known to the adapter", what, key));
}

} // namespace zeal::adapter
