// ONEAPI_DEVICE_SELECTOR: its grammar, parsed into terms, and the test of one device against them.
#pragma once

#include "common/result.hpp"

#include <zeal/zeal_adapter.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::detail {

// One filter of a term: `*`, a device type, a device index, or a sub-device form.
struct DeviceFilter {
  enum class Kind { any, type, index };
  Kind kind = Kind::any;
  zeal_device_type_t type = ZEAL_DEVICE_TYPE_ALL; // for Kind::type
  uint32_t index = 0;                              // for Kind::index
  // Sub-device forms (`N.M`, `N.*`, `*.*`) select sub-devices, never the root device.
  bool sub_device = false;
  std::optional<uint32_t> sub_index;               // nullopt: `*`
};

struct SelectorTerm {
  bool discard = false;        // `!backend:filters`
  std::string backend;         // canonical name ("level_zero", "opencl", ...) or "*"
  std::vector<DeviceFilter> filters;
};

class DeviceSelector {
public:
  DeviceSelector() = default; // accepts every device
  explicit DeviceSelector(std::vector<SelectorTerm> terms) : terms_(std::move(terms)) {}

  // Whether the root device `index` (its position among its backend's devices) is visible.
  bool accepts(std::string_view backend, uint32_t index, zeal_device_type_t type) const;
  // Whether sub-device `sub` of root device `index` is visible: only a term's N.M, N.* or *.* shows one.
  bool accepts_sub_device(std::string_view backend, uint32_t index, uint32_t sub) const;
  // Whether any device of this backend could be visible: if not, its adapter need not load.
  bool may_accept_backend(std::string_view backend) const;

  const std::vector<SelectorTerm> &terms() const { return terms_; }

private:
  std::vector<SelectorTerm> terms_;
};

// The canonical names of the backends the grammar knows ("*" excluded).
const std::vector<std::string_view> &known_backends();

// Parses a selector. A malformed one gives ZEAL_RESULT_ERROR_INVALID_ARGUMENT and
// a sentence naming the term and what is wrong with it.
Result<DeviceSelector> parse_device_selector(std::string_view text);

} // namespace zeal::detail
