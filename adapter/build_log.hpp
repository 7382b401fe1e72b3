// Reading driver build logs: the line that says why a build failed, and the kernel a log blames for a sub-group size.
#pragma once

#include "adapter/metadata.hpp"

#include <span>
#include <string>
#include <string_view>

namespace zeal::adapter {

// The first non-blank line of `log` past the adapter's own "zeal: kernel ... left
// out" notes: what the driver said first. Empty when the driver said nothing.
std::string driver_reason(std::string_view log);

// Of `candidates`, the first kernel that requires a sub-group size, is not in
// `skip`, and is blamed by `driver_log`: the log speaks of sub-groups (any of
// "sub-group", "subgroup", "sub_group", "sub group", in any case) and names the
// kernel in single or double quotes. Null when the log blames none of them.
// `driver_log` is the driver's text only: the adapter's notes name refused kernels too.
const KernelRequirements *kernel_blamed_for_sub_group_size(std::string_view driver_log,
                                                           std::span<const KernelRequirements> candidates,
                                                           std::span<const std::string> skip);

} // namespace zeal::adapter
